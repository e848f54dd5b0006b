"""Legibility on a phone: the image shown 400 px wide has city labels at least 7 px high, and no
label box overlaps another label, a city (or border point) marker or the image edge."""

from __future__ import annotations

import pytest

from engine.mapdata import load_map
from rendering.geometry import geometry, label_conflicts
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


@pytest.mark.parametrize("map_id", MAPS)
def test_label_boxes_cover_the_drawn_text(map_id):
    """The boxes the test checks are the ones drawn: every label's ink lies inside its box."""
    from rendering import fonts

    m = load_map(map_id)
    geo = geometry(m)
    for lab in geo.labels:
        for text, (x, y) in zip(lab.lines, lab.origins):
            l, t, r, b = fonts.Text(text, lab.size, "label").ink_box(x, y)
            assert lab.box[0] <= l and r <= lab.box[2] and lab.box[1] <= t and b <= lab.box[3]
        assert " ".join(lab.lines) == fonts.clean_text(m.cities[lab.city].name, "label")
