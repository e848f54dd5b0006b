"""Two people clicking at once, and a process killed in the middle of a write."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from storage.errors import ChannelBusyError, LobbyError, StaleVersionError
from storage.games import action_log, create_game, get_game, load_game, save_action
from tests.storage.helpers import advance, new_game

ROOT = Path(__file__).resolve().parents[2]


async def stored_game(db, plies: int = 0):  # type: ignore[no-untyped-def]
    game = new_game(seed=21)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=2, game=game, players=[11, 12, 13])
        for v in range(plies):
            advance(game, 1)
            await save_action(session=s, game_id=record.id, expected_version=v, game=game)
    return record.id, game


async def assert_consistent(db, game_id: int) -> int:  # type: ignore[no-untyped-def]
    """The stored state is exactly the replay of the stored log: never between two versions."""
    async with db.sessions() as s:
        record = await get_game(session=s, game_id=game_id)
        assert len(await action_log(session=s, game_id=game_id)) == record.version
        await load_game(session=s, game_id=game_id)  # raises ReplayMismatchError otherwise
    return record.version


async def test_concurrent_writers_in_one_process_exactly_one_wins(db) -> None:
    game_id, game = await stored_game(db, plies=3)

    async def writer(n: int) -> str:
        mine = new_game(seed=21)
        for seat, action in game.log:
            mine.apply(seat, action)
        advance(mine, 1, random.Random(n))
        async with db.sessions() as s:
            try:
                await save_action(session=s, game_id=game_id, expected_version=3, game=mine)
                return "won"
            except StaleVersionError:
                return "stale"

    results = await asyncio.gather(*(writer(n) for n in range(8)))
    assert sorted(results) == ["stale"] * 7 + ["won"]
    assert await assert_consistent(db, game_id) == 4


def spawn(db, game_id: int, mode: str) -> subprocess.Popen:  # type: ignore[no-untyped-def]
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.writer_process", db.url, str(game_id), mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


async def readline(proc: subprocess.Popen, timeout: float = 30) -> str:
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), timeout)
    return line.strip()


async def test_concurrent_writer_processes_exactly_one_wins(db) -> None:
    game_id, _ = await stored_game(db, plies=2)
    procs = [spawn(db, game_id, "race") for _ in range(3)]
    try:
        for p in procs:
            assert await readline(p) == "READY"
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        results = sorted([await readline(p) for p in procs])
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert results == ["stale"] * 2 + ["won"]
    assert await assert_consistent(db, game_id) == 3


async def test_killed_before_commit_leaves_the_state_before(db) -> None:
    game_id, _ = await stored_game(db, plies=4)
    proc = spawn(db, game_id, "pause")
    try:
        assert await readline(proc) == "READY"  # update and insert done, commit not sent
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        proc.kill()
    assert await assert_consistent(db, game_id) == 4
    # And the game goes on: the killed writer left no lock behind.
    async with db.sessions() as s:
        loaded = await load_game(session=s, game_id=game_id)
        advance(loaded.game, 1)
        assert await save_action(session=s, game_id=game_id, expected_version=4, game=loaded.game) == 5


async def test_killed_at_random_moments_never_leaves_a_half_write(db) -> None:
    game_id, _ = await stored_game(db)
    rng = random.Random(7)
    committed = 0
    for _ in range(3):
        proc = spawn(db, game_id, "loop")
        try:
            seen = int(await readline(proc))  # it is writing now
            time.sleep(rng.uniform(0.0, 0.15))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            for line in proc.stdout.read().split():
                seen = int(line)
        finally:
            proc.kill()
        version = await assert_consistent(db, game_id)
        # Everything it reported as committed is there; at most one more commit it had no time to report.
        assert seen <= version <= seen + 1
        assert version > committed
        committed = version


async def test_two_games_started_at_once_in_one_channel(db) -> None:
    async def start(seed: int) -> str:
        async with db.sessions() as s:
            try:
                await create_game(session=s, guild_id=1, channel_id=77, game=new_game(seed=seed), players=[1, 2, 3])
                return "started"
            except ChannelBusyError:
                return "busy"

    assert sorted(await asyncio.gather(*(start(n) for n in range(5)))) == ["busy"] * 4 + ["started"]


async def test_joins_at_once_never_overfill_a_lobby(db) -> None:
    from storage.lobbies import join_lobby, lobby_members, open_lobby

    async with db.sessions() as s:
        lobby = await open_lobby(session=s, guild_id=1, channel_id=78, host_id=100, map_id="europe", max_seats=3)

    async def join(user: int) -> str:
        async with db.sessions() as s:
            try:
                await join_lobby(session=s, lobby_id=lobby.id, user_id=user)
                return "in"
            except LobbyError:
                return "refused"

    results = await asyncio.gather(*(join(200 + n) for n in range(6)))
    assert sorted(results) == ["in"] * 2 + ["refused"] * 4
    async with db.sessions() as s:
        assert len(await lobby_members(session=s, lobby_id=lobby.id)) == 3
