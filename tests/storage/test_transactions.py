"""What a transaction guarantees once it is cheap (issue 23): SQLite's one-hop statements and
deferred BEGIN (storage/sqlite_driver.py), PostgreSQL's checkout without a ping."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time

import asyncpg
import pytest
from sqlalchemy import bindparam, event, text
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from storage.announcements import Announce, written
from storage.database import Step, begin_write, seconds_since_last_write, sqlite_path, write_steps, writing
from storage.games import create_game, game_stamp, load_game, save_action
from storage.models import Player, utcnow
from tests.storage.helpers import advance, new_game

USER = 2**62 + 11


def only(db, backend: str) -> None:  # type: ignore[no-untyped-def]
    if db.backend != backend:
        pytest.skip(f"about {backend}")


def raw_sqlite(db, timeout: float = 0.0) -> sqlite3.Connection:  # type: ignore[no-untyped-def]
    """Another process's view of the file: a plain sqlite3 connection that does not wait for locks."""
    return sqlite3.connect(sqlite_path(db.url), timeout=timeout, isolation_level=None)


def write_lock_free(db) -> bool:  # type: ignore[no-untyped-def]
    other = raw_sqlite(db)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
        return False
    finally:
        other.close()


async def stored_game(db) -> int:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=5, game=new_game(), players=[1, 2, 3])
    return record.id


async def test_a_writer_holds_the_write_lock_from_its_first_statement_to_its_commit(db) -> None:  # type: ignore[no-untyped-def]
    only(db, "sqlite")
    async with db.sessions() as s:
        await begin_write(s)
        await s.execute(text("SELECT 1"))  # no write yet: BEGIN IMMEDIATE took the lock anyway
        assert not write_lock_free(db)
        s.add(Player(user_id=USER))
        await s.commit()
        assert write_lock_free(db)
    async with db.sessions() as s:
        await s.execute(text("SELECT 1"))  # a reader (BEGIN DEFERRED) does not block writers
        assert write_lock_free(db)


async def test_a_read_transaction_keeps_its_snapshot(db) -> None:  # type: ignore[no-untyped-def]
    only(db, "sqlite")
    game_id = await stored_game(db)
    other = raw_sqlite(db, timeout=5)
    try:
        async with db.sessions() as s:
            before = await game_stamp(session=s, game_id=game_id)
            other.execute("UPDATE games SET version = version + 1 WHERE id = ?", (game_id,))
            assert await game_stamp(session=s, game_id=game_id) == before
        async with db.sessions() as s:
            after = await game_stamp(session=s, game_id=game_id)
    finally:
        other.close()
    assert before is not None and after == (before[0] + 1, before[1])


async def test_a_write_cancelled_while_waiting_for_the_lock_leaves_nothing_open(db) -> None:  # type: ignore[no-untyped-def]
    """The statement goes on in aiosqlite's thread after the wait is cancelled: the rollback must
    still follow it, or the pooled connection would keep the write lock."""
    only(db, "sqlite")
    holder = raw_sqlite(db)
    holder.execute("BEGIN IMMEDIATE")

    async def write() -> None:
        async with db.sessions() as s:
            async with writing(s):
                s.add(Player(user_id=USER))

    task = asyncio.create_task(write())
    await asyncio.sleep(0.2)  # the INSERT's BEGIN IMMEDIATE is waiting for `holder`
    task.cancel()
    await asyncio.sleep(0.05)
    holder.execute("ROLLBACK")
    holder.close()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert write_lock_free(db)
    async with db.sessions() as s:
        assert (await s.execute(text("SELECT count(*) FROM players"))).scalar_one() == 0


async def test_a_transaction_is_two_thread_hops_and_a_write_of_one_statement_one(db, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    only(db, "sqlite")
    import aiosqlite.core

    game_id = await stored_game(db)
    hops: list[str] = []
    original = aiosqlite.core.Connection._execute

    async def counted(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        hops.append(fn.__name__)
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.core.Connection, "_execute", counted)
    async with db.sessions() as s:
        assert await game_stamp(session=s, game_id=game_id) is not None
    assert hops == ["_statement", "rollback"]  # BEGIN + SELECT, then the end of the snapshot
    hops.clear()
    async with db.sessions() as s:
        async with writing(s):
            s.add(Player(user_id=USER))
    assert hops == ["_statement", "commit"]
    hops.clear()
    async with db.sessions() as s:
        async with writing(s, one_statement=True):
            await s.execute(Player.__table__.insert().values(user_id=USER + 1))
            assert write_lock_free(db)  # committed in its own hop
    assert hops == ["_statement"]
    async with db.sessions() as s:
        with pytest.raises(DBAPIError, match="second statement"):
            async with writing(s, one_statement=True):
                await s.execute(Player.__table__.insert().values(user_id=USER + 2))
                await s.execute(Player.__table__.insert().values(user_id=USER + 3))
        users = (await s.execute(text("SELECT user_id FROM players ORDER BY user_id"))).scalars().all()
    assert [user - USER for user in users] == [0, 1, 2]  # the second statement did not run


async def test_a_save_is_one_thread_hop_begin_to_commit(db, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An action's save (`write_steps`): on SQLite its update, inserts and commit go in one hop, so
    the write lock is free as soon as the save returns, and it counts as the last write."""
    only(db, "sqlite")
    import aiosqlite.core

    game_id = await stored_game(db)
    async with db.sessions() as s:
        loaded = await load_game(session=s, game_id=game_id)
    game, version = loaded.game, loaded.version
    advance(game, 1, random.Random(3))
    hops: list[str] = []
    original = aiosqlite.core.Connection._execute

    async def counted(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        hops.append(fn.__name__)
        assert write_lock_free(db) or fn.__name__ == "_steps"  # (`_steps` holds it only while it runs)
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.core.Connection, "_execute", counted)
    before = seconds_since_last_write(db.engine)
    async with db.sessions() as s:
        await save_action(
            session=s, game_id=game_id, expected_version=version, game=game, announce=Announce("player", "tok", 42)
        )
        assert hops == ["_steps"] and write_lock_free(db)
        row = written(s)
    assert row is not None and row.version == version + 1 and row.interaction_token == "tok"
    after = seconds_since_last_write(db.engine)
    assert after is not None and (before is None or after < before)
    monkeypatch.undo()
    async with db.sessions() as s:
        assert (await load_game(session=s, game_id=game_id)).version == version + 1
        stored = (await s.execute(text("SELECT id, version FROM announcements"))).all()
    assert [tuple(r) for r in stored] == [(row.id, version + 1)]


async def test_steps_that_fail_write_nothing(db) -> None:  # type: ignore[no-untyped-def]
    """A step matching another row count than it expects, or failing, undoes the whole write; the
    session and the writers' turn are usable right after."""
    if db.backend == "sqlite":
        without_sqlite_waits(db)  # a turn left held would make the next write fail at once
    players = Player.__table__
    insert = players.insert().values(color_blind=False, created_at=utcnow(), updated_at=utcnow())
    rename = players.update().where(players.c.user_id == bindparam("b_user"))
    async with db.sessions() as s:
        keys = await write_steps(s, [Step(insert, {"user_id": USER, "preferences": {}}, key=True)])
        assert keys == [USER]
        unmatched = [
            Step(insert, {"user_id": USER + 1, "preferences": {}}),
            Step(rename, {"b_user": USER + 7, "display_name": "nobody"}, expect=1),
        ]
        assert await write_steps(s, unmatched) is None
        with pytest.raises(IntegrityError):
            await write_steps(
                s,
                [
                    Step(insert, {"user_id": USER + 2, "preferences": {}}),
                    Step(insert, {"user_id": USER, "preferences": {}}),
                ],
            )
        renamed = [Step(rename, {"b_user": USER, "display_name": "ada"}, expect=1)]
        assert await write_steps(s, renamed) == [None]
        rows = (await s.execute(text("SELECT user_id, display_name FROM players"))).all()
    assert [(user - USER, name) for user, name in rows] == [(0, "ada")]


def without_sqlite_waits(db) -> None:  # type: ignore[no-untyped-def]
    """SQLite's own wait for the write lock turned off: a writer that meets another fails at once."""

    @event.listens_for(db.engine.sync_engine, "connect")
    def no_busy_wait(dbapi_connection, record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.execute("PRAGMA busy_timeout=0")

    db.engine.sync_engine.pool.dispose()  # connections made from now on have no busy wait


async def write_players(db, users) -> None:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        async with writing(s):
            for user in users:
                s.add(Player(user_id=user))
                await s.flush()  # one statement, one thread hop, at a time: the lock is held across hops


async def test_writers_of_one_process_take_turns_instead_of_meeting_at_the_lock(db) -> None:  # type: ignore[no-untyped-def]
    """Twenty writers at once, each holding the write lock over three statements: every one is
    written though SQLite itself would refuse a writer that finds the lock taken."""
    only(db, "sqlite")
    without_sqlite_waits(db)
    await asyncio.gather(*(write_players(db, [USER + 3 * i + k for k in range(3)]) for i in range(20)))
    async with db.sessions() as s:
        assert (await s.execute(text("SELECT count(*) FROM players"))).scalar_one() == 60


async def test_a_failed_or_cancelled_writer_gives_up_its_turn(db) -> None:  # type: ignore[no-untyped-def]
    only(db, "sqlite")
    without_sqlite_waits(db)
    db.engine.dialect.dbapi.writers.wait = 600.0  # a turn never given up would hang the waits below
    await write_players(db, [USER])
    with pytest.raises(IntegrityError):
        await write_players(db, [USER + 1, USER])  # the second row fails: rolled back
    waiting = asyncio.create_task(write_players(db, [USER + 2]))
    holding = asyncio.create_task(write_players(db, [USER + 3, USER + 4]))
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.wait_for(asyncio.gather(holding, waiting, return_exceptions=True), 10)
    async with db.sessions() as s:
        await begin_write(s)
        await s.execute(text("SELECT 1"))  # BEGIN IMMEDIATE: this connection's turn
        await (await s.connection()).invalidate()  # a connection dropped mid-write ends its turn too
    await asyncio.wait_for(write_players(db, [USER + 5]), 10)
    async with db.sessions() as s:
        rows = (await s.execute(text("SELECT user_id FROM players ORDER BY user_id"))).scalars().all()
    assert [user - USER for user in rows] in ([0, 3, 4, 5], [0, 2, 3, 4, 5])


# ---------------------------------------------------------------------- PostgreSQL


def terminate_in_another_thread(url: str, pid: int) -> None:
    """pg_terminate_backend(pid), waited for, while this thread's event loop is held up."""

    async def terminate() -> None:
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
            while await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
                await asyncio.sleep(0.01)
        finally:
            await conn.close()

    thread = threading.Thread(target=asyncio.run, args=(terminate(),))
    thread.start()
    thread.join()


@pytest.mark.parametrize("loop_noticed", [True, False], ids=["noticed", "unread"])
async def test_a_connection_the_server_closed_is_replaced_before_it_fails_a_call(
    db, monkeypatch, loop_noticed: bool
) -> None:  # type: ignore[no-untyped-def]
    """A restart or pg_terminate_backend closes pooled connections; the next transaction gets a
    live one. `unread`: the event loop has not read the server's goodbye yet when the connection is
    checked out. A healthy connection is checked out without a ping."""
    only(db, "postgresql")
    game_id = await stored_game(db)
    pings = []
    original = AsyncAdapt_asyncpg_connection.ping

    def counted(self):  # type: ignore[no-untyped-def]
        pings.append(1)
        return original(self)

    monkeypatch.setattr(AsyncAdapt_asyncpg_connection, "ping", counted)
    async with db.sessions() as s:
        pid = (await s.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    async with db.sessions() as s:
        assert (await s.execute(text("SELECT pg_backend_pid()"))).scalar_one() == pid
    assert pings == []

    terminate_in_another_thread(db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False), pid)
    if loop_noticed:
        await asyncio.sleep(0.1)
    else:
        time.sleep(0.05)  # the goodbye is in the socket; the loop has not run
    async with db.sessions() as s:
        stamp = await game_stamp(session=s, game_id=game_id)
        new_pid = (await s.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    assert stamp is not None and new_pid != pid
    assert len(pings) == (0 if loop_noticed else 1)
