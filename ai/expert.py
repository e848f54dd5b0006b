"""The expert AI: the strong AI's moves, searched. At each turn's first step it takes the strong
AI's choice and the next few moves in the strong AI's own order (another planned claim, the card
its plan needs, the route worth most points; a claim is weighed only against claims), and plays
each a few turns ahead (`HORIZON`) from the same determinized samples of what it cannot see
(`ai/simulate.py`: the unseen cards and tickets dealt at random, the opponents then played by the
strong heuristics and its own seat by its own, `STRONG_PLAYOUTS`), then scores the position with
the strong AI's own valuation (`outlook`): a whole game's playout is far noisier than the
differences between moves. The candidate with the best average is played, but only when it
beats the strong AI's choice by more than `CONFIDENCE` standard errors of the paired differences
(the same samples for every candidate): noise must not overrule a good heuristic.

Thinking is bounded by a clock (`THINK` seconds per decision) and by the number of samples
(`SAMPLES` per candidate); with `THINK=None` only by the samples, so that a seeded game replays
exactly on any machine. Ticket choices are the strong AI's playouts with its own seat played by
the strong heuristics (`SELF_PLAYOUT`) and a longer budget, between the best two sets by value
only, the second kept only when it wins surely (`CANDIDATES`, `TICKET_CONFIDENCE`: within the clock
a few samples chose worse than the values alone), its ticket values weighing the turns a plan
needs less (`TURN_FACTOR`). Its turns on Märklin are the strong AI's (searched, with the tokens
taken in its valuation, they gained nothing), and so are its ticket choices there
(their playouts gained nothing within the clock: `MARKLIN_PLAYOUTS`); so are its
turns on Nordic (measured paired, the search lost there; docs/ai.md). On Nederland its tolls
weigh more (`TOLL_WEIGHT`), and its search's samples give each opponent the money its claims tell
and its valuation each seat's expected toll bonus (`ai/tolls.py`, `TOLL_SPREAD`). Its plans favour long routes
twice as much as the strong AI's (`LONG_BONUS`), and four times as much on Europe and Switzerland,
where long routes are few (`SCARCE_LONG_BONUS`): their points per train pay for the trains, and
on a crowded board a few long claims are taken sooner than many short ones (measured paired, it
gained most with three and four players; docs/ai.md).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence

from ai.base import GameInfo, Player
from ai.baseline import BaselinePlayer
from ai.board import Board, Plan, color_needs
from ai.common import draw_card
from ai.longest_path import TrailOutlook
from ai.simulate import CannotSample, determinize, margin, playout, surest
from ai.strong import StrongPlayer
from ai.tolls import expected_bonus
from engine import Action, Claim, DrawDeck, DrawMarket, Game
from engine.mapdata import Ticket, Track


class ExpertPlayer(StrongPlayer):
    name = "expert"
    MOVES = 4  # candidates searched per decision: the strong AI's choice and the next in its order
    SAMPLES = 24  # determinized samples (one playout per candidate each) per decision at most
    THINK: float | None = 1.0  # seconds per turn decision at most; None: SAMPLES alone bound the work
    CONFIDENCE = 2.0  # standard errors by which a candidate must beat the strong AI's choice
    HORIZON = 6  # a playout stops when this seat is about to begin its HORIZON-th turn after the move
    CARD_WORTH = 0.7  # points a card in hand is worth to the evaluation at a playout's end
    SELF_PLAYOUT = 1  # ticket choices: its own seat in the playouts played by the strong heuristics
    BUDGET: float | None = 0.8  # seconds of ticket-choice playouts at most (within the second it may think)
    CANDIDATES = 2  # ticket choices its playouts compare: the best two by value, more samples each
    TICKET_CONFIDENCE = 1.0  # ... and the second is kept only if it wins by this many standard errors
    TRAIL_TICKETS = 1.0  # share of the longest-path bonus a ticket set's planned network promises, in its value
    TURN_FACTOR = 1.2  # the turns a plan needs weigh less in a ticket set's chance than the strong AI's 1.4
    GLOBE_SEARCH = 0  # 1: search with a Globetrotter bonus: lost on Nordic, even on Märklin (docs/ai.md)
    TOLL_SEARCH = 1  # search on a map with tolls (Nederland), with its toll bonus valued (0: off, for the bench)
    TOLL_SPREAD = 8.0  # Nederland's search: how far two seats' money may still move apart, at the start
    TOLL_WEIGHT = 6.0  # Nederland: a toll weighs this many times the strong AI's price (docs/ai.md)
    LONG_BONUS = 0.6  # a path's price falls by this per route point above one per train (strong: 0.3)
    SCARCE_LONG_BONUS = 1.2  # ... and by this where long routes are few (docs/ai.md):
    SCARCE_LONG_MAPS = frozenset({"europe", "switzerland"})  # a tenth of the trains on routes of 5+ (USA: a third)
    STRONG_PLAYOUTS = 1  # search playouts: opponents played by the strong heuristics, its seat by its own (0: baseline)

    def turn(self, board: Board, legal: Sequence[Action]) -> Action:
        action, plan = self.heuristic_turn(board, legal)
        if board.view["stage"] is not None or board.last_round:
            return action  # a second card, or the last turn: the strong AI's choice
        if board.info.deck.globetrotter_bonus and not self.GLOBE_SEARCH:
            return action
        if board.tolls and not self.TOLL_SEARCH:
            return action
        candidates = self.candidates(board, legal, action, plan)
        if len(candidates) < 2:
            return action
        return self.search(board, candidates)

    def search(self, board: Board, candidates: Sequence[Action]) -> Action:
        """The candidate whose truncated playouts beat the first's (the strong AI's choice) by the
        widest sure margin, on the same determinized samples; the first when none does."""
        deadline = None if self.THINK is None else time.perf_counter() + self.THINK
        infos = [dataclasses.replace(board.info, seat=s) for s in range(board.seats)]
        gains: list[list[float]] = [[] for _ in candidates]
        while len(gains[0]) < self.SAMPLES and (deadline is None or time.perf_counter() < deadline):
            seed = self.rng.randrange(1 << 30)
            try:
                base = determinize(board.view, board.info, random.Random(seed))
            except CannotSample:
                return candidates[0]
            state = base.to_json()
            scores = []
            for i, action in enumerate(candidates):
                if deadline is not None and time.perf_counter() > deadline:
                    break  # out of time: this sample is left unfinished, and out
                game = base if i == 0 else Game.from_json(state)
                game.apply(board.me, action)
                playout(game, self.playout_policies(board, seed), stop=self.horizon(board.me))
                scores.append(self.outlook(game, board.me, infos))
            if len(scores) < len(candidates):
                break
            for i, m in enumerate(scores):
                gains[i].append(m - scores[0])
        if len(gains[0]) < 2:
            return candidates[0]
        return candidates[surest(gains, self.CONFIDENCE)]

    def long_bonus(self, board: Board) -> float:
        """Twice the strong AI's, and four times where long routes are few: there the 4-train
        routes are the long ones, and taken first they pay most (measured per map in docs/ai.md)."""
        return self.SCARCE_LONG_BONUS if board.info.map.id in self.SCARCE_LONG_MAPS else self.LONG_BONUS

    def playout_policies(self, board: Board, seed: int) -> list[Player]:
        """Who plays a search's playout: the opponents as the strong AI would, its own seat as it
        would without searching (both without ticket playouts), so a move is judged by the replies
        it will meet and the turns that follow it; the baseline's play ignored both (docs/ai.md)."""
        if not self.STRONG_PLAYOUTS:
            return [BaselinePlayer(f"{seed}:{s}") for s in range(board.seats)]
        policies: list[Player] = [StrongPlayer(f"{seed}:{s}", ROLLOUTS=0) for s in range(board.seats)]
        settings = {k: v for k, v in vars(self).items() if k.isupper()}  # a tuning run's, if any
        policies[board.me] = type(self)(f"{seed}:me", **{**settings, "ROLLOUTS": 0, "MOVES": 1})
        return policies

    def route_worth(self, board: Board) -> Callable[[Track], float]:
        """A route off the plan is worth its points plus what it adds to this seat's expected share
        of the longest-path bonus (`ai/longest_path.py`), which the strong AI ignores."""
        if not board.info.deck.longest_path_bonus:
            return super().route_worth(board)
        points = board.m.rules.route_points
        outlook = TrailOutlook(board)
        return lambda t: points.get(t.length, 0) + outlook.gain(t)

    def toll_cost(self, board: Board) -> Callable[[Track], float]:
        """Tolls cost `TOLL_WEIGHT` times what the strong AI counts: the money left decides the
        toll bonus (35 points with two players) and a Loan loses it; so weighed they won 60% of
        mirrored two-player games against the strong AI's price (docs/ai.md)."""
        base = super().toll_cost(board)
        weight = self.TOLL_WEIGHT
        return lambda t: weight * base(t)

    def ticket_value(self, board: Board, tickets: Sequence[Ticket], table: list) -> float:
        """A ticket set to keep is worth the strong AI's value plus, on a map with a longest-path
        bonus, what its planned network adds to this seat's expected share of the bonus, times
        the plan's chance of completion: tickets whose routes chain into one long trail are worth
        more (`TRAIL_TICKETS`; measured paired in docs/ai.md)."""
        if not self.TRAIL_TICKETS or not board.info.deck.longest_path_bonus:
            return self.value(board, tickets, table)
        plan = self.plan(board, tickets, table)
        worth = self.plan_value(board, plan)
        planned = [board.m.tracks[ti] for ti in plan.tracks]
        return worth + self.TRAIL_TICKETS * self.success(board, plan) * TrailOutlook(board).gain_of(planned)

    def horizon(self, me: int):
        """A playout's stop: when this seat is about to begin its `HORIZON`-th turn after the move."""
        turns = [0]

        def stop(game: Game, seat: int) -> bool:
            if seat != me and game.current == me and game.stage is None and game.tunnel is None:
                turns[0] += 1
            return turns[0] >= self.HORIZON

        return stop

    def outlook(self, game: Game, me: int, infos: Sequence[GameInfo]) -> float:
        """This seat's expected final points ahead of the best opponent: the final margin of an
        ended game, else each seat's points so far (Märklin's tokens taken too), the strong AI's
        value of its tickets (planned on the sampled board, with their chance of completion),
        `CARD_WORTH` per card in hand and its expected share of the longest-path bonus."""
        if game.is_over():
            return margin(game, me)
        bonus = infos[me].deck.longest_path_bonus
        worth = []
        boards = [Board(game.view(s), info) for s, info in enumerate(infos)]
        for board in boards:
            worth.append(
                board.score
                + self.value(board, board.tickets, self.table(board))
                + self.CARD_WORTH * sum(board.hand)
                + (bonus * TrailOutlook(board).now if bonus else 0.0)
            )
        if boards[me].tolls:
            worth = [w + t for w, t in zip(worth, self.toll_outlook(boards), strict=True)]
        return worth[me] - max(w for s, w in enumerate(worth) if s != me)

    def toll_outlook(self, boards: Sequence[Board]) -> list[float]:
        """Nederland: each seat's expected toll bonus less its Loans' penalty, its money's lead
        over each other seat's uncertain by `TOLL_SPREAD` at the start, less as the trains run out
        (`ai/tolls.py`); without it a search spent money as if it were worth nothing."""
        rules = boards[0].m.rules
        left = min(b.trains for b in boards) / rules.trains
        return expected_bonus(
            [float(b.money or 0) for b in boards],
            [b.loans for b in boards],
            rules.extra["toll_bonus"][str(len(boards))],
            int(rules.extra.get("loan_penalty", 0)),
            1.0 + self.TOLL_SPREAD * left,
        )

    def candidates(self, board: Board, legal: Sequence[Action], chosen: Action, plan: Plan) -> list[Action]:
        """The strong AI's choice first, then its next moves in the order it would weigh them: the
        other planned claims (longest first), the card its plan needs, and the route worth most
        points. A claim is weighed only against other claims: put off for a card or more tickets,
        it looked free in playouts whose opponents never contest a track, and that cost 8-10
        points a game (docs/ai.md)."""
        tracks = board.m.tracks
        wanted = [ti for ti in plan.tracks if board.owner[ti] < 0]
        claims: dict[str, list[Claim]] = {}
        for a in legal:
            if isinstance(a, Claim):
                claims.setdefault(a.track, []).append(a)
        need = color_needs(board, wanted)
        out: list[Action] = [chosen]

        def add(action: Action | None) -> None:
            if action is not None and action not in out and len(out) < self.MOVES:
                out.append(action)

        for ti in sorted(wanted, key=lambda ti: -tracks[ti].length):
            options = claims.get(tracks[ti].id)
            if options and not isinstance(chosen, Claim):
                add(min(options, key=lambda a: a.locos))
                break
        if not isinstance(chosen, (DrawDeck, DrawMarket, Claim)):
            add(draw_card(board, legal, need))
        if claims:
            add(self.most_points(board, claims, need))
        if "marklin" in board.info.map.rules.hooks:  # each as Märklin asks it to be said
            return list(dict.fromkeys(self.marklin_action(board, a, legal) for a in out))
        return out
