"""Märklin decisions (docs/rules.md §8): the ticket mix, where a claim puts a passenger, and when
to move one. The baseline moves a passenger once a move collects `MOVE_WORTH`; the strong AI
weighs it against the turns it has left for its passengers (`passenger_move`)."""

from __future__ import annotations

from collections.abc import Sequence

from ai.board import Board
from engine import Action, Claim, DrawTickets
from engine.actions import Move

#: Token points a move must collect before the baseline spends its turn on it (more in the last round).
MOVE_WORTH = 8


def ticket_mix(legal: Sequence[Action]) -> DrawTickets:
    """One long ticket among the four when the decks allow it, else the fewest long ones."""
    mixes = [a for a in legal if isinstance(a, DrawTickets)]
    return next((a for a in mixes if a.long == 1), mixes[0])


def _top(board: Board, city: str) -> int:
    stack = board.view.get("merchandise", {}).get(city, {}).get("stack") or [0]
    return stack[0]


def with_passenger(board: Board, claim: Claim, legal: Sequence[Action]) -> Claim:
    """The same claim with a passenger on the end whose stack is worth most, when one may go."""
    variants = [a for a in legal if isinstance(a, Claim) and a._replace(passenger=None) == claim and a.passenger]
    return max(variants, key=lambda a: _top(board, a.passenger), default=claim)


def best_move(board: Board, legal: Sequence[Action]) -> tuple[Move | None, int]:
    """The listed move collecting the most token points (then the fewest cards), and its points."""
    best, best_key = None, (0, 0)
    for a in legal:
        if isinstance(a, Move):
            key = (sum(_top(board, c) for c in dict.fromkeys(a.path)), -a.cards)
            if best is None or key > best_key:
                best, best_key = a, key
    return best, best_key[0]


def passenger_move(board: Board, legal: Sequence[Action], turns_left: float, worth: float, rush: float) -> Move | None:
    """The strong AI's move: the best listed move when it collects `worth` points, less as the
    turns left for the passengers on the board run short (each must move before the end, one move
    a turn; with `rush` spare turns per passenger or fewer, any move that scores)."""
    move, points = best_move(board, legal)
    if move is None or points <= 0:
        return None
    placed = len(board.view["players"][board.me]["passengers_placed"])
    spare = turns_left / max(1, placed)
    if board.last_round or spare <= rush:
        return move
    return move if points >= worth * min(1.0, spare / (4 * rush)) else None


def move_worth_making(board: Board, legal: Sequence[Action]) -> Move | None:
    """The listed move collecting the most token points (then the fewest cards), if it collects
    enough to be worth a turn, or if it is the last chance (last round)."""
    best, best_key = None, None
    for a in legal:
        if isinstance(a, Move):
            value = sum(_top(board, c) for c in dict.fromkeys(a.path))
            key = (value, -a.cards)
            if best_key is None or key > best_key:
                best, best_key = a, key
    if best is None or (best_key[0] < MOVE_WORTH and not board.last_round):
        return None
    return best
