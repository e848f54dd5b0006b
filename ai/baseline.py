"""The baseline AI: plans its tickets by shortest paths on the network still open to it, claims
the routes on those paths, draws the colors they need, and draws more tickets only when its
tickets are done and it has trains to spare.

Fast (a few Dijkstra runs per decision) and predictable; it ignores stations, blocking, tolls
and the opponents' plans. Payments, tunnels and card draws are shared with the strong AI
(`ai.common`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ai import marklin
from ai.base import GameInfo
from ai.board import Board, color_needs, make_plan
from ai.common import best_payment, draw_card, tunnel_answer
from engine import (
    Action,
    Claim,
    DeclineTunnel,
    DrawTickets,
    KeepTickets,
    NeutralClaim,
    PayTunnel,
)
from engine.mapdata import Ticket

SAFE_TRAINS = 15  # draw tickets only with at least this many trains (and nothing left to build)


def track_cost(t) -> float:
    return t.length


class BaselinePlayer:
    name = "baseline"

    def __init__(self, seed: int | str | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal: Sequence[Action], info: GameInfo) -> Action:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, KeepTickets):
            return self.keep(Board(view, info), legal)
        if isinstance(first, (PayTunnel, DeclineTunnel)):
            return tunnel_answer(legal)
        if isinstance(first, NeutralClaim):
            return self.neutral(Board(view, info), legal)
        if isinstance(first, DrawTickets):  # Märklin's starting mix
            return marklin.ticket_mix(legal)
        board = Board(view, info)
        action = self.turn(board, legal)
        if info.map.id == "marklin":
            return marklin.move_worth_making(board, legal) or (
                marklin.with_passenger(board, action, legal) if isinstance(action, Claim) else action
            )
        return action

    # ------------------------------------------------------------------ tickets

    def keep(self, board: Board, legal: Sequence[KeepTickets]) -> KeepTickets:
        """The fewest tickets allowed, the cheapest to build on top of the tickets held."""
        table = board.edge_costs(track_cost)
        fewest = min(len(a.ids) for a in legal)
        m = board.m
        best, best_key = None, None
        for a in legal:
            if len(a.ids) != fewest:
                continue
            chosen = [m.ticket_by_id[i] for i in a.ids]
            plan = make_plan(board, [*board.tickets, *chosen], table)
            bad = sum(t.points for t in plan.impossible)
            over = max(0, plan.trains - board.trains)
            key = (bad + over * 2, plan.trains, -sum(t.points for t in chosen))
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best

    # ------------------------------------------------------------------ the neutral player

    def neutral(self, board: Board, legal: Sequence[NeutralClaim]) -> NeutralClaim:
        """Give the neutral player the track whose color this seat's hand pays for least."""
        tracks = [board.m.track_by_id[a.track] for a in legal]

        def usefulness(t) -> int:
            return board.hand[t.color] if t.color is not None else max(board.hand[:8])

        return legal[min(range(len(legal)), key=lambda i: usefulness(tracks[i]))]

    # ------------------------------------------------------------------ a turn

    def ordered_tickets(self, board: Board) -> list[Ticket]:
        return sorted(board.tickets, key=lambda t: -t.points)

    def turn(self, board: Board, legal: Sequence[Action]) -> Action:
        table = board.edge_costs(track_cost)
        plan = make_plan(board, self.ordered_tickets(board), table)
        wanted = [ti for ti in plan.tracks if board.owner[ti] < 0]
        claims: dict[str, list[Claim]] = {}
        for a in legal:
            if isinstance(a, Claim):
                claims.setdefault(a.track, []).append(a)
        need = color_needs(board, wanted)
        tracks = board.m.tracks
        if plan.trains <= board.trains:
            # Claim the longest planned track the hand pays for.
            for ti in sorted(wanted, key=lambda ti: -tracks[ti].length):
                options = claims.get(tracks[ti].id)
                if options:
                    return best_payment(board, options, color_needs(board, [x for x in wanted if x != ti]))
        if wanted and plan.trains <= board.trains:
            card = draw_card(board, legal, need)
            if card is not None:
                return card
        # Nothing (affordable) left to build.
        if (
            board.trains >= SAFE_TRAINS
            and not board.last_round
            and board.min_opp_trains >= SAFE_TRAINS
            and any(isinstance(a, DrawTickets) for a in legal)
        ):
            return next(a for a in legal if isinstance(a, DrawTickets))
        if claims:
            longest = max(claims, key=lambda tid: board.m.track_by_id[tid].length)
            if board.m.track_by_id[longest].length >= 3 or board.trains <= 6 or board.last_round:
                return best_payment(board, claims[longest], need)
        # Collect the color held most, for a long route later.
        most = max(range(8), key=lambda c: board.hand[c])
        need = [0] * 9
        need[most] = 1
        card = draw_card(board, legal, need)
        if card is not None:
            return card
        if claims:
            longest = max(claims, key=lambda tid: board.m.track_by_id[tid].length)
            return best_payment(board, claims[longest], need)
        return legal[0]
