"""The bot's event-loop lag under load: how late its loop wakes up while several games are played
at once through the fake Discord (board images rendered in worker threads, SQLite writes).

    python benchmarks/loop_lag_bench.py                      # 8 games, one move every 2 s each, 60 s
    python benchmarks/loop_lag_bench.py --games 4 --seconds 30

The bot is the real `python -m bot` in its own process (tests/bot/bot_process.py), so the fake
Discord and the scripted players (tests/bot/remote.py, in this process) do not share its loop.
Inside the bot a task sleeps 10 ms again and again and records how late each wake-up is: a late
wake-up is time something held the loop (or the GIL). Goals (issue 18): p99 <= 50 ms, max <= 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PERIOD = 0.010  # seconds between the sampler's wake-ups


def child() -> int:
    """`python -m bot` pointed at the fake, with the sampler started in setup_hook; the samples go
    to LAG_FILE when the bot stops (SIGTERM)."""
    import discord.gateway
    import discord.http
    import yarl

    from bot.__main__ import main
    from bot.client import TTRBot
    from tests.fakediscord.server import API_PREFIX

    base = os.environ["FAKE_DISCORD_URL"]
    discord.http.Route.BASE = base + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gateway/")
    lags: list[float] = []

    async def sample() -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(PERIOD)
            lags.append(loop.time() - before - PERIOD)

    setup_hook = TTRBot.setup_hook

    async def setup_with_sampler(self: TTRBot) -> None:
        await setup_hook(self)
        self._lag_sampler = asyncio.create_task(sample())  # type: ignore[attr-defined]

    TTRBot.setup_hook = setup_with_sampler  # type: ignore[method-assign]
    code = main()
    Path(os.environ["LAG_FILE"]).write_text(json.dumps(lags))
    return code


async def one_game(
    fake,
    storage,
    channel,
    users,
    seed: int,
    deadline: float,
    interval: float,  # type: ignore[no-untyped-def]
    counts: dict[str, int],
) -> None:
    from tests.bot.remote import RemoteTable

    table = RemoteTable(fake, storage, channel, users, seed=seed, timeout=30)
    await table.start_game("usa")
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        await asyncio.sleep(rng.expovariate(1 / interval))
        if (await table.load()).game.is_over():
            return
        move = await table.move()
        await table.settle(move)
        counts["moves"] += 1


async def run(games: int, seconds: float, interval: float) -> None:
    from storage import Storage
    from tests.bot.bot_process import BotProcess
    from tests.fakediscord.api import FakeDiscord

    fake = FakeDiscord().add_default_world()
    channels = [fake.add_channel(fake.guild, f"game-{i}") for i in range(games)]
    players = [[fake.add_user(f"p{i}a"), fake.add_user(f"p{i}b")] for i in range(games)]
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/ttr.sqlite3"
        lag_file = Path(folder) / "lags.json"
        bot = BotProcess(
            fake,
            Path(folder),
            command=(str(Path(__file__).resolve()), "--child"),
            DATABASE_URL=url,
            LAG_FILE=str(lag_file),
        )
        storage = Storage(url)
        await bot.start()
        counts = {"moves": 0}
        cpu = time.process_time()
        try:
            deadline = time.monotonic() + seconds
            await asyncio.gather(
                *(one_game(fake, storage, channels[i], players[i], i, deadline, interval, counts) for i in range(games))
            )
        finally:
            await bot.stop()
            await storage.close()
            await fake.close()
        lags = sorted(json.loads(lag_file.read_text()))
    ms = [lag * 1000 for lag in lags]
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"{games} games, {counts['moves']} moves in {seconds:g} s ({os.cpu_count()} cores; "
        f"players' and fake's CPU {time.process_time() - cpu:.1f} s)"
    )
    print(
        f"loop lag over {len(ms)} samples: median {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, "
        f"max {ms[-1]:.1f} ms (goals: p99 <= 50 ms, max <= 200 ms)"
    )
    if bot.errors():
        print(f"the bot logged {len(bot.errors())} errors, first: {bot.errors()[0]['message']}")


if __name__ == "__main__":
    if "--child" in sys.argv:
        sys.exit(child())
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=2.0, help="mean seconds between one game's moves")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.seconds, args.interval))
