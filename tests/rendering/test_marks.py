"""No mark covers a city's name: ticket rings, stations and their lights, Märklin's stacks and
passengers (drawn over the labels) keep out of every label's box, and on a board carrying every
mark at once (every city ringed and with a station, every route lit, claims, stacks, passengers)
every label's letters are still drawn in ink (the magenta ring cut Essen to "Esser" before)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from engine.mapdata import load_map
from rendering import fonts
from rendering.board import board_image
from rendering.geometry import geometry
from rendering.sample import synthetic_view, with_seat
from rendering.shapes import circle_box_overlap, overlap
from rendering.style import INK, default_players
from rendering.words import translator_or_english
from tests.rendering.conftest import MAPS


def crowded_view(m):
    """A view with a station on every city (the map's seats in turn) and Märklin's passengers on
    the busiest cities."""
    view = synthetic_view(m, seats=min(4, m.rules.max_players), seed=3)
    view = with_seat(view, m, 0)
    seats = len(view["players"])
    view["stations"] = {c.id: k % seats for k, c in enumerate(m.cities) if c.kind == "city"}
    return view


def render_crowded(map_id: str):
    m = load_map(map_id)
    view = crowded_view(m)
    t = translator_or_english(None)
    img, geo, _ = board_image(
        view,
        m,
        default_players(len(view["players"])),
        t=t,
        ring_cities=[c.id for c in m.cities],
        glow=[tr.id for tr in m.tracks[::2]],
        claimable=[tr.id for tr in m.tracks[1::2]],
        legend=[("ring", "ticket city")],
    )
    return m, view, img, geo


def hidden_ink(img: Image.Image, lab) -> float:
    """The share of a label's solid letter pixels (its text drawn alone) that the picture does not
    show in ink."""
    x0, y0, x1, y1 = (int(v) for v in lab.box)
    patch = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    d = ImageDraw.Draw(patch)
    for text, (x, y) in zip(lab.lines, lab.origins):
        fonts.draw_text(d, (x - x0, y - y0), text, lab.size, 255, style="label")
    solid = [(px, py) for py in range(patch.height) for px in range(patch.width) if patch.getpixel((px, py)) >= 250]
    wrong = [p for p in solid if sum(abs(a - b) for a, b in zip(img.getpixel((x0 + p[0], y0 + p[1])), INK)) > 90]
    return len(wrong) / max(1, len(solid))


def covered_labels(map_id: str) -> list[str]:
    """The cities whose label has letters drawn over by something else, on the crowded board."""
    m, _, img, geo = render_crowded(map_id)
    return [m.cities[lab.city].id for lab in geo.labels if hidden_ink(img, lab) > 0.02]


@pytest.mark.parametrize("map_id", MAPS)
def test_no_mark_box_overlaps_a_label(map_id):
    """What is drawn over the labels, by its box: a city's ticket ring, station and a lit
    station's light are within its mark circle; Märklin's stacks and passengers in their boxes."""
    from rendering import marklin

    m = load_map(map_id)
    geo = geometry(m)
    marks = [
        ("circle", m.cities[j].id, (x, y, geo.mark_reach(j)))
        for j, (x, y) in enumerate(geo.cities)
        if geo.has_marker(j)
    ]
    if m.id == "marklin":
        cities = tuple(c.index for c in m.cities if c.kind == "city")
        for i, (stack, people) in marklin.spots(geo, cities).items():
            marks.append(("box", m.cities[i].id, marklin.stack_box(geo, *stack)))
            marks.append(("box", m.cities[i].id, marklin.figures_box(geo, *people)))
    covering = [
        (m.cities[lab.city].id, what)
        for lab in geo.labels
        for kind, what, shape in marks
        if (circle_box_overlap(*shape, lab.box) if kind == "circle" else overlap(shape, lab.box))
    ]
    assert covering == []


@pytest.mark.parametrize("map_id", MAPS)
def test_every_label_reads_on_a_board_with_every_mark(map_id):
    assert covered_labels(map_id) == []


def test_the_check_sees_a_covered_label():
    """The pixel check fails when a mark is drawn over a name."""
    m, _, img, geo = render_crowded("europe")
    lab = next(lab for lab in geo.labels if m.cities[lab.city].id == "essen")
    assert hidden_ink(img, lab) <= 0.02
    x0, y0, x1, y1 = lab.box
    ImageDraw.Draw(img).ellipse((x1 - 14, y0, x1 + 6, y1), outline=(224, 0, 122), width=4)
    assert hidden_ink(img, lab) > 0.02
