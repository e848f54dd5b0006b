"""The image workers (bot/render_pool.py): a worker that dies costs no image, the workers die with
the bot (SIGKILL included), and RENDER_WORKERS=0 draws in threads."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.render_pool import RenderPool, _draw
from engine import Game, GameOptions, load_map
from i18n import Translator
from rendering import PlayerStyle

ROOT = Path(__file__).resolve().parents[2]
STYLES = [PlayerStyle("Ada", (200, 30, 30)), PlayerStyle("Bo", (30, 30, 200))]


def board_view(seed: int) -> dict:
    return Game(load_map("usa"), 2, seed=seed, options=GameOptions()).view(None)


async def until_ready(pool: RenderPool, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not pool.ready:
        assert time.monotonic() < deadline, "the workers did not start"
        await asyncio.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead, only not reaped yet
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


async def test_a_worker_killed_while_drawing_costs_no_image_and_new_workers_take_over() -> None:
    pool = RenderPool()
    t = Translator("en", "printed")
    try:
        pool.start(1)
        await until_ready(pool)
        [worker] = pool.pids()
        drawing = asyncio.create_task(pool.render("render_board", board_view(1), "usa", STYLES, t))
        await asyncio.sleep(0)  # handed to the worker
        os.kill(worker, signal.SIGKILL)
        image = await asyncio.wait_for(drawing, 60)
        assert image.data == _draw("render_board", board_view(1), "usa", STYLES, "en", "printed", {}).data
        assert (pool.breaks, pool.in_threads) == (1, 1)
        await until_ready(pool)
        [new_worker] = pool.pids()
        assert new_worker != worker
        await pool.render("render_board", board_view(2), "usa", STYLES, t)
        assert pool.in_threads == 1  # drawn by the new worker
    finally:
        pool.close()


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_the_workers_die_with_a_killed_bot() -> None:
    script = textwrap.dedent("""
        import asyncio, os, sys
        from bot.render_pool import POOL

        async def main():
            POOL.start(2)
            while not POOL.ready:
                await asyncio.sleep(0.05)
            print(*POOL.pids(), flush=True)
            await asyncio.sleep(120)

        asyncio.run(main())
    """)
    bot = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        workers = [int(pid) for pid in bot.stdout.readline().split()]  # type: ignore[union-attr]
        assert len(workers) == 2 and all(alive(pid) for pid in workers)
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)


async def test_no_workers_draws_in_threads_and_keeps_equal_images() -> None:
    pool = RenderPool()
    pool.start(0)
    t = Translator("en", "printed")
    first = await pool.render("render_board", board_view(3), "usa", STYLES, t)
    again = await pool.render("render_board", board_view(3), "usa", STYLES, t)
    assert again is first and not pool.ready
    assert (pool.drawn, pool.reused, pool.in_threads) == (1, 1, 1)


async def test_an_ai_move_is_thought_in_a_worker_as_it_would_be_here() -> None:
    """`think`: the game goes to a worker as JSON; the AI there makes the move it makes here."""
    from ai import ask, make_ai

    pool = RenderPool()
    try:
        pool.start(1)
        await until_ready(pool)
        game = Game.new("europe", 3, 4)
        for seat in game.to_move():  # every seat's starting tickets, then the first turn
            action = await pool.think("strong", f"4:{seat}", game, seat)
            assert action == ask(make_ai("strong", f"4:{seat}"), game, seat) or game.is_legal(seat, action)
            game.apply(seat, action)
        seat = game.current
        action = await pool.think("baseline", "4", game, seat)
        assert action == ask(make_ai("baseline", "4"), game, seat)
        assert pool.in_threads == 0  # thought in the worker
    finally:
        pool.close()
