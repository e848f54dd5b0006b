"""Storage benchmark: time to append an action and save the state, and the stored size of a game.

    python benchmarks/storage_bench.py                       # SQLite in a temporary folder
    python benchmarks/storage_bench.py --postgres URL        # and PostgreSQL (also TEST_DATABASE_URL)

A 5-player Europe game is played with random legal moves (nobody resigns); each action is then
stored the way the bot stores it, `append_action` = one transaction (version-checked UPDATE of the
state + INSERT into the log, COMMIT with SQLite's synchronous=FULL). The engine's work (applying the
action, `to_json`, notation) is done beforehand and not timed. Goals (issue 5): median ≤ 5 ms per
action on SQLite, ≤ 30 KB per finished game. Figures go to docs/storage.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text  # noqa: E402

from engine import Game, GameOptions, Resign, format_action  # noqa: E402
from storage.database import dumps, make_engine, session_factory  # noqa: E402
from storage.games import append_action, create_game  # noqa: E402
from storage.migrate import migrate  # noqa: E402
from storage.settings import database_url  # noqa: E402

PG_SCHEMA = "ttr_storage_bench"


def play(seed: int) -> tuple[Game, list[tuple[int | None, str, dict]]]:
    """A finished 5-player Europe game and, per action, (seat, notation, state after it)."""
    rng = random.Random(seed)
    game = Game.new("europe", 5, seed, GameOptions())
    steps = []
    while not game.is_over():
        seat = game.to_move()[0]
        action = rng.choice([a for a in game.legal_actions(seat, collapse_payments=True) if not isinstance(a, Resign)])
        game.apply(seat, action)
        steps.append((seat, format_action(game, action), json.loads(dumps(game.to_json()))))
    return game, steps


async def time_appends(sessions, steps, seed: int, channel: int) -> list[float]:  # type: ignore[no-untyped-def]
    start = Game.new("europe", 5, seed, GameOptions())
    async with sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=channel, game=start, players=[1, 2, 3, 4, 5])
        times = []
        for version, (seat, action_text, state) in enumerate(steps):
            t0 = time.perf_counter()
            await append_action(
                session=s, game_id=record.id, expected_version=version, seat=seat, action_text=action_text, state=state
            )
            times.append((time.perf_counter() - t0) * 1000)
    return times


def describe(name: str, times: list[float]) -> str:
    q = statistics.quantiles(times, n=20)
    return (
        f"{name}: {len(times)} actions, median {statistics.median(times):.2f} ms, "
        f"p95 {q[18]:.2f} ms, max {max(times):.2f} ms, total {sum(times) / 1000:.2f} s"
    )


async def sqlite_bench(games: list[tuple[Game, list]], seeds: list[int], folder: Path) -> None:
    url = f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
    engine = make_engine(url)
    await migrate(engine=engine)
    sessions = session_factory(engine)
    times = await time_appends(sessions, games[0][1], seeds[0], channel=1)
    print(describe("SQLite (WAL, synchronous=FULL) append+save", times))
    await engine.dispose()

    # Stored size: finished games in a fresh file, checkpointed and vacuumed, against an empty one.
    empty_url = f"sqlite+aiosqlite:///{folder}/empty.sqlite3"
    sizes = {}
    for name, u, stored in (("empty", empty_url, []), ("full", url, games[1:])):
        engine = make_engine(u)
        await migrate(engine=engine)
        sessions = session_factory(engine)
        for n, (game, _) in enumerate(stored, start=2):
            async with sessions() as s:
                await create_game(session=s, guild_id=1, channel_id=n, game=game, players=[1, 2, 3, 4, 5])
        await engine.dispose()
        path = Path(u.split("///", 1)[1])
        db = sqlite3.connect(path)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.close()
        sizes[name] = path.stat().st_size
    per_game = (sizes["full"] - sizes["empty"]) / len(games)
    print(
        f"SQLite file: {sizes['full']} bytes for {len(games)} finished games, empty schema {sizes['empty']} bytes: "
        f"{per_game / 1024:.1f} KB per finished game (rows + indexes, after VACUUM)"
    )


async def postgres_bench(url: str, games: list[tuple[Game, list]], seeds: list[int]) -> None:
    admin = make_engine(url)
    async with admin.begin() as conn:
        await conn.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE"))
        await conn.execute(text(f"CREATE SCHEMA {PG_SCHEMA}"))
    engine = make_engine(url, connect_args={"server_settings": {"search_path": PG_SCHEMA}})
    try:
        await migrate(engine=engine)
        sessions = session_factory(engine)
        times = await time_appends(sessions, games[0][1], seeds[0], channel=1)
        print(describe("PostgreSQL append+save", times))
        async with engine.connect() as conn:
            row = (
                await conn.execute(
                    text(
                        "SELECT (SELECT sum(pg_column_size(g.*)) FROM games g WHERE id = 1),"
                        " (SELECT sum(pg_column_size(a.*)) FROM actions a WHERE game_id = 1),"
                        " (SELECT sum(pg_column_size(s.*)) FROM seats s WHERE game_id = 1)"
                    )
                )
            ).one()
        print(
            f"PostgreSQL rows of that game: games {row[0]} + actions {row[1]} + seats {row[2]} = "
            f"{sum(row) / 1024:.1f} KB (row data, before page and index overhead)"
        )
        # On disk: the other games too, vacuumed, tables + indexes + TOAST, against the empty schema.
        sizes = (
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            f"WHERE n.nspname = '{PG_SCHEMA}' AND c.relkind = 'r' AND c.relname <> 'alembic_version'"
        )
        async with engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("DELETE FROM actions"))
            await conn.execute(text("DELETE FROM seats"))
            await conn.execute(text("DELETE FROM games"))
            await conn.execute(text("VACUUM FULL"))
            empty = (await conn.execute(text(sizes))).scalar_one()
        for n, (game, _) in enumerate(games, start=2):
            async with sessions() as s:
                await create_game(session=s, guild_id=1, channel_id=n, game=game, players=[1, 2, 3, 4, 5])
        async with engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("VACUUM FULL"))
            full = (await conn.execute(text(sizes))).scalar_one()
        print(
            f"PostgreSQL on disk: {full - empty} bytes for {len(games)} finished games after VACUUM FULL: "
            f"{(full - empty) / len(games) / 1024:.1f} KB per finished game (tables, indexes, TOAST; 8 KB pages)"
        )
    finally:
        await engine.dispose()
        async with admin.begin() as conn:
            await conn.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE"))
        await admin.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TEST_DATABASE_URL"),
        help="a PostgreSQL URL to use (a schema is created and dropped)",
    )
    parser.add_argument("--games", type=int, default=10, help="finished games stored for the size figure")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    seeds = [args.seed + n for n in range(args.games)]
    t0 = time.perf_counter()
    games = [play(seed) for seed in seeds]
    plies = [len(g.log) for g, _ in games]
    print(
        f"{args.games} random 5-player Europe games played in {time.perf_counter() - t0:.1f} s: "
        f"{min(plies)}-{max(plies)} actions, median {statistics.median(plies):.0f}"
    )
    game, steps = games[0]
    state_bytes = len(dumps(steps[-1][2]))
    log_bytes = sum(len(t) for _, t, _ in steps)
    print(
        f"payload of one finished game: state {state_bytes} bytes (compact JSON), log {len(steps)} actions / {log_bytes} bytes of notation"
    )
    with tempfile.TemporaryDirectory() as folder:
        await sqlite_bench(games, seeds, Path(folder))
    if args.postgres:
        await postgres_bench(database_url(args.postgres), games, seeds)
    else:
        print("PostgreSQL: skipped (pass --postgres URL or set TEST_DATABASE_URL)")


if __name__ == "__main__":
    asyncio.run(main())
