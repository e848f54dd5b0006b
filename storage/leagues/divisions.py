"""Divisions (who plays where, promotion and relegation) and reward roles.

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached, writing
from storage.errors import (
    LeagueNotFoundError,
)
from storage.leagues.seasons import audit_entry
from storage.models import (
    Division,
    Placement,
    Reward,
)


async def league_divisions(*, session: AsyncSession, league_id: int) -> list[Division]:
    """A league's divisions, the top one (level 1) first."""
    rows = await session.execute(select(Division).where(Division.league_id == league_id).order_by(Division.level))
    divisions = list(rows.scalars().all())
    detached(session, *divisions)
    return divisions


async def set_division(
    *,
    session: AsyncSession,
    league_id: int,
    name: str,
    user_id: int,
    promote: int | None = None,
    relegate: int | None = None,
) -> Division:
    """Create a division (below the others) or change its promotion and relegation counts. Audited."""
    async with writing(session):
        division = (
            await session.execute(
                select(Division).where(
                    Division.league_id == league_id, sa.func.lower(Division.name) == name.strip().lower()
                )
            )
        ).scalar_one_or_none()
        if division is None:
            level = (
                await session.execute(select(sa.func.max(Division.level)).where(Division.league_id == league_id))
            ).scalar() or 0
            division = Division(league_id=league_id, name=name.strip(), level=level + 1)
            session.add(division)
        if promote is not None:
            division.promote = max(0, promote)
        if relegate is not None:
            division.relegate = max(0, relegate)
        await session.flush()
        audit_entry(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="set_division",
            name=division.name,
            promote=division.promote,
            relegate=division.relegate,
        )
    detached(session, division)
    return division


async def _division_named(session: AsyncSession, league_id: int, name: str) -> Division:
    division = (
        await session.execute(
            select(Division).where(
                Division.league_id == league_id, sa.func.lower(Division.name) == name.strip().lower()
            )
        )
    ).scalar_one_or_none()
    if division is None:
        raise LeagueNotFoundError("there is no division {name!r}", name=name)
    return division


async def remove_division(*, session: AsyncSession, league_id: int, name: str, user_id: int) -> None:
    """Delete a division (its players become unplaced; the ones below move up a level). Audited."""
    async with writing(session):
        division = await _division_named(session, league_id, name)
        await session.delete(division)
        await session.execute(
            update(Division)
            .where(Division.league_id == league_id, Division.level > division.level)
            .values(level=Division.level - 1)
            .execution_options(synchronize_session=False)
        )
        audit_entry(
            session, league_id=league_id, season_id=None, user_id=user_id, action="remove_division", name=division.name
        )


async def place_player(
    *, session: AsyncSession, league_id: int, player_id: int, division: str, user_id: int
) -> Division:
    """Put a player in a division (`division` by name), wherever they were. Audited."""
    async with writing(session):
        found = await _division_named(session, league_id, division)
        row = await session.get(Placement, (league_id, player_id))
        if row is None:
            session.add(Placement(league_id=league_id, user_id=player_id, division_id=found.id))  # type: ignore[arg-type]
        else:
            row.division_id = found.id  # type: ignore[assignment]
        audit_entry(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="place_player",
            player=player_id,
            name=found.name,
        )
    detached(session, found)
    return found


async def placements(*, session: AsyncSession, league_id: int) -> dict[int, int]:
    """Each placed player's division id."""
    rows = await session.execute(
        select(Placement.user_id, Placement.division_id).where(Placement.league_id == league_id)
    )
    return dict(rows.all())  # type: ignore[arg-type]


async def set_reward(
    *, session: AsyncSession, league_id: int, role_id: int, top: int, user_id: int, division: str | None = None
) -> Reward | None:
    """The role the top `top` of a division's (None: the league's) final standings get at each
    season's close; `top` 0 removes that reward. Audited."""
    async with writing(session):
        found = await _division_named(session, league_id, division) if division else None
        row = (
            await session.execute(
                select(Reward).where(
                    Reward.league_id == league_id,
                    Reward.role_id == role_id,
                    Reward.division_id.is_(None) if found is None else Reward.division_id == found.id,
                )
            )
        ).scalar_one_or_none()
        if top <= 0:
            if row is not None:
                await session.delete(row)
            row = None
        elif row is None:
            row = Reward(league_id=league_id, division_id=found.id if found else None, role_id=role_id, top=top)
            session.add(row)
        else:
            row.top = top
        audit_entry(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="set_reward",
            role_id=role_id,
            top=top,
            name=found.name if found else None,
        )
    detached(session, row)
    return row


async def league_rewards(*, session: AsyncSession, league_id: int) -> list[Reward]:
    rows = await session.execute(select(Reward).where(Reward.league_id == league_id).order_by(Reward.id))
    rewards = list(rows.scalars().all())
    detached(session, *rewards)
    return rewards
