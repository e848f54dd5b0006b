"""Land, sea and borders under the boards: every shipped map has its geography, fitted on the
map's present city positions, with every city on land (the warp put the coasts where the board's
cities say), and the static layer shows it."""

from __future__ import annotations

import math

import pytest

from engine.mapdata import load_map
from rendering import terrain
from rendering.board import map_marks, static_map
from rendering.geometry import geometry
from rendering.words import translator_or_english
from tests.rendering.conftest import MAPS

#: Maps on a coast: their picture shows sea.
COASTAL = {"usa", "europe", "nederland", "nordic", "marklin"}


def _inside(p, ring) -> bool:
    x, y = p
    inside = False
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _to_coast(p, ring) -> float:
    best = math.inf
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
        dx, dy = bx - ax, by - ay
        t = 0.0 if not (dx or dy) else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.dist(p, (ax + t * dx, ay + t * dy)))
    return best


def test_every_map_has_its_geography():
    assert set(MAPS) == {"usa", "europe", "nederland", "switzerland", "nordic", "marklin"}
    for map_id in MAPS:
        shapes = terrain.geography(map_id)
        assert shapes is not None and shapes.land, map_id
        assert shapes.positions == terrain.fitted_on(load_map(map_id)), f"{map_id}: cities moved, rebuild its geography"


@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_stands_on_land(map_id):
    """In pixels of the default picture: a coastal city may sit on its coast line, no farther
    out than its own marker's radius."""
    m = load_map(map_id)
    geo = geometry(m)
    rings = [[geo.point(*p) for p in ring] for _, ring in terrain.geography(map_id).land]
    for c in m.cities:
        if c.kind != "city":
            continue
        p = geo.point(c.x, c.y)
        if not any(_inside(p, r) for r in rings):
            assert min(_to_coast(p, r) for r in rings) <= geo.city_r, (map_id, c.id)


@pytest.mark.parametrize("map_id", MAPS)
def test_static_layer_shows_land_and_sea(map_id):
    m = load_map(map_id)
    geo = geometry(m)
    img = static_map(m, geo, map_marks(m, translator_or_english(None), False))
    colors = dict((c, n) for n, c in img.getcolors(1 << 20))
    area = img.width * img.height
    assert colors.get(terrain.HOME_LAND, 0) > 0.1 * area
    assert (colors.get(terrain.SEA, 0) > 0.05 * area) == (map_id in COASTAL)
    if map_id in ("switzerland", "marklin", "nederland"):  # a national board: the neighbours grayer
        assert colors.get(terrain.FOREIGN_LAND, 0) > 0.03 * area


def test_a_map_without_geography_is_plain_ground():
    assert terrain.geography("no-such-map") is None
