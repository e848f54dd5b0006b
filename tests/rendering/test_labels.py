"""Legibility on a phone: the image shown 400 px wide has city labels at least 7 px high, and no
label box overlaps another label, a city (or border point) marker or the image edge."""

from __future__ import annotations

import pytest

from engine.mapdata import load_map
from i18n import translator
from rendering.geometry import _line_splits, geometry, label_conflicts
from rendering.words import city_names
from tests.rendering.conftest import MAPS

PHONE = 400
MIN_PX = 7


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("width", [None, 1000])
def test_labels_readable_and_apart(map_id, width):
    m = load_map(map_id)
    geo = geometry(m, width)
    k = PHONE / geo.width
    assert len(geo.labels) == sum(1 for c in m.cities if c.kind != "border")  # border points carry no label
    for lab in geo.labels:
        assert lab.size * k >= MIN_PX  # text size (em)
        assert (lab.box[3] - lab.box[1]) * k >= MIN_PX  # the label's box as drawn
        assert 0 <= lab.box[0] and lab.box[2] <= geo.width and 0 <= lab.box[1] and lab.box[3] <= geo.map_height
    assert label_conflicts(geo) == []


TRANSLATED_MAPS = [m for m in MAPS if any(load_map(m).cities[0].names.get(lang) for lang in ("ru", "zh"))]


def test_usa_and_europe_have_translated_city_names():
    assert {"usa", "europe"} <= set(TRANSLATED_MAPS)


@pytest.mark.parametrize("map_id", TRANSLATED_MAPS)
@pytest.mark.parametrize("language", ["ru", "zh"])
def test_translated_labels_readable_and_apart(map_id, language):
    """The same rule with the city names of another language (the maps that have them)."""
    m = load_map(map_id)
    geo = geometry(m, None, city_names(translator(language, "translated"), m))
    k = PHONE / geo.width
    assert len(geo.labels) == sum(1 for c in m.cities if c.kind != "border")
    for lab in geo.labels:
        assert (lab.box[3] - lab.box[1]) * k >= MIN_PX
        assert 0 <= lab.box[0] and lab.box[2] <= geo.width and 0 <= lab.box[1] and lab.box[3] <= geo.map_height
    assert label_conflicts(geo) == []


def test_long_names_split_on_two_lines():
    assert _line_splits("Salt Lake City") == [("Salt Lake City",), ("Salt", "Lake City")]
    assert _line_splits("Солт-Лейк-Сити") == [("Солт-Лейк-Сити",), ("Солт-", "Лейк-Сити")]
    assert _line_splits("'s-Gravenhage") == [("'s-Gravenhage",)]  # "'s" is too short to stand alone
    assert _line_splits("芝加哥") == [("芝加哥",)]
    assert _line_splits("⟦Ķáñśáś Ćíţý⟧") == [("⟦Ķáñśáś Ćíţý⟧",), ("⟦Ķáñśáś⟧", "⟦Ćíţý⟧")]  # pseudo-locale marks


@pytest.mark.parametrize("map_id", MAPS)
def test_label_boxes_cover_the_drawn_text(map_id):
    """The boxes the test checks are the ones drawn: every label's ink lies inside its box."""
    from rendering import fonts

    m = load_map(map_id)
    geo = geometry(m)
    for lab in geo.labels:
        for text, (x, y) in zip(lab.lines, lab.origins):
            x0, y0, x1, y1 = fonts.Text(fonts.clean_text(text, "label"), lab.size, "label").ink_box(x, y)
            assert lab.box[0] <= x0 and x1 <= lab.box[2] and lab.box[1] <= y0 and y1 <= lab.box[3]
        assert " ".join(lab.lines) == m.cities[lab.city].name


def _labels_in(map_id: str, language: str):
    m = load_map(map_id)
    names = city_names(translator(language, "translated"), m) if language != "en" else None
    return m, geometry(m, None, names)


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("language", ["en", "ru", "zh"])
def test_labels_leave_train_spaces_and_toll_coins_visible(map_id, language):
    """No label covers a toll coin; at most 3 labels a map (of 36-47) cover the middle of a train
    space, none more than one (before: up to 26 labels over parts of spaces, Antwerpen over 59 %
    of a coin, 君士坦丁堡 over a claimed route)."""
    from rendering.geometry import toll_spots

    m, geo = _labels_in(map_id, language)
    for _, x, y, r, _ in toll_spots(m, geo):
        coin = (x - r, y - r, x + r, y + r)
        assert not [lab.city for lab in geo.labels if _box_overlap(lab.box, coin)], (x, y)
    covering = {}
    for lab in geo.labels:
        n = sum(1 for t in geo.tracks for c in t.cars if lab.box[0] <= c.x <= lab.box[2] and lab.box[1] <= c.y <= lab.box[3])
        if n:
            covering[m.cities[lab.city].name] = n
    assert len(covering) <= 3 and all(n == 1 for n in covering.values()), covering


def test_constantinople_in_chinese_leaves_its_routes_visible():
    m, geo = _labels_in("europe", "zh")
    lab = next(x for x in geo.labels if m.cities[x.city].name == "Constantinople")
    assert not any(lab.box[0] <= c.x <= lab.box[2] and lab.box[1] <= c.y <= lab.box[3] for t in geo.tracks for c in t.cars)


def _box_overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("map_id", MAPS)
def test_cars_of_different_routes_never_overlap(map_id):
    """Spaces from the map data, or laid out evenly where the map has none (Nederland: 39 pairs
    of cars of different routes overlapped near the cities before)."""
    from rendering.geometry import car_overlaps

    m = load_map(map_id)
    assert car_overlaps(m, geometry(m)) == []
    assert car_overlaps(m, geometry(m, 1000)) == []
