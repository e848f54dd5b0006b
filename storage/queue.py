"""The leagues' matchmaking queue: who waits where, each league's rules, and the tables the
matcher makes (the matching itself is pure: storage/matchmaking.py).

A table is made in two transactions, so that a conflict is settled before anything is posted:
1. `reserve`: the match row is written and *every* waiting entry of its players (in any queue)
   points at it — `SELECT … FOR UPDATE` (PostgreSQL; SQLite's write lock) then a conditional update
   on `match_id IS NULL`; if an entry the matcher chose was left or taken meanwhile, nothing is
   kept. So two processes on one PostgreSQL never reserve one player twice.
2. `take`, inside the game's own transaction (storage.games.create_game's `link`): the reserved
   entries are deleted and the match gets its game (`game_id IS NULL` checked), so a match is made
   into at most one game, however often it is retried.

Every function is keyword-only and takes the session; write functions commit, except `take`
(it runs inside the caller's transaction).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached, writing
from storage.errors import StorageError
from storage.models import LeagueAudit, LeagueRating, QueueEntry, QueueMatch, QueueRules, utcnow
from storage.ratings import OVERALL, displayed


class MatchGoneError(StorageError):
    """The match was made into a game already, or released: this game must not be stored."""


# ---------------------------------------------------------------------------- rules


async def get_rules(*, session: AsyncSession, league_id: int) -> QueueRules | None:
    rules = await session.get(QueueRules, league_id, populate_existing=True)
    detached(session, rules)
    return rules


async def set_rules(
    *,
    session: AsyncSession,
    league_id: int,
    user_id: int,
    sizes: Sequence[int],
    maps: Sequence[str],
    spread: float,
    widen: float,
    channel_id: int | None,
) -> QueueRules:
    """Replace a league's queue rules (audited as `queue_rules`)."""
    async with writing(session):
        rules = await session.get(QueueRules, league_id, populate_existing=True) or QueueRules(league_id=league_id)
        rules.sizes, rules.maps = sorted(set(sizes)), sorted(set(maps))
        rules.spread, rules.widen, rules.channel_id = spread, widen, channel_id
        rules.updated_by, rules.updated_at = user_id, utcnow()
        session.add(rules)
        session.add(
            LeagueAudit(
                league_id=league_id,
                season_id=None,
                user_id=user_id,
                action="queue_rules",
                details={
                    "sizes": rules.sizes,
                    "maps": rules.maps,
                    "spread": spread,
                    "widen": widen,
                    "channel_id": channel_id,
                },
            )
        )
    detached(session, rules)
    return rules


# ---------------------------------------------------------------------------- joining and leaving


async def join(
    *,
    session: AsyncSession,
    league_id: int,
    guild_id: int,
    user_id: int,
    map_id: str | None,
    size: int | None,
    channel_id: int,
    now: datetime | None = None,
) -> QueueEntry | None:
    """A player starts waiting in a queue; None when they wait in that very queue already."""
    entry = QueueEntry(
        league_id=league_id,
        guild_id=guild_id,
        user_id=user_id,
        map_id=map_id or "",
        size=size or 0,
        channel_id=channel_id,
        joined_at=now or utcnow(),
    )
    try:
        async with writing(session):
            session.add(entry)
    except IntegrityError:
        return None
    detached(session, entry)
    return entry


@dataclass(frozen=True)
class Left:
    left: int  # entries removed
    seating: int  # entries kept: a table seating the player is being opened


async def leave(*, session: AsyncSession, guild_id: int, user_id: int, league_id: int | None = None) -> Left:
    """A player stops waiting in the server's queues (or one league's). Entries reserved for a
    table being opened stay: that table is theirs."""
    where = [QueueEntry.guild_id == guild_id, QueueEntry.user_id == user_id]
    if league_id is not None:
        where.append(QueueEntry.league_id == league_id)
    async with writing(session):
        gone = await session.execute(
            delete(QueueEntry).where(*where, QueueEntry.match_id.is_(None)).execution_options(synchronize_session=False)
        )
        kept = (await session.execute(select(sa.func.count()).select_from(QueueEntry).where(*where))).scalar_one()
    return Left(gone.rowcount or 0, kept)


async def entries(
    *, session: AsyncSession, guild_id: int | None = None, league_id: int | None = None, waiting_only: bool = False
) -> list[QueueEntry]:
    """Queue entries (of a server, or a league), longest-waiting first; `waiting_only`: not
    reserved for a table being opened."""
    query = select(QueueEntry).order_by(QueueEntry.joined_at, QueueEntry.id)
    if guild_id is not None:
        query = query.where(QueueEntry.guild_id == guild_id)
    if league_id is not None:
        query = query.where(QueueEntry.league_id == league_id)
    if waiting_only:
        query = query.where(QueueEntry.match_id.is_(None))
    rows = list((await session.execute(query)).scalars())
    detached(session, *rows)
    return rows


async def busy_guilds(*, session: AsyncSession) -> list[int]:
    """Servers with players waiting or a table still to open."""
    waiting = select(QueueEntry.guild_id).where(QueueEntry.match_id.is_(None))
    opening = select(QueueMatch.guild_id).where(QueueMatch.game_id.is_(None))
    rows = await session.execute(sa.union(waiting, opening))
    return sorted(g for (g,) in rows)


async def ratings(*, session: AsyncSession, season_id: int, user_ids: Sequence[int]) -> dict[int, float]:
    """The players' overall openskill ordinals (mu − 3·sigma) in a season; players with no rated
    game in it are missing (the caller uses the default, 0)."""
    if not user_ids:
        return {}
    rows = await session.execute(
        select(LeagueRating.user_id, LeagueRating.mu, LeagueRating.sigma).where(
            LeagueRating.season_id == season_id, LeagueRating.scope == OVERALL, LeagueRating.user_id.in_(list(user_ids))
        )
    )
    return {user: displayed(mu, sigma) for user, mu, sigma in rows.all()}


# ---------------------------------------------------------------------------- making tables


class _Lost(Exception):
    pass


async def reserve(
    *,
    session: AsyncSession,
    league_id: int,
    season_id: int,
    guild_id: int,
    channel_id: int,
    map_id: str,
    entry_ids: Sequence[int],
    user_ids: Sequence[int],
    now: datetime | None = None,
) -> QueueMatch | None:
    """Reserve the players of a table the matcher chose (`entry_ids`, one per player, seats in
    `user_ids` order): all their waiting entries point at a new match. None, with nothing changed,
    when one of the chosen entries is no longer waiting (left, or reserved by another match)."""
    match = QueueMatch(
        league_id=league_id,
        season_id=season_id,
        guild_id=guild_id,
        channel_id=channel_id,
        map_id=map_id,
        user_ids=list(user_ids),
        created_at=now or utcnow(),
    )
    try:
        async with writing(session):
            session.add(match)
            await session.flush()
            lock = (
                select(QueueEntry.id)
                .where(QueueEntry.user_id.in_(list(user_ids)), QueueEntry.match_id.is_(None))
                .order_by(QueueEntry.id)
            )
            if session.bind.dialect.name == "postgresql":
                lock = lock.with_for_update()  # row locks in id order: two reservations queue, never deadlock
            free = [i for (i,) in await session.execute(lock)]
            if not set(entry_ids) <= set(free):
                raise _Lost
            taken = await session.execute(
                update(QueueEntry)
                .where(QueueEntry.id.in_(free), QueueEntry.match_id.is_(None))
                .values(match_id=match.id)
                .execution_options(synchronize_session=False)
            )
            if taken.rowcount != len(free):
                raise _Lost
    except _Lost:
        return None
    detached(session, match)
    return match


async def set_thread(*, session: AsyncSession, match_id: int, thread_id: int) -> None:
    async with writing(session):
        await session.execute(
            update(QueueMatch)
            .where(QueueMatch.id == match_id)
            .values(thread_id=thread_id)
            .execution_options(synchronize_session=False)
        )


async def failed_attempt(*, session: AsyncSession, match_id: int) -> int:
    """Count a failed try to open a match; returns the tries so far."""
    async with writing(session):
        tries = await session.execute(
            update(QueueMatch)
            .where(QueueMatch.id == match_id)
            .values(attempts=QueueMatch.attempts + 1)
            .returning(QueueMatch.attempts)
            .execution_options(synchronize_session=False)
        )
        count = tries.scalar()
    return count or 0


async def take(session: AsyncSession, match_id: int, game_id: int) -> None:
    """Inside the game's transaction (create_game's `link`): the match becomes this game and its
    players stop waiting everywhere. `MatchGoneError` (the game is not stored) when the match was
    made into a game already or released."""
    made = await session.execute(
        update(QueueMatch)
        .where(QueueMatch.id == match_id, QueueMatch.game_id.is_(None))
        .values(game_id=game_id)
        .execution_options(synchronize_session=False)
    )
    if made.rowcount != 1:
        raise MatchGoneError(f"queue match {match_id} is not waiting for a game")
    await session.execute(
        delete(QueueEntry).where(QueueEntry.match_id == match_id).execution_options(synchronize_session=False)
    )


async def release(*, session: AsyncSession, match_id: int) -> None:
    """Give up a match that cannot be opened: its players wait again, as before."""
    async with writing(session):
        await session.execute(
            update(QueueEntry)
            .where(QueueEntry.match_id == match_id)
            .values(match_id=None)
            .execution_options(synchronize_session=False)
        )
        await session.execute(
            delete(QueueMatch)
            .where(QueueMatch.id == match_id, QueueMatch.game_id.is_(None))
            .execution_options(synchronize_session=False)
        )


async def pending_matches(*, session: AsyncSession) -> list[QueueMatch]:
    """Matches still to open (a crash or a failure came between reserving and starting), oldest first."""
    rows = list(
        (
            await session.execute(select(QueueMatch).where(QueueMatch.game_id.is_(None)).order_by(QueueMatch.id))
        ).scalars()
    )
    detached(session, *rows)
    return rows


async def get_match(*, session: AsyncSession, match_id: int) -> QueueMatch | None:
    match = await session.get(QueueMatch, match_id, populate_existing=True)
    detached(session, match)
    return match
