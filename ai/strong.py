"""The strong AI: a route-plan search on top of the baseline's planner.

Where the baseline takes the first shortest path and the fewest tickets, this one
- prices tracks by what they really cost it: trains, tunnel risk, ferry locomotives, and on
  Nederland the toll (double when it goes to an opponent, prohibitive when it would mean a Loan);
- keeps the set of tickets with the best expected value: each combination is planned as one
  network (a greedy Steiner tree) and every ticket's chance of completion falls with the trains
  and turns the plan needs against the trains and turns the game probably has left;
- claims the planned track whose loss would hurt most first (the cost of replanning without it),
  holds back from tunnels it cannot cover, draws more tickets whenever its plan is nearly built
  and the game has turns left, and ends with the longest routes its trains allow;
- borrows opponents' routes through stations (Europe) when a ticket is blocked or far cheaper so;
- with a Globetrotter bonus (Nordic) counts each completed ticket toward it and draws tickets
  sooner;
- blocks: in a two-player game it claims a cheap track the opponent's network clearly needs
  (no good detour) when its own plan has nothing to claim;
- gives the Nederland neutral player the track that hurts its opponent more than itself.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Sequence
from functools import cache

from ai import marklin
from ai.base import GameInfo
from ai.board import INF, Board, Plan, color_needs, make_plan, shortest_path
from ai.common import best_payment, draw_card, tunnel_answer
from engine import (
    Action,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Game,
    KeepTickets,
    NeutralClaim,
    PayTunnel,
)
from engine.actions import Move
from engine.cards import LOCO, PASSENGER
from engine.mapdata import Ticket, Track

TRAINS_PER_OPP_TURN = 1.15  # trains an opponent places per turn, on average (45 trains in ~40 turns)


class StrongPlayer:
    name = "strong"
    SPARE = 10  # draw tickets with at least this many trains beyond the plan
    OPP_TRAINS = 14  # ... while every opponent has at least this many trains
    TURNS_AHEAD = 4  # ... and the plan needs at most this many more turns
    SHORT_WEIGHT = 0.4  # extra path cost per card the hand still lacks for a track
    P_FLAT = 0.45  # plans needing up to this share of the trains (and turns) left are safe
    P_AT_ONE = 0.5  # chance of completing a plan that needs all of them
    TURN_FACTOR = 1.4  # a plan's share of the turns left counts this much more than its share of the trains
    ROLLOUTS = 12  # determinized playouts per candidate for ticket choices (0: heuristics only)
    CANDIDATES = 4  # ticket choices compared by playouts (the best by the heuristic value)
    TICKET_ROLLOUTS = 0  # playouts per candidate when weighing a ticket draw against the best other move
    GLOBE = 1.5  # share of a Globetrotter bonus counted per ticket completed (Nordic)
    GLOBE_SPARE = 6  # with a Globetrotter bonus (each ticket done counts): SPARE ...
    GLOBE_OPP_TRAINS = 12  # ... and OPP_TRAINS
    SELF_PLAYOUT = 0  # 1: playouts play this seat with its own heuristics instead of the baseline's
    MARKLIN_PLAYOUTS = 0  # 1: ticket playouts on Märklin too (the expert gained nothing so, docs/ai.md)
    TICKET_CONFIDENCE = 0.0  # standard errors by which playouts must beat the best ticket choice by value
    BUDGET: float | None = 0.25  # seconds of playouts per decision at most (then the samples done so far
    # decide); None: no clock, only ROLLOUTS bound the work, so a seeded game replays exactly
    CONTEST = 3.0  # priority of a planned track per 10 points of opponents' tickets that need it
    BLOCK_GAIN = 4.0  # block a track when the opponent's detour costs at least this many trains
    OPP_RATE = TRAINS_PER_OPP_TURN
    LONG_BONUS = 0.3  # path cost saved per route point above one per train (favors long routes)
    HOARD = 14  # with this many cards in hand, spend surplus on long routes for points
    MOVE_WORTH = 18  # Märklin: token points a passenger move collects before it is worth a turn ...
    MOVE_RUSH = 2.0  # ... fewer as the turns left per placed passenger fall toward this, then any
    PASSENGER_CARDS = 1  # ... and face-up passenger cards taken instead of another card while it holds fewer

    def __init__(self, seed: int | str | None = 0, **params: float) -> None:
        self.rng = random.Random(seed)
        for key, value in params.items():  # tuning experiments: StrongPlayer(seed, SPARE=8)
            if not key.isupper() or not hasattr(type(self), key):
                raise TypeError(f"unknown parameter {key}")
            setattr(self, key, value)

    # ------------------------------------------------------------------ entry point

    def choose(self, view: dict, legal: Sequence[Action], info: GameInfo) -> Action:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        marklin_map = "marklin" in info.map.rules.hooks
        if marklin_map and isinstance(first, DrawTickets):  # the starting ticket mix
            return marklin.ticket_mix(legal)
        board = Board(view, info)
        if marklin_map and not isinstance(first, KeepTickets):
            return self.marklin_turn(board, legal)
        if isinstance(first, KeepTickets):
            return self.keep(board, legal)
        if isinstance(first, (PayTunnel, DeclineTunnel)):
            return self.tunnel(board, legal)
        if isinstance(first, NeutralClaim):
            return self.neutral(board, legal)
        return self.turn(board, legal)

    # ------------------------------------------------------------------ pricing

    def pricer(self, board: Board):
        toll_cost = self.toll_cost(board) if board.tolls else None

        hand = board.hand
        best_gray = max(hand[:LOCO])
        locos = hand[LOCO]

        points = board.m.rules.route_points
        long_bonus = self.long_bonus(board)

        loco_tracks = board.info.loco_tracks

        def cost(t: Track) -> float:
            c = float(t.length) - long_bonus * (points[t.length] - t.length)
            have = best_gray if t.color is None else hand[t.color]
            wild = locos if loco_tracks is None or t.index in loco_tracks else 0
            short = t.length - t.ferry - have - 0.5 * wild
            if short > 0:
                c += self.SHORT_WEIGHT * short
            if t.tunnel:
                c += 0.6
            if t.ferry:
                c += 0.7 * t.ferry
            if toll_cost is not None:
                c += toll_cost(t)
            return max(0.0, c)  # a long route may pay for more than its trains: no price below zero for Dijkstra

        return cost

    def long_bonus(self, board: Board) -> float:
        """Trains a path's price falls by per route point above one per train (the expert's depends on the map)."""
        return self.LONG_BONUS

    def toll_cost(self, board: Board) -> Callable[[Track], float]:
        """What a track's toll adds to its cost, in trains (Nederland): 0.45 per unit of toll, 0.9
        when it goes to an opponent, 6 when it would mean a Loan."""
        money = board.money if board.money is not None else 0
        owner = board.owner
        seats = board.seats

        def toll(t: Track) -> float:
            if t.toll > money:
                return 6.0
            partner = owner[t.double] if t.double is not None else -1
            return t.toll * (0.9 if 0 <= partner < seats else 0.45)

        return toll

    def borrower(self, board: Board):
        if not board.stations_left:
            return None
        cities = board.station_cities
        me = board.me
        my_station_cities = {board.m.city_by_id[c].index for c, s in board.view["stations"].items() if s == me}

        def borrow(t: Track) -> float | None:
            if t.a in my_station_cities or t.b in my_station_cities:
                return 1.0
            if t.a in cities and t.b in cities:
                return None
            return 5.0 + 0.5 * (board.info.map.rules.stations - board.stations_left)

        return borrow

    def table(self, board: Board, blocked: int = -1) -> list:
        cost = self.pricer(board)
        if blocked >= 0:
            base = cost

            def cost(t: Track, base=base) -> float | None:
                return None if t.index == blocked else base(t)

        return board.edge_costs(cost, borrow=self.borrower(board))

    def plan(self, board: Board, tickets: Sequence[Ticket], table: list) -> Plan:
        order = sorted(tickets, key=lambda t: -t.points)
        return make_plan(board, order, table)

    # ------------------------------------------------------------------ how much time is left

    def turns_left(self, board: Board) -> float:
        if board.last_round:
            return 1.0
        return max(1.0, board.min_opp_trains / self.OPP_RATE)

    def turns_needed(self, board: Board, plan: Plan) -> float:
        need = color_needs(board, [ti for ti in plan.tracks if board.owner[ti] < 0])
        cards = sum(need)
        return len(plan.tracks) + cards / 1.8

    def success(self, board: Board, plan: Plan) -> float:
        """Chance that the planned tickets all get built (a smooth guess)."""
        if plan.trains > board.trains:
            return 0.05
        r_trains = plan.trains / max(1, board.trains)
        r_turns = self.turns_needed(board, plan) / self.turns_left(board)
        r = max(r_trains, r_turns * self.TURN_FACTOR)
        flat = self.P_FLAT
        if r <= flat:
            return 0.97
        if r <= 1.0:
            return 0.97 - (r - flat) / (1.0 - flat) * (0.97 - self.P_AT_ONE)
        return max(0.05, self.P_AT_ONE - (r - 1.0) * 2.0)

    def value(self, board: Board, tickets: Sequence[Ticket], table: list) -> float:
        return self.plan_value(board, self.plan(board, tickets, table))

    def plan_value(self, board: Board, plan: Plan) -> float:
        """The expected ticket points of a planned ticket set."""
        p = self.success(board, plan)
        v = sum(t.points for t in plan.done)
        v -= sum(t.points for t in plan.impossible)
        v += sum(t.points * (2 * p - 1) for t in plan.planned)
        globetrotter = board.info.deck.globetrotter_bonus  # most completed tickets (Nordic, USA 1910)
        if globetrotter:
            v += self.GLOBE * globetrotter * (len(plan.done) + p * len(plan.planned))
        # Trains placed score anyway; a plan that uses long routes scores more.
        return v

    # ------------------------------------------------------------------ tickets

    def ticket_value(self, board: Board, tickets: Sequence[Ticket], table: list) -> float:
        """What a ticket set to keep is worth: its value here (the expert adds the longest-path
        bonus its planned network promises)."""
        return self.value(board, tickets, table)

    def keep(self, board: Board, legal: Sequence[KeepTickets]) -> KeepTickets:
        table = self.table(board)
        m = board.m
        scored = []
        for a in legal:
            chosen = [m.ticket_by_id[i] for i in a.ids]
            scored.append((self.ticket_value(board, [*board.tickets, *chosen], table), -len(a.ids), a))
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        if self.ROLLOUTS and len(scored) > 1 and (self.MARKLIN_PLAYOUTS or "marklin" not in m.rules.hooks):
            candidates = [a for _, _, a in scored[: self.CANDIDATES]]
            best = self.simulate(board, candidates)
            if best is not None:
                return best
        return scored[0][2]

    def simulate(self, board: Board, candidates: Sequence[Action], rollouts: int | None = None) -> Action | None:
        """Compare candidate actions by determinized playouts (common samples for all of them).
        No playout starts after `BUDGET`: a sample the clock cuts short is left out, so the
        thinking stays within the budget plus one playout."""
        from ai.baseline import BaselinePlayer
        from ai.simulate import CannotSample, determinize, margin, playout, surest

        deadline = None if self.BUDGET is None else time.perf_counter() + self.BUDGET
        gains: list[list[float]] = [[] for _ in candidates]
        seats = board.seats
        rollouts = self.ROLLOUTS if rollouts is None else rollouts
        while len(gains[0]) < rollouts:
            seed = self.rng.randrange(1 << 30)
            try:
                base = determinize(board.view, board.info, random.Random(seed))
            except CannotSample:
                return None
            state = base.to_json()
            margins = []
            for i, action in enumerate(candidates):
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                game = base if i == 0 else Game.from_json(state)
                game.apply(board.me, action)
                policies = [BaselinePlayer(f"{seed}:{s}") for s in range(seats)]
                if self.SELF_PLAYOUT:  # play this seat's own future the way it would (no playouts)
                    policies[board.me] = StrongPlayer(f"{seed}:me", ROLLOUTS=0, TICKET_ROLLOUTS=0)
                playout(game, policies)
                if not game.is_over():
                    return None
                margins.append(margin(game, board.me))
            if len(margins) < len(candidates):
                break  # out of time
            for i, m in enumerate(margins):
                gains[i].append(m - margins[0])
        if not gains[0]:
            return None
        return candidates[surest(gains, self.TICKET_CONFIDENCE)]

    def want_tickets(self, board: Board, plan: Plan, legal: Sequence[Action]) -> bool:
        if board.last_round or not any(isinstance(a, DrawTickets) for a in legal):
            return False
        spare = board.trains - plan.trains
        if board.info.deck.globetrotter_bonus:  # one more ticket done may win the bonus
            min_spare, min_opp = self.GLOBE_SPARE, self.GLOBE_OPP_TRAINS
        else:
            min_spare, min_opp = self.SPARE, self.OPP_TRAINS
        if spare < min_spare or board.min_opp_trains < min_opp:
            return False
        return not (plan.tracks and self.turns_needed(board, plan) > self.TURNS_AHEAD)

    # ------------------------------------------------------------------ tunnels and the neutral player

    def tunnel(self, board: Board, legal: Sequence[Action]) -> Action:
        return tunnel_answer(legal, pay=True)

    def neutral(self, board: Board, legal: Sequence[NeutralClaim]) -> NeutralClaim:
        """The neutral player takes one track; the other stays free for either player. Leave the
        track this seat's plan (and hand) prefers."""
        table = self.table(board)
        plan = self.plan(board, board.tickets, table)
        planned = set(plan.tracks)
        m = board.m

        def keep_for_me(a: NeutralClaim) -> float:
            t = m.track_by_id[a.track]
            score = 5.0 if t.index in planned else 0.0
            if t.color is not None:
                score += board.hand[t.color]
            if board.tolls:
                score -= 0.3 * t.toll
            return score

        # Give away the track we would least like to keep.
        return min(legal, key=keep_for_me)

    # ------------------------------------------------------------------ Märklin

    def marklin_turn(self, board: Board, legal: Sequence[Action]) -> Action:
        """Passengers (docs/rules.md §8.5): a move when it collects enough for the turns left, else
        the usual turn, its claim carrying a passenger to the end whose stack is worth most, its
        ticket draw naming the mix (one long ticket while the game is young, else none)."""
        move = marklin.passenger_move(board, legal, self.turns_left(board), self.MOVE_WORTH, self.MOVE_RUSH)
        if move is not None:
            return move
        return self.marklin_action(board, self.turn(board, [a for a in legal if not isinstance(a, Move)]), legal)

    def marklin_action(self, board: Board, action: Action, legal: Sequence[Action]) -> Action:
        """A turn's action as Märklin asks it to be said: a claim with its passenger, a card draw
        that takes a passenger card when it has too few, a ticket draw with its mix."""
        if isinstance(action, Claim):
            return marklin.with_passenger(board, action, legal)
        if isinstance(action, (DrawDeck, DrawMarket)) and board.hand[PASSENGER] < self.PASSENGER_CARDS:
            ride = next((a for a in legal if isinstance(a, DrawMarket) and board.market[a.slot] == PASSENGER), None)
            if ride is not None:
                return ride
        if isinstance(action, DrawTickets):
            long = 1 if board.trains >= 30 else 0
            mixes = [a for a in legal if isinstance(a, DrawTickets)]
            return next((a for a in mixes if a.long == long), mixes[0])
        return action

    # ------------------------------------------------------------------ a turn

    def turn(self, board: Board, legal: Sequence[Action]) -> Action:
        action, plan = self.heuristic_turn(board, legal)
        if self.TICKET_ROLLOUTS and not isinstance(action, DrawTickets) and self.consider_tickets(board, plan, legal):
            best = self.simulate(board, [action, DrawTickets()], rollouts=self.TICKET_ROLLOUTS)
            if best is not None:
                return best
        return action

    def consider_tickets(self, board: Board, plan: Plan, legal: Sequence[Action]) -> bool:
        if board.last_round or not any(isinstance(a, DrawTickets) for a in legal):
            return False
        if board.trains - plan.trains < 5 or board.min_opp_trains < 8:
            return False
        return not plan.tracks or self.turns_needed(board, plan) <= self.TURNS_AHEAD

    def heuristic_turn(self, board: Board, legal: Sequence[Action]) -> tuple[Action, Plan]:
        plan_box: list = []
        action = self._heuristic_turn(board, legal, plan_box)
        return action, plan_box[0]

    def _heuristic_turn(self, board: Board, legal: Sequence[Action], plan_box: list) -> Action:
        table = self.table(board)
        plan = self.plan(board, board.tickets, table)
        plan_box.append(plan)
        claims: dict[str, list[Claim]] = {}
        stations: dict[str, list[BuildStation]] = {}
        can_draw_tickets = False
        for a in legal:
            kind = type(a)
            if kind is Claim:
                claims.setdefault(a.track, []).append(a)
            elif kind is BuildStation:
                stations.setdefault(a.city, []).append(a)
            elif kind is DrawTickets:
                can_draw_tickets = True
        wanted = [ti for ti in plan.tracks if board.owner[ti] < 0]
        borrowed = [ti for ti in plan.tracks if board.owner[ti] >= 0]
        need = color_needs(board, wanted)
        feasible = plan.trains <= board.trains

        endgame = board.last_round or board.min_opp_trains <= 3 or board.trains <= 3

        # 1. Claim a planned track: the most critical first.
        if feasible and wanted:
            choice = self.pick_claim(board, plan, wanted, claims, table, endgame)
            if choice is not None:
                return choice
        # 2. A station to borrow a planned opponent track.
        if borrowed and stations:
            act = self.station_for(board, borrowed, stations, need)
            if act is not None:
                return act
        # 3. In the end game: the most points now.
        if endgame and claims:
            return self.most_points(board, claims, need)
        # 4. Too many cards: surplus on a long route for points.
        if claims and sum(board.hand) >= self.HOARD:
            act = self.surplus_route(board, plan, claims, need)
            if act is not None:
                return act
        # 5. Cards for the plan.
        if feasible and wanted:
            card = draw_card(board, legal, need, take_loco=self.loco_worth_it(board, need))
            if card is not None:
                return card
        # 6. Plan built (or hopeless): more tickets while the game has time for them.
        if can_draw_tickets and self.want_tickets(board, plan, legal):
            return DrawTickets()
        # 7. Block the opponent, then score with long routes.
        block = self.block(board, claims, need)
        if block is not None:
            return block
        if claims:
            best = self.long_route(board, claims)
            if best is not None:
                return best
        target = self.long_route_colors(board)
        card = draw_card(board, legal, target)
        if card is not None:
            return card
        if claims:
            return self.most_points(board, claims, need)
        return next((a for a in legal if not isinstance(a, BuildStation)), legal[0])

    def pick_claim(
        self, board: Board, plan: Plan, wanted: list[int], claims: dict, table: list, endgame: bool
    ) -> Action | None:
        tracks = board.m.tracks
        ready = [ti for ti in wanted if tracks[ti].id in claims]
        if not ready:
            return None
        best, best_key = None, None
        contested = self.demand(board) if len(ready) > 1 else {}
        for ti in ready:
            t = tracks[ti]
            others = [x for x in wanted if x != ti]
            spare_ok = True
            if t.tunnel and not endgame:
                # Hold back from a tunnel until a card or two can cover a surcharge.
                options = claims[t.id]
                pay = best_payment(board, options, color_needs(board, others))
                color = pay.color
                spare = (
                    board.hand[LOCO]
                    - pay.locos
                    + (board.hand[color] - (t.length - pay.locos) if color is not None else 0)
                )
                spare_ok = spare >= 1
            crit = self.criticality(board, plan, ti) if len(ready) > 1 or not spare_ok else 0.0
            key = (spare_ok, crit + 0.4 * t.length + self.CONTEST * contested.get(ti, 0.0))
            if best_key is None or key > best_key:
                best, best_key = ti, key
        if not best_key[0] and best_key[1] < 6:
            return None  # only an uncovered tunnel: draw first
        t = tracks[best]
        return best_payment(board, claims[t.id], color_needs(board, [x for x in wanted if x != best]))

    def criticality(self, board: Board, plan: Plan, ti: int) -> float:
        """How much more the plan would cost if an opponent took track `ti`."""
        table = self.table(board, blocked=ti)
        tickets = [*plan.planned]
        again = make_plan(board, sorted(tickets, key=lambda t: -t.points), table)
        lost = sum(t.points for t in again.impossible)
        return (again.cost - plan.cost) + 2.0 * lost

    def station_for(self, board: Board, borrowed: list[int], stations: dict, need: list[int]) -> Action | None:
        m = board.m
        for ti in borrowed:
            t = m.tracks[ti]
            for city in (t.a, t.b):
                cid = m.cities[city].id
                options = stations.get(cid)
                if options:
                    return min(options, key=lambda a: (a.locos, need[a.color] if a.color is not None else 0))
        return None

    def surplus_route(self, board: Board, plan: Plan, claims: dict, need: list[int]) -> Action | None:
        m = board.m
        planned_need = color_needs(board, [ti for ti in plan.tracks if board.owner[ti] < 0])
        best, best_key = None, None
        for tid, options in claims.items():
            t = m.track_by_id[tid]
            if t.length < 4 or plan.trains + t.length > board.trains - 2:
                continue
            if board.tolls and board.money is not None and t.toll > board.money:
                continue
            for a in options:
                if a.locos > t.ferry:
                    continue
                used = t.length - a.locos
                # Only cards the plan does not need.
                if a.color is not None and board.hand[a.color] - used < (planned_need[a.color] and board.hand[a.color]):
                    continue
                key = (t.length, -a.locos)
                if best_key is None or key > best_key:
                    best, best_key = a, key
        return best

    def loco_worth_it(self, board: Board, need: list[int]) -> bool:
        return sum(need) >= 6 and need[LOCO] > 0

    def route_worth(self, board: Board) -> Callable[[Track], float]:
        """What a route off the plan is worth claiming for its points: its length here (the
        expert adds the longest-path bonus)."""
        return lambda t: t.length

    def most_points(self, board: Board, claims: dict, need: list[int]) -> Action:
        tracks = board.m.track_by_id
        worth = self.route_worth(board)
        tid = max(claims, key=lambda tid: (worth(tracks[tid]), -tracks[tid].toll))
        return best_payment(board, claims[tid], need)

    def long_route(self, board: Board, claims: dict) -> Action | None:
        """A long route for points (3+ trains, or anything when trains run short)."""
        m = board.m
        worth = self.route_worth(board)
        best, best_key = None, None
        for tid in claims:
            t = m.track_by_id[tid]
            if board.tolls and board.money is not None and t.toll > board.money:
                continue
            if t.length < 3 and board.trains > 5:
                continue
            if t.tunnel and t.length < 4:
                continue
            touches = board.comp.find(t.a) != t.a or board.comp.find(t.b) != t.b
            key = (worth(t), touches, -t.toll)
            if best_key is None or key > best_key:
                best, best_key = tid, key
        if best is None:
            return None
        return best_payment(board, claims[best], [0] * 9)

    def long_route_colors(self, board: Board) -> list[int]:
        """Colors toward the longest free routes the hand is closest to paying for."""
        target = [0] * 9
        m = board.m
        for t in m.tracks:
            if t.length < 4 or t.length > board.trains or not board.free(t):
                continue
            if t.color is None:
                c = max(range(8), key=lambda k: board.hand[k])
            else:
                c = t.color
            short = t.length - board.hand[c] - board.hand[LOCO]
            if short > 0:
                target[c] = max(target[c], 10 - short)
        return target

    # ------------------------------------------------------------------ the opponents' likely tickets

    def likely_tickets(self, board: Board, opp: int, limit: int = 3) -> list[tuple[Ticket, float, list[int]]]:
        """Tickets the opponent probably holds, guessed from its claims: unseen tickets whose
        cheapest remaining path is a small share of their distance on an empty board.
        Returns (ticket, remaining cost, remaining free tracks) for the likeliest few."""
        m = board.m
        if not any(o == opp for o in board.owner):
            return []
        seen = {t.id for t in board.tickets} | {t["id"] for t in board.view["ticket_discard"]}
        table = board.edge_costs(lambda t: float(t.length), seat=opp)
        empty = _empty_distances(m)
        out = []
        for tid in board.info.deck.tickets:
            if tid in seen:
                continue
            ticket = m.ticket_by_id[tid]
            if ticket.destinations:
                continue  # country tickets: too many ways to guess
            base = empty[ticket.a][ticket.b]
            if not base:
                continue
            found = shortest_path(table, ticket.a, ticket.b)
            if found is None:
                continue
            cost, path = found
            share = cost / base
            if share > 0.75 or cost == 0:
                continue  # not started, or already done (nothing to block)
            out.append((share, ticket, cost, [ti for ti in path if board.owner[ti] < 0]))
        out.sort(key=lambda x: x[0])
        return [(t, c, p) for _, t, c, p in out[:limit]]

    def demand(self, board: Board) -> dict[int, float]:
        """Free tracks the opponents probably need, weighted by the points behind them."""
        need: dict[int, float] = {}
        for opp in board.opponents:
            for ticket, _cost, path in self.likely_tickets(board, opp):
                for ti in path:
                    need[ti] = need.get(ti, 0.0) + ticket.points / 10.0
        return need

    # ------------------------------------------------------------------ blocking

    def block(self, board: Board, claims: dict, need: list[int]) -> Action | None:
        """Take a short free track that an opponent's likely ticket needs and that has no cheap
        detour, when it costs this seat at most three trains and the game is not ending."""
        if board.trains < 8 or not claims or board.last_round:
            return None
        m = board.m
        best, best_gain = None, self.BLOCK_GAIN
        for opp in board.opponents:
            likely = self.likely_tickets(board, opp)
            if not likely:
                continue
            for ticket, cost, path in likely:
                for ti in path:
                    t = m.tracks[ti]
                    if t.id not in claims or t.length > 3:
                        continue
                    if board.tolls and board.money is not None and t.toll > board.money:
                        continue
                    detour = board.edge_costs(lambda x, ti=ti: None if x.index == ti else float(x.length), seat=opp)
                    again = shortest_path(detour, ticket.a, ticket.b)
                    gain = 2.0 * ticket.points if again is None else again[0] - cost
                    gain -= 0.5 * t.length
                    if gain > best_gain:
                        best, best_gain = t.id, gain
        if best is None:
            return None
        return best_payment(board, claims[best], need)


@cache
def _empty_distances(m) -> list[list[float]]:
    """Shortest distances in trains between all cities on an empty board."""
    from ai.board import adjacency

    n = len(m.cities)
    table = []
    for pairs in adjacency(m):
        table.append([(nbr, float(min(m.tracks[ti].length for ti in tis)), tis[0]) for nbr, tis in pairs])
    out = []
    for src in range(n):
        dist = [INF] * n
        dist[src] = 0.0
        heap = [(0.0, src)]
        while heap:
            d, c = heapq.heappop(heap)
            if d > dist[c]:
                continue
            for nbr, w, _ in table[c]:
                if d + w < dist[nbr]:
                    dist[nbr] = d + w
                    heapq.heappush(heap, (d + w, nbr))
        out.append(dist)
    return out
