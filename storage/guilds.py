"""Deleting a guild's data: when the bot leaves a guild, or an admin asks."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import writing
from storage.models import ActionRecord, GameRecord, GuildSettings, League, Lobby, LobbyMember, SeatRecord, Tournament

_NO_SYNC = {"synchronize_session": False}


@dataclass(frozen=True)
class DeletedCounts:
    games: int
    actions: int
    seats: int
    lobbies: int
    settings: int
    leagues: int
    tournaments: int


async def delete_guild_data(*, session: AsyncSession, guild_id: int) -> DeletedCounts:
    """Delete every game (with its log, seats and clocks), lobby, league, tournament and setting of a
    guild, in one transaction.
    Players are not a guild's data (they play on other servers too) and stay."""
    async with writing(session):
        games = select(GameRecord.id).where(GameRecord.guild_id == guild_id).scalar_subquery()
        lobbies = select(Lobby.id).where(Lobby.guild_id == guild_id).scalar_subquery()
        actions = await session.execute(
            delete(ActionRecord).where(ActionRecord.game_id.in_(games)), execution_options=_NO_SYNC
        )
        seats = await session.execute(
            delete(SeatRecord).where(SeatRecord.game_id.in_(games)), execution_options=_NO_SYNC
        )
        await session.execute(delete(LobbyMember).where(LobbyMember.lobby_id.in_(lobbies)), execution_options=_NO_SYNC)
        lobby_rows = await session.execute(delete(Lobby).where(Lobby.guild_id == guild_id), execution_options=_NO_SYNC)
        game_rows = await session.execute(
            delete(GameRecord).where(GameRecord.guild_id == guild_id), execution_options=_NO_SYNC
        )
        settings = await session.execute(
            delete(GuildSettings).where(GuildSettings.guild_id == guild_id), execution_options=_NO_SYNC
        )
        # Seasons, ratings, league games and the audit log go with their league (ON DELETE CASCADE);
        # turn clocks, timers, announcements and undo votes went with their games.
        leagues = await session.execute(delete(League).where(League.guild_id == guild_id), execution_options=_NO_SYNC)
        # Entrants, rounds and tables go with their tournament (ON DELETE CASCADE).
        tournaments = await session.execute(
            delete(Tournament).where(Tournament.guild_id == guild_id), execution_options=_NO_SYNC
        )
    return DeletedCounts(
        games=game_rows.rowcount,
        actions=actions.rowcount,
        seats=seats.rowcount,
        lobbies=lobby_rows.rowcount,
        settings=settings.rowcount,
        leagues=leagues.rowcount,
        tournaments=tournaments.rowcount,
    )
