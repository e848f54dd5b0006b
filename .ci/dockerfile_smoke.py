"""Run the Dockerfile's own steps where no container can be built (CI has no Docker daemon).

    python .ci/dockerfile_smoke.py [Dockerfile]

Reads the Dockerfile, so the steps cannot drift from it: copies what its COPY lines copy into a
scratch folder, runs its `pip`/`python` RUN steps there in a fresh virtual environment (system
steps such as `useradd` are listed, not run), then starts its CMD with its ENV:
  1. with no token: the bot must say what to put in .env and exit 2;
  2. logged in to the fake Discord (tests/fakediscord, run by this script): the bot must log
     "ready as ...", its HEALTHCHECK command must pass, and SIGTERM must stop it with status 0.
It also checks what the image promises: a slim base, a non-root USER, the data VOLUME.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READY_TIMEOUT = 120.0


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    result: list[tuple[str, str]] = []
    pending = ""
    for raw in dockerfile.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        word, _, rest = line.partition(" ")
        result.append((word.upper(), rest.strip()))
    return result


def exec_form(arguments: str) -> list[str]:
    """CMD/HEALTHCHECK CMD in exec form (a JSON list) or shell form."""
    return json.loads(arguments) if arguments.startswith("[") else ["sh", "-c", arguments]


def env_pairs(arguments: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in shlex.split(arguments))


def check_promises(steps: list[tuple[str, str]]) -> None:
    bases = [args for word, args in steps if word == "FROM"]
    assert bases and bases[-1].split(":")[-1].endswith("slim"), f"the base image is not a slim one: {bases}"
    users = [args for word, args in steps if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0"), "the image must run as a non-root USER"
    assert any(word == "VOLUME" and "/app/data" in args for word, args in steps), "no VOLUME for /app/data"
    assert any(word == "HEALTHCHECK" for word, _ in steps), "no HEALTHCHECK"


def main() -> int:
    dockerfile = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Dockerfile"
    steps = instructions(dockerfile)
    check_promises(steps)
    scratch = Path(tempfile.mkdtemp(prefix="dockerfile-smoke-"))
    try:
        return run_steps(steps, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_steps(steps: list[tuple[str, str]], scratch: Path) -> int:
    venv = scratch / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "HOME": str(scratch), "LANG": "C.UTF-8"}
    image_root = scratch / "image"  # the image's / : WORKDIR /app is image/app
    workdir = image_root
    cmd: list[str] = []
    healthcheck: list[str] = []
    for word, args in steps:
        if word == "ENV":
            env.update(env_pairs(args))
        elif word == "WORKDIR":
            workdir = image_root / args.lstrip("/")
            workdir.mkdir(parents=True, exist_ok=True)
        elif word == "COPY":
            *sources, target = shlex.split(args)
            destination = workdir / target
            for source in sources:
                path = ROOT / source
                if path.is_dir():
                    shutil.copytree(path, destination, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
                else:
                    destination.mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, destination / path.name)
        elif word == "RUN":
            if args.split()[0] in ("pip", "python"):
                print(f"RUN {args}", flush=True)
                done = subprocess.run(["sh", "-c", args], cwd=workdir, env=env, capture_output=True, text=True)
                if done.returncode != 0:  # the output only when it failed: pip's is long
                    print(done.stdout, done.stderr, sep="\n", flush=True)
                    raise SystemExit(f"RUN {args} failed with status {done.returncode}")
            else:
                print(f"skipped (system step): RUN {args}", flush=True)
        elif word == "CMD":
            cmd = exec_form(args)
        elif word == "HEALTHCHECK":
            healthcheck = exec_form(args.split(" CMD ", 1)[1].strip())
    assert cmd and healthcheck, "the Dockerfile needs a CMD and a HEALTHCHECK"

    no_token = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=120)
    assert no_token.returncode == 2 and "DISCORD_TOKEN is not set" in no_token.stderr, no_token
    print(f"CMD {cmd} without a token: exit 2 with the instructions", flush=True)
    return start_against_fake(cmd, healthcheck, workdir, env, scratch)


def start_against_fake(
    cmd: list[str], healthcheck: list[str], workdir: Path, env: dict[str, str], scratch: Path
) -> int:
    """The CMD logged in to the fake Discord. The fake runs from the repository (with the test
    dependencies of this CI run); the bot runs from the image's install, with only the tests/
    folder beside it so that tests/bot/bot_process.py can point discord.py at the fake."""
    fake = subprocess.Popen(
        [sys.executable, "-c", FAKE_SERVER],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        base_url = fake.stdout.readline().strip()  # type: ignore[union-attr]
        assert base_url.startswith("http://127.0.0.1:"), base_url
        shutil.copytree(ROOT / "tests", scratch / "testsonly" / "tests", ignore=shutil.ignore_patterns("__pycache__"))
        assert cmd[-2:] == ["-m", "bot"], f"expected the CMD to run `python -m bot`, not {cmd}"
        bot_env = {
            **env,
            "DISCORD_TOKEN": "fake-bot-token",
            "FAKE_DISCORD_URL": base_url,
            "PYTHONPATH": str(scratch / "testsonly"),
        }
        bot = subprocess.Popen(
            [*cmd[:-1], "tests.bot.bot_process"], cwd=workdir, env=bot_env, stderr=subprocess.PIPE, text=True
        )
        try:
            deadline = time.monotonic() + READY_TIMEOUT
            said: list[str] = []
            while time.monotonic() < deadline:
                line = bot.stderr.readline()  # type: ignore[union-attr]
                assert line, "the bot stopped before it was ready:\n" + "".join(said[-40:])
                said.append(line)
                if line.startswith("{") and json.loads(line)["message"].startswith("ready as"):
                    print("ready:", json.loads(line)["message"], flush=True)
                    break
            else:
                raise AssertionError("the bot was not ready in time")
            health = subprocess.run(healthcheck, cwd=workdir, env=env, capture_output=True, text=True, timeout=30)
            assert health.returncode == 0, health
            print(f"HEALTHCHECK {healthcheck}: {health.stdout.strip()}", flush=True)
            bot.send_signal(signal.SIGTERM)
            assert bot.wait(30) == 0, "SIGTERM did not stop the bot cleanly"
            print("SIGTERM: stopped with status 0", flush=True)
        finally:
            if bot.poll() is None:
                bot.kill()
    finally:
        fake.kill()
    return 0


FAKE_SERVER = """
import asyncio
from tests.fakediscord.api import FakeDiscord

async def serve():
    fake = FakeDiscord().add_default_world()
    await fake.start()
    print(fake.base_url, flush=True)
    await asyncio.sleep(3600)

asyncio.run(serve())
"""

if __name__ == "__main__":
    sys.exit(main())
