"""Read queries the bot needs: a player's active games, history, per-player stats."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached
from storage.models import ACTIVE, FINISHED, GameRecord, SeatRecord


@dataclass
class GameSummary:
    record: GameRecord
    seats: list[SeatRecord]


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    games: int  # finished games played
    wins: int  # ranked first (shared firsts count)
    average_score: float | None
    best_score: int | None
    tickets_completed: int
    tickets_failed: int
    longest_bonuses: int  # longest-path bonuses won


async def player_active_games(*, session: AsyncSession, user_id: int) -> list[GameRecord]:
    """Active games, on every server, where the user holds a seat they have not left."""
    rows = await session.execute(
        select(GameRecord)
        .join(SeatRecord, SeatRecord.game_id == GameRecord.id)
        .where(SeatRecord.user_id == user_id, SeatRecord.left.is_(None), GameRecord.status == ACTIVE)
        .order_by(GameRecord.updated_at.desc(), GameRecord.id.desc())
    )
    records = list(rows.scalars().unique().all())
    detached(session, *records)
    return records


async def _with_seats(session: AsyncSession, records: list[GameRecord]) -> list[GameSummary]:
    if not records:
        return []
    ids = [r.id for r in records]
    seats = (
        (await session.execute(select(SeatRecord).where(SeatRecord.game_id.in_(ids)).order_by(SeatRecord.seat)))
        .scalars()
        .all()
    )
    detached(session, *records, *seats)
    by_game: dict[int, list[SeatRecord]] = {i: [] for i in ids}  # type: ignore[misc]
    for seat in seats:
        by_game[seat.game_id].append(seat)
    return [GameSummary(record=r, seats=by_game[r.id]) for r in records]  # type: ignore[index]


async def game_history(
    *,
    session: AsyncSession,
    guild_id: int | None = None,
    user_id: int | None = None,
    limit: int = 20,
    offset: int = 0,
) -> list[GameSummary]:
    """Finished games, newest first, of a guild and/or a player (all of them with neither)."""
    query = select(GameRecord).where(GameRecord.status == FINISHED)
    if guild_id is not None:
        query = query.where(GameRecord.guild_id == guild_id)
    if user_id is not None:
        query = query.where(GameRecord.id.in_(select(SeatRecord.game_id).where(SeatRecord.user_id == user_id)))
    query = query.order_by(GameRecord.finished_at.desc(), GameRecord.id.desc()).limit(limit).offset(offset)
    records = list((await session.execute(query)).scalars().all())
    return await _with_seats(session, records)


async def player_stats(*, session: AsyncSession, user_id: int, guild_id: int | None = None) -> PlayerStats:
    """Totals over a player's finished games (in one guild, or everywhere)."""
    conditions = [SeatRecord.user_id == user_id, GameRecord.status == FINISHED]
    if guild_id is not None:
        conditions.append(GameRecord.guild_id == guild_id)
    row = (
        await session.execute(
            select(
                func.count(),
                func.coalesce(func.sum(case((SeatRecord.rank == 1, 1), else_=0)), 0),
                func.avg(SeatRecord.final_score * 1.0),
                func.max(SeatRecord.final_score),
                func.coalesce(func.sum(SeatRecord.tickets_completed), 0),
                func.coalesce(func.sum(SeatRecord.tickets_failed), 0),
                func.coalesce(func.sum(case((SeatRecord.longest_bonus.is_(True), 1), else_=0)), 0),
            )
            .select_from(SeatRecord)
            .join(GameRecord, and_(GameRecord.id == SeatRecord.game_id))
            .where(*conditions)
        )
    ).one()
    games, wins, average, best, completed, failed, longest = row
    return PlayerStats(
        user_id=user_id,
        games=int(games),
        wins=int(wins),
        average_score=float(average) if average is not None else None,
        best_score=best,
        tickets_completed=int(completed),
        tickets_failed=int(failed),
        longest_bonuses=int(longest),
    )


async def leaderboard(*, session: AsyncSession, guild_id: int, limit: int = 10) -> list[PlayerStats]:
    """A guild's players by wins, then average score (finished games only)."""
    wins = func.sum(case((SeatRecord.rank == 1, 1), else_=0))
    average = func.avg(SeatRecord.final_score * 1.0)
    rows = (
        await session.execute(
            select(
                SeatRecord.user_id,
                func.count(),
                wins,
                average,
                func.max(SeatRecord.final_score),
                func.coalesce(func.sum(SeatRecord.tickets_completed), 0),
                func.coalesce(func.sum(SeatRecord.tickets_failed), 0),
                func.coalesce(func.sum(case((SeatRecord.longest_bonus.is_(True), 1), else_=0)), 0),
            )
            .join(GameRecord, GameRecord.id == SeatRecord.game_id)
            .where(GameRecord.guild_id == guild_id, GameRecord.status == FINISHED, SeatRecord.user_id.is_not(None))
            .group_by(SeatRecord.user_id)
            .order_by(wins.desc(), average.desc(), SeatRecord.user_id)
            .limit(limit)
        )
    ).all()
    return [
        PlayerStats(
            user_id=u,
            games=int(g),
            wins=int(w),
            average_score=float(a) if a is not None else None,
            best_score=b,
            tickets_completed=int(c),
            tickets_failed=int(f),
            longest_bonuses=int(lb),
        )
        for u, g, w, a, b, c, f, lb in rows
    ]


async def last_game_in_channel(*, session: AsyncSession, channel_id: int, finished: bool = True) -> GameRecord | None:
    """The newest game played in a channel (finished ones only by default)."""
    query = select(GameRecord).where(GameRecord.channel_id == channel_id)
    if finished:
        query = query.where(GameRecord.status == FINISHED)
    record = (await session.execute(query.order_by(GameRecord.id.desc()).limit(1))).scalar_one_or_none()
    detached(session, record)
    return record
