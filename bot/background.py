"""Background work that survives its own failures: a periodic job (lobby expiry, the timer
scheduler) whose run fails is logged with an error id and tried again after a growing pause,
instead of stopping for good (a `tasks.loop` whose body raises stops)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from bot.service import new_error_id

log = logging.getLogger(__name__)


class Backoff:
    """Runs one job per call unless it is waiting out an earlier failure: 1, 2, 4 … times
    `base` seconds after consecutive failures, at most `most` seconds."""

    def __init__(
        self, name: str, *, base: float = 5.0, most: float = 300.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name, self.base, self.most, self.clock = name, base, most, clock
        self.failures = 0
        self._not_before = 0.0

    async def run(self, job: Callable[[], Awaitable[object]]) -> bool:
        """True when the job ran and succeeded; False when it failed or is waiting to retry."""
        if self.clock() < self._not_before:
            return False
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
        self.failures = 0
        return True
