"""The expert AI's search: truncated playouts stop where they should, and the clock bounds a decision."""

from __future__ import annotations

import time

import pytest

from ai import GameInfo, legal_for
from ai.baseline import BaselinePlayer
from ai.board import Board
from ai.expert import ExpertPlayer
from ai.simulate import playout
from engine import Claim, DrawTickets, Game, GameOptions, KeepTickets


def started(seed=3):
    game = Game.new("usa", 2, seed, GameOptions(first_seat=0))
    for s in range(2):
        game.apply(s, game.default_action(s))
    return game


def test_a_playout_stops_when_the_seat_is_about_to_begin_its_horizon_th_turn():
    game = started()
    me = game.to_move()[0]
    expert = ExpertPlayer(1, HORIZON=3)
    game.apply(me, game.default_action(me))
    begun = {0: 0, 1: 0}

    class Counting(BaselinePlayer):
        def choose(self, view, legal, info):
            if view["stage"] is None:
                begun[info.seat] += 1
            return super().choose(view, legal, info)

    playout(game, [Counting(s) for s in range(2)], stop=expert.horizon(me))
    assert not game.is_over()
    assert game.to_move() == [me] and game.stage is None
    assert begun == {me: 2, 1 - me: 3}  # its move, two more turns, and the opponent's three replies


def test_the_clock_bounds_a_decision_and_the_choice_is_legal():
    game = started(seed=5)
    expert = ExpertPlayer(2, THINK=0.2, SAMPLES=10_000)
    for _ in range(60):  # on until a turn with a choice to search
        seat = game.to_move()[0]
        legal = legal_for(game, seat)
        board = Board(game.view(seat), GameInfo.from_game(game, seat))
        action, plan = expert.heuristic_turn(board, legal)
        candidates = expert.candidates(board, legal, action, plan)
        if len(candidates) >= 2 and game.stage is None:
            break
        game.apply(seat, game.default_action(seat))
    assert len(candidates) >= 2 and all(c in legal for c in candidates)
    start = time.perf_counter()
    chosen = expert.search(board, candidates)
    assert time.perf_counter() - start < 0.2 + 0.5  # one playout may run over the clock
    assert chosen in candidates


def test_its_ticket_playouts_play_its_own_seat_by_the_strong_heuristics_not_by_searching(monkeypatch):
    """With `SELF_PLAYOUT` the ticket playouts play this seat as the strong AI would; an expert's
    playout seat must not search in its turn (a search inside every playout step)."""
    game = Game.new("usa", 2, 5, GameOptions(first_seat=0))
    searched = []
    monkeypatch.setattr(ExpertPlayer, "search", lambda self, board, candidates: searched.append(1) or candidates[0])
    expert = ExpertPlayer(2, ROLLOUTS=1, BUDGET=None)  # SELF_PLAYOUT is its default
    seat = game.to_move()[0]
    action = expert.choose(game.view(seat), legal_for(game, seat), GameInfo.from_game(game, seat))
    assert game.is_legal(seat, action) and searched == []


def test_a_claim_of_the_strong_ai_is_only_ever_weighed_against_other_claims():
    """Measured: overruling a claim with a card or ticket draw cost the expert 8-10 points a game
    (its playouts' opponents never contest a track, so a claim put off looked free)."""
    game = started(seed=7)
    expert = ExpertPlayer(3)
    weighed = 0
    while not game.is_over():
        seat = game.to_move()[0]
        legal = legal_for(game, seat)
        board = Board(game.view(seat), GameInfo.from_game(game, seat))
        action, plan = expert.heuristic_turn(board, legal)
        if game.stage is None and isinstance(action, Claim):
            candidates = expert.candidates(board, legal, action, plan)
            assert all(isinstance(c, Claim) for c in candidates), candidates
            weighed += len(candidates) > 1
        game.apply(seat, action)
    assert weighed >= 3


def owned(map_id: str, tracks: dict[int, list[str]]) -> Board:
    """Seat 0's board on a fresh 2-player game where each seat owns the tracks listed for it."""
    game = Game.new(map_id, 2, 1, GameOptions(first_seat=0))
    for seat, ids in tracks.items():
        for tid in ids:
            game.owner[game.map.track_by_id[tid].index] = seat
    return Board(game.view(0), GameInfo.from_game(game, 0))


def ticket_between(m, a: str, b: str):
    """The map's ticket between the cities with ids `a` and `b`."""
    return next(t for t in m.tickets if {m.cities[t.a].id, m.cities[t.b].id} == {a, b})


def test_a_route_that_lengthens_its_longest_trail_is_worth_more_to_the_expert():
    """Seat 0's trail Denver–Kansas City–Saint Louis (6) is behind seat 1's Atlanta–Miami–New
    Orleans (11). Of two free routes of 2, the one at its trail's end (Saint Louis–Chicago) is
    worth its points and more of the bonus; the one far away (Las Vegas–Los Angeles) only its
    points. The strong AI sees them alike; without a bonus (Nordic) so does the expert."""
    from ai.longest_path import TrailOutlook
    from ai.strong import StrongPlayer

    board = owned(
        "usa",
        {0: ["denver-kansas_city/1", "kansas_city-saint_louis/1"], 1: ["miami-new_orleans", "atlanta-miami"]},
    )
    track = board.m.track_by_id
    outlook = TrailOutlook(board)
    assert outlook.chance(6) < 0.5 < outlook.chance(12)
    extend, apart = track["chicago-saint_louis/1"], track["las_vegas-los_angeles"]
    assert outlook.gain(extend) > 0.5 and outlook.gain(apart) == 0.0
    expert, strong = ExpertPlayer(1).route_worth(board), StrongPlayer(1).route_worth(board)
    assert expert(extend) > expert(apart) == board.m.rules.route_points[2]
    assert strong(extend) == strong(apart)
    nordic = owned("nordic", {})
    worth = ExpertPlayer(1).route_worth(nordic)
    assert all(worth(t) == t.length for t in nordic.m.tracks)


def test_a_ticket_whose_route_carries_its_longest_trail_on_is_worth_more_to_the_expert():
    """Seat 0's trail Denver–Kansas City–Saint Louis (6) is behind seat 1's (11). Two 4-point
    tickets the strong AI values alike: Denver–El Paso runs on from the trail's end, Washington–
    Atlanta lies far from it (and is too short to make a trail of its own). The expert adds the
    bonus share the first one's route promises; with `TRAIL_TICKETS=0`, or on a map without the
    bonus, it adds nothing to its own value of a ticket set."""
    from ai.strong import StrongPlayer

    board = owned(
        "usa",
        {0: ["denver-kansas_city/1", "kansas_city-saint_louis/1"], 1: ["miami-new_orleans", "atlanta-miami"]},
    )
    on, apart = ticket_between(board.m, "denver", "el_paso"), ticket_between(board.m, "washington", "atlanta")
    strong, expert = StrongPlayer(1), ExpertPlayer(1)
    table = strong.table(board)
    assert strong.ticket_value(board, [on], table) == strong.ticket_value(board, [apart], table)
    assert expert.ticket_value(board, [on], table) > strong.ticket_value(board, [on], table) + 1
    assert expert.ticket_value(board, [apart], table) == expert.value(board, [apart], table)
    assert ExpertPlayer(1, TRAIL_TICKETS=0).ticket_value(board, [on], table) == expert.value(board, [on], table)
    nordic = owned("nordic", {})
    table = strong.table(nordic)
    assert all(expert.ticket_value(nordic, [t], table) == expert.value(nordic, [t], table) for t in nordic.m.tickets)


@pytest.mark.parametrize(
    ("map_id", "seats", "switch", "setting"),
    [
        ("nordic", 2, "GLOBE_SEARCH", 1),
        ("marklin", 2, "GLOBE_SEARCH", 1),
        ("nederland", 2, "TOLL_SEARCH", 0),
        ("nederland", 4, "TOLL_SEARCH", 0),
    ],
)
def test_where_the_search_measured_no_gain_its_turns_are_the_strong_ais(monkeypatch, map_id, seats, switch, setting):
    """Measured, the search lost on Nordic and gained nothing on Märklin (Globetrotter bonus), so
    there it plays the strong AI's turn; the switch searches again (for the bench). On Nederland,
    with the toll bonus in its valuation, it searches with two or four players unless switched
    off."""
    searched = []
    monkeypatch.setattr(ExpertPlayer, "search", lambda self, board, candidates: searched.append(1) or candidates[0])

    def searches(**params) -> int:
        searched.clear()
        game = Game.new(map_id, seats, 4, GameOptions(first_seat=0))
        expert = ExpertPlayer(4, ROLLOUTS=0, **params)
        for _ in range(20 * seats):
            seat = game.to_move()[0]
            action = expert.choose(game.view(seat), legal_for(game, seat), GameInfo.from_game(game, seat))
            game.apply(seat, action)
        return len(searched)

    default, switched = searches(), searches(**{switch: setting})
    assert (default > 0, switched > 0) == ((False, True) if setting else (True, False))


def test_its_ticket_values_weigh_the_turns_a_plan_needs_less_than_the_strong_ais():
    """A short plan with the game young is safe for both AIs. A coast-to-coast plan once the
    opponent is down to 30 trains (some 26 turns left) is bound by turns, not trains, and the
    expert, whose `TURN_FACTOR` is lower, gives it the better chance (measured paired in
    docs/ai.md)."""
    from ai.strong import StrongPlayer

    game = Game.new("usa", 2, 1, GameOptions(first_seat=0))
    strong, expert = StrongPlayer(1), ExpertPlayer(1)

    def chances(a: str, b: str) -> tuple[float, ...]:
        board = Board(game.view(0), GameInfo.from_game(game, 0))
        tickets = [ticket_between(game.map, a, b)]
        return tuple(p.success(board, p.plan(board, tickets, p.table(board))) for p in (strong, expert))

    short = chances("denver", "el_paso")
    assert short[0] == short[1] > 0.9
    game.trains[1] = 30
    strong_chance, expert_chance = chances("los_angeles", "new_york")
    assert strong_chance < expert_chance < short[1]


def test_on_nederland_the_expert_pays_trains_to_save_tolls():
    """Arnhem–'s-Hertogenbosch on an empty board: the strong AI plans the shortest way through
    Eindhoven and Nijmegen (5 trains, 8 in tolls); the expert, whose tolls weigh six times as much
    (`TOLL_WEIGHT`, measured paired in docs/ai.md), goes through Utrecht (7 trains, 5 in tolls).
    Without tolls both plan alike."""
    from ai.strong import StrongPlayer

    def planned(options: GameOptions) -> list[tuple[int, int]]:
        game = Game.new("nederland", 2, 1, options)
        board = Board(game.view(0), GameInfo.from_game(game, 0))
        ticket = ticket_between(board.m, "arnhem", "s_hertogenbosch")
        out = []
        for player in (StrongPlayer(1), ExpertPlayer(1)):
            tracks = [board.m.tracks[ti] for ti in player.plan(board, [ticket], player.table(board)).tracks]
            out.append((sum(t.length for t in tracks), sum(t.toll for t in tracks)))
        return out

    assert planned(GameOptions(first_seat=0)) == [(5, 8), (7, 5)]
    no_tolls = planned(GameOptions(first_seat=0, variants={"tolls": False}))
    assert no_tolls[0] == no_tolls[1]


def planned_routes(player, board, ticket) -> tuple[int, int, int]:
    """The routes, trains and route points of `player`'s plan for one ticket."""
    points = board.m.rules.route_points
    tracks = [board.m.tracks[ti] for ti in player.plan(board, [ticket], player.table(board)).tracks]
    return len(tracks), sum(t.length for t in tracks), sum(points[t.length] for t in tracks)


def test_the_expert_plans_through_long_routes_the_strong_ai_would_not_take():
    """Los Angeles–Oklahoma City on an empty USA board: the strong AI plans three short routes
    through Phoenix and Santa Fe (9 trains, 12 route points); the expert, whose plans count a long
    route's extra points twice as much (`LONG_BONUS`, measured paired in docs/ai.md), plans the two
    long ones through El Paso (11 trains, 25 points)."""
    from ai.strong import StrongPlayer

    game = Game.new("usa", 2, 1, GameOptions(first_seat=0))
    board = Board(game.view(0), GameInfo.from_game(game, 0))
    ticket = ticket_between(board.m, "los_angeles", "oklahoma_city")
    assert [planned_routes(player, board, ticket) for player in (StrongPlayer(1), ExpertPlayer(1))] == [
        (3, 9, 12),
        (2, 11, 25),
    ]


@pytest.mark.parametrize(
    ("map_id", "a", "b", "usual", "scarce"),
    [
        ("europe", "athina", "wilno", (4, 11, 15), (4, 15, 28)),
        ("switzerland", "geneve", "bern", (3, 8, 12), (3, 10, 19)),
    ],
)
def test_where_long_routes_are_few_the_expert_plans_through_them(map_id, a, b, usual, scarce):
    """On Europe and Switzerland a tenth of the trains lie on routes of 5 or more, so the 4-train
    routes are the long ones; there the expert's plans weigh a route's extra points four times
    as much as the strong AI's (`SCARCE_LONG_BONUS`, measured paired in docs/ai.md), and an
    empty board's plan for one ticket takes more trains for many more points. With the weight it
    has elsewhere it plans as the strong AI does. No price falls below zero (Dijkstra's rule)."""
    from ai.strong import StrongPlayer

    game = Game.new(map_id, 2, 1, GameOptions(first_seat=0))
    board = Board(game.view(0), GameInfo.from_game(game, 0))
    ticket = ticket_between(board.m, a, b)
    players = (StrongPlayer(1), ExpertPlayer(1, SCARCE_LONG_BONUS=ExpertPlayer.LONG_BONUS), ExpertPlayer(1))
    assert [planned_routes(player, board, ticket) for player in players] == [usual, usual, scarce]
    price = ExpertPlayer(1).pricer(board)
    assert min(price(t) for t in board.m.tracks) == 0.0


def test_the_search_plays_its_playouts_as_the_opponents_and_it_would():
    """A searched move meets the strong AI's replies and is followed by the expert's own play
    without search (`STRONG_PLAYOUTS`), not by the baseline's."""
    from ai.strong import StrongPlayer

    game = started()
    board = Board(game.view(1), GameInfo.from_game(game, 1))
    policies = ExpertPlayer(1).playout_policies(board, seed=7)
    assert [type(p) for p in policies] == [StrongPlayer, ExpertPlayer]
    assert (policies[0].ROLLOUTS, policies[1].ROLLOUTS, policies[1].MOVES) == (0, 0, 1)
    tuned = ExpertPlayer(1, LONG_BONUS=0.9).playout_policies(board, seed=7)[1]
    assert (tuned.LONG_BONUS, tuned.MOVES) == (0.9, 1)  # a tuning run's own seat plays as tuned
    assert all(isinstance(p, BaselinePlayer) for p in ExpertPlayer(1, STRONG_PLAYOUTS=0).playout_policies(board, 7))


def test_on_marklin_every_move_it_searches_is_said_as_marklin_asks():
    """Märklin's claims carry a passenger and its ticket draws name their mix; a candidate the
    strong AI's plain turn gives (a draw of tickets without its mix) would be illegal there."""
    game = Game.new("marklin", 2, 6, GameOptions(first_seat=0))
    expert = ExpertPlayer(6, ROLLOUTS=0)
    searched = 0
    while not game.is_over():
        seat = game.to_move()[0]
        legal = legal_for(game, seat)
        board = Board(game.view(seat), GameInfo.from_game(game, seat))
        if game.stage is None and not isinstance(legal[0], (DrawTickets, KeepTickets)):
            action, plan = expert.heuristic_turn(board, legal)
            candidates = expert.candidates(board, legal, action, plan)
            assert all(c in legal for c in candidates), candidates
            assert candidates[0] == expert.marklin_action(board, action, legal)
            searched += len(candidates) > 1
        game.apply(seat, expert.choose(game.view(seat), legal, GameInfo.from_game(game, seat)))
    assert searched >= 10


def test_its_search_counts_the_marklin_tokens_each_seat_has_taken():
    """Märklin's tokens score only at the end; a valuation blind to them would see a passenger's
    move as a lost turn and an opponent's as nothing."""
    from ai.strong import StrongPlayer

    game = Game.new("marklin", 2, 6, GameOptions(first_seat=0))
    players = [StrongPlayer(s, ROLLOUTS=0) for s in range(2)]
    while not any(game.to_json()["hooks"]["tokens"]):
        seat = game.to_move()[0]
        game.apply(seat, players[seat].choose(game.view(seat), legal_for(game, seat), GameInfo.from_game(game, seat)))
    state = game.to_json()
    mover = next(s for s, t in enumerate(state["hooks"]["tokens"]) if t)
    taken = sum(state["hooks"]["tokens"][mover])
    state["hooks"]["tokens"][mover] = []
    untaken = Game.from_json(state)
    infos = [GameInfo.from_game(game, s) for s in range(2)]
    expert = ExpertPlayer(1)
    assert expert.outlook(game, mover, infos) - expert.outlook(untaken, mover, infos) == pytest.approx(taken)
