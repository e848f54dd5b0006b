"""The facts each shipped map file records (docs/maps.md): its board's counts, names, colors,
tunnels, ferries and tolls, its tickets and ticket decks, and the rules data of its docs/rules.md
section. A failing test here means a map file was edited wrongly (or a fact was re-checked and the
test must change with it, in the same commit). The checks every map passes are in test_mapdata.py.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import COLORS
from engine.mapdata import MapData, load_map
from tests.engine.test_mapdata import color_name, find_ticket, raw_doc, ticket_pairs, tracks


@pytest.fixture(scope="module")
def usa() -> MapData:
    return load_map("usa")


@pytest.fixture(scope="module")
def europe() -> MapData:
    return load_map("europe")


@pytest.fixture(scope="module")
def nederland() -> MapData:
    return load_map("nederland")


# ============================================================ USA (docs/rules.md §2)
def test_usa_board_counts(usa):
    assert len(usa.cities) == 36
    assert len(usa.tracks) == 100
    assert len(usa.tracks_between) == 78
    assert sum(1 for t in usa.tracks if t.double is not None) == 2 * 22
    assert sum(t.length for t in usa.tracks) == 309
    assert Counter(t.length for t in usa.tracks) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    assert not any(t.tunnel or t.ferry for t in usa.tracks)


def test_usa_colour_counts(usa):
    counts = Counter(color_name(t) for t in usa.tracks)
    assert counts == {**{c: 7 for c in COLORS}, "gray": 44}
    spaces = Counter()
    for t in usa.tracks:
        spaces[color_name(t)] += t.length
    assert spaces == {**{c: 27 for c in COLORS}, "gray": 93}
    gray_doubles = [p for p, ts in usa.tracks_between.items() if len(ts) == 2 and all(t.color is None for t in ts)]
    assert len(gray_doubles) == 10


def test_usa_board_names(usa):
    assert usa.city_by_id["montreal"].name == "Montréal"
    assert usa.city_by_id["sault_st_marie"].name == "Sault St. Marie"
    assert usa.city_by_id["saint_louis"].name == "Saint Louis"
    assert usa.find_city("Montreal") is usa.city_by_id["montreal"]


def test_usa_resolved_route_disagreements(usa):
    """NOTES #1–#3: Atlanta–Raleigh is a gray double of 2; Houston–New Orleans is 2; Denver–Santa Fe exists."""
    ar = tracks(usa, "atlanta", "raleigh")
    assert [(t.length, t.color) for t in ar] == [(2, None), (2, None)]
    assert [(t.length, t.color) for t in tracks(usa, "nashville", "raleigh")] == [(3, COLORS.index("black"))]
    assert [t.length for t in tracks(usa, "houston", "new_orleans")] == [2]
    assert [t.length for t in tracks(usa, "denver", "santa_fe")] == [2]
    assert [(t.length, color_name(t)) for t in tracks(usa, "las_vegas", "salt_lake_city")] == [(3, "orange")]


def test_usa_ticket_sets_and_ids(usa):
    sets = Counter(t.set for t in usa.tickets)
    assert sets == {"base": 30, "1910": 35, "reprint": 30, "extra": 4}
    by_set = {s: sorted(t.id for t in usa.tickets if t.set == s) for s in sets}
    assert by_set["base"] == list(range(1, 31))
    assert by_set["1910"] == list(range(101, 136))
    assert by_set["extra"] == [202, 218, 230, 234]
    assert sorted(by_set["reprint"] + by_set["extra"]) == list(range(201, 235))
    assert not any(t.long for t in usa.tickets)


def test_usa_deck_table_of_rules_2(usa):
    """§2 table: base / 1910 / Big Cities / Mega Game deal, keep, draw and bonuses."""
    decks = usa.rules.decks
    assert usa.rules.default_deck == "base"
    expected = {
        # id: (tickets, start deal, start keep, draw, draw keep, longest path, globetrotter)
        "base": (30, 3, 2, 3, 1, 10, 0),
        "1910": (35, 3, 2, 3, 1, 0, 15),
        "mega": (69, 5, 3, 4, 1, 10, 15),
        "bigcities": (35, 4, 2, 4, 1, 0, 0),
    }
    assert set(decks) == set(expected)
    for deck_id, row in expected.items():
        d = decks[deck_id]
        got = (
            len(d.tickets),
            d.start_deal,
            d.start_keep,
            d.draw_count,
            d.draw_keep,
            d.longest_path_bonus,
            d.globetrotter_bonus,
        )
        assert got == row, deck_id
        assert d.start_long == 0
        assert d.returned == "box" and d.start_returned == "box"


def test_usa_big_cities_deck_touches_the_seven_big_cities(usa):
    big = {
        usa.city_by_id[c].index for c in ("chicago", "dallas", "houston", "los_angeles", "miami", "new_york", "seattle")
    }
    deck = usa.rules.decks["bigcities"]
    mega = set(usa.rules.decks["mega"].tickets)
    assert set(deck.tickets) <= mega
    for tid in mega:
        t = usa.ticket_by_id[tid]
        assert (tid in deck.tickets) == (t.a in big or t.b in big)
    assert len(raw_doc("usa")["rules"]["ticket_decks"][3]["touching"]) == 7


def test_usa_reprinted_tickets_four_revalued(usa):
    """The 1910 reprint of the 30 base cards changes exactly four values."""
    base, reprint = ticket_pairs(usa, "base"), ticket_pairs(usa, "reprint")
    changed = {
        ("los_angeles", "miami"): (20, 19),
        ("los_angeles", "new_york"): (21, 20),
        ("oklahoma_city", "sault_st_marie"): (9, 8),
        ("new_york", "seattle"): (22, 20),
    }
    for (a, b), (old, new) in changed.items():
        assert find_ticket(usa, a, b, "base").points == old
        assert find_ticket(usa, a, b, "reprint").points == new
    assert sum((base - reprint).values()) == 4
    assert {frozenset(p) for p, _ in base} == {frozenset(p) for p, _ in reprint}


def test_usa_extra_and_resolved_1910_tickets(usa):
    extra = {(frozenset(p), v) for p, v in ticket_pairs(usa, "extra")}
    assert extra == {
        (frozenset({"boston", "washington"}), 4),
        (frozenset({"chicago", "montreal"}), 7),
        (frozenset({"portland", "vancouver"}), 2),
        (frozenset({"omaha", "winnipeg"}), 6),
    }
    # NOTES #4 and #5: Seattle–Las Vegas 10 (not Seattle–New York 10); Los Angeles–Oklahoma City 9.
    assert find_ticket(usa, "seattle", "las_vegas", "1910").points == 10
    assert find_ticket(usa, "los_angeles", "oklahoma_city", "1910").points == 9
    assert not [
        t
        for t in usa.tickets
        if t.set == "1910" and {usa.cities[t.a].id, usa.cities[t.b].id} == {"seattle", "new_york"}
    ]


def test_usa_base_ticket_spot_checks(usa):
    assert usa.ticket_by_id[1].set == "base"
    assert find_ticket(usa, "boston", "miami", "base").points == 12
    assert find_ticket(usa, "los_angeles", "new_york", "base").points == 21
    assert find_ticket(usa, "denver", "el_paso", "base").points == 4
    assert sorted(t.points for t in usa.tickets if t.set == "base")[-1] == 22


def test_usa_rules_of_section_2(usa):
    r = usa.rules
    assert (r.trains, r.stations, r.station_points) == (45, 0, 0)
    assert r.station_costs == ()
    assert r.doubles_min_players == 4
    assert r.tie_breaks == ("tickets", "longest")
    assert r.hooks == ()


# ============================================================ Europe (docs/rules.md §3)
def test_europe_board_counts(europe):
    assert len(europe.cities) == 47
    assert len(europe.tracks) == 101
    assert len(europe.tracks_between) == 90
    assert sum(1 for t in europe.tracks if t.double is not None) == 2 * 11
    assert sum(t.length for t in europe.tracks) == 300
    assert Counter(t.length for t in europe.tracks) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}


def test_europe_colour_counts(europe):
    assert Counter(color_name(t) for t in europe.tracks) == {**{c: 8 for c in COLORS}, "gray": 37}
    spaces = Counter()
    for t in europe.tracks:
        spaces[color_name(t)] += t.length
    assert spaces["gray"] == 122
    assert spaces["blue"] == spaces["green"] == 23
    assert all(spaces[c] in (22, 23) for c in COLORS)


def test_europe_tunnels(europe):
    tunnels = [t for t in europe.tracks if t.tunnel]
    assert len(tunnels) == 18
    assert len({(t.a, t.b) for t in tunnels}) == 17
    named = Counter(tuple(sorted((europe.cities[t.a].name, europe.cities[t.b].name))) for t in tunnels)
    assert named[("Madrid", "Pamplona")] == 2
    for pair in [
        ("Angora", "Constantinople"),
        ("Budapest", "Kyiv"),
        ("Marseille", "Roma"),
        ("Petrograd", "Stockholm"),
        ("München", "Venezia"),
        ("Venezia", "Zürich"),
        ("Erzurum", "Sochi"),
    ]:
        assert named[pair] == 1, pair


def test_europe_ferries(europe):
    ferries = [t for t in europe.tracks if t.ferry]
    assert len(ferries) == 13
    assert len({(t.a, t.b) for t in ferries}) == 11
    assert Counter(t.ferry for t in ferries) == {1: 9, 2: 4}
    two = {frozenset((europe.cities[t.a].id, europe.cities[t.b].id)) for t in ferries if t.ferry == 2}
    assert two == {
        frozenset({"amsterdam", "london"}),
        frozenset({"constantinople", "sevastopol"}),
        frozenset({"erzurum", "sevastopol"}),
        frozenset({"palermo", "smyrna"}),
    }
    assert all(t.color is None and not t.tunnel for t in ferries)
    assert [t.ferry for t in tracks(europe, "dieppe", "london")] == [1, 1]
    assert [t.ferry for t in tracks(europe, "essen", "kobenhavn")] == [1, 1]


def test_europe_petrograd_stockholm_is_the_8_long_gray_tunnel(europe):
    (t,) = tracks(europe, "petrograd", "stockholm")
    assert (t.length, t.color, t.tunnel, t.ferry) == (8, None, True, 0)
    assert europe.rules.route_points[8] == 21


def test_europe_smyrna_palermo_is_a_6_long_ferry_with_2_locomotives(europe):
    """§3 example: Smyrna–Palermo, 6 long, 2 locomotive symbols."""
    (t,) = tracks(europe, "smyrna", "palermo")
    assert (t.length, t.color, t.tunnel, t.ferry) == (6, None, False, 2)


def test_europe_madrid_pamplona_is_a_black_and_white_double_tunnel(europe):
    ts = tracks(europe, "madrid", "pamplona")
    assert len(ts) == 2
    assert {color_name(t) for t in ts} == {"black", "white"}
    assert all(t.tunnel and t.length == 3 for t in ts)


def test_europe_resolved_route_disagreements(europe):
    """NOTES #7–#14: the values chosen over the outvoted sources."""
    assert [(t.length, color_name(t)) for t in tracks(europe, "athina", "sofia")] == [(3, "pink")]
    assert [(t.length, t.tunnel) for t in tracks(europe, "marseille", "roma")] == [(4, True)]
    assert [(t.length, t.ferry) for t in tracks(europe, "amsterdam", "london")] == [(2, 2)]
    assert {color_name(t) for t in tracks(europe, "frankfurt", "paris")} == {"white", "orange"}
    assert [t.length for t in tracks(europe, "berlin", "danzig")] == [4]
    assert [(t.length, t.tunnel) for t in tracks(europe, "bucuresti", "sofia")] == [(2, True)]
    assert [t.length for t in tracks(europe, "rostov", "sochi")] == [2]


def test_europe_station_example_routes_exist(europe):
    """§3 station example: Paris–Dieppe and Brest–Paris are routes of the board."""
    assert tracks(europe, "dieppe", "paris")
    assert tracks(europe, "brest", "paris")


def test_europe_board_names(europe):
    names = {c.name for c in europe.cities}
    for n in [
        "København",
        "München",
        "Zürich",
        "Zagrab",
        "Athina",
        "Kyiv",
        "Cadiz",
        "Sevastopol",
        "Constantinople",
        "Petrograd",
        "Angora",
        "Smyrna",
        "Bucuresti",
        "Wilno",
        "Riga",
        "Brindisi",
        "Danzig",
        "Marseille",
    ]:
        assert n in names, n
    assert europe.find_city("Kobenhavn").name == "København"
    assert europe.find_city("zurich").name == "Zürich"


def test_europe_tickets_6_long_and_40_regular(europe):
    assert len(europe.tickets) == 46
    assert sorted(t.id for t in europe.tickets) == list(range(1, 47))
    assert {t.set for t in europe.tickets} == {"base"}
    long_ = {(frozenset((europe.cities[t.a].id, europe.cities[t.b].id)), t.points) for t in europe.tickets if t.long}
    assert long_ == {
        (frozenset({"brest", "petrograd"}), 20),
        (frozenset({"cadiz", "stockholm"}), 21),
        (frozenset({"edinburgh", "athina"}), 21),
        (frozenset({"kobenhavn", "erzurum"}), 21),
        (frozenset({"lisboa", "danzig"}), 20),
        (frozenset({"palermo", "moskva"}), 20),
    }
    regular = [t for t in europe.tickets if not t.long]
    assert len(regular) == 40
    assert max(t.points for t in regular) <= 13


def test_europe_rules_of_section_3(europe):
    r = europe.rules
    assert (r.trains, r.stations, r.station_points) == (45, 3, 4)
    assert r.station_costs == (1, 2, 3)
    assert r.doubles_min_players == 4
    assert r.tie_breaks == ("tickets", "fewer_stations", "longest")
    assert r.hooks == ()
    assert list(r.decks) == ["base"]
    d = r.decks["base"]
    assert len(d.tickets) == 46
    assert (d.start_long, d.start_deal, d.start_keep) == (1, 3, 2)
    assert (d.draw_count, d.draw_keep) == (3, 1)
    assert (d.returned, d.start_returned) == ("bottom", "box")
    assert (d.longest_path_bonus, d.globetrotter_bonus) == (10, 0)


# ============================================================ Nederland (docs/rules.md §4)
def test_nederland_board_counts(nederland):
    assert len(nederland.cities) == 30
    assert len(nederland.tracks) == 97
    assert len(nederland.tracks_between) == 53
    doubles = [p for p, ts in nederland.tracks_between.items() if len(ts) == 2]
    assert len(doubles) == 44
    assert sum(t.length for t in nederland.tracks) == 306
    assert {t.length for t in nederland.tracks} == {1, 2, 3, 4, 5, 6}
    assert not any(t.tunnel or t.ferry for t in nederland.tracks)


def test_nederland_has_positions_but_no_train_spaces(nederland):
    assert raw_doc("nederland")["board"] == {"width": 882, "height": 1200}
    assert all(t.spaces == () for t in nederland.tracks)


def test_nederland_board_names(nederland):
    names = {c.name for c in nederland.cities}
    assert {"'s-Gravenhage", "'s-Hertogenbosch", "Liège", "Waddeneilanden"} <= names
    assert nederland.find_city("s Gravenhage").id == "s_gravenhage"
    assert nederland.find_city("Liege").id == "liege"
    assert [t.length for t in tracks(nederland, "den_helder", "waddeneilanden")] == [5]


def test_nederland_every_track_has_a_toll(nederland):
    """§4 bridge tolls: every route costs 1–4; both tracks of a double route cost the same."""
    assert Counter(t.toll for t in nederland.tracks) == {1: 26, 2: 30, 3: 25, 4: 16}
    for ts in nederland.tracks_between.values():
        assert len({t.toll for t in ts}) == 1
    raw_tracks = raw_doc("nederland")["tracks"]
    assert all(isinstance(t["toll"], int) for t in raw_tracks)


def test_nederland_breda_rotterdam_toll_of_the_rule_book_example(nederland):
    """§4 / seed 004: the first Breda–Rotterdam track costs 4, and so does the second."""
    ts = tracks(nederland, "breda", "rotterdam")
    assert len(ts) == 2 and all(t.toll == 4 for t in ts)


def test_nederland_single_source_values_are_flagged(nederland):
    notes = " ".join(n["about"] + " " + n["note"] for n in raw_doc("nederland")["notes"])
    assert "duisburg-enschede" in notes
    assert "toll_bonus" in notes
    assert [t.toll for t in tracks(nederland, "duisburg", "enschede")] == [1, 1]


def test_nederland_tickets(nederland):
    """§4: 44 tickets; 6 worth 29–34 and 17 worth 17–26."""
    tickets = nederland.tickets
    assert len(tickets) == 44
    assert sorted(t.id for t in tickets) == list(range(1, 45))
    assert {t.set for t in tickets} == {"base"}
    assert not any(t.long for t in tickets)
    points = [t.points for t in tickets]
    assert min(points) == 7 and max(points) == 34
    assert sum(1 for p in points if 29 <= p <= 34) == 6
    assert sum(1 for p in points if 17 <= p <= 26) == 17


def test_nederland_neutral_routes(nederland):
    """§4 neutral player: 35 tickets print a route, always a double route of the map;
    Amsterdam–Rotterdam and Rotterdam–Antwerpen are each on two tickets."""
    routes = [t.extra["neutral_route"] for t in nederland.tickets if "neutral_route" in t.extra]
    assert len(routes) == 35
    for a, b in routes:
        assert a < b
        assert len(tracks(nederland, a, b)) == 2, (a, b)
    counts = Counter(tuple(r) for r in routes)
    assert len(counts) == 33
    assert counts[("amsterdam", "rotterdam")] == 2
    assert counts[("antwerpen", "rotterdam")] == 2
    assert max(counts.values()) == 2


def test_nederland_rules_of_section_4(nederland):
    r = nederland.rules
    assert (r.trains, r.stations, r.station_points) == (40, 0, 0)
    assert r.doubles_min_players == 4
    assert r.tie_breaks == ("tickets",)
    assert r.hooks == ("tolls",)
    assert list(r.decks) == ["base"]
    d = r.decks["base"]
    assert len(d.tickets) == 44
    assert (d.start_deal, d.start_long, d.start_keep, d.draw_count, d.draw_keep) == (5, 0, 3, 4, 1)
    assert (d.returned, d.start_returned) == ("discard", "discard")
    assert (d.longest_path_bonus, d.globetrotter_bonus) == (0, 0)


def test_nederland_toll_money_loans_and_bonus_table(nederland):
    """§4: tokens 2×4, 6×2, 10×1 = 30; Loan −5; toll bonus per number of players; staggered start."""
    extra = nederland.rules.extra
    tokens = {int(v): n for v, n in extra["toll_tokens"].items()}
    assert tokens == {4: 2, 2: 6, 1: 10}
    assert sum(v * n for v, n in tokens.items()) == extra["toll_money"] == 30
    assert extra["loan_penalty"] == 5
    assert extra["staggered_start"] is True
    bonus = extra["toll_bonus"]
    assert bonus == {"2": [35, 0], "3": [55, 35, 0], "4": [55, 35, 20, 0], "5": [55, 35, 20, 10, 0]}
    for players, row in bonus.items():
        assert len(row) == int(players)
        assert row == sorted(row, reverse=True)
    # seed 004's 4-player example: two tied first score 55 each, the next eligible player ranks 3rd and scores 20
    assert bonus["4"][0] == 55 and bonus["4"][2] == 20


# ============================================================ Switzerland (docs/rules.md §5)
@pytest.fixture(scope="module")
def switzerland() -> MapData:
    return load_map("switzerland")


@pytest.fixture(scope="module")
def nordic() -> MapData:
    return load_map("nordic")


def test_switzerland_board_counts(switzerland):
    """Issue counts: 34 cities + 4 countries with 17 border endpoints, 88 tracks, 42 tunnels."""
    m = switzerland
    kinds = Counter(c.kind for c in m.cities)
    assert kinds == {"city": 34, "country": 4, "border": 17}
    assert len(m.tracks) == 88
    assert len(m.tracks_between) == 76
    assert sum(1 for t in m.tracks if t.double is not None) == 2 * 12
    assert sum(1 for t in m.tracks if t.tunnel) == 42
    assert not any(t.ferry or t.substitute for t in m.tracks)
    assert sum(t.length for t in m.tracks) == 205
    assert Counter(t.length for t in m.tracks) == {1: 31, 2: 21, 3: 18, 4: 14, 5: 2, 6: 2}
    assert Counter(color_name(t) for t in m.tracks) == {
        "gray": 14,
        "yellow": 11,
        "orange": 10,
        "white": 9,
        "black": 9,
        "blue": 9,
        "pink": 9,
        "green": 9,
        "red": 8,
    }


def test_switzerland_countries_and_border_points(switzerland):
    """§5: 3 routes to Austria, 4 to France, 5 to Italy, 5 to Germany; each border point ends exactly
    one track, so no connection can pass through a country."""
    m = switzerland
    names = {m.cities[c].id: len(b) for c, b in m.borders.items()}
    assert names == {"france": 4, "deutschland": 5, "osterreich": 3, "italia": 5}
    degree = Counter()
    for t in m.tracks:
        degree[t.a] += 1
        degree[t.b] += 1
        assert m.cities[t.a].kind != "country" and m.cities[t.b].kind != "country"
        assert not (m.cities[t.a].kind == "border" and m.cities[t.b].kind == "border")
    for c in m.cities:
        if c.kind == "border":
            assert degree[c.index] == 1, c.id
    assert m.find_city("Österreich").kind == "country" and m.find_city("osterreich").id == "osterreich"
    assert [
        m.route_name(t) for t in tracks(m, "kreuzlingen", "deutschland_3") + tracks(m, "kreuzlingen", "deutschland_4")
    ] == ["Kreuzlingen-Deutschland", "Kreuzlingen-Deutschland"]


def test_switzerland_tickets(switzerland):
    """46 cards of 42 faces: 34 city-to-city, 4 city-to-countries, 4 country-to-country printed twice."""
    m = switzerland
    assert len(m.tickets) == 46
    assert sorted(t.id for t in m.tickets) == list(range(1, 47))
    plain = [t for t in m.tickets if not t.destinations]
    assert len(plain) == 34
    countries = {c.index for c in m.cities if c.kind == "country"}
    multi = [t for t in m.tickets if t.destinations]
    assert len(multi) == 12
    faces = Counter((t.a, tuple((p, v) for p, _, v in t.destinations)) for t in multi)
    assert sorted(faces.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    for t in multi:
        dest = {p for p, _, _ in t.destinations}
        if t.a in countries:
            assert dest == countries - {t.a}
        else:
            assert dest == countries
        best = max(t.destinations, key=lambda d: d[2])
        assert (t.b, t.points) == (best[0], best[2])  # b/points: the card's highest value
    bern = m.ticket_by_id[5]
    assert m.cities[bern.a].id == "bern"
    assert [(m.cities[p].id, v) for p, _, v in bern.destinations] == [
        ("france", 5),
        ("deutschland", 6),
        ("osterreich", 11),
        ("italia", 8),
    ]
    assert [t.extra.get("copy_of") for t in m.tickets if t.id > 42] == [1, 2, 3, 4]
    assert find_ticket(m, "geneve", "basel", "base").points == 13


def test_switzerland_rules_of_section_5(switzerland):
    r = switzerland.rules
    assert (r.trains, r.stations, r.max_players, r.doubles_min_players) == (40, 0, 3, 3)
    assert r.tie_breaks == ("tickets", "longest") and r.hooks == ("switzerland",)
    d = r.decks["base"]
    assert len(d.tickets) == 46
    assert (d.start_deal, d.start_keep, d.draw_count, d.draw_keep) == (5, 2, 3, 1)
    assert (d.returned, d.start_returned) == ("box", "box")
    assert (d.longest_path_bonus, d.globetrotter_bonus) == (10, 0)


# ============================================================ Nordic Countries (docs/rules.md §6)
def test_nordic_board_counts(nordic):
    """Issue counts: 39 cities, 81 tracks with 10 tunnels and 24 ferries."""
    m = nordic
    assert len(m.cities) == 39 and all(c.kind == "city" for c in m.cities)
    assert len(m.tracks) == 81
    assert len(m.tracks_between) == 67
    assert sum(1 for t in m.tracks if t.double is not None) == 2 * 14
    assert sum(1 for t in m.tracks if t.tunnel) == 10
    assert sum(1 for t in m.tracks if t.ferry) == 24
    assert Counter(t.ferry for t in m.tracks if t.ferry) == {1: 18, 2: 6}
    assert sum(1 for t in m.tracks if t.ferry and t.color is None) == 4  # the other 20 ferries are colored
    assert sum(t.length for t in m.tracks) == 207
    assert Counter(t.length for t in m.tracks) == {1: 17, 2: 28, 3: 20, 4: 11, 5: 3, 6: 1, 9: 1}


def test_nordic_murmansk_lieksa_is_the_9_long_substitute_route(nordic):
    (t,) = tracks(nordic, "lieksa", "murmansk")
    assert (t.length, t.color, t.tunnel, t.ferry, t.substitute) == (9, None, False, 0, 4)
    assert nordic.rules.route_points[9] == 27
    assert [x.id for x in nordic.tracks if x.substitute] == [t.id]


def test_nordic_unequal_double_routes_and_resolved_colour(nordic):
    """Kristiansand-Stavanger (2 tunnel / 3 ferry) and Mo i Rana-Trondheim (5 tunnel / 6 ferry) are
    doubles of unequal tracks; Kuopio-Lahti is white (BGA and its board image, not SokolAK's black)."""
    unequal = {p for p, ts in nordic.tracks_between.items() if len(ts) == 2 and ts[0].length != ts[1].length}
    named = {frozenset(nordic.cities[i].id for i in p) for p in unequal}
    assert named == {frozenset({"kristiansand", "stavanger"}), frozenset({"mo_i_rana", "trondheim"})}
    ks = sorted(tracks(nordic, "kristiansand", "stavanger"), key=lambda t: t.length)
    assert [(t.length, t.tunnel, t.ferry) for t in ks] == [(2, True, 0), (3, False, 1)]
    assert [color_name(t) for t in tracks(nordic, "kuopio", "lahti")] == ["white"]
    hs = tracks(nordic, "helsinki", "stockholm")
    assert sorted((color_name(t), t.ferry) for t in hs) == [("gray", 2), ("yellow", 1)]


def test_nordic_tickets(nordic):
    assert len(nordic.tickets) == 46
    assert sorted(t.id for t in nordic.tickets) == list(range(1, 47))
    points = [t.points for t in nordic.tickets]
    assert min(points) == 3 and max(points) == 24
    assert not any(t.destinations for t in nordic.tickets)
    assert nordic.find_city("Tromso").name == "Tromsø" and nordic.find_city("aalborg") is None
    assert nordic.find_city("Alborg").name == "Ålborg"


def test_nordic_rules_of_section_5(nordic):
    r = nordic.rules
    assert (r.trains, r.stations, r.max_players, r.doubles_min_players) == (40, 0, 3, 3)
    assert r.tie_breaks == ("tickets",) and r.hooks == ("nordic",)
    assert r.extra["ferry_substitute"] == 3
    d = r.decks["base"]
    assert (d.start_deal, d.start_keep, d.draw_count, d.draw_keep) == (5, 2, 3, 1)
    assert (d.returned, d.start_returned) == ("box", "box")
    assert (d.longest_path_bonus, d.globetrotter_bonus) == (0, 10)


# ============================================================ Märklin (docs/rules.md §8)
@pytest.fixture(scope="module")
def marklin() -> MapData:
    return load_map("marklin")


def test_marklin_board_counts(marklin):
    """§8: 35 German cities, 5 countries with 14 border points, 110 tracks on 85 city pairs."""
    kinds = Counter(c.kind for c in marklin.cities)
    assert kinds == {"city": 35, "country": 5, "border": 14}
    assert {c.name for c in marklin.cities if c.kind == "country"} == {
        "Dänemark",
        "Frankreich",
        "Niederlande",
        "Österreich",
        "Schweiz",
    }
    assert {marklin.cities[k].id: len(v) for k, v in marklin.borders.items()} == {
        "danemark": 2,
        "frankreich": 3,
        "niederlande": 3,
        "osterreich": 3,
        "schweiz": 3,
    }
    assert len(marklin.tracks) == 110
    assert len(marklin.tracks_between) == 85
    assert Counter(len(ts) for ts in marklin.tracks_between.values()) == {1: 62, 2: 21, 3: 2}
    assert sum(t.length for t in marklin.tracks) == 313
    assert Counter(t.length for t in marklin.tracks) == {1: 23, 2: 30, 3: 25, 4: 17, 5: 8, 6: 2, 7: 5}
    assert Counter(color_name(t) for t in marklin.tracks) == {
        "gray": 45,
        "yellow": 9,
        **{c: 8 for c in COLORS if c != "yellow"},
    }
    assert not any(t.tunnel or t.ferry or t.substitute for t in marklin.tracks)


def test_marklin_triple_routes_and_checked_tracks(marklin):
    """The two triple routes, and the tracks where the sources disagreed (docs/maps.md)."""
    for a, b in (("dortmund", "dusseldorf"), ("dusseldorf", "koln")):
        assert [(t.color, t.length) for t in tracks(marklin, a, b)] == [(None, 1)] * 3
    assert [(color_name(t), t.length) for t in tracks(marklin, "lindau", "ulm")] == [("red", 2)]
    assert [(color_name(t), t.length) for t in tracks(marklin, "lindau", "munchen")] == [("gray", 5)]
    assert sorted((color_name(t), t.length) for t in tracks(marklin, "munchen", "nurnberg")) == [
        ("black", 5),
        ("blue", 5),
    ]
    assert [t.length for t in tracks(marklin, "augsburg", "nurnberg")] == [4]
    assert [
        color_name(t)
        for t in tracks(marklin, "frankreich_1", "saarbrucken")
        + tracks(marklin, "frankreich_2", "saarbrucken")
        + tracks(marklin, "frankreich_3", "saarbrucken")
    ] == ["green"]


def test_marklin_rules_data(marklin):
    """§8: 45 trains, 2-5 players, 1/2/4/7/10/15/18, most-tickets bonus 10 and no longest path."""
    r = marklin.rules
    assert (r.trains, r.stations, r.max_players, r.doubles_min_players) == (45, 0, 5, 4)
    assert dict(r.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}
    deck = r.decks[r.default_deck]
    assert (deck.longest_path_bonus, deck.globetrotter_bonus) == (0, 10)
    extra = r.extra
    assert extra["passengers"] == 3
    assert extra["train_deck"] == {"per_color": 11, "loco": 14, "loco4": 6, "passenger": 10}
    assert 8 * 11 + 14 + 6 + 10 == 118
    merch = extra["merchandise"]
    assert merch["printed"] is None  # the printed dots are not known: dealt from the seed
    assert sum(merch["counts"].values()) == 35
    assert sum(len(merch["stacks"][k]) * n for k, n in merch["counts"].items()) == 74
    assert all(v == sorted(v, reverse=True) for v in merch["stacks"].values())  # highest on top


def test_marklin_substitute_ticket_deck(marklin):
    """The Germany deck stands in for the Märklin deck: 89 tickets, 55 short (2-11), 34 long (12-22)."""
    deck = marklin.rules.decks["germany"]
    tickets = [marklin.ticket_by_id[i] for i in deck.tickets]
    assert len(tickets) == 89
    short = [t.points for t in tickets if not t.long]
    long = [t.points for t in tickets if t.long]
    assert (len(short), min(short), max(short)) == (55, 2, 11)
    assert (len(long), min(long), max(long)) == (34, 12, 22)
    assert len({t.a for t in tickets} | {t.b for t in tickets}) == 40
    country = find_ticket(marklin, "berlin", "schweiz", "germany")
    assert country.a_nodes or country.destinations  # a country is reached through its border points
    assert find_ticket(marklin, "mannheim", "stuttgart", "germany").points == 2
