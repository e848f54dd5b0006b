"""Turn timers: schedules keep a turn's deadline, and two schedulers never take the same timer."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from storage import clocks
from storage.database import make_engine, session_factory
from storage.games import create_game
from storage.models import utcnow
from tests.storage.helpers import new_game, sqlite_plans


async def _game_with_clock(db, channel_id: int = 2) -> int:
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=channel_id, game=new_game(), players=[5, 6, 7])
        await clocks.set_clock(session=s, clock=clocks.GameClock(game_id=record.id, turn_seconds=3600))
    return record.id


async def test_schedule_keeps_a_turns_deadline_and_drops_finished_turns(db) -> None:
    game_id = await _game_with_clock(db)
    now = utcnow()
    async with db.sessions() as s:
        await clocks.schedule_all(session=s, game_id=game_id, plans={0: (4, [(clocks.DEADLINE, now)])})
        await clocks.schedule_all(
            session=s, game_id=game_id, plans={0: (4, [(clocks.DEADLINE, now + timedelta(hours=1))])}
        )
        (timer,) = await clocks.pending_timers(session=s, game_id=game_id)
        assert timer.due_at == now  # same turn: the first deadline stands
        await clocks.schedule_all(session=s, game_id=game_id, plans={1: (6, [(clocks.DEADLINE, now)])})
        assert [(t.seat, t.decision) for t in await clocks.pending_timers(session=s, game_id=game_id)] == [(1, 6)]


async def test_two_schedulers_claim_each_due_timer_once(db) -> None:
    """Two processes (separate engines and connection pools) on one database."""
    game_ids = [await _game_with_clock(db, channel_id=100 + i) for i in range(6)]
    past = utcnow() - timedelta(minutes=1)
    async with db.sessions() as s:
        for game_id in game_ids:
            await clocks.schedule_all(
                session=s,
                game_id=game_id,
                plans={seat: (seat, [(clocks.DEADLINE, past), (clocks.REMINDER, past)]) for seat in range(3)},
            )
    engines = [make_engine(db.url) for _ in range(2)]
    claimed: list[list[int]] = [[], []]

    async def scheduler(index: int) -> None:
        sessions = session_factory(engines[index])
        while True:
            async with sessions() as s:
                timers = await clocks.claim_due(session=s, limit=3)
            if not timers:
                return
            claimed[index].extend(t.id for t in timers)
            await asyncio.sleep(0)

    try:
        await asyncio.gather(scheduler(0), scheduler(1))
    finally:
        for engine in engines:
            await engine.dispose()
    assert len(claimed[0]) + len(claimed[1]) == 36
    assert not set(claimed[0]) & set(claimed[1])


async def test_a_lease_that_runs_out_is_claimed_again_and_fired_timers_never(db) -> None:
    game_id = await _game_with_clock(db)
    now = utcnow()
    async with db.sessions() as s:
        await clocks.schedule_all(session=s, game_id=game_id, plans={0: (1, [(clocks.DEADLINE, now)])})
        (first,) = await clocks.claim_due(session=s, now=now, lease=timedelta(minutes=2))
        assert await clocks.claim_due(session=s, now=now + timedelta(minutes=1)) == []
        (again,) = await clocks.claim_due(session=s, now=now + timedelta(minutes=3))
        assert again.id == first.id  # the first claimer died: the timer is not lost
        await clocks.mark_fired(session=s, timer_id=again.id)
        assert await clocks.claim_due(session=s, now=now + timedelta(hours=1)) == []
        await clocks.schedule_all(session=s, game_id=game_id, plans={0: (1, [(clocks.DEADLINE, now)])})
        assert await clocks.pending_timers(session=s, game_id=game_id) == []  # fired once, never set again


async def test_the_look_for_due_timers_reads_only_timers_not_fired(db) -> None:
    """Fired timers are kept; the scheduler's look (every few seconds) goes through the partial
    index of the others, so its cost does not grow with every game's history."""
    if db.backend != "sqlite":
        pytest.skip("SQLite's plan (benchmarks/storage_bench.py --sweep times both)")

    async def look() -> None:
        async with db.sessions() as s:
            await clocks.claim_due(session=s, shard=(0, 2))

    [plan] = await sqlite_plans(db.engine, look)
    assert "ix_timers_pending_due" in plan and "SCAN timers" not in plan, plan
