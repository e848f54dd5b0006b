"""Bot latency under load: many concurrent games through the fake Discord server.

    python benchmarks/bot_bench.py                       # 50 games, 1 action / 10 s each, 120 s
    python benchmarks/bot_bench.py --games 10 --seconds 20
    python benchmarks/bot_bench.py --locales en-US,ru,zh-CN   # players in several languages

Each game (2 players, USA) acts at random moments, on average one action every `--interval`
seconds. Measured: time from the interaction's dispatch to the channel's turn message (board
image included) for every action that ends a turn. Uses the real bot (TTRBot, SQLite) and the
real discord.py client; the fake server runs in the same process, so its work counts too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import TTRBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from storage import Storage  # noqa: E402
from tests.bot.driver import Driver  # noqa: E402
from tests.fakediscord.api import FakeDiscord  # noqa: E402


async def one_game(fake, bot, channel, users, seed, deadline, interval, latencies, lock) -> None:
    driver = Driver(fake, bot, channel, users, seed=seed)
    rng = random.Random(seed)
    async with lock:  # lobbies are quick; keep their set-up out of the measured window
        await driver.start_game("usa")
        for seat in (0, 1):
            await driver.act(seat, driver.game.default_action(seat))
    while time.perf_counter() < deadline and not driver.game.is_over():
        await asyncio.sleep(rng.expovariate(1 / interval))
        game = driver.game
        seat = game.to_move()[0]
        action = driver.choose(seat)
        before = len(fake.channel_messages(channel))
        start = time.perf_counter()
        acting = asyncio.create_task(driver.act(seat, action))
        posted = asyncio.create_task(fake.wait_until(lambda: len(fake.channel_messages(channel)) > before, 30))
        done, _ = await asyncio.wait({acting, posted}, return_when=asyncio.FIRST_COMPLETED)
        if posted in done:
            latencies.append(time.perf_counter() - start)  # the turn message (with its image) is there
        await acting
        if not posted.done():  # a step inside a turn: no channel message is due
            posted.cancel()


async def main(games: int, seconds: float, interval: float, locales: list[str]) -> None:
    fake = FakeDiscord().add_default_world()
    channels = [fake.add_channel(fake.guild, f"game-{i}") for i in range(games)]
    users = [
        (
            fake.add_user(f"a{i}", locale=locales[(2 * i) % len(locales)]),
            fake.add_user(f"b{i}", locale=locales[(2 * i + 1) % len(locales)]),
        )
        for i in range(games)
    ]
    await fake.start()
    with tempfile.TemporaryDirectory() as folder, fake.patch_discord():
        os.chdir(folder)  # the command-sync marker (data/) belongs to this fake Discord only
        url = f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
        settings = Settings(discord_token="fake-bot-token", database_url=url, dev_guild_id=fake.guild.id)
        bot = TTRBot(settings, storage=Storage(url))
        await fake.start_client(bot)
        latencies: list[float] = []
        lock = asyncio.Lock()
        setup_start = time.perf_counter()
        deadline = setup_start + seconds
        await asyncio.gather(
            *(
                one_game(fake, bot, channels[i], list(users[i]), i, deadline, interval, latencies, lock)
                for i in range(games)
            )
        )
        await fake.stop_client(bot)
    await fake.close()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"games={games} interval={interval}s window={seconds}s locales={','.join(locales)} "
        f"turn messages={len(latencies)}"
    )
    print(
        f"latency interaction -> turn message: median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--interval", type=float, default=10)
    parser.add_argument("--locales", default="en-US", help="players' Discord locales, comma-separated, in turn")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.seconds, args.interval, args.locales.split(",")))
