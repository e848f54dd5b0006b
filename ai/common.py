"""Decisions both AIs make the same way: picking a payment, a tunnel answer, a card to draw."""

from __future__ import annotations

from collections.abc import Sequence

from ai.board import Board
from engine import Action, Claim, DeclineTunnel, DrawDeck, DrawMarket, PayTunnel
from engine.cards import LOCO


def best_payment(board: Board, options: Sequence[Claim], need: list[int]) -> Claim:
    """Among payments for one track, the one that spends the fewest locomotives and the cards
    least needed elsewhere (and the color held in greatest surplus)."""

    def key(a: Claim) -> tuple:
        color = a.color
        if color is None:
            return (a.locos, 0, 0)
        return (a.locos, need[color] > 0, -(board.hand[color] - need[color]))

    return min(options, key=key)


def tunnel_answer(legal: Sequence[Action], pay: bool = True) -> Action:
    pays = [a for a in legal if isinstance(a, PayTunnel)]
    if pay and pays:
        return min(pays, key=lambda a: a.locos)
    return next(a for a in legal if isinstance(a, DeclineTunnel))


def draw_card(board: Board, legal: Sequence[Action], need: list[int], take_loco: bool = False) -> Action | None:
    """A card toward `need`: a face-up card of a needed color (the largest deficit), a face-up
    locomotive if allowed and useful, else blind. None if no card can be drawn."""
    market = [a for a in legal if isinstance(a, DrawMarket)]
    best, best_need = None, 0
    free = board.info.free_locos  # a face-up locomotive is then an ordinary card
    for a in market:
        card = board.market[a.slot]
        if card is not None and (card != LOCO or free) and card < len(need) and need[card] > best_need:
            best, best_need = a, need[card]
    if best is not None:
        return best
    if take_loco:
        for a in market:
            if board.market[a.slot] == LOCO:
                return a
    for a in legal:
        if isinstance(a, DrawDeck):
            return a
    if market:
        # No blind card: the face-up card of the color held most (useful for long routes).
        return max(market, key=lambda a: (board.market[a.slot] != LOCO, board.hand[board.market[a.slot]]))
    return None
