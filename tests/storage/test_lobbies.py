"""Lobbies (SQLite and PostgreSQL): each refusal has its own class, and lobby expiry survives
damaged rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text, update

from storage.errors import (
    AlreadyInLobbyError,
    LobbyAlreadyOpenError,
    LobbyError,
    LobbyFullError,
    LobbyNotOpenError,
    TemplateError,
)
from storage.games import create_game
from storage.lobbies import (
    cancel_lobby,
    expire_idle_lobbies,
    join_lobby,
    leave_lobby,
    open_lobby,
)
from storage.models import CANCELLED, OPEN, Lobby, utcnow
from tests.storage.helpers import new_game

HOST, JOINER = 301, 302


async def test_each_refusal_has_its_class_with_its_data(db) -> None:
    async with db.sessions() as s:
        lobby = await open_lobby(session=s, guild_id=1, channel_id=70, host_id=HOST, map_id="usa", max_seats=2)
        with pytest.raises(LobbyAlreadyOpenError) as refused:
            await open_lobby(session=s, guild_id=1, channel_id=70, host_id=JOINER, map_id="usa")
        assert refused.value.params == {"channel": 70}
        with pytest.raises(AlreadyInLobbyError) as refused:
            await join_lobby(session=s, lobby_id=lobby.id, user_id=HOST)
        assert str(refused.value) == f"user {HOST} is already in lobby {lobby.id}"  # bot/lobbies.py reads "already"
        await join_lobby(session=s, lobby_id=lobby.id, user_id=JOINER)
        with pytest.raises(LobbyFullError) as refused:
            await join_lobby(session=s, lobby_id=lobby.id, user_id=303)
        assert refused.value.params == {"lobby": lobby.id, "seats": 2}
        await cancel_lobby(session=s, lobby_id=lobby.id)
        for attempt in (
            join_lobby(session=s, lobby_id=lobby.id, user_id=303),
            leave_lobby(session=s, lobby_id=lobby.id, user_id=JOINER),
            create_game(
                session=s, guild_id=1, channel_id=70, game=new_game(seats=2), players=[HOST, JOINER], lobby_id=lobby.id
            ),
        ):
            with pytest.raises(LobbyNotOpenError):
                await attempt
    for cls in (LobbyAlreadyOpenError, LobbyNotOpenError, LobbyFullError, AlreadyInLobbyError):
        assert issubclass(cls, LobbyError) and issubclass(cls, TemplateError)


async def idle(s, *lobbies: Lobby) -> None:  # type: ignore[no-untyped-def]
    await s.execute(
        update(Lobby)
        .where(Lobby.id.in_([lobby.id for lobby in lobbies]))
        .values(updated_at=utcnow() - timedelta(hours=2))
    )
    await s.commit()


async def test_expiry_cancels_and_returns_idle_lobbies_only(db) -> None:
    async with db.sessions() as s:
        old = await open_lobby(session=s, guild_id=1, channel_id=71, host_id=HOST, map_id="usa")
        fresh = await open_lobby(session=s, guild_id=1, channel_id=72, host_id=HOST, map_id="usa")
        await idle(s, old)
        expired = await expire_idle_lobbies(session=s, idle_minutes=60)
        assert [lobby.id for lobby in expired] == [old.id] and expired.problems == []
        assert [lobby.status for lobby in expired] == [CANCELLED]
        assert (await expire_idle_lobbies(session=s, idle_minutes=60)).lobbies == []
        assert (await s.get(Lobby, fresh.id)).status == OPEN


async def test_damaged_rows_are_reported_and_do_not_stop_expiry(db) -> None:
    """Broken JSON and a time that does not convert: before, the first such row failed every run."""
    if db.backend != "sqlite":
        pytest.skip("PostgreSQL checks JSON and timestamps on write: its rows cannot be damaged this way")
    async with db.sessions() as s:
        lobbies = [
            await open_lobby(session=s, guild_id=1, channel_id=90 + n, host_id=HOST, map_id="usa") for n in range(4)
        ]
        await idle(s, *lobbies)
        await s.execute(text("UPDATE lobbies SET options = '{not json' WHERE id = :id"), {"id": lobbies[1].id})
        await s.execute(text("UPDATE lobbies SET created_at = 'yesterday' WHERE id = :id"), {"id": lobbies[2].id})
        await s.commit()
        expired = await expire_idle_lobbies(session=s, idle_minutes=60)
        assert [lobby.id for lobby in expired] == [lobbies[0].id, lobbies[3].id]
        assert [p.id for p in expired.problems] == [lobbies[1].id, lobbies[2].id]
        assert "JSON" in expired.problems[0].error and expired.problems[1].error
        # All four were cancelled, the damaged ones too: the next run has nothing left, and their
        # channels take a new lobby.
        assert (await expire_idle_lobbies(session=s, idle_minutes=60)).problems == []
        statuses = (await s.execute(text("SELECT status FROM lobbies ORDER BY id"))).scalars().all()
        assert statuses == [CANCELLED] * 4
        await open_lobby(session=s, guild_id=1, channel_id=91, host_id=HOST, map_id="usa")
