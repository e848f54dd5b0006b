"""A separate process that writes to a stored game, for the concurrency and crash tests.

    python -m tests.storage.writer_process URL GAME_ID MODE

MODE `race`: load the game, print READY, wait for a line on stdin, try to save one action and
print `won` or `stale`. MODE `pause`: save one action but stop just before COMMIT (print READY
and sleep, waiting to be killed). MODE `loop`: save actions one after another, printing each
committed version, until killed or the game ends. MODE `outbox`: like `loop`, each action saved
with its announcement, which it then claims, "posts" (prints `post NONCE`) and marks, as the bot
does.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from sqlalchemy import event

from storage import sqlite_driver
from storage.announcements import Announce, claim_next, mark_announced, nonce
from storage.database import make_engine, session_factory
from storage.errors import StaleVersionError
from storage.games import load_game, save_action
from tests.storage.helpers import advance


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


async def main(url: str, game_id: int, mode: str) -> None:
    engine = make_engine(url)
    sessions = session_factory(engine)
    async with sessions() as s:
        loaded = await load_game(session=s, game_id=game_id)
    game, version = loaded.game, loaded.version
    rng = random.Random()
    if mode == "race":
        advance(game, 1, rng)
        say("READY")
        await asyncio.to_thread(sys.stdin.readline)
        async with sessions() as s:
            try:
                await save_action(session=s, game_id=game_id, expected_version=version, game=game)
                say("won")
            except StaleVersionError:
                say("stale")
    elif mode == "pause":

        def hold(*_) -> None:  # type: ignore[no-untyped-def]
            say("READY")
            time.sleep(60)

        if engine.dialect.name == "sqlite":  # the save is one thread hop: hold its COMMIT in there
            steps = sqlite_driver._steps

            def held(connection, *args):  # type: ignore[no-untyped-def]
                connection._conn.set_trace_callback(lambda sql: sql == "COMMIT" and hold())
                return steps(connection, *args)

            sqlite_driver._steps = held
        else:
            event.listen(engine.sync_engine, "commit", hold)
        advance(game, 1, rng)
        async with sessions() as s:
            await save_action(session=s, game_id=game_id, expected_version=version, game=game)
    elif mode == "loop":
        async with sessions() as s:
            while not game.is_over():
                advance(game, 1, rng)
                version = await save_action(session=s, game_id=game_id, expected_version=version, game=game)
                say(str(version))
    elif mode == "outbox":
        async with sessions() as s:
            while not game.is_over():
                advance(game, 1, rng)
                version = await save_action(
                    session=s,
                    game_id=game_id,
                    expected_version=version,
                    game=game,
                    announce=Announce("player", f"token-{version + 1}", 42),
                )
                say(str(version))
                while (row := await claim_next(session=s, claimer="writer", game_id=game_id)) is not None:
                    say(f"post {nonce(row)}")
                    await mark_announced(session=s, announcement_id=row.id)
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
