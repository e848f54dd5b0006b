"""The bounded longest-trail search (blocks and bridges, a target lowered pass by pass, leftovers a
trail may still leave) and the memo search (each state's longest continuation kept, a bridge's
state alone) give the plain search's first longest trail on every network, forced onto networks
small enough for the plain search too, and on networks made of dense cores with trees and loops
hanging off them."""

from __future__ import annotations

from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

import engine.trail as search
from engine.mapdata import load_map
from engine.network import adjacency_of, components_of
from tests.engine.reference_scoring import network, reference_trail

MAPS = ["usa", "europe", "switzerland", "nordic", "marklin"]


def _hairynetwork(m, picks, rnd):
    """A dense core (picks closing cycles first) plus tracks touching it anywhere: pendant trees,
    extra cycles and separate pieces, listed in a random order."""
    owned = network(m, picks)
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
def _forced(
    memo_rank: int,
    leftovers: int = search._MAX_LEFTOVERS,
    after: int = search._LIST_AFTER,
    paired: int = search._MAX_PAIRED,
):
    """Every network past the plain search, to the memo search (blocks of up to `memo_rank`
    cycles) or else to the bounded one, listing up to `leftovers` leftovers per block entry once
    a pass has walked `after` states, pairing the odd cities of blocks with up to `paired`."""
    names = ("_PLAIN_WORK", "_MEMO_RANK", "_MAX_LEFTOVERS", "_LIST_AFTER", "_MAX_PAIRED")
    knobs = [getattr(search, name) for name in names]
    for name, value in zip(names, (-1, memo_rank, leftovers, after, paired)):
        setattr(search, name, value)
    try:
        yield
    finally:
        for name, value in zip(names, knobs):
            setattr(search, name, value)


@settings(max_examples=40)
@given(st.sampled_from(MAPS), st.lists(st.integers(0, 30), max_size=16), st.randoms(use_true_random=False))
def test_memo_and_bounded_searches_match_the_plain_one_on_everynetwork(map_id, picks, rnd):
    owned = _hairynetwork(load_map(map_id), picks, rnd)
    expected = reference_trail(owned)
    assert search.longest_trail(owned) == expected
    # Every network through the bounded search (leftovers as set, never listed, all of them listed
    # from the first state, from the third; blocks of more than two odd or attachment cities
    # bounded by their weight), then the memo one.
    as_set = search._MAX_LEFTOVERS, search._LIST_AFTER
    for memo_rank, leftovers, after, paired in (
        (-1, *as_set, search._MAX_PAIRED),
        (-1, 24, 1 << 30, search._MAX_PAIRED),
        (-1, 1 << 30, -1, search._MAX_PAIRED),
        (-1, 1 << 30, 2, search._MAX_PAIRED),
        (-1, *as_set, 2),
        (1 << 30, *as_set, search._MAX_PAIRED),
    ):
        with _forced(memo_rank, leftovers, after, paired):
            assert search.longest_trail(owned) == expected


def _block_trails(links: dict, bridges: int, city: int):
    """Every trail from `city` inside its block: (the chains used, where it ends, its length)."""
    trails = []

    def walk(at: int, used: int, length: int) -> None:
        trails.append((used, at, length))
        for bit, y, n, _ in links[at]:
            if not bit & (used | bridges):
                walk(y, used | bit, length + n)

    walk(city, 0, 0)
    return trails


@given(st.sampled_from(MAPS), st.lists(st.integers(0, 30), max_size=16), st.randoms(use_true_random=False))
def test_leftovers_keep_every_trail_reaching_the_need(map_id, picks, rnd):
    """A block entry's leftovers (`_leftovers`) drop no trail: every trail from the entry inside
    the block that keeps the need there and beyond (ending in it, or leaving by another bridge
    whose onward bound adds enough) leaves some listed leftover unused; without any, no trail
    keeps more than the most it learned."""
    owned = _hairynetwork(load_map(map_id), picks, rnd)
    adjacency = adjacency_of(owned)
    closed = components_of(adjacency)[1]
    starts = [c for c, out in adjacency.items() if len(out) & 1 or closed.get(c)]
    nodes = {c for c, out in adjacency.items() if len(out) != 2} | closed.keys()
    links = search._chains(owned, adjacency, nodes)
    bridges, block, _ = search._bridges(links)
    _, reach, cores, exits = search._block_bounds(links, bridges, block, starts)
    entries = [(0, c) for c in starts] + list(reach)
    for via, city in entries:
        root = block[city]
        if root not in cores or sum(1 for c in links if block[c] == root) > 6:
            continue  # (a block without chains inside has no leftovers; large ones are slow to walk plainly)
        out = exits.get(root, ())
        values = []
        for used, end, length in _block_trails(links, bridges, city):
            beyond = max((reach[bit, y] for bit, x, y, _ in out if bit != via and x == end), default=0)
            values.append((used, length + beyond))
        top = max(value for _, value in values)
        for need in (top + 1, top, top - 1, top - rnd.randint(2, 8)):
            left = search._leftovers(links, bridges, cores[root], out, reach, via, city, need)
            if isinstance(left, int):
                assert left < need and top <= left
            elif left is not None:
                for used, value in values:
                    if value >= need:
                        assert any(not f & used for f in left[1:])


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
            length, trail = search.longest_trail(owned)
        assert (length, trail) == reference_trail(owned)
    assert {t.id for t in trail} >= {"rostov-sevastopol", "rostov-sochi", "sevastopol-sochi", "palermo-roma"}
