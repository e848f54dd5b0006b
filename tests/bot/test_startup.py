"""Start-up that explains itself: the real `python -m bot` in a child process (pointed at the fake
Discord where it has to log in), from a copy of `.env.example` to a bot that says it is ready, and
each way a start can fail: one line that says what to do, a non-zero exit, no traceback, the
database untouched."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.client import RELEASE
from storage.migrate import head_revisions, revisions
from tests.bot.bot_process import ROOT, child_env

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()


def run_bot(cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` where it needs no Discord (it stops before logging in)."""
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=cwd, env=child_env(**settings), capture_output=True, text=True, timeout=60
    )


async def start_against(fake, cwd: Path, **settings: str) -> asyncio.subprocess.Process:  # type: ignore[no-untyped-def]
    """`python -m bot` (through tests/bot/bot_process.py) logging in to `fake`; the test's event loop
    keeps serving the fake while the child runs."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.bot_process",
        cwd=cwd,
        env=child_env(FAKE_DISCORD_URL=fake.base_url, **settings),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def finish(proc: asyncio.subprocess.Process, timeout: float = 60) -> tuple[int, str]:
    _, stderr = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, stderr.decode()


async def wait_for_log(proc: asyncio.subprocess.Process, starts: str, timeout: float = 30) -> tuple[dict, list[str]]:
    """Read the child's JSON log lines until one whose message starts with `starts`."""
    seen: list[str] = []
    async with asyncio.timeout(timeout):
        while True:
            line = (await proc.stderr.readline()).decode()  # type: ignore[union-attr]
            assert line, "the bot stopped:\n" + "".join(seen)
            seen.append(line)
            if line.startswith("{"):
                entry = json.loads(line)
                if entry["message"].startswith(starts):
                    return entry, seen


def one_line_without_traceback(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if not line.startswith("{")]  # JSON log lines aside
    assert len(lines) == 1, stderr
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def migrate(cwd: Path, url: str, revision: str = "heads") -> None:
    done = subprocess.run(
        [sys.executable, "-m", "storage", "--url", url, "migrate", "--revision", revision],
        cwd=cwd,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def applied(path: Path) -> list[tuple[str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version_num FROM alembic_version").fetchall()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


# ---------------------------------------------------------------------------- before logging in


def test_missing_token_says_what_to_do(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Copy .env.example" in result.stderr and "docs/bot.md#inviting-the-bot" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_token_with_an_env_file_says_edit_it(tmp_path: Path) -> None:
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert "Edit .env" in result.stderr and "Copy .env.example" not in result.stderr


def test_the_invite_section_the_message_names_exists() -> None:
    headings = [line for line in (ROOT / "docs" / "bot.md").read_text().splitlines() if line.startswith("#")]
    assert "### Inviting the bot" in headings


def test_a_mistyped_setting_is_named_without_a_traceback(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", FORCE_LANGUAGE="klingon")
    assert result.returncode == 2
    line = one_line_without_traceback(result.stderr)
    assert "FORCE_LANGUAGE" in line and "'ru'" in line


def test_an_unknown_log_level_is_named(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", LOG_LEVEL="loud")
    assert result.returncode == 2
    line = one_line_without_traceback(result.stderr)
    assert "LOG_LEVEL" in line and "'DEBUG'" in line
    assert not (tmp_path / "data").exists()


def test_log_level_and_format_are_read_in_any_case(tmp_path: Path) -> None:
    from bot.settings import Settings

    settings = Settings(log_level="debug", log_format="TEXT", _env_file=None)
    assert (settings.log_level, settings.log_format) == ("DEBUG", "text")


# ---------------------------------------------------------------------------- against the fake Discord


async def test_first_run_from_env_example_reports_ready_health_and_metrics(fake_discord, tmp_path: Path) -> None:
    """`cp .env.example .env`, paste the token, `python -m bot`: ready, with both endpoints answering."""
    env_file = (ROOT / ".env.example").read_text()
    assert "\nDISCORD_TOKEN=\n" in env_file and "\nDATABASE_URL=\n" in env_file  # as a newcomer copies it
    (tmp_path / ".env").write_text(env_file.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={fake_discord.token}\n"))
    port = free_port()
    proc = await start_against(fake_discord, tmp_path, HEALTH_PORT=str(port))
    try:
        ready, _ = await wait_for_log(proc, "ready as")
        assert re.fullmatch(
            rf"ready as {fake_discord.bot_user.name} in 1 servers, 0 games resumed, "
            r"commands synced globally \(\d+\)",
            ready["message"],
        ), ready
        assert (tmp_path / "data" / "ttr.sqlite3").exists()
        status, body = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/healthz")
        health = json.loads(body)
        assert status == 200 and health["status"] == "ok", health
        assert health["gateway"]["connected"] and health["database"]["reachable"]
        status, body = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/metrics")
        families = {f.name: f for f in text_string_to_metric_families(body)}
        assert status == 200
        assert families["ttr_gateway_connected"].samples[0].value == 1
        assert families["ttr_servers"].samples[0].value == 1
        for name in (
            "ttr_interactions",
            "ttr_interaction_seconds",
            "ttr_turn_messages",
            "ttr_errors",
            "ttr_moves",
            "ttr_timers_fired",
            "ttr_outbox_backlog",
            "ttr_outbox_oldest_seconds",
            "ttr_event_loop_lag_seconds",
            "ttr_gateway_latency_seconds",
        ):
            assert name in families, sorted(families)
        # An alert on errors has its series from the start, at 0.
        assert [(s.name, s.value) for s in families["ttr_errors"].samples if s.name == "ttr_errors_total"] == [
            ("ttr_errors_total", 0)
        ]
        assert families["ttr_outbox_backlog"].samples[0].value == 0
        proc.terminate()  # SIGTERM, as Docker and systemd stop it: a clean exit
        code, _ = await finish(proc)
        assert code == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def started_and_stopped(fake, cwd: Path) -> str:  # type: ignore[no-untyped-def]
    """Start the bot, return its ready line's message, stop it."""
    proc = await start_against(fake, cwd, DISCORD_TOKEN=fake.token)
    try:
        ready, _ = await wait_for_log(proc, "ready as")
        return ready["message"]
    finally:
        proc.terminate()
        await finish(proc)


@pytest.mark.slow  # four starts
async def test_the_sync_marker_belongs_to_one_application_and_release(fake_discord, tmp_path: Path) -> None:
    """The marker is a row in the database: another application's does not stop this one from
    syncing; its own says unchanged; a newer release's commands are left alone."""
    db = tmp_path / "data" / "ttr.sqlite3"
    assert "commands synced globally" in await started_and_stopped(fake_discord, tmp_path)
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT application_id, guild_id, release, synced_at IS NOT NULL FROM command_syncs"
        ).fetchall()
        assert rows == [(fake_discord.bot_user.id, 0, RELEASE, 1)]
        # The same digest under another application's id: this application still syncs.
        conn.execute("UPDATE command_syncs SET application_id = 42")
    assert "commands synced globally" in await started_and_stopped(fake_discord, tmp_path)
    assert "commands unchanged since the last sync globally" in await started_and_stopped(fake_discord, tmp_path)
    syncs = fake_discord.requests.count("PUT /applications/{application_id}/commands")
    with sqlite3.connect(db) as conn:  # a newer release synced other commands since
        conn.execute("UPDATE command_syncs SET digest = 'theirs', release = '999.0' WHERE application_id != 42")
    assert "left as a newer release synced them globally" in await started_and_stopped(fake_discord, tmp_path)
    assert fake_discord.requests.count("PUT /applications/{application_id}/commands") == syncs


async def test_a_bogus_token_is_one_line(fake_discord, tmp_path: Path) -> None:
    proc = await start_against(fake_discord, tmp_path, DISCORD_TOKEN="not-the-token")
    code, stderr = await finish(proc)
    assert code == 3
    assert "Discord refused DISCORD_TOKEN" in one_line_without_traceback(stderr)
    assert not (tmp_path / "data" / "ttr.sqlite3").exists()


async def test_an_outdated_schema_without_auto_migrate_is_left_alone(fake_discord, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ttr.sqlite3'}"
    migrate(tmp_path, url, revisions()[-2])
    proc = await start_against(
        fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DATABASE_URL=url, AUTO_MIGRATE="false"
    )
    code, stderr = await finish(proc)
    assert code == 3
    assert "python -m storage migrate" in one_line_without_traceback(stderr)
    assert applied(tmp_path / "ttr.sqlite3") == [(revisions()[-2],)]


@pytest.mark.slow  # waits out the lock
async def test_a_database_locked_by_another_process(fake_discord, tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    migrate(tmp_path, f"sqlite:///{path}")
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sqlite3, sys, time\n"
        f"c = sqlite3.connect({str(path)!r}, isolation_level=None); c.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True); time.sleep(120)",
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert (await holder.stdout.readline()).strip() == b"locked"  # type: ignore[union-attr]
        proc = await start_against(
            fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DATABASE_URL=f"sqlite:///{path}"
        )
        code, stderr = await finish(proc)
    finally:
        holder.kill()
        await holder.wait()
    assert code == 3
    assert "is locked by another process" in one_line_without_traceback(stderr)
    assert applied(path) == [(h,) for h in head_revisions()]


async def test_a_damaged_database_file_is_refused(fake_discord, tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    migrate(tmp_path, f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:  # enough rows for many pages, so the middle is table data
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("CREATE TABLE filler (n INTEGER PRIMARY KEY, text TEXT)")
        conn.executemany("INSERT INTO filler VALUES (?, ?)", [(n, "x" * 100) for n in range(2000)])
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4096] = b"\xa5" * 4096
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    proc = await start_against(
        fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DATABASE_URL=f"sqlite:///{path}"
    )
    code, stderr = await finish(proc)
    assert code == 3
    line = one_line_without_traceback(stderr)
    assert "is damaged" in line and "docs/deployment.md#backup-and-restore" in line
    assert path.read_bytes() == before


async def test_a_read_only_data_folder(fake_discord, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    migrate(tmp_path, f"sqlite:///{folder / 'ttr.sqlite3'}")
    before = (folder / "ttr.sqlite3").read_bytes()
    command = [sys.executable, "-m", "tests.bot.bot_process"]
    if os.geteuid() == 0:  # root writes through permission bits: mount the folder read-only instead
        if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"]).returncode != 0:
            pytest.skip("running as root without `unshare -m`: no way to make a folder read-only")
        command = [
            "unshare",
            "-m",
            "sh",
            "-c",
            'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
            str(folder),
            *command,
        ]
    else:
        folder.chmod(0o555)
    try:
        proc = await asyncio.create_subprocess_exec(
            *command,
            cwd=tmp_path,
            stderr=asyncio.subprocess.PIPE,
            env=child_env(FAKE_DISCORD_URL=fake_discord.base_url, DISCORD_TOKEN=fake_discord.token),
        )
        code, stderr = await finish(proc)
    finally:
        folder.chmod(0o755)
    assert code == 3
    assert f"the data folder {Path('data')} is not writable" in one_line_without_traceback(stderr)
    assert (folder / "ttr.sqlite3").read_bytes() == before


async def test_postgresql_unreachable(fake_discord, tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    proc = await start_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL=f"postgresql://ttr:secret@127.0.0.1:{port}/ttr",
    )
    code, stderr = await finish(proc)
    assert code == 3
    line = one_line_without_traceback(stderr)
    assert f"cannot connect to PostgreSQL at 127.0.0.1:{port}" in line and "secret" not in line


@pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set")
async def test_postgresql_refusing_the_password(fake_discord, tmp_path: Path) -> None:
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL).set(password="not-the-password")
    proc = await start_against(
        fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DATABASE_URL=url.render_as_string(hide_password=False)
    )
    code, stderr = await finish(proc)
    assert code == 3
    line = one_line_without_traceback(stderr)
    assert "refused the password" in line and "not-the-password" not in line


async def test_discord_unreachable_is_one_line(tmp_path: Path) -> None:
    class Nowhere:
        base_url = f"http://127.0.0.1:{free_port()}"  # nothing listens there

    proc = await start_against(Nowhere, tmp_path, DISCORD_TOKEN="x")
    code, stderr = await finish(proc)
    assert code == 3
    assert one_line_without_traceback(stderr).startswith("Cannot reach Discord")
    assert "voice will NOT be supported" not in stderr  # the bot has no voice: no warning about it


async def test_a_health_port_in_use_is_one_line(fake_discord, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = await start_against(
            fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, HEALTH_PORT=str(taken.getsockname()[1])
        )
        code, stderr = await finish(proc)
    assert code == 3
    assert "choose another HEALTH_PORT" in one_line_without_traceback(stderr)


async def test_a_dev_guild_the_bot_is_not_in_is_one_line(fake_discord, tmp_path: Path) -> None:
    """Discord answers a guild's command sync with 403 Missing Access when the bot is not in it."""
    elsewhere = 4_000_000_000_000_000_042
    assert elsewhere not in fake_discord.guilds
    proc = await start_against(fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DEV_GUILD_ID=str(elsewhere))
    code, stderr = await finish(proc)
    assert code == 2
    line = one_line_without_traceback(stderr)
    assert f"DEV_GUILD_ID={elsewhere}" in line and "Invite the bot" in line
    assert not [json.loads(e) for e in stderr.splitlines() if e.startswith("{") and '"ERROR"' in e]
    # The bot's own server: the commands go there.
    guild = fake_discord.general.guild.id
    proc = await start_against(fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DEV_GUILD_ID=str(guild))
    try:
        ready, _ = await wait_for_log(proc, "ready as")
        assert f"commands synced to guild {guild}" in ready["message"]
    finally:
        proc.terminate()
        await finish(proc)
