"""The gentle AI: a first opponent for someone new to the game. It plays like a beginner who
understands the goal: it keeps its tickets and builds toward them, but without a player's
craft, so a newcomer can win.

Where the baseline claims its longest planned route, takes the face-up colors its plan lacks
and draws more tickets once its tickets are done, this one
- keeps the fewest tickets allowed, the ones that look easiest (the baseline's choice);
- claims the shortest planned route its hand pays for (fewer points per train), and now and
  then draws a card although it could claim;
- draws blind half the time even when a face-up card would help;
- never draws more tickets; with its plan built it claims short routes near at hand.
It ignores stations, tolls and the opponents, as the baseline does. Its random choices come
from its own seeded generator, so a seeded game replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.baseline import BaselinePlayer, track_cost
from ai.board import Board, color_needs, make_plan
from ai.common import best_payment, draw_card
from engine import Action, Claim, DrawDeck, DrawMarket, DrawTickets


class GentlePlayer(BaselinePlayer):
    name = "gentle"
    HESITATE = 0.3  # chance of drawing a card although a planned route could be claimed
    BLIND = 0.5  # chance of drawing blind although a face-up card would help

    def turn(self, board: Board, legal: Sequence[Action]) -> Action:
        plan = make_plan(board, self.ordered_tickets(board), board.edge_costs(track_cost))
        wanted = [ti for ti in plan.tracks if board.owner[ti] < 0]
        claims: dict[str, list[Claim]] = {}
        for a in legal:
            if isinstance(a, Claim):
                claims.setdefault(a.track, []).append(a)
        tracks = board.m.tracks
        need = color_needs(board, wanted)
        ready = [ti for ti in wanted if tracks[ti].id in claims]
        can_draw = any(isinstance(a, (DrawDeck, DrawMarket)) for a in legal)
        if ready and (board.last_round or self.rng.random() >= self.HESITATE or not can_draw):
            ti = min(ready, key=lambda ti: tracks[ti].length)
            return best_payment(board, claims[tracks[ti].id], color_needs(board, [x for x in wanted if x != ti]))
        if wanted:
            card = self.draw(board, legal, need)
            if card is not None:
                return card
        if claims and (self.rng.random() < 0.5 or board.last_round):
            # Plan built: a short route somewhere, as a beginner fills the board.
            tid = min(claims, key=lambda tid: (board.m.track_by_id[tid].length, tid))
            return best_payment(board, claims[tid], need)
        card = self.draw(board, legal, need)
        if card is not None:
            return card
        if claims:
            tid = min(claims, key=lambda tid: board.m.track_by_id[tid].length)
            return best_payment(board, claims[tid], need)
        return next((a for a in legal if not isinstance(a, DrawTickets)), legal[0])

    def draw(self, board: Board, legal: Sequence[Action], need: list[int]) -> Action | None:
        """A card: blind half the time, else the baseline's choice of a face-up card."""
        if self.rng.random() < self.BLIND:
            blind = next((a for a in legal if isinstance(a, DrawDeck)), None)
            if blind is not None:
                return blind
        return draw_card(board, legal, need)
