"""`python -m storage ...` from any folder; settings; SQLite pragmas, backup and timestamps."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from engine import format_action
from storage.backup import backup_sqlite
from storage.database import make_engine
from storage.export import replay_export
from storage.games import create_game, get_game, save_action
from storage.migrate import head_revisions
from storage.settings import DEFAULT_DATABASE_URL, database_url
from tests.storage.helpers import advance, finished_game, new_game

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], cwd: Path, url: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if url:
        env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "storage", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def test_migrate_from_another_folder_creates_the_default_file(tmp_path: Path) -> None:
    result = run(["migrate"], tmp_path, None)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "data" / "ttr.sqlite3").exists()
    current = run(["current"], tmp_path, None)
    assert f"applied: {', '.join(head_revisions())}" in current.stdout


def test_settings() -> None:
    assert database_url("postgresql://u:p@h/db") == "postgresql+asyncpg://u:p@h/db"
    assert database_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert DEFAULT_DATABASE_URL == "sqlite+aiosqlite:///data/ttr.sqlite3"


async def test_verify_and_export_commands(db, tmp_path: Path) -> None:
    game = finished_game(seed=8)
    async with db.sessions() as s:
        done = await create_game(session=s, guild_id=1, channel_id=1, game=game, players=[1, 2, 3])
        await create_game(session=s, guild_id=1, channel_id=2, game=advance(new_game(seed=9), 7), players=[1, 2, 3])
    verify = run(["verify"], tmp_path, db.url)
    assert verify.returncode == 0 and "1 active games checked: 1 replay" in verify.stdout, verify.stderr
    export = run(["export", str(done.id)], tmp_path, db.url)
    assert export.returncode == 0, export.stderr
    data = json.loads(export.stdout)
    assert data["log"] == [[seat, format_action(game, action)] for seat, action in game.log]
    assert replay_export(data).to_json() == game.to_json()


async def test_sqlite_is_durable_wal_with_full_sync(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path}/a/b/ttr.sqlite3")  # folders are created
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar_one() == 2  # FULL
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    finally:
        await engine.dispose()


async def test_backup_while_in_use(db, tmp_path: Path) -> None:
    if db.backend != "sqlite":
        pytest.skip("backup copies SQLite files; PostgreSQL has pg_dump")
    game = new_game(seed=12)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=1, game=game, players=[1, 2, 3])
        advance(game, 1)
        await save_action(session=s, game_id=record.id, expected_version=0, game=game)
        # A session still open on the database while it is copied.
        copy = tmp_path / "copy.sqlite3"
        assert backup_sqlite(db.url, copy) > 0
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT version FROM games").fetchall() == [(1,)]
        assert conn.execute("SELECT count(*) FROM actions").fetchone() == (1,)
    with pytest.raises(FileExistsError):
        backup_sqlite(db.url, copy)


async def test_timestamps_are_aware_utc(db) -> None:
    before = datetime.now(UTC)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=1, game=new_game(), players=[1, 2, 3])
        stored = await get_game(session=s, game_id=record.id)
    assert stored.created_at.tzinfo is not None
    assert before <= stored.created_at <= datetime.now(UTC)
    assert stored.created_at == record.created_at
