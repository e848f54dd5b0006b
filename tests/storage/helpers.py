"""Games to store: random but legal, reproducible from a seed."""

from __future__ import annotations

import functools
import random

from engine import Game, GameOptions, Resign


def advance(game: Game, plies: int | None = None, rng: random.Random | None = None) -> Game:
    """Play `plies` random legal actions (all of them up to the end with None); nobody resigns."""
    rng = rng or random.Random(game.seed)
    done = 0
    while not game.is_over() and (plies is None or done < plies):
        seat = game.to_move()[0]
        choices = [a for a in game.legal_actions(seat, collapse_payments=True) if not isinstance(a, Resign)]
        game.apply(seat, rng.choice(choices))
        done += 1
    return game


def new_game(map_id: str = "europe", seats: int = 3, seed: int = 11, plies: int | None = 0) -> Game:
    game = Game.new(map_id, seats, seed, GameOptions())
    return advance(game, plies, random.Random(seed)) if plies != 0 else game


@functools.cache
def _finished(map_id: str, seats: int, seed: int) -> Game:
    return new_game(map_id, seats, seed, plies=None)


def finished_game(map_id: str = "europe", seats: int = 3, seed: int = 11) -> Game:
    """A game played to its end (cached: callers must not change it)."""
    return _finished(map_id, seats, seed)


async def sqlite_plans(engine, call) -> list[str]:  # type: ignore[no-untyped-def]
    """SQLite's query plan of every SELECT `await call()` runs on `engine` (the details, one string
    per statement): what a poll reads, without copying its statement."""
    from sqlalchemy import event

    statements: list[tuple[str, object]] = []

    def seen(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        await call()
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", seen)
    plans = []
    async with engine.connect() as conn:
        for statement, parameters in statements:
            rows = await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)  # type: ignore[arg-type]
            plans.append(" / ".join(str(row[-1]) for row in rows))
    return plans
