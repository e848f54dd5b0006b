"""Background jobs survive their own failures (logged with an error id, retried after a growing
pause) and stop at shutdown without being cut off mid-run."""

from __future__ import annotations

import asyncio
import logging
import time

from discord.ext import tasks

from bot.background import Backoff


async def test_a_failing_job_waits_longer_after_each_failure_and_recovers(caplog):
    now = [0.0]
    backoff = Backoff("lobby expiry", base=5, most=20, clock=lambda: now[0])
    calls = []

    async def job():
        calls.append(now[0])
        if len(calls) <= 3:
            raise RuntimeError("a damaged row")

    with caplog.at_level(logging.ERROR):
        assert not await backoff.run(job)  # fails at t=0: next try at 5
        now[0] = 4
        assert not await backoff.run(job) and calls == [0]  # still waiting
        now[0] = 5
        assert not await backoff.run(job)  # fails again: next try 10 s later
        now[0] = 14
        assert not await backoff.run(job) and calls == [0, 5]
        now[0] = 15
        assert not await backoff.run(job)  # third failure: 20 s (the cap), not 40
        now[0] = 35
        assert await backoff.run(job)  # recovers
    assert calls == [0, 5, 15, 35] and backoff.failures == 0
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 3 and all(getattr(r, "error_id", None) for r in errors)


def looping(backoff: Backoff, job, seconds: float) -> tasks.Loop:
    @tasks.loop(seconds=seconds)
    async def loop() -> None:
        await backoff.run(job)

    return loop


async def test_stopping_lets_a_run_under_way_finish_and_starts_no_other():
    backoff = Backoff("timer scheduler")
    began, finished = asyncio.Event(), []

    async def job():
        began.set()
        await asyncio.sleep(0.2)  # a query under way
        finished.append(True)

    loop = looping(backoff, job, seconds=0.01)
    loop.start()
    await began.wait()
    await backoff.stop(loop)
    assert finished == [True] and loop.get_task().done() and not loop.get_task().cancelled()
    await asyncio.sleep(0.05)
    assert finished == [True] and not backoff.running


async def test_stopping_between_runs_cuts_the_pause_short():
    backoff = Backoff("lobby expiry")
    runs = []

    async def job():
        runs.append(True)

    loop = looping(backoff, job, seconds=300)
    loop.start()
    while not runs:
        await asyncio.sleep(0)
    started = time.monotonic()
    await backoff.stop(loop)
    assert time.monotonic() - started < 1 and loop.get_task().done() and runs == [True]


async def test_a_run_that_outlasts_the_grace_is_cancelled():
    backoff = Backoff("season closer")
    began, cancelled = asyncio.Event(), []

    async def job():
        began.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    loop = looping(backoff, job, seconds=300)
    loop.start()
    await began.wait()
    started = time.monotonic()
    await backoff.stop(loop, grace=0.1)
    assert cancelled == [True] and loop.get_task().done() and time.monotonic() - started < 5
