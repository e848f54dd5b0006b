"""Backups and restores as docs/deployment.md describes them, and `python -m storage` refusing in one line."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage.backup import backup_sqlite, restore_sqlite
from storage.games import create_game, load_game, save_action
from storage.migrate import migrate
from storage.store import Storage
from tests.storage.helpers import advance, new_game

ROOT = Path(__file__).resolve().parents[2]


def storage_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "storage", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def refused(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


async def test_backup_into_new_folders_and_restore_over_later_writes(tmp_path: Path) -> None:
    """The documented round trip on a fresh install: backup (folders created), play on, stop,
    restore, start: the game is back at the backed-up version and replays."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'data' / 'ttr.sqlite3'}"
    await migrate(url)
    game = new_game(seed=21)
    store = Storage(url)
    async with store.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=2, game=game, players=[5, 6, 7])
        for version in range(3):
            advance(game, 1)
            await save_action(session=s, game_id=record.id, expected_version=version, game=game)
    await store.close()
    backup = storage_cli("--url", url, "backup", "backups/2026-12-01/ttr.sqlite3", cwd=tmp_path)
    assert backup.returncode == 0, backup.stderr
    assert (tmp_path / "backups" / "2026-12-01" / "ttr.sqlite3").stat().st_size > 0
    store = Storage(url)
    async with store.sessions() as s:  # the game goes on after the backup
        advance(game, 1)
        await save_action(session=s, game_id=record.id, expected_version=3, game=game)
    await store.close()

    restore = storage_cli("--url", url, "restore", "backups/2026-12-01/ttr.sqlite3", cwd=tmp_path)
    assert restore.returncode == 0, restore.stderr
    store = Storage(url)
    try:
        report = await store.start()
        assert report.verified == [record.id] and not report.problems
        async with store.sessions() as s:
            assert (await load_game(session=s, game_id=record.id)).version == 3
    finally:
        await store.close()


def test_a_backup_is_one_self_contained_file_and_never_overwritten(tmp_path: Path) -> None:
    assert storage_cli("migrate", cwd=tmp_path).returncode == 0
    backup_sqlite(f"sqlite:///{tmp_path / 'data' / 'ttr.sqlite3'}", tmp_path / "b" / "copy.sqlite3")
    with sqlite3.connect(tmp_path / "b" / "copy.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert "exists already" in refused(storage_cli("backup", "b/copy.sqlite3", cwd=tmp_path))


def test_restore_refuses_a_damaged_backup_and_changes_nothing(tmp_path: Path) -> None:
    assert storage_cli("migrate", cwd=tmp_path).returncode == 0
    database = tmp_path / "data" / "ttr.sqlite3"
    before = database.read_bytes()
    (tmp_path / "bad.sqlite3").write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"garbage" * 1000)
    assert "not a sound SQLite database" in refused(storage_cli("restore", "bad.sqlite3", cwd=tmp_path))
    assert database.read_bytes() == before
    with pytest.raises(FileNotFoundError, match="no backup file"):
        restore_sqlite(f"sqlite:///{database}", tmp_path / "missing.sqlite3")


def test_export_of_a_missing_game_says_so(tmp_path: Path) -> None:
    assert storage_cli("migrate", cwd=tmp_path).returncode == 0
    assert refused(storage_cli("export", "999", cwd=tmp_path)) == "python -m storage: there is no game 999"


def test_export_from_a_folder_without_the_database_says_so(tmp_path: Path) -> None:
    line = refused(storage_cli("export", "1", cwd=tmp_path))
    assert "has no tables" in line and "python -m storage migrate" in line


def test_backup_of_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pg_dump"):
        backup_sqlite("postgresql://u:p@127.0.0.1:1/db", tmp_path / "x")
