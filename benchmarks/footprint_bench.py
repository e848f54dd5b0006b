"""A bot process's footprint: seconds from `python -m bot` to ready and its peak resident size with
many active games stored (as one shard's process of many, and unsharded), and the memory a cached
game takes.

    python benchmarks/footprint_bench.py --startup 10000 [--postgres URL]   # 10,000 stored games
    python benchmarks/footprint_bench.py --memory 2000                       # 2,000 cached games
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bot_bench import DEFAULT_PG, guild_on_shard  # noqa: E402  (after the path above)

# --- memory -------------------------------------------------------------------------------------


def resident_mib() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory(games: int) -> None:
    """Resident size of a bot-sized process before and after `games` mid-game tables are in a
    GameService's cache (the default CACHE_SIZE is 2,000), each 2-player USA game 60 plies in."""
    import gc

    import bot.client  # noqa: F401  (everything the bot process imports)
    from bot.service import GameService, Table
    from engine import Game, GameOptions, load_map
    from storage.models import GameRecord, SeatRecord

    usa = load_map("usa")
    service = GameService(storage=None)  # type: ignore[arg-type]
    gc.collect()
    before = resident_mib()
    for game_id in range(1, games + 1):
        game = Game(usa, 2, seed=game_id, options=GameOptions())  # as the bot holds it: replayed
        rng = random.Random(game_id)
        while len(game.log) < 60 and game.to_move():
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
        record = GameRecord(
            id=game_id,
            guild_id=1,
            channel_id=game_id,
            map_id="usa",
            seats=2,
            seed=game_id,
            rules_version=1,
            map_sha256=usa.sha256,
            version=len(game.log),
            state=game.to_json(),
        )
        seats = [SeatRecord(game_id=game_id, seat=s, user_id=10 * game_id + s) for s in range(2)]
        service._keep(Table(record=record, seats=seats, game=game))
    gc.collect()
    after = resident_mib()
    print(
        f"{games} cached games (2-player USA, 60 plies): resident {before:.0f} -> {after:.0f} MiB, "
        f"{(after - before) * 1024 / games:.0f} KiB per game"
    )


# --- start-up -------------------------------------------------------------------------------------

STARTUP_PLIES = 100  # each stored game's actions
STARTUP_SHARDS = 100  # the games' guilds spread over this many shards


async def fill(url: str, games: int) -> None:
    """`games` active 2-player USA games of STARTUP_PLIES actions each, their guilds spread over
    STARTUP_SHARDS shards: one game played and stored, then copied by PostgreSQL itself."""
    from sqlalchemy import text

    from storage import Storage
    from storage.games import create_game, save_action
    from tests.storage.conftest import wipe_postgres
    from tests.storage.helpers import advance, new_game

    await wipe_postgres(url)
    storage = Storage(url)
    try:
        await storage.start()
        game = new_game(map_id="usa", seats=2, seed=33)
        async with storage.sessions() as session:
            record = await create_game(session=session, guild_id=0, channel_id=1, game=game, players=[1, 2])
            for version in range(STARTUP_PLIES):
                advance(game, 1)
                await save_action(session=session, game_id=record.id, expected_version=version, game=game)
        assert not game.is_over()
        async with storage.engine.begin() as conn:
            columns = [
                name
                for (name,) in await conn.execute(
                    text("SELECT column_name FROM information_schema.columns WHERE table_name = 'games'")
                )
                if name not in ("id", "guild_id", "channel_id")
            ]
            listed = ", ".join(f'"{name}"' for name in columns)
            # guild n % SHARDS << 22 is on shard n % SHARDS; every game its own channel
            await conn.execute(
                text(
                    f"INSERT INTO games (guild_id, channel_id, {listed}) "
                    f"SELECT ((n % {STARTUP_SHARDS}) << 22) + n, 1 + n, {listed} "
                    "FROM games, generate_series(1, :more) AS n WHERE id = :template"
                ),
                {"more": games - 1, "template": record.id},
            )
            for table in ("seats", "actions"):
                names = [
                    f'"{name}"'
                    for (name,) in await conn.execute(
                        text("SELECT column_name FROM information_schema.columns WHERE table_name = :t"), {"t": table}
                    )
                    if name != "game_id"
                ]
                await conn.execute(
                    text(
                        f"INSERT INTO {table} (game_id, {', '.join(names)}) "
                        f"SELECT g.id, {', '.join('r.' + n for n in names)} FROM games g JOIN {table} r "
                        "ON r.game_id = :template WHERE g.id <> :template"
                    ),
                    {"template": record.id},
                )
            await conn.execute(text("ANALYZE"))
    finally:
        await storage.close()


def peak_mib(pid: int) -> float:
    """A process's peak resident size (VmHWM), from /proc."""
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


async def startup(url: str, games: int) -> None:
    """Seconds from `python -m bot` to its ready line, and its peak resident size, with `games`
    active games of STARTUP_PLIES actions stored: as one shard's process of STARTUP_SHARDS, and as
    the one process of an unsharded bot."""
    from tests.bot.bot_process import BotProcess
    from tests.fakediscord.api import FakeDiscord

    started = time.perf_counter()
    await fill(url, games)
    print(f"{games} games of {STARTUP_PLIES} actions stored in {time.perf_counter() - started:.0f} s", flush=True)
    fake = FakeDiscord()
    guild_on_shard(fake, 0, STARTUP_SHARDS)
    await fake.start()
    try:
        for label, shards in (
            (f"shard 0 of {STARTUP_SHARDS}", {"SHARD_COUNT": str(STARTUP_SHARDS), "SHARD_IDS": "[0]"}),
            ("unsharded", {}),
        ):
            with tempfile.TemporaryDirectory() as folder:
                # No command sync (a start after a release that changed them syncs once, whatever the games).
                settings = {"DATABASE_URL": url, "AUTO_MIGRATE": "false", "SYNC_COMMANDS": "false", **shards}
                bot = BotProcess(fake, Path(folder), **settings)
                began = time.perf_counter()
                await bot.start(timeout=600)
                took = time.perf_counter() - began
                assert bot.proc is not None
                peak = peak_mib(bot.proc.pid)
                ready = next(e["message"] for e in bot.log if e["message"].startswith("ready as"))
                await bot.stop()
            print(f"{label}: ready in {took:.1f} s, peak resident {peak:.0f} MiB ({ready})", flush=True)
    finally:
        await fake.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--startup", type=int, metavar="GAMES", help="start-up with this many stored games (PostgreSQL)"
    )
    parser.add_argument("--memory", type=int, metavar="GAMES", help="the memory of this many cached games")
    parser.add_argument("--postgres", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    args = parser.parse_args()
    if args.memory:
        memory(args.memory)
    if args.startup:
        asyncio.run(startup(args.postgres, args.startup))
    if not (args.memory or args.startup):
        parser.print_help()
