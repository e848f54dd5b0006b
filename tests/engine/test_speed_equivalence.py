"""The fast legal-move listing and scoring give exactly what the plain algorithms give.

The references are the simple implementations: every payment listed afresh (below), every
station assignment re-scored from scratch and every trail tried (tests/engine/reference_scoring.py).
They are the definition the fast code must match: same moves in the same order, same scores, same
borrowed tracks and the same longest trail (the first one in the fixed search order), on states met
in random games and on hypothesis-built networks.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.actions import BuildStation, Claim, DrawDeck, DrawMarket, DrawTickets, Pass
from engine.cards import LOCO
from engine.listing import COLORED_ONLY, UNMIXED
from engine.mapdata import load_map
from engine.payments import payment_options, unmixed_options
from engine.phases import PLAYING
from engine.scoring import best_station_use, final_scores, longest_trail
from tests.engine.reference_scoring import network, reference_station_use, reference_trail

SEATS = {"switzerland": 3, "nordic": 3}


# ---------------------------------------------------------------------------------------------
# References.


def reference_turn_start(game: Game, seat: int, collapse: bool) -> list:
    actions = [DrawMarket(i) for i, c in enumerate(game.market) if c >= 0]
    if game.deck or game.discard:
        actions.append(DrawDeck())
    if game.ticket_deck or (game.ticket_discard and game.returned_policy == "discard"):
        actions.append(DrawTickets())
    hand = game.hands[seat]
    for color, length, ferry, card_rules, tracks, *_ in game._listing.groups:
        if length > game.trains[seat]:
            continue
        if card_rules is None:
            options = [(c, k, ()) for c, k in payment_options(hand, length, color, ferry, collapse)]
        elif card_rules is COLORED_ONLY:
            options = [(c, k, ()) for c, k in payment_options(hand[:LOCO] + [0], length, color, ferry, collapse)]
        elif card_rules is UNMIXED:
            options = [
                (c, k, ()) for c, k in unmixed_options(payment_options(hand, length, color, ferry), length, collapse)
            ]
        else:
            options = game._extended_options(hand, length, color, ferry, card_rules, collapse)
        for index, tid, double in tracks:
            if game.owner[index] >= 0:
                continue
            if double is not None:
                partner = game.owner[double]
                if partner == seat or (partner >= 0 and not game.doubles_open):
                    continue
            actions.extend(Claim(tid, c, k, subs) for c, k, subs in options)
    if game.stations_left[seat]:
        cost = game.map.rules.station_costs[len(game.stations[seat])]
        for city in game.map.cities:
            if city.index not in game.station_owner:
                actions.extend(BuildStation(city.id, c, k) for c, k in payment_options(hand, cost, None, 0, collapse))
    return actions or [Pass()]


# ---------------------------------------------------------------------------------------------
# Random games: every decision's listing, and the final scores.


@settings(max_examples=8)
@given(st.sampled_from(["usa", "europe", "nederland", "switzerland", "nordic"]), st.integers(0, 2**31))
def test_legal_actions_match_the_reference_listing_in_random_games(map_id, seed):
    game = Game.new(map_id, SEATS.get(map_id, 4), seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        if game.phase == PLAYING and game.stage is None:
            for collapse in (False, True):
                assert game.legal_actions(seat, collapse) == reference_turn_start(game, seat, collapse)
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    for seat in range(game.seats):
        owned = [t for t in game.map.tracks if game.owner[t.index] == seat]
        assert longest_trail(owned) == reference_trail(owned)


@settings(max_examples=6)
@given(st.sampled_from(["usa", "europe", "nederland", "switzerland", "nordic", "marklin"]), st.integers(0, 2**31))
def test_final_scores_match_the_reference_scoring_in_random_games(map_id, seed):
    """Each seat's ticket results, borrowed tracks and longest trail in a finished game are what the
    plain references give on its network and its stations' rival tracks (docs/rules.md §1, §3)."""
    game = Game.new(map_id, SEATS.get(map_id, 4), seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    m, owner = game.map, game.owner
    for score in game.final:
        seat = score.seat
        owned = [t for t in m.tracks if owner[t.index] == seat]
        tickets = [m.ticket_by_id[i] for i in game.tickets[seat]]
        options = [
            [t for t in m.tracks if city in (t.a, t.b) and 0 <= owner[t.index] < game.seats and owner[t.index] != seat]
            for city in game.stations[seat]
        ]
        results, borrowed = reference_station_use(owned, tickets, options)
        assert (score.tickets, score.borrowed) == (results, tuple(t.id for t in borrowed))
        length, trail = reference_trail(owned)
        assert (score.longest, score.longest_tracks) == (length, tuple(t.id for t in trail))


@settings(max_examples=4)
@given(st.sampled_from(["usa", "europe", "nederland"]), st.integers(0, 2**31), st.integers(2, 4))
def test_listing_follows_claims_made_outside_moves_and_restored_games(map_id, seed, seats):
    """The listing keeps each claim group's free tracks: a game restored from JSON (another owner
    list), routes placed outside a move (then `Game.track_claimed`) and 2-3 seats (double routes
    closed) list what the reference lists."""
    game = Game.new(map_id, seats, seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        if game.phase == PLAYING and game.stage is None and rng.random() < 0.2:
            restored = Game.from_json(game.to_json())
            assert restored.legal_actions(seat, True) == reference_turn_start(restored, seat, True)
            free = [t for t in game.map.tracks if restored.owner[t.index] < 0 and t.length <= restored.trains[seat]]
            if free:
                t = rng.choice(free)
                restored.owner[t.index] = (seat + 1) % seats
                restored.track_claimed(t.index)
                assert restored.legal_actions(seat, False) == reference_turn_start(restored, seat, False)
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))


@settings(max_examples=30)
@given(
    st.sampled_from(["usa", "europe", "nederland", "switzerland", "nordic"]),
    st.integers(0, 2**31),
    st.lists(st.integers(0, 40), min_size=9, max_size=9),
    st.lists(st.tuples(st.integers(0, 12), st.integers(-1, 3)), max_size=30),
)
def test_listing_follows_any_hand_and_owners_set_and_cleared(map_id, seed, hand, changes):
    """Hands beyond the listing's count tables (tests and hooks may set any counts) and owners set
    or cleared outside a move (each then told with `Game.track_claimed`) list what the reference lists."""
    game = Game.new(map_id, SEATS.get(map_id, 4), seed)
    while game.phase != PLAYING:
        seat = game.to_move()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.current
    game.legal_actions(seat)  # the free-track lists now follow `owner`
    game.hands[seat][: len(hand)] = hand
    for pick, owner in changes:
        index = pick  # a few tracks, so some are taken and freed again
        game.owner[index] = min(owner, game.seats - 1)
        game.track_claimed(index)
    for collapse in (False, True):
        assert game.legal_actions(seat, collapse) == reference_turn_start(game, seat, collapse)


def _station_case(m, data, seats=4):
    """Networks for each seat, stations on busy cities and tickets: a finished Europe game's shape."""
    owner = [-1] * len(m.tracks)
    order = data.draw(st.permutations(range(len(m.tracks))))
    trains = [m.rules.trains] * seats
    for index in order:
        t = m.tracks[index]
        seat = data.draw(st.integers(0, seats))
        if seat < seats and t.length <= trains[seat] and (t.double is None or owner[t.double] != seat):
            owner[index] = seat
            trains[seat] -= t.length
    cities = data.draw(
        st.lists(st.sampled_from(range(len(m.cities))), min_size=seats * 3, max_size=seats * 3, unique=True)
    )
    return owner, [cities[3 * s : 3 * s + 3] for s in range(seats)]


@settings(max_examples=40)
@given(st.data())
def test_station_assignment_matches_the_reference_search(data):
    m = load_map("europe")
    owner, stations = _station_case(m, data)
    seat = data.draw(st.integers(0, 3))
    own = [t for t in m.tracks if owner[t.index] == seat]
    tickets = [
        m.ticket_by_id[i]
        for i in data.draw(st.lists(st.sampled_from([t.id for t in m.tickets]), max_size=12, unique=True))
    ]
    options = [
        [t for t in m.tracks if owner[t.index] >= 0 and owner[t.index] != seat and c in (t.a, t.b)]
        for c in stations[seat]
    ]
    assert best_station_use(own, tickets, options) == reference_station_use(own, tickets, options)


@settings(max_examples=40)
@given(st.sampled_from(["usa", "europe", "switzerland", "nordic"]), st.lists(st.integers(0, 30), max_size=14))
def test_longest_trail_matches_the_reference_search_on_dense_networks(map_id, picks):
    owned = network(load_map(map_id), picks)
    assert longest_trail(owned) == reference_trail(owned)


@settings(max_examples=40)
@given(
    st.sampled_from(["usa", "europe", "switzerland", "nordic"]),
    st.lists(st.integers(0, 30), max_size=14),
    st.randoms(use_true_random=False),
    st.integers(0, 12),
)
def test_longest_trail_matches_the_reference_search_in_any_track_order(map_id, picks, rnd, scattered):
    """Networks as a player lists them in any order, with scattered tracks besides (several
    components: trees, single cycles, dense ones), so every start rule and chain is exercised."""
    m = load_map(map_id)
    owned = network(m, picks)
    taken = {t.index for t in owned} | {t.double for t in owned if t.double is not None}
    owned += rnd.sample([t for t in m.tracks if t.index not in taken and t.double not in taken], scattered)
    rnd.shuffle(owned)
    assert longest_trail(owned) == reference_trail(owned)


def test_longest_trail_of_a_single_cycle_starts_at_its_first_city():
    """A component without odd cities is walked whole, from the city the plain search tries first."""
    m = load_map("usa")
    ring = [
        m.track_by_id[i]
        for i in ("dallas-houston/1", "houston-new_orleans", "little_rock-new_orleans", "dallas-little_rock")
    ]
    length, trail = longest_trail(ring)
    assert length == sum(t.length for t in ring) and trail[0] == ring[0]
    assert (length, trail) == reference_trail(ring)


def test_restored_finished_game_scores_as_the_original():
    game = Game.new("europe", 4, 3)
    rng = random.Random(3)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    restored = Game.from_json(game.to_json(), game.log)
    assert restored.final == game.final == final_scores(game)


def test_restoring_a_finished_game_does_not_score_it_until_read(monkeypatch):
    game = Game.new("usa", 2, 5)
    rng = random.Random(5)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    calls = []
    import engine.game

    real = engine.game.final_scores
    monkeypatch.setattr(engine.game, "final_scores", lambda g: calls.append(g) or real(g))
    restored = Game.from_json(game.to_json(), game.log)
    assert calls == [] and restored.is_over()
    assert restored.final == game.final and calls == [restored]
    assert restored.final is restored.final and len(calls) == 1
