"""Playing one whole game between AI players (used by the tournament, the tests and the CLI)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai.base import GameInfo, Player, legal_for
from engine import Game, GameOptions

MAX_PLIES = 5000  # a safety net: no real game comes near it


@dataclass
class GameResult:
    map: str
    seed: int
    names: list[str]
    totals: list[int]
    ranks: list[int]
    completed: list[int]  # tickets completed per seat
    tickets: list[int]  # tickets held per seat
    rounds: int
    plies: int
    end_reason: str | None
    times: list[list[float]] = field(default_factory=list)  # seconds per decision, per seat
    illegal: int = 0  # AI choices that were not legal (must stay 0)


def play_game(
    map_id: str,
    players: Sequence[Player],
    seed: int,
    options: GameOptions | None = None,
    check_legal: bool = True,
) -> tuple[Game, GameResult]:
    """Play a game to its end, every seat run by its player; raise if a player picks an illegal move."""
    seats = len(players)
    game = Game.new(map_id, seats, seed, options)
    infos = [GameInfo.from_game(game, s) for s in range(seats)]
    times: list[list[float]] = [[] for _ in range(seats)]
    plies = 0
    while not game.is_over():
        for seat in game.to_move():
            legal = legal_for(game, seat)
            view = game.view(seat)
            start = time.perf_counter()
            action = players[seat].choose(view, legal, infos[seat])
            times[seat].append(time.perf_counter() - start)
            if check_legal and action not in legal:
                raise AssertionError(f"{players[seat].name} (seat {seat + 1}) chose an illegal action {action!r}")
            game.apply(seat, action)
            plies += 1
            if game.is_over() or game.phase == "playing":
                break  # after the starting ticket choice, one seat at a time
        if plies > MAX_PLIES:
            raise RuntimeError(f"game {map_id} seed {seed} did not end in {MAX_PLIES} plies")
    final = game.final
    return game, GameResult(
        map=map_id,
        seed=seed,
        names=[p.name for p in players],
        totals=[s.total for s in final],
        ranks=[s.rank for s in final],
        completed=[s.completed for s in final],
        tickets=[len(s.tickets) for s in final],
        rounds=game.round,
        plies=len(game.log),
        end_reason=game.end_reason,
        times=times,
    )
