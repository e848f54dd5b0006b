"""A web table over a real GameService and storage (SQLite), served on a free port: a two-player
game whose seats are users 10 and 11, as the bot would hold it, without Discord."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest_asyncio
from aiohttp import web

from bot.service import WEB, Cause, CauseKind, GameService, Table
from bot.web.activity import Activity
from bot.web.frames import Seat
from bot.web.links import Signer
from bot.web.pages import Pages
from bot.web.server import WebTable
from engine import GameOptions
from i18n import Translator, translator
from storage import Storage

SECRET = "a test secret of enough length"
USERS = (10, 11)


@dataclass
class Site:
    service: GameService
    web: WebTable
    signer: Signer
    game_id: int
    url: str  # http://127.0.0.1:<port>
    activity: Activity | None = None  # served when `serve` is given its settings

    def link(self, seat: int | None) -> str:
        return f"{self.url}/web/t/{self.signer.token(self.game_id, seat)}"

    def api(self, seat: int | None, what: str) -> str:
        return f"{self.url}/web/api/{self.signer.token(self.game_id, seat)}/{what}"

    async def table(self) -> Table:
        return await self.service.table(self.game_id)


async def language(table: Table, seat: int | None) -> Translator:
    return translator()


async def seats(table: Table) -> list[Seat]:
    return [Seat(f"Player {s + 1}", color) for s, color in zip(range(table.game.seats), ("#602078", "#086058"))]


async def serve(
    tmp_path,
    map_id: str = "europe",
    options: GameOptions | None = None,
    *,
    channel_id: int = 2,
    users=USERS,
    activity: dict | None = None,
    database: str | None = None,
) -> AsyncIterator[Site]:
    """`activity`: the Activity's settings (bot/web/activity.py `Activity`), to serve it too;
    `database`: its URL (else a SQLite file in `tmp_path`)."""
    storage = Storage(database or f"sqlite+aiosqlite:///{tmp_path / 'ttr.sqlite3'}")
    await storage.start()
    service = GameService(storage)
    service.new_seed = lambda: 7
    outcome = await service.start(
        guild_id=1,
        channel_id=channel_id,
        map_id=map_id,
        options=options or GameOptions(),
        user_ids=list(users),
        colors=[None, None],
        host_id=users[0],
        cause=Cause(CauseKind.START),
    )
    signer = Signer(SECRET, "http://unused.example")
    table = WebTable(service, signer, language=language, seats=seats)
    service.subscribe(WEB, table.on_outcome)
    app = web.Application()
    table.add_routes(app)
    activity_app = Activity(table, **activity) if activity is not None else None
    if activity_app is not None:
        activity_app.add_routes(app)
    Pages(table).add_routes(app)
    runner = web.AppRunner(app, shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield Site(service, table, signer, outcome.table.id, f"http://127.0.0.1:{port}", activity_app)
    await runner.cleanup()
    await storage.close()


@pytest_asyncio.fixture
async def site(tmp_path) -> AsyncIterator[Site]:
    async for served in serve(tmp_path):
        yield served


@pytest_asyncio.fixture
async def activity_site(tmp_path, fake_discord) -> AsyncIterator[Site]:
    """The table as an Activity of the fake Discord's application: Alice and Bob play in #general."""
    fake = fake_discord
    activity = {"client_id": fake.application_id, "client_secret": fake.client_secret, "bot_token": fake.token}
    users = (fake.alice.id, fake.bob.id)
    async for served in serve(tmp_path, channel_id=fake.general.id, users=users, activity=activity):
        yield served


class Frames:
    """An open event stream: its frames as they come."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.raw: list[str] = []  # every data line, as sent

    async def next(self, timeout: float = 5.0) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                line = (await self.response.content.readline()).decode()
                if line.startswith("data: "):
                    self.raw.append(line[6:])
                    return json.loads(line[6:])
