"""Ticket results at the end of the game (engine/tickets.py: one pass over the network's components)
are what a breadth-first search from each ticket's start finds (tests/engine/reference_scoring.py),
on networks of every map, scattered tracks besides, and every ticket of the map: ordinary ones and
Switzerland's country tickets (a destination reached through any of its border points)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mapdata import load_map
from engine.scoring import ticket_results
from tests.engine.reference_scoring import network, reference_ticket_results

MAPS = ["usa", "europe", "nederland", "switzerland", "nordic", "marklin"]


@settings(max_examples=60)
@given(
    st.sampled_from(MAPS),
    st.lists(st.integers(0, 30), max_size=20),
    st.randoms(use_true_random=False),
    st.integers(0, 15),
)
def test_ticket_results_match_a_breadth_first_search(map_id, picks, rnd, scattered):
    m = load_map(map_id)
    owned = network(m, picks)
    taken = {t.index for t in owned}
    owned += rnd.sample([t for t in m.tracks if t.index not in taken], scattered)
    rnd.shuffle(owned)
    assert ticket_results(owned, m.tickets) == reference_ticket_results(owned, m.tickets)


def test_country_ticket_scores_its_best_destination_reached():
    """A check of the reference itself on a known case: Switzerland's country tickets, with every
    track owned, reach every destination and score their highest; with none, lose their lowest."""
    m = load_map("switzerland")
    countries = [t for t in m.tickets if t.destinations]
    assert countries
    for t, r in zip(countries, reference_ticket_results(m.tracks, countries)):
        assert r.completed and r.points == max(p for _, _, p in t.destinations)
    for t, r in zip(countries, reference_ticket_results([], countries)):
        assert not r.completed and r.points == min(p for _, _, p in t.destinations)
