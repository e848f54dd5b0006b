"""Stand-ins: an AI keeping a person's seat warm while they are away (a missed deadline with the
"ai" absence policy, or the host handing the seat over), until they take it back.

The seat keeps its user; `seats.ai` names the AI playing it now, so everything that plays AI seats
plays it. Each span is a `StandIn` row (from the game's version when the AI took the seat to the
version when its player took it back), so a game records who played which moves. Taking over and
giving back change the game's `updated_at`, so other processes see their copy is stale.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached, writing
from storage.errors import GameNotFoundError
from storage.models import GameRecord, SeatRecord, StandIn, utcnow

REASONS = ("timeout", "kick")


async def begin(
    *, session: AsyncSession, game_id: int, seat: int, level: str, reason: str, version: int
) -> datetime | None:
    """The AI `level` plays `seat` from `version` on (its user stays the seat's). Returns the game's
    new `updated_at`, or None when an AI holds that seat already or it has no person (nothing written)."""
    if reason not in REASONS:
        raise ValueError(f"unknown reason {reason!r}")
    now = utcnow()
    async with writing(session):
        result = await session.execute(
            update(SeatRecord)
            .where(
                SeatRecord.game_id == game_id,
                SeatRecord.seat == seat,
                SeatRecord.ai.is_(None),
                SeatRecord.user_id.is_not(None),
            )
            .values(ai=level)
            .returning(SeatRecord.user_id)
            .execution_options(synchronize_session=False)
        )
        user_id = result.scalar_one_or_none()
        if user_id is None:
            return None
        session.add(StandIn(game_id=game_id, seat=seat, began=version, user_id=user_id, level=level, reason=reason))
        await _touch(session, game_id, now)
    return now


async def end(*, session: AsyncSession, game_id: int, seat: int, version: int) -> datetime | None:
    """The seat's person plays it again from `version` on. Returns the game's new `updated_at`, or
    None when no AI was keeping that seat (nothing written)."""
    now = utcnow()
    async with writing(session):
        result = await session.execute(
            update(SeatRecord)
            .where(
                SeatRecord.game_id == game_id,
                SeatRecord.seat == seat,
                SeatRecord.ai.is_not(None),
                SeatRecord.user_id.is_not(None),
            )
            .values(ai=None)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            return None
        await session.execute(
            update(StandIn)
            .where(StandIn.game_id == game_id, StandIn.seat == seat, StandIn.ended.is_(None))
            .values(ended=version)
            .execution_options(synchronize_session=False)
        )
        await _touch(session, game_id, now)
    return now


async def spans(*, session: AsyncSession, game_id: int) -> list[StandIn]:
    """Every span an AI played a person's seat in this game, in order."""
    rows = await session.execute(
        select(StandIn).where(StandIn.game_id == game_id).order_by(StandIn.began, StandIn.seat)
    )
    out = list(rows.scalars().all())
    detached(session, *out)
    return out


async def _touch(session: AsyncSession, game_id: int, now: datetime) -> None:
    result = await session.execute(
        update(GameRecord)
        .where(GameRecord.id == game_id)
        .values(updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        raise GameNotFoundError(game_id)
