"""Word of each stored move to every process on the database: PostgreSQL's NOTIFY, sent in the
move's own transaction (heard only if it commits), and LISTEN on one connection per process, so a
web table's open streams wake at once for a move another process (shard) stored. SQLite serves
one process: there is nobody else to tell."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.database import Step

log = logging.getLogger(__name__)

CHANNEL = "ttr_moves"


def notify_step(game_id: int, version: int) -> Step:
    """The statement that tells the listeners `game_id` is now at `version` (PostgreSQL only)."""
    return Step(select(func.pg_notify(CHANNEL, f"{game_id} {version}")), {})


async def listen(engine: AsyncEngine, moved: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
    """Call `moved(game_id, version)` for each move any process stores from now on (this one's
    too); returns what stops it, or None on a database without NOTIFY (SQLite)."""
    if engine.dialect.name != "postgresql":
        return None
    conn = await engine.connect()
    driver = (await conn.get_raw_connection()).driver_connection

    def heard(_connection: object, _pid: int, _channel: str, payload: str) -> None:
        game_id, _, version = payload.partition(" ")
        if game_id.isdigit() and version.isdigit():
            moved(int(game_id), int(version))

    await driver.add_listener(CHANNEL, heard)

    async def stop() -> None:
        try:
            await driver.remove_listener(CHANNEL, heard)
        finally:
            await conn.close()

    return stop
