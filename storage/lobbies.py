"""Lobbies: a game being gathered before it exists. One open lobby per channel (a unique index);
joins are rows of `lobby_members`, checked against the seat limit under the lobby's row lock.
`create_game(..., lobby_id=...)` starts the game and closes its lobby in one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached, writing
from storage.errors import (
    AlreadyInLobbyError,
    LobbyAlreadyOpenError,
    LobbyFullError,
    LobbyNotOpenError,
)
from storage.models import CANCELLED, OPEN, Lobby, LobbyMember, utcnow


async def open_lobby(
    *,
    session: AsyncSession,
    guild_id: int,
    channel_id: int,
    host_id: int,
    map_id: str,
    options: dict[str, Any] | None = None,
    max_seats: int = 5,
    host_color: str | None = None,
) -> Lobby:
    """Open a lobby with its host as the first member, in `host_color` (`LobbyAlreadyOpenError` if
    the channel has one)."""
    now = utcnow()
    lobby = Lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        map_id=map_id,
        options=options or {},
        max_seats=max_seats,
        created_at=now,
        updated_at=now,
    )
    try:
        async with writing(session):
            session.add(lobby)
            await session.flush()
            session.add(LobbyMember(lobby_id=lobby.id, user_id=host_id, color=host_color, joined_at=now))
    except IntegrityError:
        raise LobbyAlreadyOpenError("channel {channel} already has an open lobby", channel=channel_id) from None
    detached(session, lobby)
    return lobby


async def open_lobby_in_channel(*, session: AsyncSession, channel_id: int) -> Lobby | None:
    rows = await session.execute(select(Lobby).where(Lobby.channel_id == channel_id, Lobby.status == OPEN))
    lobby = rows.scalar_one_or_none()
    detached(session, lobby)
    return lobby


async def lobby_members(*, session: AsyncSession, lobby_id: int) -> list[LobbyMember]:
    rows = await session.execute(
        select(LobbyMember).where(LobbyMember.lobby_id == lobby_id).order_by(LobbyMember.joined_at, LobbyMember.user_id)
    )
    members = list(rows.scalars().all())
    detached(session, *members)
    return members


async def _lock_open(session: AsyncSession, lobby_id: int) -> None:
    """Lock the lobby row for this transaction (PostgreSQL row lock; SQLite holds the write lock)."""
    result = await session.execute(
        update(Lobby).where(Lobby.id == lobby_id, Lobby.status == OPEN).values(updated_at=utcnow()),
        execution_options={"synchronize_session": False},
    )
    if result.rowcount != 1:
        raise LobbyNotOpenError("lobby {lobby} is not open", lobby=lobby_id)


async def join_lobby(
    *, session: AsyncSession, lobby_id: int, user_id: int, color: str | None = None
) -> list[LobbyMember]:
    """Add a player; raises `LobbyNotOpenError`, `LobbyFullError` or `AlreadyInLobbyError`."""
    try:
        async with writing(session):
            await _lock_open(session, lobby_id)
            max_seats = (await session.execute(select(Lobby.max_seats).where(Lobby.id == lobby_id))).scalar_one()
            count = (await session.execute(select(func.count()).where(LobbyMember.lobby_id == lobby_id))).scalar_one()
            if count >= max_seats:
                raise LobbyFullError("lobby {lobby} is full ({seats} seats)", lobby=lobby_id, seats=max_seats)
            session.add(LobbyMember(lobby_id=lobby_id, user_id=user_id, color=color, joined_at=utcnow()))
            await session.flush()
    except IntegrityError:
        raise AlreadyInLobbyError("user {user} is already in lobby {lobby}", user=user_id, lobby=lobby_id) from None
    return await lobby_members(session=session, lobby_id=lobby_id)


async def leave_lobby(*, session: AsyncSession, lobby_id: int, user_id: int) -> bool:
    """Remove a player; False if they were not in it."""
    async with writing(session):
        await _lock_open(session, lobby_id)
        member = await session.get(LobbyMember, (lobby_id, user_id))
        if member is not None:
            await session.delete(member)
    return member is not None


async def cancel_lobby(*, session: AsyncSession, lobby_id: int) -> None:
    async with writing(session):
        await _lock_open(session, lobby_id)
        await session.execute(
            update(Lobby).where(Lobby.id == lobby_id).values(status=CANCELLED),
            execution_options={"synchronize_session": False},
        )


@dataclass(frozen=True)
class RowProblem:
    """A row a background task could not read: its id and what went wrong (for the log)."""

    id: int
    error: str


@dataclass
class ExpiredLobbies:
    """What `expire_idle_lobbies` did: iterating gives the cancelled lobbies it could read;
    `problems` the cancelled ones it could not (damaged rows), to log."""

    lobbies: list[Lobby] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)

    def __iter__(self) -> Iterator[Lobby]:
        return iter(self.lobbies)


async def expire_idle_lobbies(*, session: AsyncSession, idle_minutes: int) -> ExpiredLobbies:
    """Cancel the open lobbies nobody touched for `idle_minutes`; returns them.

    The cancel is one UPDATE that reads nothing into Python, so a damaged row (broken JSON, a
    time that does not convert) is cancelled like the others and cannot stop the expiry for good;
    such a row is then reported in `problems` instead of returned."""
    cutoff = utcnow() - timedelta(minutes=idle_minutes)
    async with writing(session):
        cancelled = await session.execute(
            update(Lobby)
            .where(Lobby.status == OPEN, Lobby.updated_at < cutoff)
            .values(status=CANCELLED)
            .returning(Lobby.id)
            .execution_options(synchronize_session=False)
        )
        ids = sorted(cancelled.scalars().all())
    result = ExpiredLobbies()
    for lobby_id in ids:
        try:
            lobby = (await session.execute(select(Lobby).where(Lobby.id == lobby_id))).scalar_one()
        except Exception as exc:  # noqa: BLE001  (a damaged row: whatever the driver or a column type raises)
            await session.rollback()
            result.problems.append(RowProblem(lobby_id, f"{type(exc).__name__}: {exc}"))
            continue
        detached(session, lobby)
        result.lobbies.append(lobby)
    return result
