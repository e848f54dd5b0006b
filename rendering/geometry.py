"""Where things go on a board image: projection, train cars, city markers and city labels.

Everything here depends only on the map data and the image width, so it is computed once per
(map, width) and cached. The layout (where each label goes; `badges` and `marklin` place theirs
on it too) is decided once, at the map's layout width (`layout_width`), and an image of any other
width is that layout scaled: what is clear of everything at one width is clear at every width.
Maps without train-space positions (Nederland) get cars laid out evenly on the straight line
between the two cities, the two tracks of a double route offset to either side.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache

from engine.mapdata import MapData
from i18n.translator import MARK_CLOSE, MARK_OPEN
from rendering import fonts
from rendering.shapes import circle_box_overlap, clip_area, moved, overlap, polygons_overlap

#: City label text size, in pixels of the image shown 400 px wide (the phone-legibility rule is 7).
LABEL_PX_AT_400 = 7.5
HALO = 3  # label halo (stroke) width at 1280 px; scales with the image
#: The layout's frame: 1280 px wide, or less for a portrait map so the map is at most 1500 px tall.
LAYOUT_WIDTH, LAYOUT_HEIGHT = 1280, 1500
#: A board image's default size against its layout: 960 px wide (a portrait map at most 1125 px
#: tall), a third fewer bytes than the layout's own size and still 2.4 px for each px a phone shows.
IMAGE_SCALE = 0.75
BORDER_SCALE = 2.0  # a border point's diamond (with the country's initial) against a city's radius
#: How far the marks drawn on a city (ticket ring, station, its light) reach, against a city's radius.
MARK_SCALE = 1.8
#: The smallest text of any image, in pixels of the image shown 400 px wide (a phone's first view).
MIN_TEXT_AT_400 = 7.05


def min_text_px(width: int) -> int:
    """The smallest text size allowed in an image `width` px wide."""
    return math.ceil(MIN_TEXT_AT_400 * width / 400)


@dataclass(frozen=True, slots=True)
class Car:
    x: float
    y: float
    angle: float  # degrees, clockwise on screen
    length: float
    width: float

    def polygon(
        self,
        grow: float = 0.0,
        scale: float = 1.0,
        dx: float = 0.0,
        dy: float = 0.0,
        length_f: float = 1.0,
        width_f: float = 1.0,
    ) -> list[tuple[float, float]]:
        a = math.radians(self.angle)
        ux, uy = math.cos(a), math.sin(a)
        hl = self.length * length_f / 2 + grow
        hw = self.width * width_f / 2 + grow
        cx, cy = self.x, self.y
        pts = [(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]
        return [((cx + px * ux - py * uy - dx) * scale, (cy + px * uy + py * ux - dy) * scale) for px, py in pts]

    def samples(self) -> list[tuple[float, float]]:
        a = math.radians(self.angle)
        ux, uy = math.cos(a), math.sin(a)
        return [(self.x + f * self.length * ux, self.y + f * self.length * uy) for f in (-0.45, -0.22, 0, 0.22, 0.45)]


@dataclass(frozen=True, slots=True)
class TrackGeom:
    index: int
    cars: tuple[Car, ...]
    mid: tuple[float, float]  # middle of the route (between the two tracks of a double)
    normal: tuple[float, float]  # unit vector across the route

    def bbox(self, grow: float = 0.0) -> tuple[float, float, float, float]:
        pts = [p for c in self.cars for p in c.polygon(grow)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True, slots=True)
class Label:
    city: int
    lines: tuple[str, ...]  # the name's lines as given (fonts.draw_text cleans what it draws)
    size: float  # whole pixels at the layout; a scaled label's can be fractional (`_fitted_label`)
    origins: tuple[tuple[float, float], ...]  # (x, baseline) of each line
    box: tuple[float, float, float, float]  # ink box grown by the halo: what may not overlap


@dataclass(frozen=True, slots=True)
class MapGeometry:
    map_id: str
    width: int  # image width
    map_height: int  # height of the map area (the panel goes below)
    pad: float
    inner_w: float
    inner_h: float
    pitch: float  # typical distance between car centers
    car_width: float
    city_r: float
    halo: float  # whole pixels at the layout, half pixels scaled
    label_size: int
    cities: tuple[tuple[float, float], ...]
    tracks: tuple[TrackGeom, ...]
    labels: tuple[Label, ...]
    #: Each city's kind (engine.mapdata.City.kind): "city" (a marker and a label), "border" (a
    #: country's border point: a small border marker, no label), "country" (a label only).
    kinds: tuple[str, ...] = ()
    #: The city names the labels show (one per city); None: as printed on the board.
    names: tuple[str, ...] | None = None
    #: Map units to pixels: the board's width / height, the content box's corner (board units:
    #: height 1) and pixels per board unit (`point`).
    aspect: float = 1.0
    origin: tuple[float, float] = (0.0, 0.0)
    scale: float = 1.0
    #: The layout this geometry scales (None: it is the layout, at the map's layout width).
    layout: MapGeometry | None = None

    @property
    def base(self) -> MapGeometry:
        """The layout-width geometry everything is placed on."""
        return self.layout or self

    @property
    def factor(self) -> float:
        """This image's pixels per layout pixel."""
        return self.width / self.base.width

    def point(self, nx: float, ny: float) -> tuple[float, float]:
        """A position in the map file's units (x of the board's width, y of its height) in pixels."""
        return self.pad + (nx * self.aspect - self.origin[0]) * self.scale, self.pad + (
            ny - self.origin[1]
        ) * self.scale

    def has_marker(self, i: int) -> bool:
        return not self.kinds or self.kinds[i] != "country"

    def city_box(self, i: int, grow: float = 0.0) -> tuple[float, float, float, float]:
        x, y = self.cities[i]
        r = (self.border_r if self.kinds and self.kinds[i] == "border" else self.city_r) + grow
        return x - r, y - r, x + r, y + r

    @property
    def mark_r(self) -> float:
        """How far a city's marks reach from its center: the ticket ring, a station's house, a lit
        station's light (labels keep out of this circle, `place_labels`)."""
        return self.city_r * MARK_SCALE

    def mark_reach(self, i: int) -> float:
        """The mark circle of city i (a border point's diamond may reach farther)."""
        return max(self.mark_r, self.border_r) if self.kinds and self.kinds[i] == "border" else self.mark_r

    @property
    def border_letter(self) -> int:
        """A border point's initial: the smallest text size (7 px at 400 px wide) or more."""
        return max(round(self.city_r * 1.9), min_text_px(self.width))

    @property
    def border_r(self) -> float:
        """Half the diagonal of a border point's diamond: room for its initial."""
        return max(self.city_r * BORDER_SCALE, self.border_letter * 0.86)


def content_box(m: MapData) -> tuple[float, float, float, float]:
    """Bounding box of the cities and train spaces in board units (height = 1, width = aspect):
    the image shows this part of the board frame, at one scale for both axes."""
    xs = [c.x for c in m.cities] + [x for t in m.tracks for x, _, _ in t.spaces]
    ys = [c.y for c in m.cities] + [y for t in m.tracks for _, y, _ in t.spaces]
    return min(xs) * m.aspect, min(ys), max(xs) * m.aspect, max(ys)


def layout_width(map_data: MapData) -> int:
    """The width a map's layout is decided at (`LAYOUT_WIDTH`, less for a portrait map)."""
    x0, y0, x1, y1 = content_box(map_data)
    return int(min(LAYOUT_WIDTH, round(LAYOUT_HEIGHT * (x1 - x0) / (y1 - y0))))


def map_width_for(map_data: MapData, width: int | None) -> int:
    """An image's width: `width`, or by default the layout's scaled by `IMAGE_SCALE`."""
    if width is not None:
        return int(width)
    return round(layout_width(map_data) * IMAGE_SCALE)


@lru_cache(maxsize=32)
def _geometry(map_id: str, sha: str, width: int, names: tuple[str, ...] | None) -> MapGeometry:
    from engine.mapdata import load_map

    m = load_map(map_id)
    assert m.sha256 == sha
    return build_geometry(m, width, names)


def geometry(map_data: MapData, width: int | None = None, names: tuple[str, ...] | None = None) -> MapGeometry:
    """The layout at a width; `names` are the city names to label (one per city, in the viewer's
    language; None: as printed), so the labels are placed for the names actually drawn."""
    from engine.mapdata import load_map

    w = map_width_for(map_data, width)
    if names == tuple(c.name for c in map_data.cities):
        names = None  # printed names: one cache entry whatever the language
    try:
        if load_map(map_data.id).sha256 == map_data.sha256:
            return _geometry(map_data.id, map_data.sha256, w, names)
    except KeyError:
        pass
    return build_geometry(map_data, w, names)  # a map not shipped in engine/maps (tests): not cached


def _laid_cars(m: MapData, t, cities, clear_a: float, clear_b: float, car_w: float) -> tuple[Car, ...]:
    """A track's cars evenly on the straight line between its cities, `clear_a` / `clear_b` from
    each (a map without space positions); the tracks of a double route to either side."""
    a, b = cities[t.a], cities[t.b]
    d = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    normal = (-uy, ux)
    usable, start = d - clear_a - clear_b, clear_a
    if usable < d * 0.3:
        usable, start = d * 0.3, d * 0.35
    step = usable / t.length
    off = 0.68 * car_w * (1 if t.index < t.double else -1) if t.double is not None else 0.0
    ang = math.degrees(math.atan2(uy, ux))
    return tuple(
        Car(
            a[0] + ux * (start + step * (k + 0.5)) + normal[0] * off,
            a[1] + uy * (start + step * (k + 0.5)) + normal[1] * off,
            ang,
            step * 0.86,
            car_w,
        )
        for k in range(t.length)
    )


def _overlapping_cars(m: MapData, laid: dict) -> list:
    """(track, track, car, car) for cars of different routes whose rectangles overlap."""
    cars = [(ti, c) for ti, cs in laid.items() for c in cs]
    reach = max((max(c.length, c.width) for _, c in cars), default=0.0)
    out = []
    for i, (ti, ci) in enumerate(cars):
        pi = ci.polygon()
        for tj, cj in cars[i + 1 :]:
            if ti == tj or m.tracks[ti].double == tj or abs(ci.x - cj.x) > reach or abs(ci.y - cj.y) > reach:
                continue
            if polygons_overlap(pi, cj.polygon()):
                out.append((ti, tj, ci, cj))
    return out


def car_overlaps(m: MapData, geo: MapGeometry) -> list[tuple[str, str]]:
    """Tracks of different routes whose cars overlap in this geometry (none, on every map)."""
    laid = {tg.index: tg.cars for tg in geo.tracks}
    return sorted({(m.tracks[a].id, m.tracks[b].id) for a, b, _, _ in _overlapping_cars(m, laid)})


def build_geometry(m: MapData, width: int, names: tuple[str, ...] | None = None) -> MapGeometry:
    """The geometry at `width`: the layout width's, scaled."""
    if width == layout_width(m):
        return _layout(m, names)
    return scaled(geometry(m, layout_width(m), names), width)


def scaled(layout: MapGeometry, width: int) -> MapGeometry:
    """`layout` drawn `width` px wide: every position and length times the same factor."""
    f = width / layout.width

    def car(c: Car) -> Car:
        return Car(c.x * f, c.y * f, c.angle, c.length * f, c.width * f)

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return p[0] * f, p[1] * f

    halo = round(layout.halo * f * 2) / 2  # half pixels: at 960 px 2, a little inside the scaled 2.25
    labels = tuple(_fitted_label(lb, f, layout.halo * f - halo, min_text_px(width)) for lb in layout.labels)
    return MapGeometry(
        **{
            **{k: getattr(layout, k) for k in layout.__dataclass_fields__},
            "width": width,
            "map_height": round(layout.map_height * f),
            "pad": layout.pad * f,
            "inner_w": layout.inner_w * f,
            "inner_h": layout.inner_h * f,
            "pitch": layout.pitch * f,
            "car_width": layout.car_width * f,
            "city_r": layout.city_r * f,
            "halo": halo,
            "label_size": max(min_text_px(width), round(layout.label_size * f)),
            "cities": tuple(map(pt, layout.cities)),
            "tracks": tuple(
                TrackGeom(tg.index, tuple(map(car, tg.cars)), pt(tg.mid), tg.normal) for tg in layout.tracks
            ),
            "labels": labels,
            "scale": layout.scale * f,
            "layout": layout,
        }
    )


#: How much smaller than the scaled size a label's text may be drawn so that it fits its box.
LABEL_SHRINK_STEP, LABEL_SHRINK_STEPS = 0.25, 12


def _fitted_label(lb: Label, f: float, spare: float, smallest: int) -> Label:
    """A layout label `f` times its size, in its scaled box: hinted glyphs do not scale exactly
    (a name can come out 4 px wider), so the text is drawn at the largest size (in quarter pixels,
    down from the scaled one) whose every line fits its scaled ink box grown by `spare` (what the
    drawn halo is thinner than the scaled one), each line centered on where it was."""
    texts = [fonts.clean_text(s, "label") for s in lb.lines]
    was = [tuple(v * f for v in fonts.Text(t, lb.size, "label").ink_box(*o)) for t, o in zip(texts, lb.origins)]
    origins = tuple((x * f, y * f) for x, y in lb.origins)
    size = lb.size * f
    for k in range(LABEL_SHRINK_STEPS + 1):
        size = max(smallest, lb.size * f - k * LABEL_SHRINK_STEP)
        inks = [fonts.Text(t, size, "label").ink_box(*o) for t, o in zip(texts, origins)]
        if size == smallest or all(
            i[2] - i[0] <= w[2] - w[0] + 2 * spare and i[3] - i[1] <= w[3] - w[1] + 2 * spare for i, w in zip(inks, was)
        ):
            break
    origins = tuple(
        (x + (w[0] + w[2] - i[0] - i[2]) / 2, y + (w[1] + w[3] - i[1] - i[3]) / 2)
        for (x, y), i, w in zip(origins, inks, was)
    )
    return Label(lb.city, lb.lines, size, origins, tuple(v * f for v in lb.box))


def _layout(m: MapData, names: tuple[str, ...] | None) -> MapGeometry:
    """The geometry at the map's layout width, its labels placed."""
    width = layout_width(m)
    pad = round(width * 0.04)
    bx0, by0, bx1, by1 = content_box(m)
    inner_w = width - 2 * pad
    scale = inner_w / (bx1 - bx0)  # pixels per board unit
    inner_h = (by1 - by0) * scale
    map_height = int(round(inner_h + 2 * pad))

    def pt(nx: float, ny: float) -> tuple[float, float]:
        return pad + (nx * m.aspect - bx0) * scale, pad + (ny - by0) * scale

    cities = tuple(pt(c.x, c.y) for c in m.cities)
    has_spaces = all(t.spaces for t in m.tracks) and m.tracks
    if has_spaces:
        gaps = []
        for t in m.tracks:
            ps = [pt(x, y) for x, y, _ in t.spaces]
            gaps += [math.dist(p, q) for p, q in zip(ps, ps[1:])]
        pitch = statistics.median(gaps)
        seps = []
        for t in m.tracks:
            if t.double is not None:
                o = m.tracks[t.double]
                for (x1, y1, _), (x2, y2, _) in zip(t.spaces, o.spaces):
                    seps.append(math.dist(pt(x1, y1), pt(x2, y2)))
        car_w = min(0.27 * pitch, 0.8 * statistics.median(seps)) if seps else 0.27 * pitch
    else:
        pitch = statistics.median(math.dist(cities[t.a], cities[t.b]) / (t.length + 0.9) for t in m.tracks)
        car_w = 0.26 * pitch
    city_r = 0.16 * pitch
    # maps without spaces: each end of a track keeps clear of its city, more where routes meet
    # at a narrow angle and their cars would overlap (Nederland)
    clear = {(t.index, end): city_r + 0.12 * pitch for t in m.tracks for end in (0, 1)}
    for _ in range(12 if not has_spaces else 0):
        laid = {t.index: _laid_cars(m, t, cities, clear[(t.index, 0)], clear[(t.index, 1)], car_w) for t in m.tracks}
        bumped = False
        for ti, tj, ci, cj in _overlapping_cars(m, laid):
            for tk, car in ((ti, ci), (tj, cj)):
                t = m.tracks[tk]
                end = 0 if math.dist((car.x, car.y), cities[t.a]) < math.dist((car.x, car.y), cities[t.b]) else 1
                d = math.dist(cities[t.a], cities[t.b])
                if clear[(tk, 0)] + clear[(tk, 1)] + 0.1 * pitch < d * 0.55:
                    clear[(tk, end)] += 0.1 * pitch
                    bumped = True
        if not bumped:
            break
    tracks = []
    for t in m.tracks:
        a, b = cities[t.a], cities[t.b]
        d = math.dist(a, b) or 1.0
        ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
        normal = (-uy, ux)
        if has_spaces:
            cars = tuple(Car(*pt(x, y), ang, 0.86 * pitch, car_w) for x, y, ang in t.spaces)
            cx = sum(c.x for c in cars) / len(cars)
            cy = sum(c.y for c in cars) / len(cars)
            if t.double is not None:
                o = m.tracks[t.double]
                ox = sum(pt(x, y)[0] for x, y, _ in o.spaces) / len(o.spaces)
                oy = sum(pt(x, y)[1] for x, y, _ in o.spaces) / len(o.spaces)
                cx, cy = (cx + ox) / 2, (cy + oy) / 2
            mid = (cx, cy)
        else:
            cars = _laid_cars(m, t, cities, clear[(t.index, 0)], clear[(t.index, 1)], car_w)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        tracks.append(TrackGeom(t.index, cars, mid, normal))
    label_size = max(8, math.ceil(LABEL_PX_AT_400 * width / 400))
    halo = max(2, round(HALO * width / 1280))
    geo = MapGeometry(
        map_id=m.id,
        width=width,
        map_height=map_height,
        pad=pad,
        inner_w=inner_w,
        inner_h=inner_h,
        pitch=pitch,
        car_width=car_w,
        city_r=city_r,
        halo=halo,
        label_size=label_size,
        cities=cities,
        tracks=tuple(tracks),
        labels=(),
        kinds=tuple(c.kind for c in m.cities),
        names=names,
        aspect=m.aspect,
        origin=(bx0, by0),
        scale=scale,
    )
    labels = place_labels(m, geo, names or tuple(c.name for c in m.cities))
    return MapGeometry(**{**{f: getattr(geo, f) for f in geo.__dataclass_fields__}, "labels": labels})


# ---------------------------------------------------------------------------------------------
# Label placement: every label tries positions around its city (one or two lines, near or a bit
# farther); labels may never overlap each other, a city marker or the image edge; among the
# allowed positions the one hiding the fewest train cars wins, with a preference for the right.


def _line_splits(name: str) -> list[tuple[str, ...]]:
    """The name on one line, and on two: at the most balanced space, or for a name without spaces
    (Russian 'Солт-Лейк-Сити') after the most balanced hyphen that leaves 3 letters either side.
    A name the pseudo-locale marks ('⟦Ķáñśáś Ćíţý⟧') keeps its marks around each line."""
    if len(name) > 2 and name[0] == MARK_OPEN and name[-1] == MARK_CLOSE:
        return [tuple(f"{MARK_OPEN}{x}{MARK_CLOSE}" for x in lines) for lines in _line_splits(name[1:-1])]
    options: list[tuple[str, ...]] = [(name,)]
    words = name.split(" ")
    if len(words) > 1:
        splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    else:
        splits = [
            (name[: k + 1], name[k + 1 :])
            for k, ch in enumerate(name)
            if ch == "-" and sum(map(str.isalpha, name[:k])) >= 3 and sum(map(str.isalpha, name[k + 1 :])) >= 3
        ]
    if splits:
        options.append(min(splits, key=lambda p: abs(len(p[0]) - len(p[1]))))
    return options


#: Country names (Switzerland's neighbours) are drawn this much larger than city names.
COUNTRY_LABEL_SCALE = 1.3


def _candidates(geo: MapGeometry, city: int, name: str, size: int | None = None, centered: bool = False):
    """(cost, lines, origins, box) for each position tried around a city; a `centered` label (a
    country's name, which has no marker) also tries its own position first."""
    size = size or geo.label_size
    halo = geo.halo
    lead = round(size * 1.08)
    cx, cy = geo.cities[city]
    out = []
    for li, lines in enumerate(_line_splits(name)):
        texts = [fonts.Text(fonts.clean_text(s, "label"), size, "label") for s in lines]
        widths = [t.width for t in texts]
        # ink box of the block with its first baseline at 0 and left edge at 0
        ink_at_0 = [t.ink_box(0, 0) for t in texts]  # a glyph box moves with its text
        boxes = [moved(b, 0, k * lead) for k, b in enumerate(ink_at_0)]
        top = min(b[1] for b in boxes)
        bottom = max(b[3] for b in boxes)
        block_w = max(widths)
        positions = (("E", 0.0), ("W", 0.3), ("N", 0.5), ("S", 0.5), ("NE", 0.7), ("SE", 0.7), ("NW", 0.9), ("SW", 0.9))
        for dist_i, extra in enumerate((0.0, 0.35 * geo.pitch, 0.8 * geo.pitch, 1.3 * geo.pitch)):
            d = geo.mark_r + halo + 2 + extra
            for pos, pref in ((("C", -1.0),) if centered and dist_i == 0 else ()) + positions:
                dx = {
                    "C": 0,
                    "E": d,
                    "W": -d,
                    "N": 0,
                    "S": 0,
                    "NE": d * 0.7,
                    "SE": d * 0.7,
                    "NW": -d * 0.7,
                    "SW": -d * 0.7,
                }[pos]
                dy = {
                    "C": 0,
                    "E": 0,
                    "W": 0,
                    "N": -d,
                    "S": d,
                    "NE": -d * 0.7,
                    "SE": d * 0.7,
                    "NW": -d * 0.7,
                    "SW": d * 0.7,
                }[pos]
                # block position: left x and first baseline y
                if "E" in pos:
                    bx = cx + dx
                elif "W" in pos:
                    bx = cx + dx - block_w
                else:
                    bx = cx - block_w / 2
                if pos in ("E", "W", "C"):
                    by = cy - (top + bottom) / 2
                elif "N" in pos:
                    by = cy + dy - bottom
                else:
                    by = cy + dy - top
                align = "l" if "E" in pos else "r" if "W" in pos else "m"
                # slid a little along the city's side: up or down beside it, left or right above or below
                h = bottom - top
                slides = [(0.0, 0.0)]
                if pos in ("E", "W"):
                    slides += [(0.0, -0.6 * h), (0.0, 0.6 * h)]
                elif pos in ("N", "S"):
                    slides += [(-0.4 * block_w, 0.0), (0.4 * block_w, 0.0)]
                elif pos != "C":  # a corner: away from the city along either side
                    slides += [
                        (0.25 * block_w * (1 if "E" in pos else -1), 0.0),
                        (0.0, 0.5 * h * (1 if "S" in pos else -1)),
                    ]
                for slide_i, (sx, sy) in enumerate(slides):
                    origins = []
                    ink = [math.inf, math.inf, -math.inf, -math.inf]
                    for k in range(len(texts)):
                        lx = sx + (
                            bx
                            if align == "l"
                            else bx + block_w - widths[k]
                            if align == "r"
                            else bx + (block_w - widths[k]) / 2
                        )
                        origins.append((lx, sy + by + k * lead))
                        b = moved(ink_at_0[k], lx, sy + by + k * lead)
                        ink = [min(ink[0], b[0]), min(ink[1], b[1]), max(ink[2], b[2]), max(ink[3], b[3])]
                    box = (ink[0] - halo, ink[1] - halo, ink[2] + halo, ink[3] + halo)
                    cost = pref + 1.2 * li + 2.5 * dist_i + 0.8 * bool(slide_i)
                    out.append((cost, lines, tuple(origins), box))
    return out


def _label_size(geo: MapGeometry, kind: str) -> int:
    return math.ceil(geo.label_size * COUNTRY_LABEL_SCALE) if kind == "country" else geo.label_size


def toll_spots(m: MapData, geo: MapGeometry) -> list[tuple[int, float, float, float, int]]:
    """Nederland: where each bridge toll's coin goes (once per double route), beside the route's
    middle: (track index, x, y, radius, digit size); the digits are the smallest text size.
    Placed on the layout and scaled, as the labels that keep clear of them are."""
    base, f = geo.base, geo.factor
    size = max(round(base.pitch * 0.3), min_text_px(base.width))
    r = max(base.pitch * 0.24, size * 0.8)
    digits = max(min_text_px(geo.width), round(size * f))
    done = set()
    out = []
    for tg in base.tracks:
        t = m.tracks[tg.index]
        if not t.toll or (min(t.a, t.b), max(t.a, t.b)) in done:
            continue
        done.add((min(t.a, t.b), max(t.a, t.b)))
        off = (
            (0.68 * base.car_width + base.car_width / 2 + r + 1)
            if t.double is not None
            else (base.car_width / 2 + r + 1)
        )
        x, y = tg.mid[0] + tg.normal[0] * off, tg.mid[1] + tg.normal[1] * off
        out.append((tg.index, x * f, y * f, r * f, digits))
    return out


#: What a label costs for the train spaces it hides: this much for a whole space, in proportion to
#: the share of each space's rectangle under its box (a step farther from its city costs 2.5).
HIDDEN_SPACE_COST = 12.0
#: A label may hide at most this share of any space's rectangle (the halo's edge over a corner;
#: the space stays seen and countable) whenever a position that does exists; never its middle.
MAX_HIDDEN_SHARE = 0.2


def space_hider(geo: MapGeometry):
    """hidden(box): the shares of the train spaces under a box, summed (a middle hidden counts
    1), and how bad the worst is: 0 (at most MAX_HIDDEN_SHARE), 1 (more), 2 (a middle hidden)."""
    cell = 2 * geo.pitch
    cars: dict[tuple[int, int], list] = {}  # (car, its bounding box) in every cell of `cell` it reaches
    for tg in geo.tracks:
        for c in tg.cars:
            poly = c.polygon()
            bb = (min(p[0] for p in poly), min(p[1] for p in poly), max(p[0] for p in poly), max(p[1] for p in poly))
            for gx in range(int(bb[0] // cell), int(bb[2] // cell) + 1):
                for gy in range(int(bb[1] // cell), int(bb[3] // cell) + 1):
                    cars.setdefault((gx, gy), []).append((c, bb))

    def hidden(box) -> tuple[float, int]:
        near = {
            id(c): c
            for gx in range(int(box[0] // cell), int(box[2] // cell) + 1)
            for gy in range(int(box[1] // cell), int(box[3] // cell) + 1)
            for c, bb in cars.get((gx, gy), ())
            if overlap(box, bb)
        }
        total, level = 0.0, 0
        for c in near.values():
            if box[0] <= c.x <= box[2] and box[1] <= c.y <= box[3]:
                total, level = total + 1.0, 2
            else:
                share = hidden_share(c, box)
                total, level = total + share, max(level, int(share > MAX_HIDDEN_SHARE))
        return total, level

    return hidden


def place_labels(m: MapData, geo: MapGeometry, names: tuple[str, ...]) -> tuple[Label, ...]:
    """Labels for cities and countries (`names`, one per city); a country's border points are
    markers without one. A label never covers a city marker or a toll coin, and hides as few
    train spaces as it can."""
    n = len(m.cities)
    hidden = space_hider(geo)
    drawn = [j for j in range(n) if geo.has_marker(j)]
    marks = [(*geo.cities[j], geo.mark_reach(j) + 1) for j in drawn]  # the city's own too
    coins = [(x - r - 1, y - r - 1, x + r + 1, y + r + 1) for _, x, y, r, _ in toll_spots(m, geo)]
    W, H = geo.width, geo.map_height
    cands = []
    for i, c in enumerate(m.cities):
        options = []
        if c.kind == "border":
            cands.append(options)
            continue
        size = _label_size(geo, c.kind)
        for cost, lines, origins, box in _candidates(geo, i, names[i], size, centered=c.kind == "country"):
            if box[0] < 1 or box[1] < 1 or box[2] > W - 1 or box[3] > H - 1:
                continue
            if any(circle_box_overlap(x, y, r, box) for x, y, r in marks) or any(overlap(box, c) for c in coins):
                continue
            total, level = hidden(box)
            options.append((cost + HIDDEN_SPACE_COST * total, lines, origins, box, level))
        options.sort(key=lambda o: (o[4], o[0]))  # (cost, lines, origins, box, how much it hides)
        cands.append(options)
    # most constrained cities first (fewest options, then most neighbours)
    order = sorted(range(n), key=lambda i: (len(cands[i]), i))
    chosen: dict[int, tuple] = {}

    def fits(i: int, box, skip: int = -1) -> bool:
        return all(not overlap(box, chosen[j][3], 1) for j in chosen if j not in (i, skip))

    for i in order:
        pick = next((o for o in cands[i] if fits(i, o[3])), None)
        chosen[i] = pick if pick is not None else (cands[i][0] if cands[i] else None)
        if chosen[i] is None:
            del chosen[i]

    def wrong(i: int) -> bool:
        """Colliding, or hiding more of a space than the best position would."""
        return not fits(i, chosen[i][3]) or chosen[i][4] > cands[i][0][4]

    # repair: re-place those, a few rounds, moving one neighbour in the way if need be (to a
    # position that hides no more than its own)
    for _ in range(6):
        bad = [i for i in chosen if wrong(i)]
        if not bad:
            break
        for i in bad:
            for o in cands[i]:
                if o[4] >= chosen[i][4] and fits(i, chosen[i][3]):
                    break  # only positions that hide as much are left, and the current one fits
                clashes = [j for j in chosen if j != i and overlap(o[3], chosen[j][3], 1)]
                if not clashes:
                    chosen[i] = o
                    break
                if len(clashes) == 1:
                    j = clashes[0]
                    oj = next(
                        (
                            x
                            for x in cands[j]
                            if x[4] <= chosen[j][4] and not overlap(x[3], o[3], 1) and fits(j, x[3], i)
                        ),
                        None,
                    )
                    if oj is not None:
                        chosen[j], chosen[i] = oj, o
                        break
    return tuple(
        Label(i, chosen[i][1], _label_size(geo, m.cities[i].kind), chosen[i][2], chosen[i][3]) for i in sorted(chosen)
    )


def label_conflicts(geo: MapGeometry) -> list[tuple[str, int, int]]:
    """Pairs that break the label rule: ("label", i, j), or ("marker", label city, city) where a
    label reaches into a city's mark circle (its marker, ticket ring, station: its own city's too)."""
    out = []
    labels = geo.labels
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            if overlap(labels[a].box, labels[b].box):
                out.append(("label", labels[a].city, labels[b].city))
        for j, (x, y) in enumerate(geo.cities):
            if geo.has_marker(j) and circle_box_overlap(x, y, geo.mark_reach(j), labels[a].box):
                out.append(("marker", labels[a].city, j))
    return out


def hidden_share(car: Car, box: tuple[float, float, float, float]) -> float:
    """The share of a train space's rectangle a label box covers (0-1)."""
    if (
        box[2] < car.x - car.length
        or box[0] > car.x + car.length
        or box[3] < car.y - car.length
        or box[1] > car.y + car.length
    ):
        return 0.0
    return clip_area(car.polygon(), box) / (car.length * car.width)
