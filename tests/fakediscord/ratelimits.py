"""Per-route rate-limit buckets, the way Discord's "Rate Limits" topic describes them.

A bucket is a route template ("POST /channels/{channel_id}/messages") plus its top-level resource
(the channel, guild, webhook id + token, or interaction); it lets ``limit`` requests through per
window of ``per`` seconds, the window starting at the first request. Every answer on a limited route
carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` and
``-Bucket``; a request over the limit is answered 429 with ``Retry-After``, ``X-RateLimit-Scope``
("user", or "global" with ``X-RateLimit-Global``) and ``{"message", "retry_after", "global"}``. The
optional global limit counts every request of the bot, all its processes together, except the
interaction endpoints of "Receiving and Responding": the callback, and the original response and
follow-ups through the interaction's webhook ("not bound to the application's Global Rate
Limit"; the fake has no other webhooks). `global_refused` lists the routes it refused.

Off unless configured: ``FakeDiscord(rate_limits={"POST /channels/{channel_id}/messages": (5, 5.0)})``,
``rate_limits=DISCORD_LIKE`` for a Discord-like table, or the ``fake_discord_options`` fixture.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

# What Discord tends to allow (it says not to hard-code these; they are plausible, not promised).
DISCORD_LIKE: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 1.0),
    "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me": (1, 0.25),
    "POST /webhooks/{application_id}/{token}": (5, 2.0),
    "PATCH /webhooks/{application_id}/{token}/messages/{message_id}": (5, 2.0),
    "POST /users/@me/channels": (1, 1.0),
    "PUT /applications/{application_id}/commands": (2, 60.0),
    "PUT /applications/{application_id}/guilds/{guild_id}/commands": (2, 60.0),
}
GLOBAL_LIKE = (50, 1.0)

MAJOR_PARAMETERS = ("channel_id", "guild_id", "interaction_id", "token")
UNBOUND_BY_GLOBAL = ("/interactions/", "/webhooks/{application_id}/{token}")


@dataclass
class Window:
    limit: int
    per: float
    reset_at: float = 0.0
    used: int = 0
    accepted: list[float] = field(default_factory=list)  # when requests were let through (fake clock)

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.reset_at, self.used = now + self.per, 0
        if self.used >= self.limit:
            return False
        self.used += 1
        self.accepted.append(now)
        return True


@dataclass
class Verdict:
    headers: dict[str, str]
    retry_after: float | None = None  # set when the request is refused with 429
    is_global: bool = False

    def body(self) -> dict[str, object]:
        return {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": self.is_global}


class RateLimits:
    """The configured buckets and their windows; `check` is asked once per API request."""

    def __init__(
        self,
        routes: dict[str, tuple[int, float]] | None = None,
        *,
        global_limit: tuple[int, float] | None = None,
        clock: Callable[[], float],
    ):
        self.routes = dict(routes or {})
        self.global_limit = global_limit
        self.clock = clock
        self.windows: dict[tuple[str, str], Window] = {}
        self.global_window = Window(*global_limit) if global_limit else None
        self.global_refused: list[str] = []  # routes answered 429 with "global": true

    @property
    def enabled(self) -> bool:
        return bool(self.routes or self.global_limit)

    def set(self, route: str, limit: int, per: float) -> None:
        """Limit ``route`` ("METHOD /template") to ``limit`` requests per ``per`` seconds."""
        self.routes[route] = (limit, per)

    @staticmethod
    def _major(match_info: dict[str, str]) -> str:
        return "/".join(str(match_info.get(key, "")) for key in MAJOR_PARAMETERS)

    def set_global(self, limit: int, per: float) -> None:
        """Limit all the bot's requests (but the interaction endpoints) to ``limit`` per ``per`` seconds."""
        self.global_limit = (limit, per)
        self.global_window = Window(limit, per)

    def busiest_second(self) -> int:
        """The most requests the global limit let through in any one second (0 without it)."""
        times = self.global_window.accepted if self.global_window is not None else []
        start, most = 0, 0
        for end, when in enumerate(times):
            while when - times[start] >= 1.0:
                start += 1
            most = max(most, end - start + 1)
        return most

    def window(self, route: str, **resource: object) -> Window | None:
        """The window of ``route`` for one top-level resource, e.g. ``window(route, channel_id=123)``."""
        return self.windows.get((route, self._major({k: str(v) for k, v in resource.items()})))

    def check(self, route: str, match_info: dict[str, str]) -> Verdict | None:
        now = self.clock()
        template = route.partition(" ")[2]
        bound_by_global = self.global_window is not None and not template.startswith(UNBOUND_BY_GLOBAL)
        if bound_by_global and not self.global_window.take(now):
            self.global_refused.append(route)
            retry = self.global_window.reset_at - now
            return Verdict(
                headers={
                    "Retry-After": str(max(1, math.ceil(retry))),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Via": "1.1 google",
                },
                retry_after=round(retry, 3),
                is_global=True,
            )
        if route not in self.routes:
            return None
        major = self._major(match_info)
        window = self.windows.get((route, major))
        if window is None:
            window = self.windows[(route, major)] = Window(*self.routes[route])
        allowed = window.take(now)
        reset_after = max(window.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(window.limit - window.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
        }
        if allowed:
            return Verdict(headers=headers)
        headers.update(
            {"Retry-After": str(max(1, math.ceil(reset_after))), "X-RateLimit-Scope": "user", "Via": "1.1 google"}
        )
        return Verdict(headers=headers, retry_after=round(reset_after, 3))
