"""The one place that creates database engines and sessions.

    engine = make_engine()                  # DATABASE_URL, or data/ttr.sqlite3
    sessions = session_factory(engine)
    async with sessions() as session: ...

SQLite runs in WAL mode with `synchronous=FULL`: a committed action survives a crash of the
process or of the machine. PostgreSQL's defaults are durable already.

`check_database(engine)` runs before anything else touches the database at start-up: it turns an
unreachable server, a refused password, a locked, damaged or unwritable SQLite file into one
`DatabaseUnusableError` that says what to do, and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import select
import sqlite3
import tempfile
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.sql import Executable

from storage import sqlite_driver
from storage.errors import StorageError
from storage.settings import StorageSettings, database_url

#: How long an SQLite writer waits for another one before giving up (seconds).
SQLITE_BUSY_TIMEOUT = 30.0
#: At start-up, how long another process may hold the SQLite write lock before the start fails.
SQLITE_START_LOCK_WAIT = 5.0
#: At start-up, how long connecting to PostgreSQL may take.
CONNECT_TIMEOUT = 10.0
RESTORE_DOCS = "docs/deployment.md#backup-and-restore"


class DatabaseUnusableError(StorageError):
    """The database cannot be used as configured; the message says what is wrong and what to do."""


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
    # Writers ask for BEGIN IMMEDIATE (`WRITE`): they take the write lock before their first
    # statement and wait (busy_timeout) for another writer instead of failing when their snapshot
    # is stale. The BEGIN goes to SQLite with the transaction's first statement, in its thread hop
    # (storage/sqlite_driver.py): that statement is where SQLite takes the snapshot or lock anyway.
    options = connection.get_execution_options()
    connection.connection.dbapi_connection.begin(
        options.get("sqlite_begin", "DEFERRED"), commit=options.get("sqlite_commit", False)
    )


#: Execution options for a session that is about to write (see `begin_write`).
WRITE = {"sqlite_begin": "IMMEDIATE"}
#: The same for a write of one statement: SQLite commits it in the statement's own thread hop.
WRITE_ONE = {"sqlite_begin": "IMMEDIATE", "sqlite_commit": True}


async def begin_write(session: AsyncSession, *, one_statement: bool = False) -> None:
    """Start `session`'s transaction as a writer (SQLite: BEGIN IMMEDIATE).

    A transaction that has only read so far is ended first: on SQLite its snapshot could be stale
    by now, and a write from it would fail instead of waiting its turn. `one_statement`: the
    transaction is that one statement, committed with it on SQLite (the writers' lock is then held
    for one thread hop, not two; a second statement is refused)."""
    if session.in_transaction() and not (session.new or session.dirty or session.deleted):
        await session.commit()
    if not session.in_transaction():
        await session.connection(execution_options=WRITE_ONE if one_statement else WRITE)


@asynccontextmanager
async def writing(session: AsyncSession, *, one_statement: bool = False) -> AsyncIterator[None]:
    """One write call, one transaction: `begin_write`, then commit if the block succeeds.

    On any exception (cancellation too) the transaction is rolled back before the exception goes
    on, so a failed write leaves nothing behind and the session is usable again. A caller that
    translates an error (e.g. IntegrityError) catches it around the `async with`: by then the
    rollback has happened."""
    try:
        await begin_write(session, one_statement=one_statement)
        yield
        await session.commit()
    except BaseException:
        await session.rollback()
        raise


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of `write_steps`: a Core INSERT, UPDATE or DELETE with every value it writes in
    `parameters` (column defaults are not filled in), the row count it must match (`expect`),
    else the whole write is undone, and whether its inserted primary key is wanted (`key`)."""

    statement: Executable
    parameters: dict[str, Any]
    expect: int | None = None
    key: bool = False  # an INSERT whose primary key the caller reads


async def write_steps(session: AsyncSession, steps: Sequence[Step]) -> list[Any] | None:
    """One write transaction of statements that need no result before the next (an action's save).

    On SQLite it is one thread hop from BEGIN IMMEDIATE to COMMIT (storage/sqlite_driver.py): the
    writers' lock is held while SQLite works, never across the event loop's waits between hops
    (issue 23). Elsewhere the statements run one after another in `writing`. Returns each step's
    inserted primary key where it asks for it (`Step.key`; else None), or None when a step matched
    another row count than its `expect` (nothing is written then). Errors are SQLAlchemy's, as from `execute`."""
    if session.bind.dialect.name != "sqlite":  # type: ignore[union-attr]
        try:
            async with writing(session):
                keys = await execute_steps(session, steps)
                if keys is None:
                    raise _Unmatched
        except _Unmatched:
            return None
        return keys
    dialect = session.bind.dialect  # type: ignore[union-attr]
    prepared = [(_sqlite_sql(dialect, step.statement, frozenset(step.parameters)), step) for step in steps]
    operations = [(sql.text, sql.values(step.parameters), step.expect) for sql, step in prepared]
    await begin_write(session)
    conn = await session.connection()
    driver = (await conn.get_raw_connection()).dbapi_connection
    try:
        out = await driver.run_steps(operations)
    except BaseException as exc:
        await session.rollback()
        if isinstance(exc, sqlite3.Error):  # as `execute` raises it, naming the statement that failed
            sql, parameters, _ = operations[getattr(exc, "step", 0)]
            raise DBAPIError.instance(sql, parameters, exc, sqlite3.Error, dialect=dialect) from None
        raise
    if out is None:
        await session.rollback()
        return None
    conn.sync_connection.info["ttr_wrote"] = True  # `_track_writes`: the commit below records it
    await session.commit()
    return [sql.key(step.parameters, lastrowid) if step.key else None for lastrowid, (sql, step) in zip(out, prepared)]


async def execute_steps(session: AsyncSession, steps: Sequence[Step]) -> list[Any] | None:
    """`steps` one after another in the session's transaction: each step's inserted primary key
    where it asks for it (else None), or None at the first step that matched another row count than
    its `expect` (the caller undoes the transaction)."""
    conn = await session.connection()
    keys = []
    for step in steps:
        result = await conn.execute(step.statement, step.parameters)
        if step.expect is not None and result.rowcount != step.expect:
            return None
        keys.append(result.inserted_primary_key[0] if step.key else None)
    return keys


class _Unmatched(Exception):
    """A step matched another row count than it expects: `writing` undoes the write."""


@dataclass(frozen=True, slots=True)
class _SqliteSql:
    """A step's statement as SQLAlchemy sends it to SQLite for one set of parameter names."""

    text: str
    #: Per positional parameter: its name in the step's parameters and its type's conversion (JSON,
    #: dates), or, for a value written in the statement itself, None and the converted value.
    binds: tuple[tuple[str | None, Any], ...]
    #: An INSERT's first primary-key column (None for other statements).
    primary_key: str | None

    def key(self, parameters: dict[str, Any], lastrowid: int | None) -> Any:
        """The inserted row's first primary-key value, as `inserted_primary_key[0]` gives it."""
        if self.primary_key is None:
            return None
        return parameters.get(self.primary_key, lastrowid)

    def values(self, parameters: dict[str, Any]) -> tuple:
        return tuple(
            value if name is None else parameters[name] if value is None else value(parameters[name])
            for name, value in self.binds
        )


@lru_cache(maxsize=64)
def _sqlite_sql(dialect: Dialect, statement: Executable, keys: frozenset[str]) -> _SqliteSql:
    """Compiled as `execute` would compile it for these parameter names (SQLAlchemy caches the same)."""
    compiled = statement.compile(dialect=dialect, column_keys=sorted(keys))
    if compiled.insert_prefetch or compiled.update_prefetch or compiled.positiontup is None:
        raise ValueError(f"a step gives every value it writes and no list parameter: {compiled.string}")
    binds = []
    for name in compiled.positiontup:
        bind = compiled.binds[name]
        convert = bind.type.bind_processor(dialect)
        if name in keys:
            binds.append((name, convert))
        elif bind.required or bind.callable is not None:
            raise ValueError(f"a step's parameters lack {name!r}: {compiled.string}")
        else:
            binds.append((None, bind.value if convert is None else convert(bind.value)))
    primary_key = next(iter(statement.table.primary_key)).key if compiled.isinsert else None  # type: ignore[attr-defined]
    return _SqliteSql(compiled.string, tuple(binds), primary_key)


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url` (default: `database_url()`); creates an SQLite file's folder."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", dumps)
    if is_sqlite(url):
        path = sqlite_path(url)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnusableError(
                    f"cannot create the data folder {path.parent} ({exc.strerror}): "
                    "create it with write access for the bot's user, or set DATABASE_URL "
                    "to a writable place"
                ) from None
        kwargs.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT})
        kwargs["module"] = sqlite_driver.dbapi(SQLITE_BUSY_TIMEOUT)  # `_sqlite_begin` needs its `begin`
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    else:
        url, kwargs = _postgres_pool(url, kwargs)
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "checkout", _postgres_checkout)
    _track_writes(engine)
    return engine


def _postgres_pool(url: str, kwargs: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The URL and engine arguments for PostgreSQL with the pool settings (`DB_POOL_SIZE`,
    `DB_MAX_OVERFLOW`) and, with `DB_PGBOUNCER`, no prepared statement kept past its transaction:
    PgBouncer's transaction pooling gives the next transaction another server connection, where
    a statement prepared on the first does not exist (SQLAlchemy's asyncpg dialect documents it)."""
    settings = StorageSettings()
    kwargs.setdefault("pool_size", settings.db_pool_size)
    kwargs.setdefault("max_overflow", settings.db_max_overflow)
    if settings.db_pgbouncer:
        url = make_url(url).update_query_dict({"prepared_statement_cache_size": "0"}).render_as_string(False)
        connect_args = kwargs.setdefault("connect_args", {})
        connect_args.setdefault("statement_cache_size", 0)
        connect_args.setdefault("prepared_statement_name_func", lambda: f"__asyncpg_{uuid.uuid4()}__")
    return url, kwargs


def _postgres_checkout(dbapi_connection: Any, connection_record: Any, connection_proxy: Any) -> None:
    """Hand out only a live connection, without a round trip for one that is (issue 23).

    SQLAlchemy's `pool_pre_ping` costs three round trips per checkout (BEGIN, a ping, ROLLBACK).
    A connection the server closed (a restart, `pg_terminate_backend`) is known without one: the
    server says so and closes the socket, so the connection either is marked closed already or,
    while the event loop has not read that yet, has unread bytes (an idle connection has none).
    Only then is it pinged; a failed ping makes the pool connect afresh (`DisconnectionError`)."""
    conn = dbapi_connection.driver_connection
    if conn.is_closed():
        raise DisconnectionError("the server closed the connection")
    poller = select.poll()
    poller.register(conn._transport.get_extra_info("socket").fileno(), select.POLLIN)
    if poller.poll(0):
        try:
            dbapi_connection.ping()
        except Exception as exc:
            raise DisconnectionError(f"the connection failed its ping ({type(exc).__name__})") from exc


# ---------------------------------------------------------------------- last successful write

_LAST_WRITE: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def _track_writes(engine: AsyncEngine) -> None:
    """Remember when a transaction that inserted, updated or deleted rows last committed."""
    sync_engine = engine.sync_engine

    def executed(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        if context is not None and (context.isinsert or context.isupdate or context.isdelete):
            conn.info["ttr_wrote"] = True

    def committed(conn) -> None:  # type: ignore[no-untyped-def]
        if conn.info.pop("ttr_wrote", False):
            _LAST_WRITE[sync_engine] = time.monotonic()

    def rolled_back(conn) -> None:  # type: ignore[no-untyped-def]
        # A statement cancelled midway invalidates the connection, and its `info` with it.
        if not conn.invalidated:
            conn.info.pop("ttr_wrote", None)

    event.listen(sync_engine, "after_cursor_execute", executed)
    event.listen(sync_engine, "commit", committed)
    event.listen(sync_engine, "rollback", rolled_back)


def seconds_since_last_write(engine: AsyncEngine) -> float | None:
    """Seconds since this engine last committed a write; None when it has not written yet."""
    at = _LAST_WRITE.get(engine.sync_engine)
    return None if at is None else time.monotonic() - at


# ---------------------------------------------------------------------- start-up checks


async def check_database(engine: AsyncEngine) -> None:
    """Refuse to start on a database that cannot work, with one line that says why (changes nothing).

    SQLite: the folder must be writable, and an existing file must open, pass `PRAGMA quick_check`
    and give the write lock within `SQLITE_START_LOCK_WAIT` seconds. PostgreSQL: the server must
    answer and accept the credentials within `CONNECT_TIMEOUT` seconds."""
    url = engine.url.render_as_string(hide_password=False)
    if is_sqlite(url):
        path = sqlite_path(url)
        if path is not None:
            await asyncio.to_thread(_check_sqlite_file, path)
        return
    try:
        async with asyncio.timeout(CONNECT_TIMEOUT):
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
    except (OSError, SQLAlchemyError, TimeoutError) as exc:
        raise DatabaseUnusableError(_server_problem(engine, exc)) from None


def _server_problem(engine: AsyncEngine, exc: BaseException) -> str:
    where = f"{engine.url.host or 'localhost'}:{engine.url.port or 5432}"
    cause = getattr(exc, "orig", None) or exc
    name = type(cause).__name__
    if name == "InvalidPasswordError" or "password authentication failed" in str(cause):
        return (
            f"PostgreSQL at {where} refused the password of user {engine.url.username!r}: "
            "correct the user and password in DATABASE_URL"
        )
    if name == "InvalidCatalogNameError":
        return f"PostgreSQL at {where} has no database {engine.url.database!r}: create it, or correct DATABASE_URL"
    if isinstance(cause, TimeoutError):
        return f"PostgreSQL at {where} did not answer within {CONNECT_TIMEOUT:g} s: is it running and reachable?"
    detail = str(cause).strip().splitlines()[0] if str(cause).strip() else name
    return (
        f"cannot connect to PostgreSQL at {where} ({detail}): check that it is running and "
        "that DATABASE_URL names the right host and port"
    )


def _check_sqlite_file(path: Path) -> None:
    folder = path.parent
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".write-check-"):
            pass
    except OSError as exc:
        raise DatabaseUnusableError(
            f"the data folder {folder} is not writable ({exc.strerror}): give the "
            "bot's user write access to it, or set DATABASE_URL to a writable place"
        ) from None
    if not path.exists():
        return  # a new database: migrations create it
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=SQLITE_START_LOCK_WAIT, isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseUnusableError(f"cannot open the database file {path} ({exc}): check its permissions") from None
    try:
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as exc:
            if "locked" in str(exc):
                raise _locked(path) from None
            raise _damaged(path, str(exc)) from None
        if problems != ["ok"]:
            raise _damaged(path, "; ".join(problems[:3]))
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise _locked(path) from None
            raise DatabaseUnusableError(
                f"cannot write to the database file {path} ({exc}): give the bot's "
                "user write access to it and its folder"
            ) from None
    finally:
        conn.close()


def _locked(path: Path) -> DatabaseUnusableError:
    return DatabaseUnusableError(
        f"the database file {path} is locked by another process for more than {SQLITE_START_LOCK_WAIT:g} s "
        "(another bot, or an open sqlite3 shell?): stop it, or give this bot its own DATABASE_URL"
    )


def _damaged(path: Path, detail: str) -> DatabaseUnusableError:
    detail = "; ".join(part.strip() for part in detail.splitlines() if part.strip())  # SQLite's may span lines
    return DatabaseUnusableError(
        f"the database file {path} is damaged ({detail}): restore it from a backup, see {RESTORE_DOCS}"
    )


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
