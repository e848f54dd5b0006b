"""Color-blind badges: a car is about 3 px wide on a phone's 400 px, too narrow for any letter, so
color-blind mode writes a track's color letter (unclaimed) or its owner's seat number (claimed)
once per track, on a disc centered on one of its cars and as large as the smallest text; a
station's badge likewise beside its city. Placed once per (map, width, names) and cached."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.mapdata import MapData
from rendering import fonts
from rendering.geometry import HIDDEN_SPACE_COST, MapGeometry, geometry, min_text_px, space_hider, toll_spots
from rendering.shapes import circle_box_overlap, overlap


@dataclass(frozen=True, slots=True)
class Badge:
    x: float
    y: float
    r: float


def badge_text_px(width: int) -> int:
    """A badge's letter or digit: the smallest text size (7 px at 400 px wide)."""
    return min_text_px(width)


def badge_radius(width: int, letters: tuple[str, ...]) -> float:
    """A disc that holds the widest of `letters` (and every seat digit) at the badge size."""
    size = badge_text_px(width)
    extent = 0.0
    for text in tuple(letters) + tuple("0123456789"):
        text = fonts.clean_text(text, "bold")
        if text:
            x0, y0, x1, y1 = fonts.Text(text, size, "bold").ink_box(0, 0)
            extent = max(extent, x1 - x0, y1 - y0)
    return round(extent / 2 + badge_pad(width), 1)


def badge_pad(width: int) -> float:
    """A badge's margin round its letter."""
    return max(2.0, width / 500)


#: What a badge position costs: each point along another track's cars it covers (forbidden when
#: a position covering none exists), each car away from the track's middle, a shift off the car.
BADGE_COVER_COST = 10.0
BADGE_STEP_COST = 1.0
BADGE_SHIFT_COST = 2.0


def _car_cover(geo: MapGeometry, r: float, middles: bool = False):
    """covered(track, x, y, also): how many points along other tracks' cars (not `track`'s, nor
    `also`'s) a disc of radius r at (x, y) reaches (track -1: every track's); `middles`: only
    the cars' middles (where a claim's color shows)."""
    reach = r + geo.car_width / 2
    grid: dict[tuple[int, int], list[tuple[int, float, float]]] = {}  # car samples by cell of `reach`
    for tg in geo.tracks:
        for c in tg.cars:
            for px, py in [(c.x, c.y)] if middles else c.samples():
                grid.setdefault((int(px // reach), int(py // reach)), []).append((tg.index, px, py))

    def covered(track: int, x: float, y: float, also: int = -1) -> int:
        gx, gy = int(x // reach), int(y // reach)
        return sum(
            1
            for i in (-1, 0, 1)
            for j in (-1, 0, 1)
            for ti, px, py in grid.get((gx + i, gy + j), ())
            if ti != track and ti != also and (px - x) ** 2 + (py - y) ** 2 < reach * reach
        )

    return covered


def place_badges(m: MapData, geo: MapGeometry, r: float) -> tuple[Badge, ...]:
    """One badge per track (in track order), on one of its cars or shifted across it: never over
    a label, a city marker, a toll coin, another badge or the image edge; covering as little of
    other tracks' cars as it can (one track's badge must not read as its neighbour's)."""
    covered = _car_cover(geo, r)
    on_middle = _car_cover(geo, r, middles=True)
    boxes = [lab.box for lab in geo.labels]
    boxes += [geo.city_box(j, grow=1) for j in range(len(geo.cities)) if geo.has_marker(j)]
    boxes += [(x - rr, y - rr, x + rr, y + rr) for _, x, y, rr, _ in toll_spots(m, geo)]
    cell = 4 * r
    near_boxes: dict[tuple[int, int], list] = {}  # each box in every cell of `cell` it touches
    for b in boxes:
        for gx in range(int((b[0] - r) // cell), int((b[2] + r) // cell) + 1):
            for gy in range(int((b[1] - r) // cell), int((b[3] + r) // cell) + 1):
                near_boxes.setdefault((gx, gy), []).append(b)
    W, H = geo.width, geo.map_height
    shift = r - geo.car_width / 2 + 1
    tight = r - badge_pad(geo.width) + 0.5
    options: list[list[tuple[float, float, float, float]]] = []  # per track: (cost, x, y, radius), best first
    full: list[int] = []  # per track: how many of its options are full-size discs
    for tg in geo.tracks:
        t = m.tracks[tg.index]
        mid = (len(tg.cars) - 1) / 2
        twin = -1 if t.double is None else t.double
        spots = []  # (cars from the track's middle, x, y): on each car, a third of it to either side, and between cars
        for k, c in enumerate(tg.cars):
            if k < t.ferry < len(tg.cars):  # keep a ferry's locomotive discs seen
                continue
            a = math.radians(c.angle)
            for f in (0.0, -0.3, 0.3, -0.42, 0.42):
                spots.append((k + f, c.x + f * c.length * math.cos(a), c.y + f * c.length * math.sin(a)))
        spots += [(k + 0.5, (a.x + b.x) / 2, (a.y + b.y) / 2) for k, (a, b) in enumerate(zip(tg.cars, tg.cars[1:]))]
        mine = []
        # on the track or beside it (2: touching it); after every full-size place, a disc just
        # round the letter (two short tracks of a double squeezed between labels)
        for rr in (r, tight):
            for k, x0, y0 in spots:
                for side in (0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2):
                    x, y = x0 + side * shift * tg.normal[0], y0 + side * shift * tg.normal[1]
                    if x - rr < 1 or y - rr < 1 or x + rr > W - 1 or y + rr > H - 1:
                        continue
                    if any(
                        circle_box_overlap(x, y, rr, b) for b in near_boxes.get((int(x // cell), int(y // cell)), ())
                    ):
                        continue
                    near = covered(tg.index, x, y)
                    cover = covered(tg.index, x, y, twin) if twin >= 0 and near else near
                    # the double's other track counts a fifth: touching it cannot be misread
                    cost = (
                        BADGE_COVER_COST * (cover + 0.2 * (near - cover))
                        + BADGE_STEP_COST * abs(k - mid)
                        + BADGE_SHIFT_COST * abs(side)
                    )
                    middle = cover and on_middle(tg.index, x, y, twin) > 0
                    mine.append((middle, cover > 0, rr < r, cost, x, y, rr))
        # a disc just round the letter before one over another route's car, and anything before
        # one over another route's car's middle
        mine.sort()
        options.append([o[3:] for o in mine])
        full.append(
            sum(1 for o in mine if not o[1]) or sum(1 for o in mine if not o[0]) or sum(1 for o in mine if not o[2])
        )
    chosen: dict[int, tuple[float, float, float]] = {}  # track: (x, y, radius)

    def apart(a, b) -> bool:
        return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= (a[2] + b[2] + 1) ** 2

    def clear(i: int, spot, skip: int = -1) -> bool:
        return all(apart(spot, other) for j, other in chosen.items() if j not in (i, skip))

    stuck = []
    for i in sorted(range(len(options)), key=lambda i: (full[i] or len(options[i]), i)):  # most constrained first
        pick = next((o[1:] for o in options[i][: full[i]] if clear(i, o[1:])), None)
        if pick is None:
            stuck.append(i)
        else:
            chosen[i] = pick
    # repair, in the order of its places (full-size ones first): one that is clear, or moving
    # one neighbour in the way to another of its places
    for i in stuck:
        for o in options[i]:
            near = [j for j, other in chosen.items() if not apart(o[1:], other)]
            if not near:
                chosen[i] = o[1:]
                break
            if len(near) != 1:
                continue
            j = near[0]
            alt = next((a[1:] for a in options[j] if apart(a[1:], o[1:]) and clear(j, a[1:], i)), None)
            if alt:
                chosen[j], chosen[i] = alt, o[1:]
                break
        else:  # nowhere clear of the others: the middle car (a test checks this never happens)
            c = geo.tracks[i].cars[len(geo.tracks[i].cars) // 2]
            chosen[i] = (c.x, c.y, r)
    return tuple(Badge(*chosen[i]) for i in range(len(geo.tracks)))


@lru_cache(maxsize=32)
def _badges(map_id: str, sha: str, width: int, names: tuple[str, ...] | None, r: float) -> tuple[Badge, ...]:
    from engine.mapdata import load_map

    m = load_map(map_id)
    return place_badges(m, geometry(m, width, names), r)


def _scaled(placed: tuple, f: float) -> tuple:
    """Badges placed on the layout, on an image `f` times its size."""
    return tuple(b if b is None else Badge(b.x * f, b.y * f, b.r * f) for b in placed)


def badges(m: MapData, geo: MapGeometry, letters: tuple[str, ...]) -> tuple[Badge, ...]:
    """The color-blind badges of every track, placed on the layout (cached per map, city names and
    letter size) and scaled to this image."""
    from engine.mapdata import load_map

    base = geo.base
    r = badge_radius(base.width, letters)
    try:
        if load_map(m.id).sha256 == m.sha256:
            return _scaled(_badges(m.id, m.sha256, base.width, base.names, r), geo.factor)
    except KeyError:
        pass
    return _scaled(place_badges(m, base, r), geo.factor)


#: A station's house against a city's radius (board.py draws it; its seat number sits beside it).
STATION_SCALE = 2.0  # its corners reach 1.77 radii: inside the mark circle (MARK_SCALE)
#: The half-side of a station number's square against its place's radius.
STATION_TAG = 0.8


def place_station_badges(m: MapData, geo: MapGeometry, r: float, placed: tuple[Badge, ...]) -> tuple[Badge | None, ...]:
    """Color-blind mode, maps with stations: per city, where its station's seat number goes, a
    disc at the smallest text size touching the house (a number on the house itself would be
    3 px high at 400 px). Never over a label, another city's marker, a toll coin, the image
    edge, a track's badge (`placed`) or another city's square; hiding as little of the train
    spaces as it can, ranked as labels are (`space_hider`). None for a map without stations or
    a city without a marker."""
    if not m.rules.stations:
        return tuple(None for _ in m.cities)
    house = geo.city_r * STATION_SCALE * 0.62  # the house's half-width, its outline included
    hidden = space_hider(geo)
    boxes = [lab.box for lab in geo.labels] + [
        (x - rr, y - rr, x + rr, y + rr) for _, x, y, rr, _ in toll_spots(m, geo)
    ]
    taken = list(placed)
    W, H = geo.width, geo.map_height
    options: list[list[tuple]] = []  # per city: (level, tight, cost, x, y, radius), best first
    far = house + r * 2.5
    for i, (cx, cy) in enumerate(geo.cities):
        mine = []
        around = (cx - far, cy - far, cx + far, cy + far)
        near_boxes = [b for b in boxes if overlap(b, around)]
        houses = [
            p for j, p in enumerate(geo.cities) if j != i and geo.has_marker(j) and math.dist(p, (cx, cy)) < far + house
        ]
        for rr in (r, r - badge_pad(geo.width) + 0.5):  # and a tag just round the digit, where that hides less
            for dist, extra in (
                (house + rr * 0.5, 1.0),
                (house + rr * 0.75, 0.0),
                (house + rr * 1.05, 3.0),
                (house + rr * 1.4, 6.0),
            ):
                for step in range(24):  # around the house, the lower right first
                    a = math.radians(45 + step * 15)
                    x, y = cx + dist * math.cos(a), cy + dist * math.sin(a)
                    if x - rr < 1 or y - rr < 1 or x + rr > W - 1 or y + rr > H - 1:
                        continue
                    if any(circle_box_overlap(x, y, rr, b) for b in near_boxes):
                        continue
                    if any(math.dist(p, (x, y)) < house + rr for p in houses):  # another city's house
                        continue
                    h = STATION_TAG * rr  # the square drawn (its corners rounded)
                    total, level = hidden((x - h, y - h, x + h, y + h))
                    mine.append(
                        (level, rr < r, HIDDEN_SPACE_COST * total + extra + 0.1 * min(step, 24 - step), x, y, rr)
                    )
        options.append(sorted(mine) if geo.has_marker(i) else [])
    out: list[Badge | None] = [None] * len(geo.cities)
    for i in sorted(range(len(options)), key=lambda i: (len(options[i]), i)):  # most constrained first
        for *_, x, y, rr in options[i]:
            if all((x - b.x) ** 2 + (y - b.y) ** 2 >= (rr + b.r + 1) ** 2 for b in taken):
                out[i] = Badge(x, y, rr)
                taken.append(out[i])
                break
    return tuple(out)


@lru_cache(maxsize=32)
def _station_badges(
    map_id: str, sha: str, width: int, names: tuple[str, ...] | None, r: float
) -> tuple[Badge | None, ...]:
    from engine.mapdata import load_map

    m = load_map(map_id)
    return place_station_badges(m, geometry(m, width, names), r, _badges(map_id, sha, width, names, r))


def station_badges(m: MapData, geo: MapGeometry, letters: tuple[str, ...]) -> tuple[Badge | None, ...]:
    """Where each city's station shows its seat number in color-blind mode (placed and scaled
    like `badges`)."""
    from engine.mapdata import load_map

    base = geo.base
    r = badge_radius(base.width, letters)
    try:
        if load_map(m.id).sha256 == m.sha256:
            return _scaled(_station_badges(m.id, m.sha256, base.width, base.names, r), geo.factor)
    except KeyError:
        pass
    return _scaled(place_station_badges(m, base, r, place_badges(m, base, r)), geo.factor)


def badge_conflicts(m: MapData, geo: MapGeometry, placed: tuple[Badge, ...]) -> list[tuple[str, str, object]]:
    """What breaks the badge rule, for the tests: (track id, what, which) for a badge over a
    label, a city marker, a toll coin, the image edge or another badge, or over another track's car."""
    out = []
    for tg, b in zip(geo.tracks, placed):
        tid = m.tracks[tg.index].id
        if b.x - b.r < 0 or b.y - b.r < 0 or b.x + b.r > geo.width or b.y + b.r > geo.map_height:
            out.append((tid, "edge", None))
        out += [
            (tid, "label", m.cities[lab.city].id) for lab in geo.labels if circle_box_overlap(b.x, b.y, b.r, lab.box)
        ]
        out += [
            (tid, "marker", m.cities[j].id)
            for j in range(len(geo.cities))
            if geo.has_marker(j) and circle_box_overlap(b.x, b.y, b.r, geo.city_box(j))
        ]
        out += [
            (tid, "toll", m.tracks[ti].id)
            for ti, x, y, rr, _ in toll_spots(m, geo)
            if math.dist((x, y), (b.x, b.y)) < rr + b.r
        ]
        out += [
            (tid, "badge", m.tracks[o.index].id)
            for o, ob in zip(geo.tracks, placed)
            if o.index > tg.index and math.dist((b.x, b.y), (ob.x, ob.y)) < b.r + ob.r
        ]
        out += [
            (tid, "car", m.tracks[o.index].id)
            for o in geo.tracks
            if o.index != tg.index
            if any(math.dist((c.x, c.y), (b.x, b.y)) < b.r + geo.car_width / 2 for c in o.cars)
        ]
    return out
