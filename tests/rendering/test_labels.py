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


@pytest.mark.parametrize("map_id", MAPS)
def test_label_boxes_cover_the_drawn_text(map_id):
    """The boxes the test checks are the ones drawn: every label's ink lies inside its box."""
    from rendering import fonts

    m = load_map(map_id)
    geo = geometry(m)
    for lab in geo.labels:
        for text, (x, y) in zip(lab.lines, lab.origins):
            l, t, r, b = fonts.Text(fonts.clean_text(text, "label"), lab.size, "label").ink_box(x, y)
            assert lab.box[0] <= l and r <= lab.box[2] and lab.box[1] <= t and b <= lab.box[3]
        assert " ".join(lab.lines) == m.cities[lab.city].name
