"""The bounded longest-trail search (blocks and bridges, a target lowered pass by pass) and the memo
search (each state's longest continuation kept, a bridge's state alone) give the
plain search's first longest trail on every network, forced onto networks small enough for the
plain search too, and on networks made of dense cores with trees and loops hanging off them."""

from __future__ import annotations

from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

import engine.scoring as scoring
from engine.mapdata import load_map
from tests.engine.test_speed_equivalence import _network, reference_trail

MAPS = ["usa", "europe", "switzerland", "nordic", "marklin"]


def _hairy_network(m, picks, rnd):
    """A dense core (picks closing cycles first) plus tracks touching it anywhere: pendant trees,
    extra cycles and separate pieces, listed in a random order."""
    owned = _network(m, picks)
    taken = {t.index for t in owned} | {t.double for t in owned if t.double is not None}
    cities = {c for t in owned for c in (t.a, t.b)}
    trains = m.rules.trains - sum(t.length for t in owned)
    for _ in range(rnd.randint(0, 12)):
        near = [
            t
            for t in m.tracks
            if t.index not in taken
            and t.double not in taken
            and t.length <= trains
            and (t.a in cities or t.b in cities)
        ]
        if not near:
            break
        t = rnd.choice(near)
        owned.append(t)
        taken.update(x for x in (t.index, t.double) if x is not None)
        cities.update((t.a, t.b))
        trains -= t.length
    rnd.shuffle(owned)
    return owned


@contextmanager
def _forced(memo_rank: int):
    """Every network past the plain search, to the memo search (blocks of up to `memo_rank`
    cycles) or else to the bounded one."""
    knobs = scoring._PLAIN_WORK, scoring._MEMO_RANK
    scoring._PLAIN_WORK, scoring._MEMO_RANK = -1, memo_rank
    try:
        yield
    finally:
        scoring._PLAIN_WORK, scoring._MEMO_RANK = knobs


@settings(max_examples=40)
@given(st.sampled_from(MAPS), st.lists(st.integers(0, 30), max_size=16), st.randoms(use_true_random=False))
def test_memo_and_bounded_searches_match_the_plain_one_on_every_network(map_id, picks, rnd):
    owned = _hairy_network(load_map(map_id), picks, rnd)
    expected = reference_trail(owned)
    assert scoring.longest_trail(owned) == expected
    for memo_rank in (-1, 1 << 30):  # every network through the bounded search, then the memo one
        with _forced(memo_rank):
            assert scoring.longest_trail(owned) == expected


def test_loop_hanging_off_a_bridge_counts_whole():
    """A triangle whose two cities have no other track is one chain back to its third city (a
    block of one node with weight): the longest trail takes the loop and the bridge to it."""
    m = load_map("europe")
    ids = (
        "amsterdam-bruxelles amsterdam-essen amsterdam-frankfurt amsterdam-london angora-constantinople brest-paris "
        "constantinople-sevastopol constantinople-smyrna dieppe-london/2 dieppe-paris essen-kobenhavn/1 palermo-roma "
        "palermo-smyrna rostov-sevastopol rostov-sochi sevastopol-sochi venezia-zagrab"
    ).split()
    owned = [m.track_by_id[i] for i in ids]
    for memo_rank in (-1, 1 << 30):
        with _forced(memo_rank):
            length, trail = scoring.longest_trail(owned)
        assert (length, trail) == reference_trail(owned)
    assert {t.id for t in trail} >= {"rostov-sevastopol", "rostov-sochi", "sevastopol-sochi", "palermo-roma"}
