"""Web table benchmark: the figures in docs/web.md.

    python benchmarks/web_bench.py                    # Europe, 2 players and 8 spectators, 150 moves
    python benchmarks/web_bench.py --map usa --spectators 20 --moves 300

Serves the web table (bot/web/server.py) over a real GameService on SQLite, opens an event stream
for each player and each spectator, then plays moves by POSTing them as the page does (the seat to
move picks a random legal move from its own frame, claims first). For each move: the time from
sending it to each viewer's frame of the new version (median, p95, max over every viewer and move);
the bytes of each viewer's frames (per frame and for the whole run); and the bytes of the page's
first load (HTML, script, style, the map's drawing, the first frame), as sent and gzipped.
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="europe")
    parser.add_argument("--spectators", type=int, default=8)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    asyncio.run(main(parser.parse_args()))
