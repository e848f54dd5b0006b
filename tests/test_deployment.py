"""The deployment files say what docs/deployment.md says: compose waits for the database and
migrates first (one bot, or one process per shard), the systemd units are valid, and every setting is in `.env.example` and the docs.
(The Dockerfile's steps are run by .ci/dockerfile_smoke.py; it is linted by hadolint in CI.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def test_compose_runs_the_bot_after_a_healthy_database_and_the_migrations() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "migrate", "bot", "shard-0", "shard-1"}
    assert services["db"]["healthcheck"]["test"][-1].startswith("pg_isready")
    assert services["migrate"]["command"] == ["python", "-m", "storage", "migrate"]
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    for name in ("bot", "shard-0", "shard-1"):
        bot = services[name]
        assert bot["depends_on"] == {
            "db": {"condition": "service_healthy"},
            "migrate": {"condition": "service_completed_successfully"},
        }, name
        assert bot["environment"]["AUTO_MIGRATE"] == "false"
        assert bot["environment"]["DATABASE_URL"] == services["migrate"]["environment"]["DATABASE_URL"]
    for name, service in services.items():
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in compose["volumes"], f"{name}: {volume} is not a named volume"


def test_the_shards_profile_runs_each_shard_once() -> None:
    """`shards`: one process per shard id of the same SHARD_COUNT, none in the default set."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    shards = {name: s for name, s in services.items() if "shards" in s.get("profiles", [])}
    assert "bot" not in shards and len(shards) >= 2
    counts = {int(s["environment"]["SHARD_COUNT"]) for s in shards.values()}
    ids = sorted(i for s in shards.values() for i in json.loads(s["environment"]["SHARD_IDS"]))
    assert counts == {len(shards)} and ids == list(range(len(shards)))


def test_one_profile_runs_the_bot_and_never_beside_the_shards() -> None:
    """Every bot service is in a profile, `single` or `shards`, never both, and `.env.example`
    chooses `single`: a plain `docker compose up -d` starts one of them, not the two (the bot
    unsharded beside the shards would answer every server twice)."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    bots = {name: s for name, s in services.items() if name not in ("db", "migrate")}
    assert {name: s.get("profiles") for name, s in bots.items()} == {
        "bot": ["single"],
        **{name: ["shards"] for name in bots if name.startswith("shard-")},
    }
    assert not services["db"].get("profiles") and not services["migrate"].get("profiles")
    assert re.search(r"^COMPOSE_PROFILES=single$", (ROOT / ".env.example").read_text(), re.M)


def test_the_documented_scrape_targets_reach_the_health_port() -> None:
    """The image listens on every interface of the container, and compose publishes each bot's
    HEALTH_PORT on the host's 127.0.0.1, at the ports docs/deployment.md names."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    port = re.search(r"HEALTH_PORT=(\d+)", dockerfile).group(1)  # type: ignore[union-attr]
    assert re.search(r"HEALTH_HOST=0\.0\.0\.0\b", dockerfile)
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    published = {}
    for name, service in services.items():
        if name in ("db", "migrate"):
            continue
        [mapping] = service["ports"]
        host, host_port, container_port = mapping.split(":")
        assert (host, container_port) == ("127.0.0.1", port), name
        published[name] = host_port
    for profile in ("single", "shards"):
        ports = [p for name, p in published.items() if profile in services[name]["profiles"]]
        assert len(ports) == len(set(ports)), profile
    docs = (ROOT / "docs" / "deployment.md").read_text()
    assert f'targets: ["127.0.0.1:{published["bot"]}"]' in docs
    assert f"127.0.0.1:{published['shard-0']}` (shard 0) and `:{published['shard-1']}` (shard 1)" in docs


def test_the_documented_backups_create_their_folder() -> None:
    """A shell redirection into backups/ fails when the folder does not exist (the storage CLI
    creates it itself)."""
    docs = (ROOT / "docs" / "deployment.md").read_text()
    redirected = [line for line in docs.splitlines() if "> backups/" in line]
    assert redirected and all("mkdir -p backups &&" in line for line in redirected)


def _verify_units(tmp_path: Path, *names: str, instances: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` on these deploy/ units (and template instances), /opt/ttr moved to
    a folder that has a python."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    (tmp_path / ".venv" / "bin").mkdir(parents=True, exist_ok=True)
    (tmp_path / "data").mkdir(exist_ok=True)
    python = tmp_path / ".venv" / "bin" / "python"
    if not python.exists():
        python.symlink_to(sys.executable)
    for name in names:
        unit = (ROOT / "deploy" / name).read_text()
        (tmp_path / name).write_text(unit.replace("/opt/ttr", str(tmp_path)))
    return subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / n) for n in instances or names)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "SYSTEMD_UNIT_PATH": f"{tmp_path}:"},
    )


def test_the_systemd_unit_is_valid(tmp_path: Path) -> None:
    unit = (ROOT / "deploy" / "ttr-bot.service").read_text()
    assert "ExecStart=/opt/ttr/.venv/bin/python -m bot\n" in unit
    assert "ExecStartPre=/opt/ttr/.venv/bin/python -m storage migrate\n" in unit
    verify = _verify_units(tmp_path, "ttr-bot.service")
    assert verify.returncode == 0 and "ttr-bot.service" not in verify.stdout + verify.stderr, verify


def test_the_shard_template_units_are_valid(tmp_path: Path) -> None:
    """`ttr-bot@<shard>`: its shard from the instance name, no migration of its own (ttr-migrate
    runs it once, before every instance)."""
    template = (ROOT / "deploy" / "ttr-bot@.service").read_text()
    assert "Environment=SHARD_IDS=[%i]\n" in template and "Environment=AUTO_MIGRATE=false\n" in template
    assert "storage migrate" not in "".join(line for line in template.splitlines() if not line.startswith("#"))
    assert "Requires=ttr-migrate.service" in template
    assert (
        "ExecStart=/opt/ttr/.venv/bin/python -m storage migrate\n"
        in (ROOT / "deploy" / "ttr-migrate.service").read_text()
    )
    verify = _verify_units(
        tmp_path,
        "ttr-migrate.service",
        "ttr-bot@.service",
        instances=("ttr-migrate.service", "ttr-bot@0.service", "ttr-bot@1.service"),
    )
    problems = [line for line in (verify.stdout + verify.stderr).splitlines() if "ttr-" in line]
    assert verify.returncode == 0 and not problems, verify


def test_every_setting_is_in_env_example_and_documented() -> None:
    example = (ROOT / ".env.example").read_text()
    docs = (ROOT / "docs" / "bot.md").read_text() + (ROOT / "docs" / "deployment.md").read_text()
    for name in Settings.model_fields:
        assert f"{name.upper()}=" in example, f"{name.upper()} is missing from .env.example"
        assert re.search(rf"`{name.upper()}[`=]", docs), f"{name.upper()} is not documented"


def test_the_image_copies_every_package_the_project_installs() -> None:
    """A package left out of the Dockerfile's COPY lines installs nothing and fails at start-up."""
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "Dockerfile").read_text(), re.M))
    assert {p.rstrip("*") for p in packages} <= copied
