"""`writing`: one write transaction that commits on success and rolls back on any exception; the PostgreSQL pool settings."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, text

from storage.database import make_engine, writing
from storage.errors import LobbyError
from storage.lobbies import open_lobby, open_lobby_in_channel
from storage.models import Player

USER = 2**62 + 7


async def players(db) -> list[int]:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        return list((await s.execute(select(Player.user_id))).scalars())


async def test_commits_on_success(db) -> None:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        async with writing(s):
            s.add(Player(user_id=USER))
        assert not s.in_transaction()
    assert await players(db) == [USER]


@pytest.mark.parametrize("error", [ValueError("refused"), asyncio.CancelledError()])
async def test_rolls_back_and_reraises(db, error: BaseException) -> None:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        with pytest.raises(type(error)) as info:
            async with writing(s):
                s.add(Player(user_id=USER))
                await s.flush()
                raise error
        assert info.value is error
        assert not s.in_transaction() and not s.new
        async with writing(s):  # the session is usable again
            s.add(Player(user_id=USER + 1))
    assert await players(db) == [USER + 1]


async def test_translated_error_after_rollback(db) -> None:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        await open_lobby(session=s, guild_id=1, channel_id=2, host_id=USER, map_id="europe")
        with pytest.raises(LobbyError, match="already has an open lobby") as info:
            await open_lobby(session=s, guild_id=1, channel_id=2, host_id=USER + 1, map_id="europe")
        assert info.value.__cause__ is None and info.value.__suppress_context__
        assert not s.in_transaction()
        lobby = await open_lobby_in_channel(session=s, channel_id=2)
        assert lobby is not None and lobby.host_id == USER


@pytest.mark.parametrize("pgbouncer", [False, True])
async def test_postgresql_pool_settings_and_pgbouncer_mode(db_url: str, monkeypatch, pgbouncer: bool) -> None:  # type: ignore[no-untyped-def]
    """DB_POOL_SIZE and DB_MAX_OVERFLOW size a process's PostgreSQL pool; DB_PGBOUNCER leaves no
    prepared statement on the server connection past its transaction (transaction pooling hands
    the next transaction another server connection)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's pool")
    monkeypatch.setenv("DB_POOL_SIZE", "2")
    monkeypatch.setenv("DB_MAX_OVERFLOW", "1")
    monkeypatch.setenv("DB_PGBOUNCER", str(pgbouncer).lower())
    engine = make_engine(db_url)
    try:
        assert (engine.pool.size(), engine.pool._max_overflow) == (2, 1)  # type: ignore[attr-defined]
        async with engine.connect() as conn:
            for n in range(3):
                assert (await conn.execute(text("SELECT :n + 1"), {"n": n})).scalar() == n + 1
            await conn.commit()
            query = "SELECT count(*) FROM pg_prepared_statements WHERE statement NOT LIKE '%pg_prepared_statements%'"
            kept = (await conn.execute(text(query))).scalar()
        assert (kept == 0) == pgbouncer, kept
    finally:
        await engine.dispose()
