"""The station choice (`best_station_use`), which walks only the choices that can change a ticket and
leaves out subtrees that cannot beat the best so far, picks what trying every assignment plainly
picks (docs/rules.md §3; tests/engine/reference_scoring.py): the same borrowed tracks, the same
ticket results and the same `via`."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.mapdata import Ticket, load_map
from engine.scoring import best_station_use
from tests.engine.reference_scoring import network, reference_station_use


@st.composite
def station_situations(draw):
    """A player's network, opponents' tracks all over the map, up to three stations on cities the
    network touches (anywhere when it has none), tickets from the map's deck and tickets between cities the
    network or the stations' tracks touch (so that borrowing often pays, in several ways)."""
    map_id = draw(st.sampled_from(["europe", "switzerland"]))  # Switzerland: country tickets
    m = load_map(map_id)
    own = network(m, draw(st.lists(st.integers(0, 30), min_size=1, max_size=18)))
    mine = {t.index for t in own}
    rnd = draw(st.randoms(use_true_random=False))
    theirs = [t for t in m.tracks if t.index not in mine and rnd.random() < 0.7]
    touched = sorted({c for t in own for c in (t.a, t.b)} or {c for t in theirs[:8] for c in (t.a, t.b)})
    cities = rnd.sample(touched, min(len(touched), draw(st.integers(1, 3))))
    options = [[t for t in theirs if c in (t.a, t.b)] for c in cities]
    deck = Game.new(map_id, 2, 0).deck_rules.tickets
    tickets = [m.ticket_by_id[i] for i in draw(st.lists(st.sampled_from(deck), unique=True, max_size=12))]
    near = sorted({c for t in own for c in (t.a, t.b)} | {c for opts in options for t in opts for c in (t.a, t.b)})
    for i, (a, b, points) in enumerate(
        draw(
            st.lists(
                st.tuples(st.sampled_from(near), st.sampled_from(near), st.integers(1, 12)), min_size=1, max_size=10
            )
        )
        if near
        else ()
    ):
        tickets.append(Ticket(10_000 + i, a, b, points, False, "test"))
    return own, tickets, options


@settings(max_examples=60)
@given(station_situations())
def test_station_choice_matches_trying_every_assignment(situation):
    own, tickets, options = situation
    assert best_station_use(own, tickets, options) == reference_station_use(own, tickets, options)


@st.composite
def crowded_station_situations(draw):
    """Europe's costliest kind (issue 20's sixth pass): a network, opponents on most other tracks,
    three stations on the busiest cities, up to 20 of the deck's tickets, so that the last station
    often meets groups joined by the earlier ones."""
    m = load_map("europe")
    own = network(m, draw(st.lists(st.integers(0, 30), min_size=1, max_size=18)))
    mine = {t.index for t in own}
    rnd = draw(st.randoms(use_true_random=False))
    theirs = [t for t in m.tracks if t.index not in mine and rnd.random() < 0.85]
    busiest = sorted(range(len(m.cities)), key=lambda c: -sum(c in (t.a, t.b) for t in theirs))[:12]
    cities = rnd.sample(busiest, 3)
    options = [[t for t in theirs if c in (t.a, t.b)] for c in cities]
    deck = Game.new("europe", 2, 0).deck_rules.tickets
    tickets = [m.ticket_by_id[i] for i in draw(st.lists(st.sampled_from(deck), unique=True, min_size=8, max_size=20))]
    return own, tickets, options


@given(crowded_station_situations())
def test_crowded_station_choice_matches_trying_every_assignment(situation):
    own, tickets, options = situation
    assert best_station_use(own, tickets, options) == reference_station_use(own, tickets, options)
