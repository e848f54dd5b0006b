"""Discord's global rate limit, shared by every process of the bot.

Discord lets a bot make 50 requests a second (`DISCORD_GLOBAL_LIMIT`, if Discord raised it), all
its processes together; interaction responses and follow-ups are not counted ("Receiving and
Responding"). discord.py learns of the global limit only from a 429, per process, so N processes
would each send as if alone. Here each process paces its own REST requests to a share of the limit
in proportion to the shards it runs (limit × its shards / shard count): the processes run disjoint
shards, so the shares add up to the limit without any coordination (no database round trip and no
shared row per request), and Discord spreads guilds evenly over shards by id, so each process's
share follows its load. What a process cannot use of its share is lost to the others: the price of
needing no coordination.

The share is held as a sliding window of at least a second (`Pacer`): never more than its count in
any such span, so never more in whichever second Discord counts, with a margin for the requests'
time on the wire.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Sequence

#: Requests a second Discord allows a bot, every process together (its documented global limit).
DISCORD_GLOBAL_LIMIT = 50

#: How much longer than Discord's second a window is: requests sent a window apart may arrive
#: closer together (network jitter).
MARGIN = 0.05


def share(limit: float, shard_count: int | None, shard_ids: Sequence[int] | None) -> float:
    """This process's requests a second: all of `limit` when it runs every shard."""
    if not shard_count or shard_ids is None:
        return float(limit)
    return limit * len(set(shard_ids)) / shard_count


class Pacer:
    """At most `count` requests in any `window` seconds: `count` = the share's whole requests a
    second (at least one), `window` one second (longer for a share under one a second), plus MARGIN."""

    def __init__(self, per_second: float) -> None:
        if per_second <= 0:
            raise ValueError("a share of the global limit is more than 0 requests a second")
        self.count = max(1, math.floor(per_second))
        self.window = self.count / per_second * (1 + MARGIN) if per_second < 1 else 1 + MARGIN
        self._sent: deque[float] = deque()  # when the last `count` requests were let through
        self._turn = asyncio.Lock()  # requests go in the order they asked

    async def take(self) -> None:
        """Wait until one more request keeps within the window, and count it."""
        async with self._turn:
            while len(self._sent) >= self.count:
                wait = self._sent[0] + self.window - time.monotonic()
                if wait <= 0:
                    self._sent.popleft()
                else:
                    await asyncio.sleep(wait)
            self._sent.append(time.monotonic())
