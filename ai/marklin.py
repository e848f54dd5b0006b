"""Märklin decisions of the baseline AI (docs/rules.md §8): the ticket mix, where a claim puts a
passenger, and when to move one. The strong AI does not play Märklin yet."""

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
