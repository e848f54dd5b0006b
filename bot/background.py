"""Background work that survives its own failures: a periodic job (lobby expiry, the timer
scheduler) whose run fails is logged with an error id and tried again after a growing pause,
instead of stopping for good (a `tasks.loop` whose body raises stops); at shutdown a run under way
finishes before the database closes."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from discord.ext import tasks

from bot.service import new_error_id

log = logging.getLogger(__name__)

GRACE = 5.0  # seconds a run under way may take to finish at shutdown before it is cancelled


class Backoff:
    """Runs one job per call unless it is waiting out an earlier failure: 1, 2, 4 … times
    `base` seconds after consecutive failures, at most `most` seconds."""

    def __init__(
        self, name: str, *, base: float = 5.0, most: float = 300.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name, self.base, self.most, self.clock = name, base, most, clock
        self.failures = 0
        self.running = False
        self._not_before = 0.0

    async def run(self, job: Callable[[], Awaitable[object]]) -> bool:
        """True when the job ran and succeeded; False when it failed or is waiting to retry."""
        if self.clock() < self._not_before:
            return False
        self.running = True
        try:
            await job()
        except Exception:
            self.failures += 1
            wait = min(self.base * 2 ** (self.failures - 1), self.most)
            self._not_before = self.clock() + wait
            log.exception(
                "%s failed; trying again in %.0f s",
                self.name,
                wait,
                extra={"error_id": new_error_id(), "job": self.name, "failures": self.failures},
            )
            return False
        finally:
            self.running = False
        self.failures = 0
        return True

    async def stop(self, loop: tasks.Loop, *, grace: float = GRACE) -> None:
        """Stop `loop`, whose body runs this job, and wait until it has. A pause between runs is cut
        short; a run under way may finish (one cancelled mid-query leaves the database pool a
        connection it cannot close, an error at every shutdown), for at most `grace` seconds."""
        task = loop.get_task()
        if task is None or task.done():
            return
        loop.stop()  # no run after this one
        if not self.running:
            loop.cancel()
        done, _ = await asyncio.wait({task}, timeout=grace)
        if not done:
            loop.cancel()
            await asyncio.wait({task})
