"""kill -9 of the real bot process (`python -m bot` against the fake Discord, SQLite file) at random
moments of scripted play, restarted each time. Afterwards: every move whose player was told it is
made is in the stored log (none lost); every stored turn was posted in the channel exactly once
(the outbox and its nonces); no interaction got two answers; none was left "thinking…" (a move
acknowledged but not saved before the kill is answered after the restart, see bot/inbox.py).

KILLS (default 12) and KILL_SEED in the environment choose how many kills and when (KILLS=50 for a longer run)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import select

from engine import Game, GameOptions, parse_action
from storage import Storage
from storage.games import action_log, get_game
from storage.models import Announcement
from storage.settings import database_url
from tests.bot.bot_process import BotProcess
from tests.bot.remote import RemoteTable, posted_turns
from tests.fakediscord.state import InteractionFailed, ScriptError
from tests.storage.conftest import BACKENDS, PG_URL, wipe_postgres

#: A claim is held this long (OUTBOX_LEASE): a restarted bot takes a dead one's rows over after it.
LEASE = 3.0


@dataclass
class Figures:
    kills: int
    moves: int
    confirmed: int
    told_to_retry: int  # acknowledged, not saved before the kill, answered after the restart
    lost: int
    unannounced: int
    posted_twice: int
    answered_twice: int
    unanswered: int
    stuck: list = field(default_factory=list, repr=False)  # the unanswered moves, to look at

    def __post_init__(self) -> None:
        self.unanswered = len(self.stuck)

    def __str__(self) -> str:
        return ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in vars(self).items() if name != "stuck")


async def kill_run(
    fake,
    tmp_path: Path,
    *,
    url: str,
    kills: int,  # type: ignore[no-untyped-def]
    seed: int,
) -> tuple[Figures, list[dict]]:
    """The figures, and what the bots logged as wrong (warnings of the bot's own modules, errors)."""
    bot = BotProcess(fake, tmp_path, DATABASE_URL=url, OUTBOX_LEASE=str(LEASE))
    storage = Storage(url)
    rng = random.Random(seed)
    await bot.start()
    try:
        table = RemoteTable(fake, storage, fake.general, [fake.alice, fake.bob, fake.dirk], seed=seed)
        await table.start_game("usa")
        up = asyncio.Event()
        up.set()
        stop = False

        async def play() -> None:
            while not stop:
                await up.wait()
                run = bot.starts
                try:
                    move = await table.move()
                    # The answer, or the kill that keeps it from coming.
                    await fake.wait_until(
                        lambda move=move, run=run: move.answer is not None or bot.starts != run or not up.is_set(),
                        table.timeout,
                        "an answer",
                    )
                except (InteractionFailed, ScriptError, TimeoutError, StopIteration):
                    await asyncio.sleep(0.05)  # the bot went away mid-move: the next one finds out where it is

        players = asyncio.create_task(play())
        for _ in range(kills):
            # Kill in the middle of a move: a random time after the bot received the 1st-3rd move
            # since it started (acknowledging, saving, rendering, posting, answering).
            started = len(table.moves) + rng.randint(1, 3)
            await fake.wait_until(lambda: len(table.moves) >= started, 60, "moves")  # noqa: B023
            await asyncio.sleep(rng.uniform(0, 0.8))
            up.clear()
            await bot.kill()
            await bot.start()
            up.set()
        await asyncio.sleep(1.0)  # a few moves with no kill after the last restart
        stop = True
        await players
        # Rows the last killed process held are taken over once their lease ran out.
        with contextlib.suppress(TimeoutError):  # counted below as unanswered
            await fake.wait_until(
                lambda: all(m.answer is not None for m in table.moves if m.deferred),
                2 * LEASE + 5,
                "every acknowledged move to be answered",
            )
        await asyncio.sleep(LEASE)  # a late or repeated announcement would show now
        troubles = [
            e
            for e in bot.log
            if e.get("level") in ("ERROR", "CRITICAL")
            or e.get("level") == "WARNING"
            and e.get("logger", "").startswith("bot.")
        ]
        return await figures(fake, storage, table, bot), troubles
    finally:
        await bot.stop()
        await storage.close()


async def figures(fake, storage: Storage, table: RemoteTable, bot: BotProcess) -> Figures:  # type: ignore[no-untyped-def]
    async with storage.sessions() as session:
        record = await get_game(session=session, game_id=table.game_id)
        log = await action_log(session=session, game_id=table.game_id)
        rows = list(
            (await session.execute(select(Announcement).where(Announcement.game_id == table.game_id))).scalars()
        )
    # A move is in the log at its version or, when other seats moved at the same time (the starting
    # tickets), after it.
    lost = sum(1 for m in table.moves if m.confirmed and (m.seat, m.text) not in log[m.version :])
    # Every turn has exactly one table message carrying its buttons (as posted), named by its turn
    # token (the version the turn began at; for the first player's first turn, counting their own
    # starting ticket choice when it came last).
    posts: dict[int, int] = {}
    for turn in posted_turns(fake, fake.general, table.game_id):
        posts[turn] = posts.get(turn, 0) + 1
    turns = []
    game = Game.new(record.map_id, record.seats, record.seed, GameOptions.from_json(record.options))
    for version in range(len(log) + 1):
        if version:
            seat, text = log[version - 1]
            game.apply(seat, parse_action(game, seat, text))
        if game.phase == "playing" and game.stage is None and game.decision_token(game.current) == version:
            turns.append(game.turn_token(game.current))  # what its table's buttons carry

    marked = {row.version for row in rows if row.announced_at is not None and row.error is None}
    unposted = [v for v in turns if posts.get(v, 0) == 0]
    unmarked = [
        (v, next((row.error for row in rows if row.version == v), "no row"))
        for v in range(len(log) + 1)
        if v not in marked
    ]
    if unposted or unmarked:
        print("turns with no table:", unposted, "rows not announced (version, error):", unmarked)
    if any(count > 1 for count in posts.values()):
        print("turns with two tables:", [turn for turn, count in posts.items() if count > 1])
    unannounced = len(unposted) + len(unmarked)
    return Figures(
        kills=bot.kills,
        moves=len(table.moves),
        confirmed=sum(1 for m in table.moves if m.confirmed),
        told_to_retry=sum(1 for m in table.moves if m.answer and "please try again" in m.answer),
        lost=lost,
        unannounced=unannounced,
        posted_twice=sum(1 for count in posts.values() if count > 1),
        answered_twice=sum(1 for m in table.moves if m.answers > 1),
        unanswered=0,
        stuck=[m for m in table.moves if m.deferred and m.answer is None],
    )


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The bot's database: a SQLite file, and PostgreSQL too when TEST_DATABASE_URL is set (wiped)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'ttr.sqlite3'}"
    url = database_url(PG_URL)
    await wipe_postgres(url)
    return url


@pytest.mark.slow
async def test_kill_9_at_random_moments_loses_and_repeats_nothing(fake_discord, tmp_path: Path, database: str) -> None:
    kills = int(os.environ.get("KILLS", "12"))
    result, bot_errors = await kill_run(
        fake_discord, tmp_path, url=database, kills=kills, seed=int(os.environ.get("KILL_SEED", "7"))
    )
    print(f"\nkill test ({database.split(':', 1)[0]}): {result}")
    for move in result.stuck:
        print("still thinking:", move.text, move.interaction)
    assert result.kills == kills >= 10
    assert result.confirmed >= kills  # the play went on between the kills
    assert not bot_errors, bot_errors
    assert (result.lost, result.unannounced, result.posted_twice, result.answered_twice, result.unanswered) == (
        0,
        0,
        0,
        0,
        0,
    ), result


def tables_posted(fake, table: RemoteTable) -> set[int]:  # type: ignore[no-untyped-def]
    """The turn tokens of the game's table messages in the channel (as posted)."""
    return set(posted_turns(fake, fake.general, table.game_id))


@pytest.mark.slow
async def test_a_turn_saved_before_a_kill_is_posted_at_once_after_the_restart(fake_discord, tmp_path: Path) -> None:
    """At the default OUTBOX_LEASE (60 s): the restarted process (the same shards) takes the rows
    its dead predecessor held at once instead of waiting out their lease."""
    fake = fake_discord
    url = f"sqlite+aiosqlite:///{tmp_path / 'ttr.sqlite3'}"
    bot = BotProcess(fake, tmp_path, DATABASE_URL=url)
    storage = Storage(url)
    await bot.start()
    try:
        table = RemoteTable(fake, storage, fake.general, [fake.alice, fake.bob, fake.dirk], seed=5)
        await table.start_game("usa")
        for _ in range(6):  # the starting tickets, then into the turns
            move = await table.move()
            await table.settle(move)
            await table.stored(move)
        # The next turn's table message hangs (Discord asks to retry in 30 s): the turn is saved,
        # claimed by this process, not posted when it is killed.
        # A turn's table goes out as the tap's follow-up, or as the bot's post without one: both hang.
        for route in ("POST /channels/{channel_id}/messages", "POST /webhooks/{application_id}/{token}"):
            fake.rate_limit(route, retry_after=30, times=100)
        while not fake.rate_limited:
            move = await table.move()
            await fake.wait_until(lambda move=move: fake.rate_limited or move.answer is not None, 10, "an answer")
            await table.stored(move)
        await bot.kill()
        async with storage.sessions() as session:
            pending = list(
                (await session.execute(select(Announcement).where(Announcement.announced_at.is_(None)))).scalars()
            )
            assert pending and all(p.claimed_at is not None and p.attempts == 1 for p in pending)  # the dead one's
        fake._rate_limits.clear()
        posted = tables_posted(fake, table)
        restarted = time.monotonic()
        await bot.start()
        ready = time.monotonic()
        await fake.wait_until(lambda: tables_posted(fake, table) - posted, 65, "the turn's table message")
        after = time.monotonic()
        print(f"\nrestart to ready {ready - restarted:.1f} s, ready to posted {after - ready:.1f} s")
        assert after - ready <= 5
        async with storage.sessions() as session:
            for left in pending:
                row = await session.get(Announcement, left.id)
                assert row is not None and row.announced_at is not None and row.attempts == 2  # a process died
        assert not bot.errors(), bot.error_report()
    finally:
        await bot.stop()
        await storage.close()
