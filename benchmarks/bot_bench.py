"""Bot throughput: the offered load ramped up until the latency goal breaks, for one bot process
on SQLite, one on PostgreSQL and two shard processes on PostgreSQL (issue 23).

    python benchmarks/bot_bench.py                                  # the three set-ups, default ramp
    python benchmarks/bot_bench.py --setups sqlite --rates 5,10,20 --step 10
    python benchmarks/bot_bench.py --setups pg1,pg2 --postgres postgresql+asyncpg://u:p@host/db
    python benchmarks/bot_bench.py --setups sqlite --profile /tmp/bot.prof   # cProfile of the bot's loop
    python benchmarks/bot_bench.py --setups pg1,pg2 --cpu-quota 0.5  # each bot limited to half a core
    python benchmarks/bot_bench.py --setups sqlite --counts [--ai]  # requests per turn (--ai: one person against an AI)

The bot is the real `python -m bot` in child processes (tests/bot/bot_process.py), logging in to the
fake Discord served here; two shard processes are shards 0 and 1 of 2, with the games split over
two guilds, one on each shard. Players here (2 per USA game) read their game from the database and
act as on a phone: a card is a tap on the table message's Deck or a face-up card, a claim
`/ttr claim`, the starting choice the select of `/ttr hand`. Actions arrive as a Poisson process
at the step's rate, each taken by a table that is not waiting for the bot (a finished game starts
again). Measured per step: turn messages per second; interaction -> turn message latency (from
sending the tap until the channel message is in the fake); the bots' event-loop lag (a task in each
bot sleeps 10 ms again and again; how late it wakes up); the bots' CPU seconds per turn message.
The knee is the highest step meeting p95 <= 300 ms and lag p99 <= 50 ms. The players and the fake
share this process's loop: their CPU is printed too (on 2 cores they compete with the bots), and
so is a PostgreSQL server's on this machine (its "postgres" processes) on the PostgreSQL set-ups.
--cpu-quota limits each bot process and its image workers to that many cores (a cgroup v1 CPU
quota: root on Linux): how the set-ups scale when the machine has cores to spare, which a 2-core
machine running the players, the fake Discord and PostgreSQL next to two bots has not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LAG_PERIOD = 0.010  # seconds between the lag sampler's wake-ups
GOAL_P95, GOAL_LAG_P99 = 0.300, 0.050
SETTLE = 3.0  # seconds at the start of each step left out of its figures
TIMEOUT = 30.0  # a turn message later than this counts as lost (and as far over the goal)
DEFAULT_PG = "postgresql+asyncpg://ttr_ci:ttr_ci@127.0.0.1:5432/ttr_tp"


# --- inside each bot process ----------------------------------------------------------------------


def child() -> int:
    """`python -m bot` pointed at the fake, with a lag sampler started in setup_hook; on SIGTERM the
    samples (wall time, lag) go to LAG_FILE, and with PROFILE_FILE the loop thread's cProfile."""
    import cProfile

    import discord.gateway
    import discord.http
    import yarl

    from bot.__main__ import main
    from bot.client import TTRBot
    from tests.fakediscord.server import API_PREFIX

    base = os.environ["FAKE_DISCORD_URL"]
    discord.http.Route.BASE = base + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gateway/")
    samples: list[tuple[float, float]] = []

    async def sample() -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_PERIOD)
            samples.append((time.time(), loop.time() - before - LAG_PERIOD))

    setup_hook = TTRBot.setup_hook

    async def setup_with_sampler(self: TTRBot) -> None:
        await setup_hook(self)
        self._lag_sampler = asyncio.create_task(sample())  # type: ignore[attr-defined]

    TTRBot.setup_hook = setup_with_sampler  # type: ignore[method-assign]
    counts = _count_work() if os.environ.get("COUNTS_FILE") else None
    profile_file = os.environ.get("PROFILE_FILE")
    profiler = cProfile.Profile(time.thread_time) if profile_file else None  # the loop thread's CPU
    if profiler is not None:
        profiler.enable()

    def ramp_begins(*_: object) -> None:
        """SIGUSR1: the games are set up; what was counted or profiled so far is left out."""
        if counts is not None:
            for counter in counts.values():
                counter.clear()
        if profiler is not None:
            profiler.clear()

    signal.signal(signal.SIGUSR1, ramp_begins)
    code = main()
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile_file)
    Path(os.environ["LAG_FILE"]).write_text(json.dumps(samples))
    if counts is not None:
        Path(os.environ["COUNTS_FILE"]).write_text(json.dumps(counts))
    return code


def _count_work() -> dict:
    """What the bot asks of its database and of Discord, counted by kind (--counts): SQL
    statements by their first words, REST requests by method and route, gateway events by type."""
    from collections import Counter

    import discord.http
    import discord.utils
    import discord.webhook.async_
    import sqlalchemy.event
    from sqlalchemy.engine import Engine

    counts: dict[str, Counter] = {"sql": Counter(), "rest": Counter(), "gateway": Counter(), "images": Counter()}

    @sqlalchemy.event.listens_for(Engine, "before_cursor_execute")
    def statement(conn, cursor, text, params, context, executemany):  # noqa: ANN001, ARG001
        words = re.sub(r"\s+", " ", text).split(" ")
        table = next((w for w in words[1:] if w.isidentifier() and w.upper() not in _SQL_WORDS), "")
        counts["sql"][f"{words[0].upper()} {table}".strip()] += 1

    def ended(conn):  # noqa: ANN001, ARG001  (a transaction, whatever the driver sends for it)
        counts["sql"]["(transactions)"] += 1

    sqlalchemy.event.listen(Engine, "commit", ended)
    sqlalchemy.event.listen(Engine, "rollback", ended)  # a read ends so

    request = discord.http.HTTPClient.request

    async def counted_request(self, route, **kwargs):  # noqa: ANN001, ANN202
        counts["rest"][f"{route.method} {route.path}"] += 1
        return await request(self, route, **kwargs)

    discord.http.HTTPClient.request = counted_request  # type: ignore[method-assign]
    from bot.render_pool import RenderPool

    run = RenderPool._run

    async def counted_run(self, call):  # noqa: ANN001, ANN202  (drawn, not taken from the cache)
        counts["images"][call.args[0]] += 1
        return await run(self, call)

    RenderPool._run = counted_run  # type: ignore[method-assign]
    adapter = discord.webhook.async_.AsyncWebhookAdapter
    hook_request = adapter.request

    async def counted_hook_request(self, route, *args, **kwargs):  # noqa: ANN001, ANN202  (interaction replies)
        counts["rest"][f"{route.method} {route.path}"] += 1
        return await hook_request(self, route, *args, **kwargs)

    adapter.request = counted_hook_request  # type: ignore[method-assign]
    from_json = discord.utils._from_json

    def counted_json(text):  # noqa: ANN001, ANN202  (the gateway's payloads, once inflated)
        data = from_json(text)
        if isinstance(data, dict) and data.get("t") and "op" in data:
            counts["gateway"][data["t"]] += 1
        return data

    discord.utils._from_json = counted_json
    return counts


_SQL_WORDS = {"INTO", "FROM", "DISTINCT", "OR", "IGNORE", "REPLACE", "TRANSACTION", "IMMEDIATE"}


# --- the players -----------------------------------------------------------------------------------


@dataclass
class Step:
    rate: float  # offered turn messages per second
    start: float = 0.0  # wall clock (time.time(), shared with the bots)
    end: float = 0.0
    latencies: list[float] = field(default_factory=list)
    lost: int = 0  # turn messages that did not come within TIMEOUT
    unacknowledged: int = 0  # taps the bot did not answer within Discord's 3 s ("This interaction failed")
    actions: int = 0
    busy: int = 0  # arrivals that found every table waiting for the bot
    refused: int = 0  # actions the bot refused (the player's copy of the game was behind)
    cpu: float = 0.0  # the bots' CPU seconds in the step, their image workers' included
    cpu_own: float = 0.0  # the bot processes' own
    cpu_driver: float = 0.0  # this process's: the players and the fake Discord
    cpu_database: float = 0.0  # a PostgreSQL server's on this machine (its processes are "postgres")
    lag_p99: float = 0.0
    lag_max: float = 0.0

    @property
    def seconds(self) -> float:
        return self.end - self.start - SETTLE

    @property
    def turns(self) -> int:
        return len(self.latencies) + self.lost

    def p(self, q: float) -> float:
        if self.lost and q * self.turns >= len(self.latencies):
            return TIMEOUT
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    @property
    def meets_goal(self) -> bool:
        return self.turns > 0 and self.p(0.95) <= GOAL_P95 and self.lag_p99 <= GOAL_LAG_P99


class BenchTable:
    """One channel's game, played by its two users through the fake."""

    def __init__(self, fake, storage, channel, users, seed: int, ai: bool = False) -> None:  # type: ignore[no-untyped-def]
        from tests.bot.remote import RemoteTable

        self.fake, self.channel, self.users = fake, channel, users
        self.ai = ai  # the second seat is an AI's (--ai): the host plays alone against it
        self.remote = RemoteTable(fake, storage, channel, users, seed=seed, timeout=TIMEOUT)
        self.storage = storage
        self.busy = False
        self.known = None  # the game as this table last saw it, its own moves applied

    async def game(self):  # type: ignore[no-untyped-def]
        """The stored game: the copy kept here while the stored version is still its version (one
        indexed read instead of a replay of the whole log: the players' CPU competes with the bot)."""
        from storage.games import game_stamp

        if self.known is not None:
            async with self.storage.sessions() as session:
                stamp = await game_stamp(session=session, game_id=self.known.id)
            if stamp is not None and stamp[0] == self.known.game.version:
                return self.known
        self.known = await self.remote.load()
        return self.known

    async def start(self) -> None:
        """A new game in the channel; each command is sent again if the bot did not acknowledge it
        in time (a loaded machine at set-up: a second answer is a harmless refusal)."""
        from tests.fakediscord.state import InteractionFailed

        remote, (host, guest) = self.remote, self.users
        remote.game_id, self.known = None, None
        commands = (
            [(host, "ttr-host new", {"map": "usa", "players": 2}), (host, "ttr-host start", {"ai_players": 1})]
            if self.ai
            else [
                (host, "ttr-host new", {"map": "usa", "players": 2}),
                (guest, "ttr join", {}),
                (host, "ttr-host start", {}),
            ]
        )
        for user, command, options in commands:
            for attempt in range(3):
                try:
                    await remote._command(user, command, **options)
                    break
                except (InteractionFailed, TimeoutError):
                    if attempt == 2:
                        raise
        await self.fake.wait_until(remote._started, TIMEOUT, "the game to start")

    async def choose_tickets(self) -> None:
        """Both players keep their starting tickets; then wait for the first turn's table message
        (the first tap looks for its Deck button there: measured before it is posted, the tap was
        never sent and its turn message counted lost)."""
        while (loaded := await self.game()).game.phase == "choosing" or (
            self.ai
            and not loaded.game.is_over()
            and not any(seat.seat == loaded.game.current and seat.user_id for seat in loaded.seats)
        ):
            await self.step(None)
        # Both seats choose at once: a choice answered late (a busy set-up) can be stored after the
        # other one, so the copy kept here may hold them in another order than the stored game (the
        # same version, another turn token): the ramp starts from the stored game.
        self.known = loaded = await self.remote.load()
        deck = re.compile(rf"ttr:{loaded.record.id}:[0-9]+:draw:deck")
        await self.fake.wait_until(
            lambda: any(deck.fullmatch(c) for m in self.channel.messages for c in m.custom_ids),
            TIMEOUT,
            "the first turn's table",
        )

    async def step(self, measure: Step | None) -> bool:
        """One action of the seat to move; the turn message's latency into `measure` (None: set-up).
        False when the game is over."""
        from tests.fakediscord.state import InteractionFailed

        loaded = await self.game()
        game = loaded.game
        if game.is_over():
            return False
        people = [seat for seat in game.to_move() if any(s.seat == seat and s.user_id for s in loaded.seats)]
        if not people:  # an AI's turn (--ai): the table waits for it
            await asyncio.sleep(0.2)
            return True
        seat = self.remote.rng.choice(people)
        user = next(u for u in self.users if u.id == next(s.user_id for s in loaded.seats if s.seat == seat))
        action = self.remote.choose(game, seat)
        gid, turn = loaded.record.id, game.turn_token(seat)
        after = loaded.game
        after.apply(seat, action)  # the local copy: does this action end the turn?
        turn_ends = after.stage is None and after.phase != "choosing"
        posted = len(self.channel.messages)
        sent = time.perf_counter()
        answer = asyncio.create_task(self._send(user, action, gid, turn, game.map))
        lost = False
        if turn_ends and measure is not None:
            measure.actions += 1
            try:
                await self.fake.wait_until(lambda: len(self.channel.messages) > posted, TIMEOUT, "the turn message")
                measure.latencies.append(time.perf_counter() - sent)
            except TimeoutError:
                measure.lost += 1
                lost = True
        elif measure is not None:
            measure.actions += 1
        try:
            await answer
        except InteractionFailed:
            if measure is not None:
                measure.unacknowledged += 1
        except Exception as exc:  # a refusal (the player's copy was behind): the next step reloads
            if measure is not None:
                measure.refused += 1
            if lost:
                print(f"a lost turn message's action ({action}) failed here: {type(exc).__name__}: {exc}"[:300])
        return True

    async def _send(self, user, action, gid: int, turn: int, map_data) -> None:  # type: ignore[no-untyped-def]
        from engine import Claim, DrawDeck, DrawMarket, DrawTickets, KeepTickets
        from engine.cards import CARD_NAMES
        from engine.notation import route_label

        fake = self.fake
        edits = sum(len(m.history) for m in fake.ephemeral(user))  # the player's panels, edited so far
        if isinstance(action, (DrawDeck, DrawMarket)):  # a tap on the live table message
            slot = "deck" if isinstance(action, DrawDeck) else str(action.slot)
            pattern = re.compile(rf"ttr:{gid}:{turn}:draw:{slot}(:[0-9])?")

            def live():  # type: ignore[no-untyped-def]
                return next(
                    (m for m in reversed(self.channel.messages) if any(pattern.fullmatch(c) for c in m.custom_ids)),
                    None,
                )

            # The second card's button comes with the table's edit after the first (as on a phone).
            await fake.wait_until(lambda: live() is not None, TIMEOUT, "the table's button")
            table = live()
            reply = await fake.click(user, table, next(c for c in table.custom_ids if pattern.fullmatch(c)))
        elif isinstance(action, KeepTickets):
            hand = await self.remote._command(user, "ttr hand")
            offer = next(m for m in reversed(hand.followups) if any(c.endswith(":keep") for c in m.custom_ids))
            keep = next(c for c in offer.custom_ids if c.endswith(":keep"))
            reply = await fake.select(user, offer, keep, [str(i) for i in action.ids])
        elif isinstance(action, Claim):
            track = map_data.track_by_id[action.track]
            reply = await fake.slash(
                user,
                self.channel,
                "ttr claim",
                route=route_label(map_data, track),
                color="loco" if action.color is None else CARD_NAMES[action.color],
                locos=action.locos,
            )
        else:
            reply = await fake.slash(
                user, self.channel, "ttr tickets" if isinstance(action, DrawTickets) else "ttr pass"
            )
        if reply.kind == "deferred":
            await reply.wait_resolved(TIMEOUT)
        elif reply.kind == "deferred_update":  # the answer edits the player's panel
            await fake.wait_until(
                lambda: reply.followups or sum(len(m.history) for m in fake.ephemeral(user)) > edits,
                TIMEOUT,
                "the panel's edit",
            )


# --- one set-up's ramp ----------------------------------------------------------------------------


def processes() -> dict[int, tuple[str, list[str]]]:
    """Every live process: pid -> (its name, the fields of /proc/<pid>/stat after the name; [1] is
    the parent, [11] and [12] its user and system CPU ticks, [13] and [14] its reaped children's)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            head, tail = stat.read_text().rsplit(")", 1)
            found[int(stat.parent.name)] = (head.split("(", 1)[1], tail.split())
    return found


def cpu_seconds(pid: int) -> tuple[float, float]:
    """A process's user + system CPU time, and with its live descendants' (the forkserver and its
    image workers), from /proc."""
    parents = {child: (int(fields[1]), int(fields[11]) + int(fields[12])) for child, (_, fields) in processes().items()}
    family, grown = {pid}, True
    while grown:  # the workers are the forkserver's children, grandchildren of the bot
        more = {child for child, (parent, _) in parents.items() if parent in family}
        grown = not more <= family
        family |= more
    tick = os.sysconf("SC_CLK_TCK")
    return parents.get(pid, (0, 0))[1] / tick, sum(ticks for p, (_, ticks) in parents.items() if p in family) / tick


def database_cpu_seconds() -> float:
    """The CPU time of this machine's PostgreSQL server processes, from /proc (0 with none): the
    live ones' and, through the server's main process, that of the connections that ended."""
    ticks = sum(sum(map(int, fields[11:15])) for name, fields in processes().values() if name == "postgres")
    return ticks / os.sysconf("SC_CLK_TCK")


CGROUPS = Path("/sys/fs/cgroup/cpu")  # cgroup v1's CPU controller (root on Linux)
QUOTA_PERIOD_US = 20_000  # short: a process over its quota waits at most this long


@contextlib.contextmanager
def cpu_quota(cores: float | None, pids: list[int]):  # type: ignore[no-untyped-def]
    """Each of `pids` (and the processes it starts later: the image workers) limited to `cores`
    of CPU, in a cgroup of its own; nothing with None."""
    groups = []
    try:
        for pid in pids if cores else ():
            group = CGROUPS / f"ttr-bench-{os.getpid()}-{pid}"
            group.mkdir()
            groups.append(group)
            (group / "cpu.cfs_period_us").write_text(str(QUOTA_PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(round(cores * QUOTA_PERIOD_US)))
            (group / "cgroup.procs").write_text(str(pid))
        yield
    finally:
        for group in groups:
            for _ in range(50):  # the workers exit a moment after their bot
                with contextlib.suppress(OSError):
                    group.rmdir()
                    break
                time.sleep(0.1)


def guild_on_shard(fake, shard: int, count: int):  # type: ignore[no-untyped-def]
    """A new guild whose id falls on `shard` of `count`."""
    from tests.fakediscord.gateway import shard_for

    while shard_for(fake.ids.peek(), count) != shard:
        fake.ids.next()
    return fake.add_guild(f"Club {shard}")


async def ramp(
    name: str,
    url: str,
    processes: int,
    rates: list[float],
    step_seconds: float,
    games: int,
    profile: str | None,
    counts: bool = False,
    cpu_cores: float | None = None,
    ai: bool = False,
) -> list[Step]:
    from storage import Storage
    from tests.bot.bot_process import BotProcess
    from tests.fakediscord.api import FakeDiscord

    fake = FakeDiscord()
    # The players wait only on the fake's own state, and every change there wakes them: the
    # 20 ms re-check for predicates on a bot's state would only cost this process CPU.
    fake.poll_interval = 1.0
    guilds = [guild_on_shard(fake, shard, processes) for shard in range(processes)]
    tables_at: list[tuple] = []
    for i in range(games):
        guild = guilds[i % len(guilds)]
        channel = fake.add_channel(guild, f"game-{i}")
        tables_at.append((channel, [fake.add_user(f"p{i}{side}", guild=guild) for side in "ab"]))
    await fake.start()
    steps: list[Step] = []
    quota = contextlib.ExitStack()
    with tempfile.TemporaryDirectory() as folder:
        if url.startswith("sqlite"):
            url = f"sqlite+aiosqlite:///{folder}/ttr.sqlite3"
        else:
            from tests.storage.conftest import wipe_postgres

            await wipe_postgres(url)
        storage = Storage(url)
        await storage.start()  # migrated once, before the bots start
        bots = []
        for shard in range(processes):
            cwd = Path(folder) / f"bot{shard}"  # each its own data/ (the command-sync marker)
            cwd.mkdir()
            settings = {"DATABASE_URL": url, "LAG_FILE": str(cwd / "lags.json")}
            if processes > 1:
                settings.update(SHARD_COUNT=str(processes), SHARD_IDS=f"[{shard}]", AUTO_MIGRATE="false")
            if counts:
                settings["COUNTS_FILE"] = str(cwd / "counts.json")
            if ai:
                settings["AI_DELAY"] = "0"
            if profile:
                settings["PROFILE_FILE"] = f"{profile}.{name}.{shard}" if processes > 1 or name != "sqlite" else profile
            bots.append(BotProcess(fake, cwd, command=(str(Path(__file__).resolve()), "--child"), **settings))
        try:
            for bot in bots:
                await bot.start()
            quota.enter_context(cpu_quota(cpu_cores, [bot.proc.pid for bot in bots]))
            tables = [BenchTable(fake, storage, ch, users, seed=i, ai=ai) for i, (ch, users) in enumerate(tables_at)]
            gate = asyncio.Semaphore(2)

            async def set_up(table: BenchTable) -> None:
                async with gate:
                    await table.start()
                    await table.choose_tickets()

            started = time.perf_counter()
            await asyncio.gather(*(set_up(t) for t in tables))
            print(f"[{name}] {games} games set up in {time.perf_counter() - started:.0f} s", flush=True)
            for bot in bots:  # the ramp begins: counts and profiles start again
                bot.proc.send_signal(signal.SIGUSR1)
            settling: list[Step] = []
            steps = await _run_steps(name, tables, bots, rates, step_seconds, settling, url.startswith("postgres"))
        finally:
            for bot in bots:
                await bot.stop()
            quota.close()
            await storage.close()
            await fake.close()
        for bot in bots:
            if bot.errors():
                first = bot.errors()[0]
                detail = next(
                    (
                        str(first[k]).strip().splitlines()[-1]
                        for k in ("exc_info", "exception", "error")
                        if first.get(k)
                    ),
                    "",
                )
                print(f"[{name}] a bot logged {len(bot.errors())} errors, first: {first['message']} {detail}")
                if os.environ.get("BENCH_ERRORS"):
                    Path(os.environ["BENCH_ERRORS"]).write_text(json.dumps(bot.errors(), indent=1, default=str))
        samples = [s for bot in bots for s in json.loads(Path(bot.settings["LAG_FILE"]).read_text())]
        if counts:
            print_counts(
                name, [json.loads(Path(bot.settings["COUNTS_FILE"]).read_text()) for bot in bots], steps + settling, ai
            )
    for step in steps:
        lags = sorted(lag for when, lag in samples if step.start + SETTLE <= when < step.end)
        if lags:
            step.lag_p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))]
            step.lag_max = lags[-1]
        print(f"[{name}] {line(step)}", flush=True)
    return steps


async def _run_steps(
    name: str,
    tables: list[BenchTable],
    bots,
    rates: list[float],  # type: ignore[no-untyped-def]
    step_seconds: float,
    settling: list[Step],
    postgres: bool,
) -> list[Step]:
    rng = random.Random(23)
    steps: list[Step] = []
    actions_per_turn = 1.5  # a draw turn is two taps, a claim one: measured as the ramp goes
    running: set[asyncio.Task] = set()
    failed = 0
    for rate in rates:
        step = Step(rate)
        steps.append(step)
        step.start = time.time()
        cpu = [cpu_seconds(bot.proc.pid) for bot in bots]
        driver_cpu, database_cpu = time.process_time(), database_cpu_seconds()
        measured_from = time.perf_counter() + SETTLE
        stop = time.perf_counter() + step_seconds
        counted = Step(rate)  # the settling seconds: actions and turns not counted
        settling.append(counted)

        async def act(table: BenchTable, into: Step) -> None:
            try:
                if not await table.step(into):
                    await table.start()
                    await table.choose_tickets()
            except Exception as exc:  # noqa: BLE001  (a player's trouble is reported, the ramp goes on)
                print(f"[{name}] a player failed: {type(exc).__name__}: {exc}"[:300], flush=True)
            finally:
                table.busy = False

        while (now := time.perf_counter()) < stop:
            await asyncio.sleep(rng.expovariate(rate * actions_per_turn))
            into = step if now >= measured_from else counted
            idle = [t for t in tables if not t.busy]
            if not idle:
                into.busy += 1
                continue
            table = rng.choice(idle)
            table.busy = True
            task = asyncio.create_task(act(table, into))
            running.add(task)
            task.add_done_callback(running.discard)
        step.end = time.time()
        now_cpu = [cpu_seconds(bot.proc.pid) for bot in bots]
        step.cpu_own = sum(own for own, _ in now_cpu) - sum(own for own, _ in cpu)
        step.cpu = sum(family for _, family in now_cpu) - sum(family for _, family in cpu)
        step.cpu_driver = time.process_time() - driver_cpu
        step.cpu_database = database_cpu_seconds() - database_cpu if postgres else 0.0
        if step.turns:
            actions_per_turn = max(1.0, step.actions / step.turns)
        print(f"[{name}] {line(step)}", flush=True)
        failed = 0 if step.turns and step.p(0.95) <= GOAL_P95 else failed + 1  # the lag is read at the end
        if failed == 2:  # past the knee twice: no need to go on
            break
    if running:
        await asyncio.wait(running, timeout=TIMEOUT)
    return steps


def line(step: Step) -> str:
    rate = step.turns / max(step.seconds, 1e-9)
    turns = max(rate * (step.end - step.start), 1e-9)  # the whole step's CPU at the measured rate
    per_turn, own = step.cpu / turns, step.cpu_own / turns
    lag = f"loop lag p99 {step.lag_p99 * 1000:.0f} ms (max {step.lag_max * 1000:.0f}), " if step.lag_max else ""
    return (
        f"offered {step.rate:g}/s: {rate:.1f} turn msgs/s, p50 {step.p(0.5) * 1000:.0f} ms, "
        f"p95 {step.p(0.95) * 1000:.0f} ms, lost {step.lost} ({step.unacknowledged} taps unacknowledged in 3 s), {lag}bots' CPU {step.cpu / (step.end - step.start):.2f} cores = "
        f"{per_turn * 1000:.0f} ms per turn ({own * 1000:.0f} in the bot, {(per_turn - own) * 1000:.0f} in its "
        f"image workers), busy {step.busy}, refused {step.refused} of {step.actions} actions; players and fake {step.cpu_driver / turns * 1000:.0f} ms per turn"
        + (f", PostgreSQL {step.cpu_database / turns * 1000:.0f} ms per turn" if step.cpu_database else "")
    )


#: Routes Discord's global rate limit does not count: the interaction endpoints (the callback, the
#: original response and follow-ups through the interaction's webhook).
EXEMPT = ("/interactions/", "/webhooks/")


def print_counts(name: str, per_bot: list[dict], steps: list[Step], ai: bool = False) -> None:
    """The work per turn message over the whole ramp (--counts), the most frequent kinds first, and
    the REST requests Discord's global rate limit counts (with --ai a turn message tells a
    person's turn and the AI's after it: the person's costs none, answered through their taps)."""
    turns = max(1, sum(len(s.latencies) for s in steps))
    actions = sum(s.actions for s in steps)
    print(f"[{name}] per turn message ({turns} turn messages, {actions / turns:.2f} actions each):")
    rest: dict[str, int] = {}
    for counts in per_bot:
        for key, n in counts["rest"].items():
            rest[key] = rest.get(key, 0) + n
    limited = sum(n for key, n in rest.items() if not key.split(" ", 1)[1].startswith(EXEMPT))
    print(
        f"  REST requests the global rate limit counts: {limited / turns:.2f} per "
        + ("AI turn (and the person's before it)" if ai else "human turn")
        + f", of {sum(rest.values()) / turns:.2f}"
    )
    for kind in ("sql", "rest", "gateway", "images"):
        total: dict[str, int] = {}
        for counts in per_bot:
            for key, n in counts[kind].items():
                total[key] = total.get(key, 0) + n
        print(f"  {kind}: {sum(n for key, n in total.items() if not key.startswith('(')) / turns:.1f}")
        for key, n in sorted(total.items(), key=lambda kv: -kv[1])[:14]:
            print(f"    {n / turns:6.2f}  {key}")


def knee(steps: list[Step]) -> Step | None:
    """The highest offered load that still met the goal (the steps below it too)."""
    best = None
    for step in steps:
        if not step.meets_goal:
            break
        best = step
    return best


# --- running and reporting ----------------------------------------------------------------------

SETUPS = {
    "sqlite": ("one process, SQLite", 1),
    "pg1": ("one process, PostgreSQL", 1),
    "pg2": ("two shard processes, PostgreSQL", 2),
}


async def main(args: argparse.Namespace) -> None:
    rates = [float(r) for r in args.rates.split(",")]
    results = {}
    for key in args.setups.split(","):
        label, processes = SETUPS[key]
        url = "sqlite" if key == "sqlite" else args.postgres
        cpu = time.process_time()
        results[key] = await ramp(
            key, url, processes, rates, args.step, args.games, args.profile, args.counts, args.cpu_quota, args.ai
        )
        print(f"[{key}] players' and fake's CPU: {time.process_time() - cpu:.0f} s", flush=True)
    print(
        f"\nknee (interaction -> turn message p95 <= {GOAL_P95 * 1000:.0f} ms and loop lag p99 <= "
        f"{GOAL_LAG_P99 * 1000:.0f} ms), {args.games} games, {args.step:g} s steps, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}:"
    )
    for key, steps in results.items():
        best = knee(steps)
        print(f"  {SETUPS[key][0]:<34} " + (line(best) if best else "none: the lowest step missed the goal"))


if __name__ == "__main__":
    if "--child" in sys.argv:
        sys.exit(child())
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setups", default="sqlite,pg1,pg2", help="any of sqlite, pg1, pg2, comma-separated")
    parser.add_argument(
        "--rates", default="5,10,15,20,25,30,40,50,60", help="offered turn messages per second, one step each"
    )
    parser.add_argument("--step", type=float, default=15, help="seconds per step")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--postgres", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--profile", help="write the bot's cProfile here (suffixed by set-up and shard)")
    parser.add_argument("--counts", action="store_true", help="count the bots' SQL, REST and gateway work per turn")
    parser.add_argument("--ai", action="store_true", help="each game one person against an AI seat (with --counts)")
    parser.add_argument(
        "--cpu-quota", type=float, metavar="CORES", help="each bot process (image workers included) gets this much CPU"
    )
    args = parser.parse_args()
    from bot.__main__ import loop_factory

    with asyncio.Runner(loop_factory=loop_factory()) as runner:  # the bots' loop here too
        runner.run(main(args))
