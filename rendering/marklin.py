"""Märklin on the pictures (docs/rules.md §8): the "+4" locomotive and passenger cards, the
merchandise stacks on the cities and the passengers waiting on them.

Kept apart from board.py, which calls in at two points: `cards.card` for the two card kinds,
`board.draw_state` for the stacks and passengers (only when the view has `merchandise`).

- A stack is a disc in its dot's color (Berlin black, red, yellow, white) with the top token's
  value, over one rim per further token, so the value and the count both show; a used-up stack
  leaves an empty ring, so the city's color stays known.
- A passenger is a small figure in its owner's color (a seat number on it in color-blind mode).
- Both sit beside the city, clear of every train space, label, city mark circle (marker, ticket
  ring) and each other where there is room (`_place`); the spots depend only on the map, the
  width and the labels, so they are computed once (cached).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering import fonts
from rendering.draw import card as plain_card
from rendering.draw import disc, paste_centered
from rendering.geometry import MapGeometry, hidden_share, min_text_px
from rendering.shapes import circle_box_overlap, overlap
from rendering.style import INK, ROUTE_COLORS, darker, text_on

CARDS = ("loco4", "passenger")
DOT_FILL = {
    "black": (38, 38, 38),
    "red": ROUTE_COLORS["red"],
    "yellow": ROUTE_COLORS["yellow"],
    "white": (250, 250, 250),
}
PASSENGER_CARD = (120, 84, 52)  # a suitcase brown, unlike every route color
#: Directions tried around a city, nearest the label's usual side (right) first.
_ANGLES = tuple(range(0, 360, 15))


def card(draw: ImageDraw.ImageDraw, box, name: str, radius: int) -> None:
    """A "+4" locomotive (the locomotive's stripes with a large +4) or a passenger card (brown,
    with a traveller's figure)."""
    x0, y0, x1, y1 = box
    cx, cy, h = (x0 + x1) / 2, (y0 + y1) / 2, y1 - y0
    if name == "loco4":
        plain_card(draw, box, "loco", radius=radius)
        fonts.draw_text(
            draw,
            (cx, cy),
            "+4",
            max(9, round(h * 0.62)),
            INK,
            style="bold",
            anchor="mm",
            stroke=max(2, round(h / 12)),
            stroke_fill=(255, 255, 255),
        )
        return
    draw.rounded_rectangle(box, radius=radius, fill=PASSENGER_CARD, outline=darker(PASSENGER_CARD, 0.55), width=2)
    _figure(draw, cx, cy, h * 0.36, (250, 236, 210), darker(PASSENGER_CARD, 0.5))


def _figure(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill, outline) -> None:
    """A person: a head over a rounded body, about 2r tall, centered at (x, y)."""
    w = max(1, round(r / 5))
    head = r * 0.38
    draw.ellipse((x - head, y - r, x + head, y - r + 2 * head), fill=fill, outline=outline, width=w)
    draw.rounded_rectangle(
        (x - r * 0.62, y - r + 2 * head + r * 0.08, x + r * 0.62, y + r),
        radius=max(1, r * 0.35),
        fill=fill,
        outline=outline,
        width=w,
    )


#: A stack's digit, in pixels of the image shown 400 px wide: above the 7 px floor, since a
#: bold digit's ink is only about 0.7 of its size (7 px drew 5 px digits).
DIGIT_PX_AT_400 = 8.5
#: Rims shown under the top token at most (Berlin's stack has four tokens).
MAX_RIMS = 3


def _layout_digit_px(geo: MapGeometry) -> int:
    """A token's digit on the layout (the stacks are placed there and scaled, `spots`)."""
    return math.ceil(DIGIT_PX_AT_400 * geo.base.width / 400)


def digit_px(geo: MapGeometry) -> float:
    return max(min_text_px(geo.width), _layout_digit_px(geo) * geo.factor)


def token_r(geo: MapGeometry) -> float:
    """A token disc: room for its digit."""
    return max(geo.city_r * 1.25, _layout_digit_px(geo) * geo.factor * 0.8)


def rim(geo: MapGeometry) -> float:
    """How far each token under the top one shows below it."""
    return max(1.5, token_r(geo) * 0.22)


def figure_r(geo: MapGeometry) -> float:
    """A waiting passenger's half height."""
    return token_r(geo) * 1.1


def stack_box(geo: MapGeometry, x: float, y: float) -> tuple[float, float, float, float]:
    """What a stack drawn at (x, y) covers, its rims included."""
    r = token_r(geo)
    return (x - r, y - r, x + r, y + r + MAX_RIMS * rim(geo))


#: Passengers of several seats on one city stand this far apart (in figure half heights).
FIGURE_STEP = 0.8


def figures_box(geo: MapGeometry, x: float, y: float, n: int = 2) -> tuple[float, float, float, float]:
    """What `n` passengers drawn side by side around (x, y) cover (placed for two: more than
    two seats waiting on one city is rare)."""
    fr = figure_r(geo)
    half = 0.62 * fr + (n - 1) / 2 * fr * FIGURE_STEP
    return (x - half, y - fr, x + half, y + fr)


_SPOTS: dict[tuple, dict] = {}


def spots(geo: MapGeometry, cities: tuple[int, ...]) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
    """Per city index, where its stack and its passengers go: placed on the layout (cached per
    map and labels), scaled to this image."""
    base, f = geo.base, geo.factor
    key = (base.map_id, base.width, base.names, cities)
    if key not in _SPOTS:
        if len(_SPOTS) > 32:
            _SPOTS.clear()
        _SPOTS[key] = _place(base, cities)
    return {i: tuple((x * f, y * f) for x, y in where) for i, where in _SPOTS[key].items()}


def _place(geo: MapGeometry, cities: tuple[int, ...]) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
    """A stack's spot and a passengers' spot beside each city: clear of every label, every city's
    mark circle (marker, ticket ring), the image edge, the other spots and every train space, and
    nearer their own city than any other; among those, the nearest. The spots with the fewest
    clear places are placed first; where none is left (the passengers of three crowded hubs), the
    place covering the least of those (a corner of a space, never its middle)."""
    r = token_r(geo)
    cars = [c for tg in geo.tracks for c in tg.cars]
    labels = [lb.box for lb in geo.labels]
    marks = [(*geo.cities[j], geo.mark_reach(j)) for j in range(len(geo.cities)) if geo.has_marker(j)]
    options = {}  # (city, shape): [(cost, x, y, box)], cheapest first
    for i in cities:
        x, y = geo.cities[i]
        reach = geo.mark_r + r * 7  # the farthest place tried and its box
        near_cars = [c for c in cars if abs(c.x - x) < reach + c.length and abs(c.y - y) < reach + c.length]
        near_marks = [mk for mk in marks if abs(mk[0] - x) < 2 * reach and abs(mk[1] - y) < 2 * reach]
        near_labels = [b for b in labels if overlap(b, (x - 2 * reach, y - 2 * reach, x + 2 * reach, y + 2 * reach))]
        for shape in (stack_box, figures_box):
            mine = []
            for n in range(10):
                dist = geo.mark_r + r * (1.05 + 0.45 * n)
                for k, angle in enumerate(_ANGLES):
                    px, py = x + dist * math.cos(math.radians(angle)), y + dist * math.sin(math.radians(angle))
                    box = shape(geo, px, py)
                    if box[0] < 1 or box[1] < 1 or box[2] > geo.width - 1 or box[3] > geo.map_height - 1:
                        continue
                    own = math.dist((px, py), (x, y))
                    if any(math.dist((px, py), mk[:2]) < own for mk in near_marks):
                        continue  # it would read as another city's
                    cost = 400.0 * sum(overlap(box, b) for b in near_labels)
                    cost += 400.0 * sum(circle_box_overlap(mx, my, mr, box) for mx, my, mr in near_marks)
                    if cost:  # never taken while a place clear of labels and marks is left
                        mine.append((cost + 0.01 * k + 0.5 * n, px, py, box))
                        continue
                    cost += sum(
                        20.0 + 12.0 * share + 20.0 * (box[0] <= c.x <= box[2] and box[1] <= c.y <= box[3])
                        for c in near_cars
                        if abs(c.x - px) < c.length + 3 * r
                        and abs(c.y - py) < c.length + 3 * r
                        and (share := hidden_share(c, box)) > 0
                    )
                    mine.append((cost + 0.01 * k + 0.5 * n, px, py, box))
            mine.sort()
            options[(i, shape)] = mine or [(0.0, x, y, shape(geo, x, y))]
    clear = {key: sum(1 for o in opts if o[0] < 10) for key, opts in options.items()}
    taken: list[tuple[float, float, float, float]] = []
    where: dict[tuple, tuple[float, float]] = {}
    for key in sorted(options, key=lambda key: (clear[key], key[0])):
        best, best_cost = options[key][0], math.inf
        for o in options[key]:  # cheapest first: the first clear of the spots taken wins
            if o[0] >= best_cost:
                break
            cost = o[0] + 400.0 * sum(overlap(o[3], b) for b in taken)
            if cost < best_cost:
                best, best_cost = o, cost
        where[key] = best[1:3]
        taken.append(best[3])
    return {i: (where[(i, stack_box)], where[(i, figures_box)]) for i in cities}


def draw_board(canvas: Image.Image, m, geo: MapGeometry, view: dict, players: Sequence, colorblind: bool) -> None:
    """Every city's merchandise stack and the passengers waiting on the cities."""
    merch = view["merchandise"]
    cities = tuple(sorted(m.city_by_id[c].index for c in merch))
    where = spots(geo, cities)
    d = ImageDraw.Draw(canvas)
    r = token_r(geo)
    size = digit_px(geo)
    step = rim(geo)
    for cid, info in merch.items():
        (x, y), _ = where[m.city_by_id[cid].index]
        fill = DOT_FILL[info["dot"]]
        edge = darker(fill, 0.45) if info["dot"] != "black" else (150, 150, 150)
        stack = info["stack"]
        if not stack:
            paste_centered(canvas, disc(r * 0.8, edge, None, 1.5, ring_only=True), x, y)
            continue
        for k in range(min(len(stack) - 1, MAX_RIMS), 0, -1):  # the tokens under the top one, as rims below it
            paste_centered(canvas, disc(r, fill, edge, 1.2), x, y + k * step)
        paste_centered(canvas, disc(r, fill, edge, 1.5), x, y)
        fonts.draw_text(d, (x, y), str(stack[0]), size, text_on(fill), style="bold", anchor="mm")
    waiting: dict[str, list[int]] = {}
    for p in view["players"]:
        for cid in p.get("passengers_placed", ()):
            waiting.setdefault(cid, []).append(p["seat"])
    fr = figure_r(geo)
    for cid, seats in waiting.items():
        _, (x, y) = where.get(m.city_by_id[cid].index, ((0, 0), geo.cities[m.city_by_id[cid].index]))
        for k, seat in enumerate(seats):
            px = x + (k - (len(seats) - 1) / 2) * fr * FIGURE_STEP
            color = players[seat].color
            _figure(d, px, y, fr, color, INK)
            if colorblind:
                fonts.draw_text(
                    d,
                    (px, y + fr * 0.45),
                    str(seat + 1),
                    max(min_text_px(geo.width), round(fr)),
                    text_on(color),
                    style="bold",
                    anchor="mm",
                )
