"""Web table benchmark: the figures in docs/web.md.

    python benchmarks/web_bench.py                    # Europe, 2 players and 8 spectators, 150 moves
    python benchmarks/web_bench.py --map usa --spectators 20 --moves 300
    python benchmarks/web_bench.py --discord          # the real bot on the fake Discord, moves by buttons

Serves the web table (bot/web/server.py) over a real GameService on SQLite, opens an event stream
for each player and each spectator, then plays moves by POSTing them as the page does (the seat to
move picks a random legal move from its own frame, claims first). For each move: the time from
sending it to each viewer's frame of the new version (median, p95, max over every viewer and move);
the bytes of each viewer's frames (per frame and for the whole run); and the bytes of the page's
first load (HTML, script, style, the map's drawing, the first frame), as sent and gzipped.

With --discord the whole bot runs (TTRBot on the fake Discord of tests/fakediscord, in this
process, SQLite): two players move with the Discord buttons and selects (tests/bot/driver.py), and
the figure is the time from each tap to each web viewer's frame, while the announcer posts the
channel's table as usual.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from bot.service import WEB, Cause, CauseKind, GameService  # noqa: E402
from bot.web.frames import Seat  # noqa: E402
from bot.web.links import Signer  # noqa: E402
from bot.web.server import WebTable  # noqa: E402
from engine import GameOptions  # noqa: E402
from i18n import translator  # noqa: E402
from storage import Storage  # noqa: E402


class Viewer:
    def __init__(self, name: str) -> None:
        self.name = name
        self.frames: list[bytes] = []
        self.seen: dict[int, float] = {}  # version -> when its frame arrived (perf_counter)
        self.latest: dict = {}
        self.changed = asyncio.Event()

    async def listen(self, http: aiohttp.ClientSession, url: str) -> None:
        async with http.get(url) as stream:
            async for line in stream.content:
                if line.startswith(b"data: "):
                    now = time.perf_counter()
                    self.frames.append(line[6:])
                    self.latest = json.loads(line[6:])
                    self.seen.setdefault(self.latest["version"], now)
                    self.changed.set()


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


async def main(args: argparse.Namespace) -> None:
    folder = tempfile.mkdtemp(prefix="web-bench-")
    storage = Storage(f"sqlite+aiosqlite:///{folder}/ttr.sqlite3")
    await storage.start()
    service = GameService(storage)
    service.new_seed = lambda: args.seed
    outcome = await service.start(
        guild_id=1, channel_id=2, map_id=args.map, options=GameOptions(), user_ids=[10, 11],
        colors=[None, None], host_id=10, cause=Cause(CauseKind.START),
    )  # fmt: skip
    game_id = outcome.table.id

    async def language(table, seat):  # noqa: ANN001, ANN202
        return translator()

    async def seats(table):  # noqa: ANN001, ANN202
        return [Seat(f"Player {s + 1}", "#602078") for s in range(table.game.seats)]

    signer = Signer("benchmark secret, long enough", "http://unused")
    table = WebTable(service, signer, language=language, seats=seats)
    service.subscribe(WEB, table.on_outcome)
    app = web.Application()
    table.add_routes(app)
    runner = web.AppRunner(app, shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    tokens = {seat: signer.token(game_id, seat) for seat in (0, 1)}
    rng = random.Random(args.seed)

    async with aiohttp.ClientSession() as http:
        load: dict[str, bytes] = {}
        async with http.get(f"{base}/web/t/{tokens[0]}") as page:
            load["page"] = await page.read()
        for name in ("app.js", "app.css"):
            async with http.get(f"{base}/web/static/{name}") as asset:
                load[name] = await asset.read()
        boot = json.loads(load["page"].split(b'type="application/json">')[1].split(b"</script>")[0])
        async with http.get(base + boot["board"]) as board:
            load["board"] = await board.read()

        players = [Viewer(f"player {seat}") for seat in (0, 1)]
        spectators = [Viewer(f"spectator {i}") for i in range(args.spectators)]
        tasks = [
            asyncio.create_task(v.listen(http, f"{base}/web/api/{tokens[i]}/events")) for i, v in enumerate(players)
        ]
        spectator_url = f"{base}/web/api/{signer.token(game_id, None)}/events"
        tasks += [asyncio.create_task(v.listen(http, spectator_url)) for v in spectators]
        everyone = players + spectators
        while not all(v.latest for v in everyone):
            await asyncio.sleep(0.01)
        load["first frame"] = players[0].frames[0]

        delays: list[float] = []
        moves = 0
        while moves < args.moves:
            game = (await service.table(game_id)).game
            if game.is_over():
                break
            seat = next(iter(game.to_move()))
            viewer = players[seat]
            while viewer.latest["version"] < game.version:
                viewer.changed.clear()
                await viewer.changed.wait()
            offered = viewer.latest["moves"]
            claims = [m for m in offered if m["kind"] == "Claim"]
            draws = [m for m in offered if m["kind"] in ("DrawDeck", "DrawMarket")]
            keeps = [m for m in offered if m["kind"] == "KeepTickets"]
            pick = (
                rng.choice(claims) if claims and rng.random() < 0.5
                else rng.choice(draws) if draws else rng.choice(keeps or offered)
            )  # fmt: skip
            target = game.version + 1
            sent = time.perf_counter()
            async with http.post(
                f"{base}/web/api/{tokens[seat]}/act",
                json={"move": pick["text"], "decision": viewer.latest["view"]["you"]["decision"]},
            ) as answer:
                if answer.status != 200:
                    raise SystemExit(f"move refused: {pick['text']}: {await answer.text()}")
            while not all(target in v.seen or v.latest["version"] >= target for v in everyone):
                await asyncio.sleep(0.001)
            delays += [(v.seen.get(target, time.perf_counter()) - sent) * 1000 for v in everyone]
            moves += 1
        for task in tasks:
            task.cancel()
    opened = await first_paint(f"{base}/web/t/{tokens[0]}", args.loads)
    await runner.cleanup()
    await storage.close()

    print(f"{args.map}, 2 players + {args.spectators} spectators, {moves} moves")
    print(f"move -> each viewer's frame: median {statistics.median(delays):.1f} ms, "
          f"p95 {pct(delays, 0.95):.1f} ms, max {max(delays):.1f} ms ({len(delays)} frames)")  # fmt: skip
    for who in (players[0], spectators[0] if spectators else None):
        if who is None:
            continue
        sizes = [len(f) for f in who.frames]
        total = b"".join(who.frames)
        print(f"{who.name}: {len(sizes)} frames, median {statistics.median(sizes) / 1024:.1f} KiB; the run "
              f"{len(total) / 1024:.0f} KiB ({len(gzip.compress(total)) / 1024:.0f} KiB gzipped as one stream)")  # fmt: skip
    raw = sum(len(b) for b in load.values())
    zipped = sum(len(gzip.compress(b)) for b in load.values())
    parts = ", ".join(f"{k} {len(v) / 1024:.1f}" for k, v in load.items())
    print(f"first load: {raw / 1024:.1f} KiB ({zipped / 1024:.1f} KiB gzipped): {parts} KiB")
    if opened:
        print(f"first load in chromium (390x844, a new browser context each): median {statistics.median(opened):.0f} ms, "
              f"max {max(opened):.0f} ms over {len(opened)} loads, from navigation to the first frame drawn")  # fmt: skip


async def first_paint(url: str, loads: int) -> list[float]:
    """Milliseconds from opening the page to its first frame drawn, in Debian's chromium (none
    without Playwright or /usr/bin/chromium)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return []
    if not Path("/usr/bin/chromium").exists():
        return []
    out = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for _ in range(loads):
            context = await browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            page = await context.new_page()
            began = time.perf_counter()
            await page.goto(url)
            await page.wait_for_function("() => Number(document.body.dataset.version) >= 0")
            out.append((time.perf_counter() - began) * 1000)
            await context.close()
        await browser.close()
    return out


async def discord_main(args: argparse.Namespace) -> None:
    from bot.client import TTRBot
    from bot.settings import Settings
    from tests.bot.driver import Driver
    from tests.fakediscord.api import FakeDiscord

    folder = tempfile.mkdtemp(prefix="web-bench-")
    url = f"sqlite+aiosqlite:///{folder}/ttr.sqlite3"
    fake = FakeDiscord().add_default_world()
    await fake.start()
    with fake.patch_discord():
        settings = Settings(
            discord_token="fake-bot-token", database_url=url, dev_guild_id=fake.guild.id, health_port=0,
            web_secret="benchmark secret, long enough", web_public_url="http://unused", render_workers=0,
        )  # fmt: skip
        bot = TTRBot(settings, storage=Storage(url))
        seeds = iter(range(args.seed, args.seed + 1000))
        bot.service.new_seed = lambda: next(seeds)
        await fake.start_client(bot)
        driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob], seed=args.seed)
        await driver.start_game(args.map)
        base = f"http://127.0.0.1:{bot.health.port}"
        signer = bot.web.signer
        viewers = [Viewer(f"player {seat}") for seat in (0, 1)] + [
            Viewer(f"spectator {i}") for i in range(args.spectators)
        ]
        delays: list[float] = []
        async with aiohttp.ClientSession() as http:
            tokens = [signer.token(driver.game_id, seat) for seat in (0, 1)] + [
                signer.token(driver.game_id, None)
            ] * args.spectators
            tasks = [
                asyncio.create_task(v.listen(http, f"{base}/web/api/{token}/events"))
                for v, token in zip(viewers, tokens)
            ]
            while not all(v.latest for v in viewers):
                await asyncio.sleep(0.01)
            moves = 0
            while moves < args.moves and not driver.game.is_over():
                seat = driver.game.to_move()[0]
                target = driver.game.version + 1
                sent = time.perf_counter()
                await driver.act(seat, driver.choose(seat))
                while not all(target in v.seen or v.latest["version"] >= target for v in viewers):
                    await asyncio.sleep(0.001)
                delays += [(v.seen.get(target, time.perf_counter()) - sent) * 1000 for v in viewers]
                moves = driver.game.version
            for task in tasks:
                task.cancel()
        await fake.stop_client(bot)
    await fake.close()
    print(f"{args.map} through Discord buttons, 2 players + {args.spectators} spectators, {moves} moves")
    print(f"tap -> each web viewer's frame: median {statistics.median(delays):.1f} ms, "
          f"p95 {pct(delays, 0.95):.1f} ms, max {max(delays):.1f} ms ({len(delays)} frames)")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="europe")
    parser.add_argument("--spectators", type=int, default=8)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--loads", type=int, default=5, help="first loads timed in chromium (0: none)")
    parser.add_argument("--discord", action="store_true", help="the whole bot on the fake Discord, moves by buttons")
    arguments = parser.parse_args()
    asyncio.run(discord_main(arguments) if arguments.discord else main(arguments))
