"""Validation of the shipped map files (engine/maps/*.json) through engine.mapdata.load_map: what
every map must satisfy (ids, positions, tracks, doubles, spaces, a connected graph, tickets, decks,
the scoring table of docs/rules.md §1). Each map's own facts (docs/maps.md) are in test_map_facts.py. A failing test here means a map file was edited wrongly (or a fact was re-checked
and the test must change with it, in the same commit).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, deque
from importlib import resources

import pytest

from engine.cards import COLORS
from engine.mapdata import MapData, Track, available_maps, load_map

SHIPPED = ["usa", "europe", "nederland", "switzerland", "nordic", "marklin"]
MAPS = [m for m in SHIPPED if m in available_maps(include_unlisted=True)]


# ----------------------------------------------------------------------------- helpers
def raw_doc(map_id: str) -> dict:
    return json.loads(resources.files("engine.maps").joinpath(f"{map_id}.json").read_text(encoding="utf-8"))


def slug(name: str) -> str:
    text = unicodedata.normalize("NFKD", name.replace("ø", "o").replace("Ø", "O"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


def color_name(track: Track) -> str:
    return "gray" if track.color is None else COLORS[track.color]


def tracks(m: MapData, a: str, b: str) -> tuple[Track, ...]:
    ia, ib = m.city_by_id[a].index, m.city_by_id[b].index
    return m.tracks_between.get((min(ia, ib), max(ia, ib)), ())


def ticket_pairs(m: MapData, ticket_set: str | None = None) -> Counter:
    return Counter(
        (frozenset((m.cities[t.a].id, m.cities[t.b].id)), t.points)
        for t in m.tickets
        if ticket_set is None or t.set == ticket_set
    )


def find_ticket(m: MapData, a: str, b: str, ticket_set: str):
    want = {a, b}
    found = [t for t in m.tickets if t.set == ticket_set and {m.cities[t.a].id, m.cities[t.b].id} == want]
    assert len(found) == 1, (a, b, ticket_set, found)
    return found[0]


@pytest.fixture(scope="module", params=MAPS)
def any_map(request) -> MapData:
    return load_map(request.param)


# ============================================================ every map: structure and conventions
def test_shipped_maps_are_available():
    assert set(SHIPPED) <= set(available_maps())


def test_map_id_matches_file_name(any_map):
    assert raw_doc(any_map.id)["id"] == any_map.id
    assert any_map.data_version >= 1
    assert raw_doc(any_map.id)["sources"].strip()


def test_city_ids_are_slugs_of_board_names(any_map):
    ids = [c.id for c in any_map.cities]
    assert len(set(ids)) == len(ids)
    for c in any_map.cities:
        if c.kind == "border":  # a country's border points: '<country id>_<n>', named like the country
            country = any_map.cities[c.country]
            assert country.kind == "country" and c.name == country.name
            assert re.fullmatch(rf"{country.id}_[1-9]", c.id), c
            continue
        assert c.kind in ("city", "country")
        assert c.id == slug(c.name), c
        assert re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", c.id)


def test_city_positions_are_normalized(any_map):
    for c in any_map.cities:
        assert 0.0 <= c.x <= 1.0 and 0.0 <= c.y <= 1.0, c
    positions = {(c.x, c.y) for c in any_map.cities}
    assert len(positions) == len(any_map.cities)


def test_board_frame_is_given(any_map):
    board = raw_doc(any_map.id)["board"]
    assert board["width"] > 0 and board["height"] > 0
    assert any_map.aspect == pytest.approx(board["width"] / board["height"])


def test_track_ids_follow_the_naming_convention(any_map):
    for t in any_map.tracks:
        a, b = any_map.cities[t.a].id, any_map.cities[t.b].id
        assert a < b, t.id  # a/b are the sorted city ids
        base = f"{a}-{b}"
        if t.double is None:
            assert t.id == base
        else:
            assert t.id in (f"{base}/1", f"{base}/2", f"{base}/3")
    assert len({t.id for t in any_map.tracks}) == len(any_map.tracks)


def test_at_most_two_tracks_per_city_pair(any_map):
    """Two at most, except Märklin's two triple routes (§8)."""
    most = 3 if any_map.id == "marklin" else 2
    for pair, ts in any_map.tracks_between.items():
        assert 1 <= len(ts) <= most, pair
        assert (len(ts) > 1) == all(t.double is not None for t in ts)


def test_doubles_pair_up(any_map):
    """§1 double routes: two distinct tracks joining the same two cities, each naming the other (a
    triple route's tracks name the next one, /1 → /2 → /3 → /1)."""
    for t in any_map.tracks:
        if t.double is None:
            continue
        partner = any_map.tracks[t.double]
        assert partner.index != t.index
        siblings = any_map.tracks_between[(min(t.a, t.b), max(t.a, t.b))]
        if len(siblings) == 3:
            assert partner.id.endswith(f"/{int(t.id[-1]) % 3 + 1}")
        else:
            assert partner.double == t.index
        assert {partner.a, partner.b} == {t.a, t.b}
        if any_map.id == "nordic":  # two Nordic double routes join tracks of different lengths
            continue
        assert partner.length == t.length


def test_track_fields_are_valid(any_map):
    for t in any_map.tracks:
        assert t.color is None or 0 <= t.color < len(COLORS)
        assert t.length >= 1
        assert t.length in any_map.rules.route_points, t.id
        assert 0 <= t.ferry <= t.length
        assert not (t.tunnel and t.ferry), t.id
        if t.ferry and any_map.id != "nordic":  # Nordic ferries are colored
            assert t.color is None, "ferries are gray"
        assert t.substitute == 0 or (t.substitute > 0 and not t.tunnel and not t.ferry)


def test_spaces_match_length_and_run_from_a_to_b(any_map):
    with_spaces = [t for t in any_map.tracks if t.spaces]
    assert not with_spaces or len(with_spaces) == len(any_map.tracks)
    for t in with_spaces:
        assert len(t.spaces) == t.length, t.id
        for x, y, _angle in t.spaces:
            assert 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0, t.id
        ca, cb = any_map.cities[t.a], any_map.cities[t.b]
        first, last = t.spaces[0], t.spaces[-1]

        def d2(p, c):
            return ((p[0] - c.x) * any_map.aspect) ** 2 + (p[1] - c.y) ** 2

        if t.length > 1:  # a 1-long track's only space sits midway
            assert d2(first, ca) < d2(last, ca), t.id
            assert d2(last, cb) < d2(first, cb), t.id


def test_map_graph_is_connected(any_map):
    adjacent = {c.index: set() for c in any_map.cities if c.kind != "country"}
    for t in any_map.tracks:
        adjacent[t.a].add(t.b)
        adjacent[t.b].add(t.a)
    seen, todo = {0}, deque([0])
    while todo:
        for n in adjacent[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) == len(adjacent)


def test_tickets_are_well_formed(any_map):
    ids = [t.id for t in any_map.tickets]
    assert len(set(ids)) == len(ids)
    for t in any_map.tickets:
        assert t.a != t.b
        assert 0 <= t.a < len(any_map.cities) and 0 <= t.b < len(any_map.cities)
        assert t.points > 0


def test_every_ticket_city_exists_in_the_raw_file(any_map):
    city_ids = {c["id"] for c in raw_doc(any_map.id)["cities"]}
    for t in raw_doc(any_map.id)["tickets"]:
        assert t["a"] in city_ids and t["b"] in city_ids, t


def test_decks_are_consistent(any_map):
    rules = any_map.rules
    assert rules.default_deck in rules.decks
    for deck in rules.decks.values():
        assert deck.tickets
        assert set(deck.tickets) <= set(any_map.ticket_by_id)
        assert 1 <= deck.start_keep <= deck.start_deal + deck.start_long
        assert 1 <= deck.draw_keep <= deck.draw_count
        assert deck.returned in ("box", "bottom", "discard")
        assert deck.start_returned in ("box", "bottom", "discard")


def test_route_points_table_of_rules_1(any_map):
    """§1: 1→1, 2→2, 3→4, 4→7, 5→10, 6→15, 8→21 (9→27 Nordic, 7→18 Märklin)."""
    expected = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
    for length, points in any_map.rules.route_points.items():
        assert expected[length] == points


def test_cities_can_be_found_by_typed_names(any_map):
    for c in any_map.cities:
        named = any_map.cities[c.country] if c.kind == "border" else c  # a country's name finds the country
        assert any_map.find_city(c.name) is named
        assert any_map.find_city(c.id) is c
