"""The final-scoring worst case is searched among states a game can reach: benchmarks/engine_bench.py's
known costly states and every climb step hold hands a game can deal, trains within the limit and one
station a city."""

import random

from hypothesis import given
from hypothesis import strategies as st

from benchmarks.engine_bench import KNOWN_COSTLY_STATES, _known_state, _mutate_state, reachable_hands
from engine import Game
from engine.mapdata import load_map

EUROPE = load_map("europe")
DECK = Game.new("europe", 4, 0).deck_rules
LONG = [t.id for t in EUROPE.tickets if t.long]
REGULAR = [t.id for t in EUROPE.tickets if not t.long]


def test_hands_a_game_cannot_deal_are_told_apart():
    assert reachable_hands(EUROPE, DECK, [[LONG[0], *REGULAR[:3]], [LONG[1], *REGULAR[3:6]]])
    assert not reachable_hands(EUROPE, DECK, [REGULAR[:3], REGULAR[2:5]])  # one ticket in two hands
    assert not reachable_hands(EUROPE, DECK, [[LONG[0], LONG[1], REGULAR[0]], REGULAR[1:3]])  # two long ones
    assert not reachable_hands(EUROPE, DECK, [REGULAR[:1], REGULAR[1:4]])  # fewer than the least kept
    assert not reachable_hands(EUROPE, DECK, [[*REGULAR[:2], 999], REGULAR[2:4]])  # not in the deck


def test_known_costly_states_are_reachable():
    for map_id, known in KNOWN_COSTLY_STATES.items():
        m = load_map(map_id)
        for entry in known:
            state = _known_state(map_id, entry)
            assert reachable_hands(m, Game.new(map_id, len(entry), 0).deck_rules, state["tickets"])
            _assert_buildable(m, state)


@given(st.integers(0, 2**32 - 1), st.sampled_from(range(len(KNOWN_COSTLY_STATES["europe"]))))
def test_climb_steps_stay_reachable(seed, start):
    rng = random.Random(seed)
    state = _known_state("europe", KNOWN_COSTLY_STATES["europe"][start])
    for _ in range(40):
        state = _mutate_state(EUROPE, state, rng, DECK)
        assert reachable_hands(EUROPE, DECK, state["tickets"])
        _assert_buildable(EUROPE, state)


def _assert_buildable(m, state: dict) -> None:
    """Each seat within its trains, never both tracks of a double route, one station a city."""
    for seat in range(len(state["stations"])):
        mine = [t for t in m.tracks if state["owner"][t.index] == seat]
        assert sum(t.length for t in mine) <= m.rules.trains
        assert not {t.index for t in mine} & {t.double for t in mine}
    built = [c for cities in state["stations"] for c in cities]
    assert len(built) == len(set(built))
