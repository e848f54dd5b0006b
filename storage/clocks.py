"""Turn clocks for play-by-post: per-game deadline settings, per-seat misses and vacations, and
timers that the bot's scheduler fires exactly once, also with several processes on one database.

A timer belongs to one pending decision (the engine's decision token for that seat). Firing it
is idempotent: the action it triggers is refused when that decision was resolved meanwhile.
Due timers are claimed with a lease (PostgreSQL: `FOR UPDATE SKIP LOCKED`, SQLite: the write
lock), so two schedulers never take the same one; a process that dies holding a lease leaves
the timer to be claimed again when the lease runs out. With several shard processes each claims
only the timers of its own shards' guilds (`shard=`), so a game's timers fire where its channel
and its AI seats are.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import Field, SQLModel

from storage.database import detached, writing
from storage.models import GameRecord, UTCDateTime, on_shard, utcnow

ABSENCE_POLICIES = ("skip", "ai", "remove")
REMINDER, DEADLINE = "reminder", "deadline"


class GameClock(SQLModel, table=True):
    """A game's deadline settings, chosen at `/ttr-host new`; no row: the game has no turn timer."""

    __tablename__ = "game_clocks"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    turn_seconds: int  # time for each decision
    reminder_seconds: int = 0  # remind this long before the deadline (0: no reminder)
    absence: str = Field(default="skip", max_length=16)  # what a missed deadline does
    ai_level: str = Field(default="baseline", max_length=16)  # the AI that keeps a seat warm ("ai")
    remove_after: int = 3  # missed deadlines in a row before removal ("remove")
    vacation_days: int = 7  # each player's vacation allowance in this game
    paused_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # host pause


class SeatClock(SQLModel, table=True):
    __tablename__ = "seat_clocks"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    missed: int = 0  # deadlines missed in a row
    vacation_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    vacation_used: int = 0  # seconds of the allowance used


class Timer(SQLModel, table=True):
    __tablename__ = "timers"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "seat", "decision", "kind"),
        # The scheduler's look for due timers reads only those not fired: fired ones are kept.
        sa.Index(
            "ix_timers_pending_due",
            "due_at",
            sqlite_where=sa.text("fired_at IS NULL"),
            postgresql_where=sa.text("fired_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", index=True)
    seat: int
    decision: int  # the engine's decision token this timer watches
    kind: str = Field(max_length=16)  # "reminder" | "deadline"
    due_at: datetime = Field(sa_type=UTCDateTime, index=True)
    lease_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    fired_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


async def _write(session: AsyncSession, *statements: Any) -> None:
    async with writing(session):
        for statement in statements:
            await session.execute(statement)


async def set_clock(*, session: AsyncSession, clock: GameClock) -> GameClock:
    async with writing(session):
        await session.merge(clock)
    return clock


async def get_clock(*, session: AsyncSession, game_id: int) -> GameClock | None:
    clock = await session.get(GameClock, game_id, populate_existing=True)
    detached(session, clock)
    return clock


async def seat_clock(*, session: AsyncSession, game_id: int, seat: int) -> SeatClock:
    clock = await session.get(SeatClock, (game_id, seat), populate_existing=True)
    if clock is None:
        clock = SeatClock(game_id=game_id, seat=seat)
    detached(session, clock)
    return clock


async def save_seat_clock(*, session: AsyncSession, clock: SeatClock) -> None:
    async with writing(session):
        await session.merge(clock)


async def schedule_all(
    *, session: AsyncSession, game_id: int, plans: dict[int, tuple[int, list[tuple[str, datetime]]]]
) -> None:
    """Make the game's pending timers exactly `plans`: seat -> (turn key, [(kind, due)]).

    Timers of turns no longer pending are dropped, except one being fired (claimed: its firing
    ends this turn, and its claimer marks it fired, so it is never fired again); a timer already
    there for the same seat, turn and kind is kept as it is (a multi-step turn keeps its deadline)."""
    async with writing(session):
        rows = await session.execute(select(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None)))
        existing = {(t.seat, t.decision, t.kind): t for t in rows.scalars().all()}
        wanted = {(seat, key, kind): due for seat, (key, timers) in plans.items() for kind, due in timers}
        for ident, timer in existing.items():
            if ident not in wanted and timer.lease_until is None:
                await session.delete(timer)
        await session.flush()
        for (seat, key, kind), due in wanted.items():
            if (seat, key, kind) not in existing:
                fired = await session.execute(
                    select(Timer.id).where(
                        Timer.game_id == game_id, Timer.seat == seat, Timer.decision == key, Timer.kind == kind
                    )
                )
                if fired.first() is None:  # a timer that already fired for this turn is not set again
                    session.add(Timer(game_id=game_id, seat=seat, decision=key, kind=kind, due_at=due))


async def cancel_timers(*, session: AsyncSession, game_id: int) -> None:
    """Drop the game's pending timers (not one being fired: its claimer marks it)."""
    await _write(
        session, sa.delete(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None), Timer.lease_until.is_(None))
    )


async def pending_timers(*, session: AsyncSession, game_id: int) -> list[Timer]:
    """The game's timers still to fire (not those being fired now)."""
    rows = await session.execute(
        select(Timer)
        .where(Timer.game_id == game_id, Timer.fired_at.is_(None), Timer.lease_until.is_(None))
        .order_by(Timer.due_at)
    )
    timers = list(rows.scalars().all())
    for timer in timers:
        detached(session, timer)
    return timers


async def shift_timers(*, session: AsyncSession, game_id: int, by: timedelta, seat: int | None = None) -> None:
    """Move the pending timers of a game (after a pause), or of one seat (a vacation)."""
    query = select(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None))
    if seat is not None:
        query = query.where(Timer.seat == seat)
    async with writing(session):
        rows = await session.execute(query)
        for timer in rows.scalars().all():
            timer.due_at = timer.due_at + by


async def claim_due(
    *,
    session: AsyncSession,
    now: datetime | None = None,
    limit: int = 20,
    lease: timedelta = timedelta(minutes=2),
    shard: tuple[int, int] | None = None,
) -> list[Timer]:
    """Take up to `limit` due timers for this process (a lease); others skip them. `shard`:
    only those of games in that shard's guilds ((shard id, shard count), Discord's rule)."""
    now = now or utcnow()
    async with writing(session):
        query = (
            select(Timer.id)
            .join(GameClock, GameClock.game_id == Timer.game_id)
            .where(
                Timer.fired_at.is_(None),
                Timer.due_at <= now,
                GameClock.paused_at.is_(None),
                sa.or_(Timer.lease_until.is_(None), Timer.lease_until < now),
            )
            .order_by(Timer.due_at)
            .limit(limit)
        )
        if shard is not None:
            query = query.join(GameRecord, GameRecord.id == Timer.game_id).where(on_shard(GameRecord.guild_id, shard))
        if session.bind.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True, of=Timer)
        ids = [i for (i,) in await session.execute(query)]
        if ids:
            await session.execute(
                update(Timer)
                .where(Timer.id.in_(ids))
                .values(lease_until=now + lease)
                .execution_options(synchronize_session=False)
            )
        rows = await session.execute(select(Timer).where(Timer.id.in_(ids)).order_by(Timer.due_at)) if ids else None
        timers = list(rows.scalars().all()) if rows is not None else []
    for timer in timers:
        detached(session, timer)
    return timers


async def mark_fired(*, session: AsyncSession, timer_id: int, now: datetime | None = None) -> None:
    await _write(
        session, update(Timer).where(Timer.id == timer_id, Timer.fired_at.is_(None)).values(fired_at=now or utcnow())
    )
