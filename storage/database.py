"""The one place that creates database engines and sessions.

    engine = make_engine()                  # DATABASE_URL, or data/ttr.sqlite3
    sessions = session_factory(engine)
    async with sessions() as session: ...

SQLite runs in WAL mode with `synchronous=FULL`: a committed action survives a crash of the
process or of the machine. PostgreSQL's defaults are durable already.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from storage.settings import database_url

#: How long an SQLite writer waits for another one before giving up (seconds).
SQLITE_BUSY_TIMEOUT = 30.0


def dumps(value: Any) -> str:
    """Compact JSON for JSON columns (stored size matters: a state is saved after every action)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_path(url: str) -> Path | None:
    """The database file of an SQLite URL (None for an in-memory database)."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_connect(dbapi_connection: Any, connection_record: Any) -> None:
    # The driver's own transaction handling (BEGIN only before DML, none for DDL) is turned off:
    # `_sqlite_begin` emits BEGIN itself, so migrations' DDL and reads are transactional too.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_TIMEOUT * 1000)}")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # Writers ask for BEGIN IMMEDIATE (`WRITE`): they take the write lock up front and wait
    # (busy_timeout) for another writer instead of failing when their snapshot is stale.
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


#: Execution options for a session that is about to write (see `begin_write`).
WRITE = {"sqlite_begin": "IMMEDIATE"}


async def begin_write(session: AsyncSession) -> None:
    """Start `session`'s transaction as a writer (SQLite: BEGIN IMMEDIATE).

    A transaction that has only read so far is ended first: on SQLite its snapshot could be stale
    by now, and a write from it would fail instead of waiting its turn."""
    if session.in_transaction() and not (session.new or session.dirty or session.deleted):
        await session.commit()
    if not session.in_transaction():
        await session.connection(execution_options=WRITE)


@asynccontextmanager
async def writing(session: AsyncSession) -> AsyncIterator[None]:
    """One write call, one transaction: `begin_write`, then commit if the block succeeds.

    On any exception (cancellation too) the transaction is rolled back before the exception goes
    on, so a failed write leaves nothing behind and the session is usable again. A caller that
    translates an error (e.g. IntegrityError) catches it around the `async with`: by then the
    rollback has happened."""
    try:
        await begin_write(session)
        yield
        await session.commit()
    except BaseException:
        await session.rollback()
        raise


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url` (default: `database_url()`); creates an SQLite file's folder."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", dumps)
    if is_sqlite(url):
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        kwargs.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT})
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    else:
        kwargs.setdefault("pool_pre_ping", True)
        engine = create_async_engine(url, **kwargs)
    return engine


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for `engine` (SQLAlchemy's AsyncSession: SQLModel tables work as they are).
    Objects stay readable after commit (no implicit reloads in async code)."""
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def detached(session: AsyncSession, *objects: Any) -> None:
    """Take returned rows out of the session: they stay readable snapshots, never expired by a
    later rollback (an expired attribute would need IO, which async code cannot do implicitly)."""
    for obj in objects:
        if obj is not None and obj in session:
            session.expunge(obj)
