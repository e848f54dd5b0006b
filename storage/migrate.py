"""Alembic, driven from code (no alembic.ini): `python -m storage migrate` from any folder.

    await migrate()                # apply pending migrations to DATABASE_URL (or the default file)
    await migrate(url, revision="0001")
    await current_revision(url)

Several processes may call `migrate` at once: PostgreSQL takes an advisory lock inside the
migration's transaction, SQLite a lock file beside the database, so one migrates and the others
then find nothing to do. Migrations live in `storage/migrations/versions/`; a new feature adds
one whose `down_revision` is the current head (`python -m storage revision -m "leagues"`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.database import is_sqlite, make_engine, sqlite_path
from storage.settings import database_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: pg_advisory_xact_lock key: "ttrm" in ASCII.
PG_LOCK_KEY = 0x7474726D


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("path_separator", "os")
    return cfg


def head_revisions() -> tuple[str, ...]:
    return tuple(ScriptDirectory.from_config(alembic_config()).get_heads())


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


@contextlib.asynccontextmanager
async def _sqlite_file_lock(url: str) -> AsyncIterator[None]:
    path = sqlite_path(url)
    try:
        import fcntl
    except ImportError:  # not POSIX: run `python -m storage migrate` once instead
        fcntl = None  # type: ignore[assignment]
    if path is None or fcntl is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(f"{path}.migrate-lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _run(sync_connection, action: str, revision: str) -> None:  # type: ignore[no-untyped-def]
    cfg = alembic_config()
    cfg.attributes["connection"] = sync_connection
    if action == "upgrade":
        command.upgrade(cfg, revision)
    else:
        command.downgrade(cfg, revision)


async def _migrate(engine: AsyncEngine, action: str, revision: str) -> tuple[str, ...]:
    url = engine.url.render_as_string(hide_password=False)
    async with _sqlite_file_lock(url) if is_sqlite(url) else contextlib.nullcontext():
        async with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                # Held until commit: a second process waits here, then finds the work done.
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})
            await conn.run_sync(_run, action, revision)
            heads = await conn.run_sync(_current)
            await conn.commit()
    return heads


def _current(sync_connection) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return tuple(MigrationContext.configure(sync_connection).get_current_heads())


async def migrate(
    url: str | None = None, *, revision: str = "heads", engine: AsyncEngine | None = None
) -> tuple[str, ...]:
    """Apply pending migrations up to `revision` (default: all). Returns the revisions now applied."""
    return await _with_engine(url, engine, lambda e: _migrate(e, "upgrade", revision))


async def downgrade(url: str | None = None, *, revision: str, engine: AsyncEngine | None = None) -> tuple[str, ...]:
    """Undo migrations down to `revision` ("base": an empty database). Used by tests and by hand."""
    return await _with_engine(url, engine, lambda e: _migrate(e, "downgrade", revision))


async def current_revision(url: str | None = None, *, engine: AsyncEngine | None = None) -> tuple[str, ...]:
    async def run(e: AsyncEngine) -> tuple[str, ...]:
        async with e.connect() as conn:
            return await conn.run_sync(_current)

    return await _with_engine(url, engine, run)


async def new_revision(message: str, rev_id: str, *, autogenerate: bool = False, url: str | None = None) -> None:
    """Write a migration file; with `autogenerate`, Alembic fills it in by comparing the models
    with the database at `url` (migrate that database to the head first)."""
    cfg = alembic_config()
    if not autogenerate:
        command.revision(cfg, message=message, rev_id=rev_id)
        return

    def run(sync_connection) -> None:  # type: ignore[no-untyped-def]
        cfg.attributes["connection"] = sync_connection
        command.revision(cfg, message=message, rev_id=rev_id, autogenerate=True)

    async def generate(engine: AsyncEngine) -> None:
        async with engine.connect() as conn:
            await conn.run_sync(run)

    await _with_engine(url, None, generate)


async def _with_engine(url, engine, run):  # type: ignore[no-untyped-def]
    if engine is not None:
        return await run(engine)
    engine = make_engine(database_url(url))
    try:
        return await run(engine)
    finally:
        await engine.dispose()
