"""Health and metrics over HTTP for the process that runs the bot (HEALTH_PORT; off when unset).

    GET /healthz   200 when the gateway is connected and the database answers, else 503; JSON
                   with both, the gateway latency and the seconds since the last successful write
    GET /metrics   Prometheus' text format: bot.metrics plus gauges read at scrape time (active
                   games and the outbox's backlog, counted every 15 s; gateway latency, event-loop
                   lag, seconds since the last write)

It listens on HEALTH_HOST (127.0.0.1 by default: only the machine, or the container, can ask).
`python -m bot.health` asks /healthz and exits 0 when healthy: the Docker HEALTHCHECK."""

from __future__ import annotations

import asyncio
import logging
import math
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from sqlalchemy import func, select, text

from bot import metrics
from storage import announcements as outbox
from storage.database import seconds_since_last_write
from storage.models import ACTIVE, GameRecord, utcnow

log = logging.getLogger(__name__)

#: How often the event loop's lag is sampled (seconds).
SAMPLE_EVERY = 1.0
#: How often the active games are counted in the database (seconds; the first count is at start).
COUNT_GAMES_EVERY = 15.0
#: /healthz answers 503 when the database does not answer within this (seconds).
DATABASE_TIMEOUT = 3.0


class HealthPortError(RuntimeError):
    """HEALTH_HOST:HEALTH_PORT cannot be listened on (taken, or not an address of this machine)."""


class HealthServer:
    def __init__(
        self,
        bot: Any,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        routes: Callable[[web.Application], None] | None = None,
    ) -> None:
        self.bot = bot
        self.routes = routes  # more routes on the same server (the web table, bot/web/server.py)
        self.host = host
        self.port = port  # the bound port once started (0: any free one)
        self.loop_lag = 0.0
        self.active_games: int | None = None
        self.outbox: tuple[int, float] | None = None  # rows waiting to be posted, the oldest's age (s)
        self.registry = CollectorRegistry()
        for collector in metrics.COLLECTORS:
            self.registry.register(collector)
        self.registry.register(_BotGauges(self))
        self._runner: web.AppRunner | None = None
        self._sampler: asyncio.Task[None] | None = None
        self._log_handler: metrics.ErrorCounter | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        if self.routes is not None:
            self.routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise HealthPortError(
                f"cannot serve /healthz on {self.host}:{self.port} ({exc.strerror}): "
                "choose another HEALTH_PORT or HEALTH_HOST"
            ) from None
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._log_handler = metrics.install(self.bot)
        self._sampler = asyncio.create_task(self._sample(), name="health-sampler")
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            self._sampler = None
        if self._log_handler is not None:
            metrics.uninstall(self.bot, self._log_handler)
            self._log_handler = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ checks

    def gateway_connected(self) -> bool:
        return self.bot.is_ready() and not self.bot.is_closed() and math.isfinite(self.bot.latency)

    async def database_problem(self) -> str | None:
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT):
                async with self.bot.storage.engine.connect() as conn:
                    await conn.execute(text("SELECT 1"))
        except Exception as exc:  # any failure means "not reachable"; the reason goes in the answer
            return f"{type(exc).__name__}: {exc}".splitlines()[0]
        return None

    async def healthz(self, request: web.Request) -> web.Response:
        problem = await self.database_problem()
        connected = self.gateway_connected()
        since = seconds_since_last_write(self.bot.storage.engine)
        body = {
            "status": "ok" if connected and problem is None else "unhealthy",
            "gateway": {
                "connected": connected,
                "latency_seconds": self.bot.latency if math.isfinite(self.bot.latency) else None,
            },
            "database": {
                "reachable": problem is None,
                "error": problem,
                "seconds_since_last_write": None if since is None else round(since, 3),
            },
        }
        return web.json_response(body, status=200 if body["status"] == "ok" else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _sample(self) -> None:
        """Event-loop lag (how late a sleep wakes up) every SAMPLE_EVERY, the active games every
        COUNT_GAMES_EVERY."""
        loop = asyncio.get_running_loop()
        counted_at = -math.inf
        while True:
            if loop.time() - counted_at >= COUNT_GAMES_EVERY:
                counted_at = loop.time()
                await self._count_games()
            before = loop.time()
            await asyncio.sleep(SAMPLE_EVERY)
            self.loop_lag = max(0.0, loop.time() - before - SAMPLE_EVERY)

    async def _count_games(self) -> None:
        """The active games and the outbox's backlog (whole database)."""
        try:
            async with self.bot.storage.sessions() as session:
                self.active_games = (
                    await session.execute(
                        select(func.count()).select_from(GameRecord).where(GameRecord.status == ACTIVE)
                    )
                ).scalar_one()
                waiting, oldest = await outbox.backlog(session=session)
            self.outbox = (waiting, 0.0 if oldest is None else max(0.0, (utcnow() - oldest).total_seconds()))
        except Exception:  # the database is down: /healthz says so; the gauges keep their last values
            log.debug("active games not counted", exc_info=True)


class _BotGauges:
    """Gauges read from the bot when Prometheus scrapes."""

    def __init__(self, server: HealthServer) -> None:
        self.server = server

    def collect(self) -> Any:
        bot = self.server.bot
        yield _gauge("ttr_gateway_connected", "1 when the gateway is connected", float(self.server.gateway_connected()))
        if math.isfinite(bot.latency):
            yield _gauge("ttr_gateway_latency_seconds", "Heartbeat latency to Discord's gateway", bot.latency)
        yield _gauge(
            "ttr_event_loop_lag_seconds", "How late the event loop ran a timer, last sample", self.server.loop_lag
        )
        if self.server.active_games is not None:
            yield _gauge("ttr_active_games", "Games being played (whole database)", self.server.active_games)
        if self.server.outbox is not None:
            waiting, age = self.server.outbox
            yield _gauge("ttr_outbox_backlog", "Stored turns not posted yet (whole database)", waiting)
            yield _gauge("ttr_outbox_oldest_seconds", "Age of the oldest stored turn not posted yet (0: none)", age)
        yield _gauge("ttr_servers", "Servers (guilds) the bot is in", len(bot.guilds))
        since = seconds_since_last_write(bot.storage.engine)
        if since is not None:
            yield _gauge("ttr_seconds_since_last_write", "Seconds since this process last wrote to the database", since)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def probe(host: str, port: int, *, timeout: float = 5.0) -> tuple[bool, str]:
    """(healthy, what /healthz said): the check a container or a monitor runs."""
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=timeout) as answer:
            return True, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return False, exc.read().decode()
    except OSError as exc:
        return False, f"no answer from http://{host}:{port}/healthz: {exc}"


def main() -> int:
    from bot.settings import Settings

    settings = Settings()
    if not settings.health_port:
        print("HEALTH_PORT is not set: the bot serves no health endpoint", file=sys.stderr)
        return 2
    # Listening on every interface (the image: HEALTH_HOST=0.0.0.0): ask this machine's.
    host = "127.0.0.1" if settings.health_host in ("0.0.0.0", "::") else settings.health_host
    healthy, said = probe(host, settings.health_port)
    print(said.strip())
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
