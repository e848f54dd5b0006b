"""Background jobs survive their own failures: logged with an error id, retried after a growing pause."""

from __future__ import annotations

import logging

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
