"""Storage benchmark: time to append an action and save the state, and the stored size of a game.

    python benchmarks/storage_bench.py                       # SQLite in a temporary folder
    python benchmarks/storage_bench.py --postgres URL        # and PostgreSQL (also TEST_DATABASE_URL)

A 5-player Europe game is played with random legal moves (nobody resigns); each action is then
stored the way the bot stores it, `append_action` = one transaction (version-checked UPDATE of the
state + INSERT into the log, COMMIT with SQLite's synchronous=FULL). The engine's work (applying the
action, `to_json`, notation) is done beforehand and not timed. Goals (issue 5): median ≤ 5 ms per
action on SQLite, ≤ 30 KB per finished game. Figures go to docs/storage.md.

    python benchmarks/storage_bench.py --transactions [--postgres URL]

The cost of one transaction instead (issue 23): process CPU time (all threads) per
`async with sessions() as s:` + one call, for the transaction kinds a turn message makes —
`game_stamp` (one indexed SELECT), `note_acknowledged` (one ORM INSERT in a write transaction) and
`append_action` (version-checked UPDATE + INSERT) — on SQLite and, when given, PostgreSQL; the
median of several rounds, with the driver calls per transaction (SQLite: thread hops into
aiosqlite's thread; PostgreSQL: asyncpg round trips).

    python benchmarks/storage_bench.py --sweep [--active 10000] [--postgres URL]

The AI seats' sweep (issue 33), which every bot process runs every 3 s (bot/cogs/ai_seats.py):
`--active` active games (half with an AI seat, over guilds of two shards, 1% written 20 s
before), and one look of shard 0 of 2 timed both ways, reading every AI game of the shard (every
look before issue 33; now only the first one at start) and reading those written since the look
before less the 30 s overlap (through `ix_games_status_updated`): wall and process CPU time per
look, the median of `--rounds` × `--count` looks, and the cost per process per second.
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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text  # noqa: E402

from engine import Game, GameOptions, Resign, format_action  # noqa: E402
from storage.announcements import note_acknowledged  # noqa: E402
from storage.database import dumps, make_engine, session_factory  # noqa: E402
from storage.games import append_action, create_game, game_stamp  # noqa: E402
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


@asynccontextmanager
async def postgres_schema(url: str) -> AsyncIterator[Any]:
    """An engine whose tables live in a fresh schema of `url`'s database, dropped afterwards."""
    admin = make_engine(url)
    async with admin.begin() as conn:
        await conn.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE"))
        await conn.execute(text(f"CREATE SCHEMA {PG_SCHEMA}"))
    engine = make_engine(url, connect_args={"server_settings": {"search_path": PG_SCHEMA}})
    try:
        yield engine
    finally:
        await engine.dispose()
        async with admin.begin() as conn:
            await conn.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE"))
        await admin.dispose()


async def postgres_bench(url: str, games: list[tuple[Game, list]], seeds: list[int]) -> None:
    async with postgres_schema(url) as engine:
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


# ---------------------------------------------------------------------- --transactions


class DriverCalls:
    """Counts the calls that leave the event loop: aiosqlite thread hops, asyncpg round trips."""

    def __init__(self) -> None:
        self.count = 0
        self._undo: list[tuple[type, str, Any]] = []

    def _patch(self, owner: type, name: str) -> None:
        original = getattr(owner, name)

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await original(*args, **kwargs)

        setattr(owner, name, counted)
        self._undo.append((owner, name, original))

    def __enter__(self) -> DriverCalls:
        import aiosqlite.core
        import asyncpg.connection
        import asyncpg.prepared_stmt

        self._patch(aiosqlite.core.Connection, "_execute")
        for name in ("execute", "prepare", "fetchrow", "fetchval"):  # BEGIN/COMMIT, PREPARE, a ping
            self._patch(asyncpg.connection.Connection, name)
        for name in ("fetch", "executemany"):
            self._patch(asyncpg.prepared_stmt.PreparedStatement, name)
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()


def transaction_kinds(game_id: int, state: dict) -> dict[str, Callable[[Any], Awaitable[None]]]:
    """The transactions to time, each a call made in a fresh session (`state`: the stored one)."""
    version = state["plies"]
    serial = 0

    async def stamp(s):  # type: ignore[no-untyped-def]
        await game_stamp(session=s, game_id=game_id)

    async def ack(s):  # type: ignore[no-untyped-def]
        nonlocal serial
        serial += 1
        await note_acknowledged(
            session=s, interaction_token=f"bench-{serial}", application_id=1, guild_id=1, user_id=1, received_by="bench"
        )

    async def append(s):  # type: ignore[no-untyped-def]
        nonlocal version
        version = await append_action(
            session=s,
            game_id=game_id,
            expected_version=version,
            seat=0,
            action_text="draw deck",
            state={**state, "plies": version + 1},
        )

    return {
        "game_stamp (1 SELECT)": stamp,
        "note_acknowledged (1 INSERT)": ack,
        "append_action (UPDATE+INSERT)": append,
    }


async def transactions_bench(name: str, engine, state: dict, rounds: int, count: int) -> None:  # type: ignore[no-untyped-def]
    """Print, per transaction kind, its median CPU time over `rounds` rounds and its driver calls."""
    await migrate(engine=engine)
    sessions = session_factory(engine)
    start = Game.new("europe", 5, 1, GameOptions())
    async with sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=10**6, game=start, players=[1, 2, 3, 4, 5])
    # The game's state is a real mid-game one, renumbered as its log grows.
    kinds = transaction_kinds(record.id, {**state, "plies": 0})
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind, op in kinds.items():
            c0 = time.process_time()
            for _ in range(count):
                async with sessions() as s:
                    await op(s)
            times[kind].append((time.process_time() - c0) / count * 1000)
    calls = {}
    for kind, op in kinds.items():
        with DriverCalls() as counter:
            async with sessions() as s:
                await op(s)
        calls[kind] = counter.count
    what = "aiosqlite thread hops" if engine.dialect.name == "sqlite" else "asyncpg round trips"
    for kind, per_round in times.items():
        print(
            f"{name} {kind}: {statistics.median(per_round):.2f} ms CPU per transaction, {calls[kind]} {what} "
            f"(median of {rounds} rounds of {count}; min {min(per_round):.2f}, max {max(per_round):.2f})"
        )


async def sweep_bench(name: str, engine, active: int, rounds: int, count: int) -> None:  # type: ignore[no-untyped-def]
    """Time the AI sweep's look at `active` active games, all of them and the ones written lately."""
    from datetime import timedelta

    from sqlalchemy import func, select

    from storage.announcements import backlog, pending_announcements
    from storage.clocks import GameClock, Timer, claim_due
    from storage.games import ai_games, ai_games_query
    from storage.models import Announcement, GameRecord, SeatRecord, utcnow

    async def health_count(s):  # type: ignore[no-untyped-def]  # as bot/health.py counts
        await s.execute(select(func.count()).select_from(GameRecord).where(GameRecord.status == "active"))
        await backlog(session=s)

    await migrate(engine=engine)
    sessions = session_factory(engine)
    start = Game.new("europe", 4, 1, GameOptions())
    state, now, rng = json.loads(dumps(start.to_json())), utcnow(), random.Random(33)
    async with engine.begin() as conn:
        for first in range(0, active, 1000):
            ids = range(first + 1, min(first + 1000, active) + 1)
            games = [
                {
                    "id": i,
                    "guild_id": (rng.randrange(1000) << 22) + 5,
                    "channel_id": i,
                    "map_id": "europe",
                    "options": start.options.to_json(),
                    "seats": 4,
                    "seed": i,
                    "rules_version": 1,
                    "map_sha256": start.map.sha256,
                    "status": "active",
                    "version": 40,
                    "state": state,
                    "created_at": now - timedelta(days=1),
                    "updated_at": now - timedelta(seconds=rng.uniform(60, 86400)),  # over the last day
                }
                for i in ids
            ]
            seats = [
                {
                    "game_id": i,
                    "seat": seat,
                    "user_id": None if i % 2 and seat == 3 else 10**17 + seat,
                    "ai": "baseline" if i % 2 and seat == 3 else None,
                }
                for i in ids
                for seat in range(4)
            ]
            clocks = [{"game_id": i, "turn_seconds": 86400} for i in ids]
            # Each game's pending deadline (tomorrow) and four that fired (timers are kept).
            timers = [
                {
                    "game_id": i,
                    "seat": n % 4,
                    "decision": n,
                    "kind": "deadline",
                    "due_at": now + timedelta(days=1) if n == 4 else now - timedelta(days=1, hours=n),
                    "fired_at": None if n == 4 else now - timedelta(days=1, hours=n),
                }
                for i in ids
                for n in range(5)
            ]
            await conn.execute(GameRecord.__table__.insert(), games)
            await conn.execute(SeatRecord.__table__.insert(), seats)
            await conn.execute(GameClock.__table__.insert(), clocks)
            await conn.execute(Timer.__table__.insert(), timers)
        # A few turns waiting to be posted.
        waiting = [
            {"game_id": i, "version": 40, "cause": "player", "created_at": now, "attempts": 0, "answer": "thinking"}
            for i in range(1, active + 1, max(1, active // 20))
        ]
        await conn.execute(Announcement.__table__.insert(), waiting)
        # 1% written in the last 20 s (of the time the looks begin, not the filling's).
        recent = GameRecord.__table__.update().where(GameRecord.id % 100 < 2)
        await conn.execute(recent.values(updated_at=utcnow() - timedelta(seconds=20)))
        if engine.dialect.name == "postgresql":  # (autovacuum would, a minute later; SQLite's bot never does)
            for table in ("games", "seats", "timers", "game_clocks", "announcements"):
                await conn.execute(text(f"ANALYZE {table}"))
    shard = (0, 2)
    looks = {  # (the recent look first: the games written 20 s ago are still within its 33 s)
        "written since the last look - 30 s (after)": timedelta(seconds=33),
        "every AI game of the shard (before)": None,
    }
    for what, window in looks.items():
        walls, cpus, found = [], [], 0
        for _ in range(rounds):
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(count):
                async with sessions() as s:
                    since = None if window is None else utcnow() - window
                    found = len(await ai_games(session=s, shard=shard, changed_since=since))
            walls.append((time.perf_counter() - w0) / count * 1000)
            cpus.append((time.process_time() - c0) / count * 1000)
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        print(
            f"{name}, {active} active games, AI sweep reading {what}: {found} games per look, "
            f"{wall:.2f} ms wall ({cpu:.2f} ms CPU of the bot process) per look; every 3 s: "
            f"{wall / 3:.2f} ms wall per second per process"
        )
    # The process's other polls, for the whole picture: the outbox drain's look (every 15 s,
    # OUTBOX_EVERY), the due timers' claim (every 5 s: a write transaction), the health count
    # (every 15 s, with HEALTH_PORT).
    polls = {
        "outbox drain look (every 15 s)": (15, lambda s: pending_announcements(session=s, shard=shard)),
        "due timers claim (every 5 s)": (5, lambda s: claim_due(session=s, shard=shard)),
        "health count of active games and outbox (every 15 s)": (15, lambda s: health_count(s)),
    }
    for what, (every, look) in polls.items():
        walls = []
        for _ in range(rounds):
            w0 = time.perf_counter()
            for _ in range(count):
                async with sessions() as s:
                    await look(s)
            walls.append((time.perf_counter() - w0) / count * 1000)
        wall = statistics.median(walls)
        print(f"{name}, {active} active games, {what}: {wall:.2f} ms wall per look, {wall / every:.2f} ms per second")
    async with sessions() as s:  # the recent look's plan
        query = ai_games_query(shard=shard, changed_since=utcnow() - timedelta(seconds=33))
        sql = str(query.compile(s.bind, compile_kwargs={"literal_binds": True}))
        sqlite = engine.dialect.name == "sqlite"
        plan = await s.execute(text(("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ") + sql))
        print(f"{name} plan of the recent look:", " / ".join(str(r[-1] if sqlite else r[0]).strip() for r in plan))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TEST_DATABASE_URL"),
        help="a PostgreSQL URL to use (a schema is created and dropped)",
    )
    parser.add_argument("--games", type=int, default=10, help="finished games stored for the size figure")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--transactions", action="store_true", help="time one transaction of each kind instead")
    parser.add_argument("--rounds", type=int, default=5, help="--transactions: rounds (the median is printed)")
    parser.add_argument("--count", type=int, default=200, help="--transactions: transactions per round")
    parser.add_argument("--sweep", action="store_true", help="time the AI seats' sweep instead")
    parser.add_argument("--active", type=int, default=10_000, help="--sweep: active games in the database")
    args = parser.parse_args()
    if args.sweep:
        with tempfile.TemporaryDirectory() as folder:
            engine = make_engine(f"sqlite+aiosqlite:///{folder}/bench.sqlite3")
            try:
                await sweep_bench("SQLite", engine, args.active, args.rounds, args.count // 10)
            finally:
                await engine.dispose()
        if args.postgres:
            async with postgres_schema(database_url(args.postgres)) as engine:
                await sweep_bench("PostgreSQL", engine, args.active, args.rounds, args.count // 10)
        else:
            print("PostgreSQL: skipped (pass --postgres URL or set TEST_DATABASE_URL)")
        return
    if args.transactions:
        state = play(args.seed)[1][40][2]
        with tempfile.TemporaryDirectory() as folder:
            engine = make_engine(f"sqlite+aiosqlite:///{folder}/bench.sqlite3")
            try:
                await transactions_bench("SQLite", engine, state, args.rounds, args.count)
            finally:
                await engine.dispose()
        if args.postgres:
            async with postgres_schema(database_url(args.postgres)) as engine:
                await transactions_bench("PostgreSQL", engine, state, args.rounds, args.count)
        else:
            print("PostgreSQL: skipped (pass --postgres URL or set TEST_DATABASE_URL)")
        return

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
