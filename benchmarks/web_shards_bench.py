"""Shards over one PostgreSQL: a move stored by one process (A) -> the new frame on an open web
stream of another (B), through NOTIFY/LISTEN (storage/move_feed.py). Uses the web tests' server
(tests/web/conftest.py) and wipes the database it is given.

    TEST_DATABASE_URL=postgresql+asyncpg://ttr:ttr@127.0.0.1:5432/ttr_test python benchmarks/web_shards_bench.py
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from bot.service import Cause, CauseKind, GameService  # noqa: E402
from engine import DrawDeck  # noqa: E402
from storage.store import Storage  # noqa: E402
from tests.storage.conftest import wipe_postgres  # noqa: E402
from tests.web.conftest import USERS, Frames, serve  # noqa: E402

URL = os.environ["TEST_DATABASE_URL"]
MOVES = 60


async def main() -> None:
    await wipe_postgres(URL)
    async for site in serve(pathlib.Path(tempfile.mkdtemp()), database=URL):  # process B, serving the stream
        there = GameService(Storage(URL))  # process A, storing the moves
        took = []
        async with aiohttp.ClientSession() as http, http.get(site.api(None, "events")) as stream:
            frames = Frames(stream)
            seen = (await frames.next())["version"]
            for _ in range(MOVES):
                game = (await there.table(site.game_id)).game
                if game.is_over():
                    break
                seat = game.to_move()[0]
                moves = game.legal_actions(seat, collapse_payments=True)
                move = next((m for m in moves if isinstance(m, DrawDeck)), moves[0])
                started = time.perf_counter()
                await there.act(site.game_id, move, cause=Cause(CauseKind.PLAYER, user_id=USERS[seat]))
                while (now := (await frames.next(timeout=5))["version"]) <= seen:
                    pass
                seen = now
                took.append((time.perf_counter() - started) * 1000)
        await there.storage.close()
        took.sort()
        print(
            f"{len(took)} moves stored by process A -> frame on process B's stream: median "
            f"{statistics.median(took):.1f} ms, p95 {took[int(len(took) * 0.95) - 1]:.1f} ms, max {took[-1]:.1f} ms"
        )


asyncio.run(main())
