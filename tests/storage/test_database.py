"""`writing`: one write transaction that commits on success and rolls back on any exception."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from storage.database import writing
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
