"""Invariants over random legal games on every map and 2–5 seats (2–3 on Switzerland and Nordic
Countries), Nederland with and without tolls and with the neutral player (hypothesis; CI caps
examples)."""

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from engine import Game, format_action, parse_action
from engine.game import GameOptions
from tests.engine.helpers import random_game

SEATS = st.integers(min_value=2, max_value=5)
SEEDS = st.integers(min_value=0, max_value=2**31)
NEUTRAL = {"neutral": True}
#: (map, variants); the neutral player is a 2-seat variant.
CONFIGS = st.sampled_from(
    [
        ("usa", {}),
        ("europe", {}),
        ("nederland", {}),
        ("nederland", {"tolls": False}),
        ("nederland", NEUTRAL),
        ("switzerland", {}),
        ("nordic", {}),
    ]
)
#: Switzerland and Nordic Countries take 2-3 players (docs/rules.md §5.1, §6.1).
MAX_SEATS = {"switzerland": 3, "nordic": 3}
GAMES = st.tuples(CONFIGS, SEATS, SEEDS).map(
    lambda c: (c[0][0], 2 if c[0][1] == NEUTRAL else min(c[1], MAX_SEATS.get(c[0][0], 5)), c[2], c[0][1])
)
MAX_PLIES = 3000  # far above any real game: ~110 cards and ~100 routes bound every game


def _cards_by_kind(game: Game) -> list[int]:
    counts = [0] * 9
    places = [game.deck, game.discard, [c for c in game.market if c >= 0]]
    if game.tunnel:
        places.append(game.tunnel["revealed"])
        places.append([k for k, n in enumerate(game.tunnel["paid"]) for _ in range(n)])
    for place in places:
        for card in place:
            counts[card] += 1
    for hand in game.hands:
        for kind, n in enumerate(hand):
            assert n >= 0
            counts[kind] += n
    return counts


def _check_conservation(game: Game) -> None:
    assert _cards_by_kind(game) == [12] * 8 + [14]
    m = game.map
    hooks = game.hooks
    start = getattr(hooks, "start", [0] * game.seats)  # Nederland's staggered starting scores
    for seat in range(game.seats):
        placed = sum(t.length for t in m.tracks if game.owner[t.index] == seat)
        assert game.trains[seat] + placed == m.rules.trains
        assert game.stations_left[seat] + len(game.stations[seat]) == m.rules.stations
        route_points = sum(m.rules.route_points[t.length] for t in m.tracks if game.owner[t.index] == seat)
        assert game.score[seat] == route_points + start[seat]
    kept = [i for tickets in game.tickets for i in tickets]
    assert len(kept) == len(set(kept))
    if m.id == "nederland":
        # Money: the players' money plus what the bank took in (net) is what they started with.
        if hooks.tolls:
            assert all(money >= 0 for money in hooks.money) and all(n >= 0 for n in hooks.loans)
            assert sum(hooks.money) + hooks.bank == hooks.toll_money * game.seats
        else:
            assert hooks.money == [0] * game.seats and hooks.loans == [0] * game.seats and hooks.bank == 0
        # Every ticket is somewhere (nothing goes back to the box on this map).
        pending = [hooks.pending["ticket"]] if hooks.pending else []
        everywhere = game.ticket_deck + game.ticket_discard + kept + pending + [i for o in game.offers for i in o]
        assert sorted(everywhere) == sorted(t.id for t in m.tickets)
        # The neutral player (owner index == seats) uses its own 40 trains and never scores.
        neutral = sum(t.length for t in m.tracks if game.owner[t.index] == game.seats)
        assert hooks.neutral_trains + neutral == (m.rules.trains if hooks.neutral else 0)
        assert hooks.neutral or hooks.marker is None


@given(GAMES)
def test_s1_random_games_conserve_cards_trains_stations_and_score(config):
    map_id, seats, seed, variants = config
    plies = 0
    for game, _, _ in random_game(map_id, seats, seed, MAX_PLIES, variants=variants):
        _check_conservation(game)
        plies += 1
    assert plies < MAX_PLIES


@given(GAMES)
def test_replay_from_seed_and_log_reproduces_the_state(config):
    map_id, seats, seed, variants = config
    game = None
    for game, _, _ in random_game(map_id, seats, seed, MAX_PLIES, variants=variants):  # noqa: B007 (the last one)
        pass
    # The generator applied the last action after yielding: rebuild from the log.
    assert game.is_over()
    text_log = [(seat, format_action(game, action)) for seat, action in game.log]
    replayed = Game.new(map_id, seats, seed, game.options)
    for seat, text in text_log:
        replayed.apply(seat, parse_action(replayed, seat, text))
    assert replayed.to_json() == game.to_json()
    restored = Game.from_json(json.loads(json.dumps(game.to_json())), log=game.log)
    assert restored.to_json() == game.to_json()
    assert [s.to_json() for s in restored.final] == [s.to_json() for s in game.final]


@given(GAMES)
def test_notation_round_trips_for_every_legal_action_met(config):
    map_id, seats, seed, variants = config
    rng = random.Random(seed)
    for game, seat, chosen in random_game(map_id, seats, seed, MAX_PLIES, variants=variants):
        actions = game.legal_actions(seat)  # every payment variant, not only the collapsed ones
        sample = [chosen, *rng.sample(actions, min(8, len(actions)))]
        for action in sample:
            text = format_action(game, action)
            assert parse_action(game, seat, text) == action, text


def _perturb_hidden(game: Game, viewer: int, rng: random.Random) -> Game:
    """A copy that differs from `game` only in what `viewer` cannot see."""
    other = Game.from_json(json.loads(json.dumps(game.to_json())), log=list(game.log))
    other.seed = game.seed + 1
    other.public_log = list(game.public_log)  # public: what was seen when each action was applied
    others = [s for s in range(game.seats) if s != viewer]
    # Swap opponents' cards with deck cards, keeping every hand size.
    for seat in others:
        hand = [k for k, n in enumerate(other.hands[seat]) for _ in range(n)]
        pool = hand + other.deck
        rng.shuffle(pool)
        new_hand, other.deck = pool[: len(hand)], pool[len(hand) :]
        other.hands[seat] = [new_hand.count(k) for k in range(9)]
    rng.shuffle(other.deck)
    # Give opponents other tickets (same counts) from the ticket deck.
    for seat in others:
        for field in ("tickets", "offers"):
            held = getattr(other, field)[seat]
            pool = held + other.ticket_deck
            rng.shuffle(pool)
            getattr(other, field)[seat], other.ticket_deck = pool[: len(held)], pool[len(held) :]
    rng.shuffle(other.ticket_deck)
    # Give opponents other (secret) toll money.
    if getattr(other.hooks, "tolls", False):
        for seat in others:
            other.hooks.money[seat] += rng.randint(1, 9)
    return other


@given(GAMES)
def test_view_hides_what_the_viewer_cannot_see(config):
    map_id, seats, seed, variants = config
    rng = random.Random(seed)
    checked = 0
    for game, _, _ in random_game(map_id, seats, seed, MAX_PLIES, variants=variants):
        if rng.random() < 0.9 and checked:
            continue
        for viewer in (rng.randrange(seats), None):
            other = _perturb_hidden(game, viewer if viewer is not None else -1, rng)
            assert other.to_json() != game.to_json() or game.ticket_deck == []
            assert json.dumps(other.view(viewer)) == json.dumps(game.view(viewer))
        checked += 1
    assert checked


def test_s1_first_player_drawn_from_seed_or_chosen_by_host():
    firsts = {Game.new("usa", 5, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3, 4}
    assert Game.new("usa", 5, 3, GameOptions(first_seat=2)).first == 2
