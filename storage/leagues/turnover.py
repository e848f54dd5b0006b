"""Seasons turning over: opening one closes the league's current season (`create_season`), and so
does its last day passing (`close_season`, claimed in one transaction: one process closes it); the
Discord work a close leaves, roles and the results post, are `CloseTask` rows claimed with a lease.

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from storage.database import detached, writing
from storage.errors import (
    InvalidSeasonError,
    LeagueNameTakenError,
)
from storage.leagues.rerating import needs_recompute, recompute_season
from storage.leagues.seasons import active_season, audit_entry, season_or_error
from storage.leagues.standings import Standing, standings
from storage.models import (
    ADD_ROLE,
    ANNOUNCE,
    REMOVE_ROLE,
    SEASON_ACTIVE,
    SEASON_CLOSED,
    CloseTask,
    Division,
    League,
    Placement,
    Reward,
    RoleHolder,
    Season,
    SeasonResult,
    utcnow,
)


async def create_season(
    *,
    session: AsyncSession,
    league_id: int,
    name: str,
    starts_at: datetime,
    ends_at: datetime,
    created_by: int,
    maps: Sequence[str] = (),
    player_counts: Sequence[int] = (),
    min_games: int = 1,
    carry_over: bool = False,
    min_turns: int = 0,
) -> Season:
    """Open a season (the league's active one); the season active until now is closed in the
    same transaction, as `close_season` closes one (results, promotion and relegation, reward
    roles). `min_turns`: the turns each seat takes for a game to count in full (`game_results`).
    `LeagueError` for a duplicate name or an end before the start."""
    if ends_at <= starts_at:
        raise InvalidSeasonError("a season must end after it starts")
    season = Season(
        league_id=league_id,
        name=name.strip(),
        starts_at=starts_at,
        ends_at=ends_at,
        maps=sorted(set(maps)),
        player_counts=sorted(set(player_counts)),
        min_games=max(0, min_games),
        carry_over=carry_over,
        status=SEASON_ACTIVE,
        min_turns=max(0, min_turns),
    )
    current = await active_season(session=session, league_id=league_id)
    if current is not None and await needs_recompute(session=session, season_id=current.id):
        await recompute_season(session=session, season_id=current.id)
    now = utcnow()
    try:
        async with writing(session):
            closed = await session.execute(
                update(Season)
                .where(Season.league_id == league_id, Season.status == SEASON_ACTIVE)
                .values(status=SEASON_CLOSED, closed_at=now)
                .returning(Season.id)
                .execution_options(synchronize_session=False)
            )
            closed_ids = [i for (i,) in closed]
            for old in closed_ids:
                await _plan_close(session, old)
                audit_entry(session, league_id=league_id, season_id=old, user_id=created_by, action="close_season")
            session.add(season)
            await session.flush()
            audit_entry(
                session,
                league_id=league_id,
                season_id=season.id,
                user_id=created_by,
                action="create_season",
                name=season.name,
                starts_at=starts_at.isoformat(),
                ends_at=ends_at.isoformat(),
                maps=season.maps,
                player_counts=season.player_counts,
                min_games=season.min_games,
                carry_over=carry_over,
                min_turns=season.min_turns,
            )
    except IntegrityError:
        raise LeagueNameTakenError("this league already has a season called {name!r}", name=name) from None
    detached(session, season)
    return season


#: How long a process holds a claimed close task before another may take it over.
TASK_LEASE_SECONDS = 120


def division_moves(ranked: Sequence[int], *, promote: int, relegate: int, top: bool, bottom: bool) -> dict[int, str]:
    """A division's final order (best first) → who goes up or down: the first `promote` (not from
    the top division), then the last `relegate` of those left (not from the bottom one)."""
    up = [] if top else list(ranked[:promote])
    rest = [u for u in ranked if u not in up]
    down = [] if bottom or relegate <= 0 else rest[-relegate:]
    return {**{u: "up" for u in up}, **{u: "down" for u in down}}


async def _plan_close(session: AsyncSession, season_id: int) -> None:
    """In the transaction that closed the season: its final standings per division, promotion
    and relegation (the placements change now), the reward roles to give and take, and the
    results post, as tasks for the bot (`claim_close_tasks`)."""
    season = await season_or_error(session, season_id)
    league = await session.get(League, season.league_id)
    divisions = list(
        (
            await session.execute(
                select(Division)
                .where(Division.league_id == league.id)  # type: ignore[union-attr]
                .order_by(Division.level)
            )
        ).scalars()
    )
    placed = {
        u: d
        for u, d in (
            await session.execute(
                select(Placement.user_id, Placement.division_id).where(Placement.league_id == season.league_id)
            )
        ).all()
    }
    table, _ = await standings(session=session, season_id=season_id)
    by_division: dict[int | None, list[Standing]] = {}
    for row in table:
        by_division.setdefault(placed.get(row.user_id) if divisions else None, []).append(row)
    level_of = {d.id: i for i, d in enumerate(divisions)}
    results = []
    for division_id, rows in by_division.items():
        division = divisions[level_of[division_id]] if division_id is not None else None
        moves = (
            {}
            if division is None
            else division_moves(
                [r.user_id for r in rows],
                promote=division.promote,
                relegate=division.relegate,
                top=level_of[division_id] == 0,
                bottom=level_of[division_id] == len(divisions) - 1,
            )
        )  # type: ignore[index]
        for place, row in enumerate(rows, start=1):
            outcome, target = moves.get(row.user_id, "stay"), division_id
            if divisions and division is None:  # qualified without a division: placed in the bottom one
                outcome, target = "new", divisions[-1].id
            elif outcome != "stay":
                target = divisions[level_of[division_id] + (-1 if outcome == "up" else 1)].id  # type: ignore[index]
            results.append(
                SeasonResult(
                    season_id=season_id,
                    user_id=row.user_id,
                    division_id=division_id,
                    place=place,
                    rating=row.rating,
                    games=row.games,
                    outcome=outcome,
                    to_division_id=target,
                )
            )
    session.add_all(results)
    for result in results:
        if result.outcome == "new":
            session.add(
                Placement(league_id=season.league_id, user_id=result.user_id, division_id=result.to_division_id)
            )  # type: ignore[arg-type]
        elif result.outcome != "stay":
            await session.execute(
                update(Placement)
                .where(Placement.league_id == season.league_id, Placement.user_id == result.user_id)
                .values(division_id=result.to_division_id)
                .execution_options(synchronize_session=False)
            )
    wanted: dict[int, set[int]] = {}
    for reward in (await session.execute(select(Reward).where(Reward.league_id == season.league_id))).scalars():
        ranked = (
            [r.user_id for r in table]
            if reward.division_id is None
            else [r.user_id for r in results if r.division_id == reward.division_id]
        )
        wanted.setdefault(reward.role_id, set()).update(ranked[: reward.top])
    held: dict[int, set[int]] = {}
    for holder in (await session.execute(select(RoleHolder).where(RoleHolder.league_id == season.league_id))).scalars():
        held.setdefault(holder.role_id, set()).add(holder.user_id)
    tasks = []
    for role_id in sorted(set(wanted) | set(held)):
        now_held, then = held.get(role_id, set()), wanted.get(role_id, set())
        for kind, users in ((REMOVE_ROLE, now_held - then), (ADD_ROLE, then - now_held)):
            tasks += [
                CloseTask(season_id=season_id, guild_id=league.guild_id, kind=kind, user_id=u, role_id=role_id)
                for u in sorted(users)
            ]
        await session.execute(
            delete(RoleHolder).where(
                RoleHolder.league_id == season.league_id,
                RoleHolder.role_id == role_id,
                RoleHolder.user_id.in_(now_held - then),
            )
        )
        session.add_all(RoleHolder(league_id=season.league_id, role_id=role_id, user_id=u) for u in then - now_held)
    tasks.append(CloseTask(season_id=season_id, guild_id=league.guild_id, kind=ANNOUNCE))  # type: ignore[union-attr]
    session.add_all(tasks)


async def due_seasons(*, session: AsyncSession, now: datetime | None = None) -> list[tuple[Season, int]]:
    """Open seasons whose last day has passed, with their league's guild."""
    rows = await session.execute(
        select(Season, League.guild_id)
        .join(League, League.id == Season.league_id)
        .where(Season.status == SEASON_ACTIVE, Season.ends_at <= (now or utcnow()))
        .order_by(Season.ends_at, Season.id)
    )
    found = [(season, guild) for season, guild in rows.all()]
    detached(session, *(s for s, _ in found))
    return found


async def close_season(
    *, session: AsyncSession, season_id: int, user_id: int | None = None, now: datetime | None = None
) -> bool:
    """Close an open season: settle its games, then in one transaction claim it (only one caller,
    of any process, gets True), write its results, promotions, relegations, and the Discord
    tasks (`claim_close_tasks`). False: it was closed already."""
    now = now or utcnow()
    if await needs_recompute(session=session, season_id=season_id):
        await recompute_season(session=session, season_id=season_id)
    async with writing(session):
        claimed = await session.execute(
            update(Season)
            .where(Season.id == season_id, Season.status == SEASON_ACTIVE)
            .values(status=SEASON_CLOSED, closed_at=now)
            .returning(Season.league_id)
            .execution_options(synchronize_session=False)
        )
        league_id = claimed.scalar()
        if league_id is None:
            return False
        await _plan_close(session, season_id)
        audit_entry(session, league_id=league_id, season_id=season_id, user_id=user_id, action="close_season")
    return True


async def claim_close_tasks(
    *, session: AsyncSession, guild_ids: Iterable[int] | None = None, now: datetime | None = None, limit: int = 20
) -> list[CloseTask]:
    """Pending close tasks this caller now holds (a lease of `TASK_LEASE_SECONDS`): role changes
    first; a season's results post once its role changes are all done. `guild_ids`: only these
    guilds' (a shard process's)."""
    now = now or utcnow()
    free = sa.and_(CloseTask.done_at.is_(None), sa.or_(CloseTask.lease_until.is_(None), CloseTask.lease_until < now))
    role_task = aliased(CloseTask)
    roles_left = select(sa.literal(1)).where(
        role_task.season_id == CloseTask.season_id, role_task.kind != ANNOUNCE, role_task.done_at.is_(None)
    )
    query = (
        select(CloseTask.id)
        .where(free, sa.or_(CloseTask.kind != ANNOUNCE, ~roles_left.exists()))
        .order_by(CloseTask.kind == ANNOUNCE, CloseTask.id)
        .limit(limit)
    )
    if guild_ids is not None:
        query = query.where(CloseTask.guild_id.in_(list(guild_ids)))
    claimed = []
    async with writing(session):
        for task_id in (await session.execute(query)).scalars().all():
            row = await session.execute(
                update(CloseTask)
                .where(CloseTask.id == task_id, free)
                .values(lease_until=now + timedelta(seconds=TASK_LEASE_SECONDS))
                .returning(CloseTask)
                .execution_options(synchronize_session=False)
            )
            task = row.scalar_one_or_none()
            if task is not None:
                claimed.append(task)
    detached(session, *claimed)
    return claimed


async def finish_close_task(
    *, session: AsyncSession, task_id: int, error: str | None = None, now: datetime | None = None
) -> None:
    """A claimed task is done (`error`: what Discord refused; it is not tried again)."""
    async with writing(session):
        await session.execute(
            update(CloseTask)
            .where(CloseTask.id == task_id)
            .values(done_at=now or utcnow(), error=error[:200] if error else None)
            .execution_options(synchronize_session=False)
        )


async def season_results(*, session: AsyncSession, season_id: int) -> list[SeasonResult]:
    """A closed season's final standings per division (the top division first), with moves."""
    rows = await session.execute(
        select(SeasonResult)
        .outerjoin(Division, Division.id == SeasonResult.division_id)
        .where(SeasonResult.season_id == season_id)
        .order_by(Division.level.is_(None), Division.level, SeasonResult.place)
    )
    results = list(rows.scalars().all())
    detached(session, *results)
    return results


async def close_tasks(*, session: AsyncSession, season_id: int) -> list[CloseTask]:
    rows = await session.execute(select(CloseTask).where(CloseTask.season_id == season_id).order_by(CloseTask.id))
    tasks = list(rows.scalars().all())
    detached(session, *tasks)
    return tasks
