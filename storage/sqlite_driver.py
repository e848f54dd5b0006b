"""SQLAlchemy's aiosqlite adapter, with one thread hop per statement instead of four (issue 23).

aiosqlite runs every sqlite3 call in its own thread; each call is a hop there and back (~90 µs
of CPU and an event-loop iteration). SQLAlchemy's adapter makes four per statement (create the
cursor, execute, fetch, close the cursor) and three more for a transaction's BEGIN. Here one
function runs the whole statement in the thread (and, for a transaction's first statement, the
BEGIN that `begin` asked for: it is sent with that statement, which is when SQLite would take
the snapshot or the write lock anyway). COMMIT and ROLLBACK are skipped when no transaction can
be open (after a commit, the session's close and the pool's reset would each roll back again).

Writers take turns here before SQLite sees them. Each pooled connection is its own thread, and
SQLite makes a writer that finds the write lock taken sleep and retry (1, 2, 5, 10 … 100 ms
naps until `busy_timeout`), so at 20 turns a second a BEGIN IMMEDIATE waited 10 ms at p90 and
over a second at p99 for locks held a few milliseconds. A connection about to send BEGIN
IMMEDIATE first waits for the engine's writers queue (first come, first served; woken as the
holder commits or rolls back); SQLite's own wait is left for writers in other processes. A write
of one statement (`storage.database.writing(..., one_statement=True)`) is committed in that
statement's hop and ends its turn there: one hop holding the lock instead of two. A write whose
statements need no result before the next one (an action's save: `storage.database.write_steps`)
goes as one hop too, BEGIN to COMMIT (`Connection.run_steps`): the lock is then held for the time
SQLite takes, never across the event loop's waits between hops.

Passed as the DBAPI module (`module=`) by `storage.database.make_engine`; nothing else changes:
the URL stays `sqlite+aiosqlite://`, errors are sqlite3's, server-side cursors are SQLAlchemy's.
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections import deque
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
    AsyncAdapt_aiosqlite_ss_cursor,
)
from sqlalchemy.util import EMPTY_DICT


def _statement(
    connection: aiosqlite.Connection, begin: str | None, operation: str, parameters: Any, many: bool, commit: bool
) -> tuple:
    """In aiosqlite's thread: BEGIN if asked, the statement, its rows, COMMIT if asked; and whether
    a transaction is still open."""
    conn = connection._conn
    cursor = conn.cursor()
    try:
        if begin is not None:
            cursor.execute(begin)
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else ()
        if commit and conn.in_transaction:
            conn.commit()
        return description, rows, cursor.rowcount, cursor.lastrowid, conn.in_transaction
    finally:
        cursor.close()


def _steps(connection: aiosqlite.Connection, begin: str, steps: list[tuple[str, tuple, int | None]]) -> list | None:
    """In aiosqlite's thread: BEGIN, each statement, COMMIT. Each step's lastrowid; None, with
    everything rolled back, when a step's rowcount is not the one it expects. An error rolls back
    too, and says which step failed (its `step`)."""
    conn = connection._conn
    cursor = conn.cursor()
    out: list[int | None] = []
    try:
        cursor.execute(begin)
        for operation, parameters, expect in steps:
            cursor.execute(operation, parameters)
            if expect is not None and cursor.rowcount != expect:
                conn.rollback()
                return None
            out.append(cursor.lastrowid)
        conn.commit()
        return out
    except sqlite3.Error as exc:
        exc.step = len(out)  # type: ignore[attr-defined]
        raise
    finally:
        if conn.in_transaction:
            conn.rollback()
        cursor.close()


class Cursor(AsyncAdapt_aiosqlite_cursor):
    """A statement in one hop: the rows are fetched in the thread, no sqlite3 cursor stays open."""

    __slots__ = ("_description", "_rowcount", "_lastrowid")
    _awaitable_cursor_close = False

    def __init__(self, adapt_connection: Connection) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = deque()
        self._description = None
        self._rowcount = -1
        self._lastrowid = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    async def _execute_async(self, operation: Any, parameters: Any) -> None:
        await self._run(operation, parameters, many=False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> None:
        await self._run(operation, seq_of_parameters, many=True)

    async def _run(self, operation: Any, parameters: Any, *, many: bool) -> None:
        adapt = self._adapt_connection
        await adapt.wait_write_turn()
        async with adapt._execute_mutex:
            if adapt._committed:
                raise sqlite3.ProgrammingError("a second statement in a write declared as one statement")
            begin, adapt._begin = adapt._begin, None
            commit, adapt._commit = adapt._commit, False
            # Until the thread says otherwise (a cancelled wait leaves the statement running).
            adapt._maybe_in_transaction = True
            description, rows, rowcount, lastrowid, in_transaction = await self._connection._execute(
                _statement, self._connection, begin, operation, parameters, many, commit
            )
            adapt._maybe_in_transaction = in_transaction
            if commit:  # committed in the thread: the next writer need not wait for SQLAlchemy's COMMIT
                adapt._committed = True
                adapt._end_write_turn()
        self._description = description
        self._rows = deque(rows)
        self._rowcount = rowcount
        self._lastrowid = lastrowid


class ServerSideCursor(AsyncAdapt_aiosqlite_ss_cursor):
    """SQLAlchemy's streaming cursor, sending a pending BEGIN first."""

    __slots__ = ()

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        await self._adapt_connection.send_begin()
        return await super()._execute_async(operation, parameters)


IMMEDIATE = "BEGIN IMMEDIATE"


class Connection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ("_begin", "_commit", "_committed", "_maybe_in_transaction", "_write_turn")
    _cursor_cls = Cursor
    _ss_cursor_cls = ServerSideCursor

    def __init__(self, dbapi: Any, connection: aiosqlite.Connection) -> None:
        super().__init__(dbapi, connection)
        self._begin: str | None = None
        self._commit = False  # commit with the next statement (a write of one statement)
        self._committed = False  # ... and it did: the transaction holds nothing more
        self._maybe_in_transaction = False
        self._write_turn: asyncio.Lock | None = None

    def begin(self, mode: str, *, commit: bool = False) -> None:
        """Start a transaction (`BEGIN <mode>`) with the next statement (`commit`: and end it there)."""
        self._begin = f"BEGIN {mode}"
        self._commit = commit

    async def wait_write_turn(self) -> None:
        """Before a BEGIN IMMEDIATE: wait until no other connection of this engine is writing."""
        if self._begin == IMMEDIATE and self._write_turn is None:
            self._write_turn = await self.dbapi.writers.take_turn()

    def _end_write_turn(self) -> None:
        if self._write_turn is not None:
            turn, self._write_turn = self._write_turn, None
            turn.release()

    async def run_steps(self, steps: list[tuple[str, tuple, int | None]]) -> list | None:
        """A whole write transaction in one thread hop (`_steps`), in this engine's writers' turn:
        the transaction `begin` asked for is opened, run and ended there."""
        if self._begin is None or self._maybe_in_transaction:
            raise sqlite3.ProgrammingError("the steps of a write are a whole transaction: begin one first")
        await self.wait_write_turn()
        async with self._execute_mutex:
            begin, self._begin = self._begin, None
            # Until the thread says otherwise: a cancelled wait leaves the steps running, and the
            # caller's rollback (queued behind them) ends the turn once SQLite is done.
            self._maybe_in_transaction = True
            try:
                out = await self._connection._execute(_steps, self._connection, begin, steps)
            except sqlite3.Error:
                self._ended()
                raise
            self._ended()
            return out

    def _ended(self) -> None:
        """`run_steps`' transaction was committed or rolled back in the thread: nothing more runs in it."""
        self._maybe_in_transaction = False
        self._committed = True
        self._end_write_turn()

    async def send_begin(self) -> None:
        await self.wait_write_turn()
        self._commit = False  # a streamed result is read over several hops
        if self._begin is not None:
            begin, self._begin = self._begin, None
            self._maybe_in_transaction = True
            await self._connection._execute(self._connection._conn.execute, begin)

    def _transaction_open(self) -> bool:
        self._begin, self._commit, self._committed = None, False, False
        conn = self._connection._connection
        return conn is not None and (self._maybe_in_transaction or conn.in_transaction)

    def commit(self) -> None:
        try:
            if self._transaction_open():
                super().commit()
                self._maybe_in_transaction = False
        finally:
            self._end_write_turn()

    def rollback(self) -> None:
        try:
            if self._transaction_open():
                super().rollback()
                self._maybe_in_transaction = False
        finally:
            self._end_write_turn()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._end_write_turn()

    def terminate(self) -> None:
        try:
            super().terminate()
        finally:
            self._end_write_turn()


class Writers:
    """The turns of one engine's writers: an asyncio lock per event loop (tests run several).

    A turn asked for longer than `wait` seconds is given anyway (None): a connection that never
    ended its turn (a bug, or a transaction left open) must not stop every writer for good, and
    SQLite's busy timeout still guards the file."""

    def __init__(self, wait: float) -> None:
        self.wait = wait
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()

    async def take_turn(self) -> asyncio.Lock | None:
        """Wait for this connection's turn to write; the lock to release when it ends."""
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        try:
            async with asyncio.timeout(self.wait):
                await lock.acquire()
        except TimeoutError:
            return None
        return lock


class Dbapi(AsyncAdapt_aiosqlite_dbapi):
    def __init__(self, writer_wait: float) -> None:
        super().__init__(aiosqlite, sqlite3)
        self.writers = Writers(writer_wait)

    def connect(self, *args: Any, **kwargs: Any) -> Connection:
        adapted = super().connect(*args, **kwargs)
        return Connection(self, adapted._connection)


def dbapi(writer_wait: float) -> Dbapi:
    """The DBAPI module to pass as `create_async_engine(..., module=dbapi(...))`: one per engine,
    whose writers wait up to `writer_wait` seconds for each other's turns."""
    return Dbapi(writer_wait)
