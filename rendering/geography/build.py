"""Build rendering/geography/<map>.json: land, sea and borders under each board, in board units.

Natural Earth's country outlines (public domain; the npm package world-atlas 2.0.2 ships them as
TopoJSON, Natural Earth 4.1.0) are bent onto each board: a thin-plate spline, fitted by least
squares with a little smoothing on the cities' real latitude and longitude (the table below, the
project's own) and their positions in engine/maps/<map>.json, carries every outline point from the
globe to the board, so the coasts and borders fall where the board's cities say they are. The
result is clipped to the board's frame, simplified (Douglas-Peucker, about 2 px of a 1280 px
board) and written as a small JSON file the renderer reads (rendering/geography.py); nothing here
is needed at run time.

    python rendering/geography/build.py                  # every map (runs `npm pack world-atlas@2.0.2`)
    python rendering/geography/build.py --atlas DIR usa  # an unpacked world-atlas package, one map

Run it in the project's environment (it reads the digest function of rendering/terrain.py), with
npm on the path or an unpacked world-atlas package; nothing else is needed.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rendering.terrain import positions_digest  # noqa: E402

OUT = Path(__file__).resolve().parent
ATLAS = "world-atlas@2.0.2"

#: (latitude, longitude) of every city of every map, in degrees (a board's countries and border
#: points have no place of their own and are left out of the fit).
PLACES: dict[str, dict[str, tuple[float, float]]] = {
    "usa": {
        "atlanta": (33.75, -84.39),
        "boston": (42.36, -71.06),
        "calgary": (51.05, -114.07),
        "charleston": (32.78, -79.93),
        "chicago": (41.88, -87.63),
        "dallas": (32.78, -96.80),
        "denver": (39.74, -104.99),
        "duluth": (46.79, -92.10),
        "el_paso": (31.76, -106.49),
        "helena": (46.59, -112.04),
        "houston": (29.76, -95.37),
        "kansas_city": (39.10, -94.58),
        "las_vegas": (36.17, -115.14),
        "little_rock": (34.75, -92.29),
        "los_angeles": (34.05, -118.24),
        "miami": (25.76, -80.19),
        "montreal": (45.50, -73.57),
        "nashville": (36.16, -86.78),
        "new_orleans": (29.95, -90.07),
        "new_york": (40.71, -74.01),
        "oklahoma_city": (35.47, -97.52),
        "omaha": (41.26, -95.93),
        "phoenix": (33.45, -112.07),
        "pittsburgh": (40.44, -79.99),
        "portland": (45.52, -122.68),
        "raleigh": (35.78, -78.64),
        "saint_louis": (38.63, -90.20),
        "salt_lake_city": (40.76, -111.89),
        "sault_st_marie": (46.50, -84.35),
        "san_francisco": (37.77, -122.42),
        "santa_fe": (35.69, -105.94),
        "seattle": (47.61, -122.33),
        "toronto": (43.65, -79.38),
        "vancouver": (49.28, -123.12),
        "washington": (38.91, -77.04),
        "winnipeg": (49.90, -97.14),
    },
    "europe": {
        "amsterdam": (52.37, 4.90),
        "angora": (39.93, 32.86),
        "athina": (37.98, 23.73),
        "barcelona": (41.39, 2.17),
        "berlin": (52.52, 13.40),
        "brest": (48.39, -4.49),
        "brindisi": (40.63, 17.94),
        "bruxelles": (50.85, 4.35),
        "bucuresti": (44.43, 26.10),
        "budapest": (47.50, 19.04),
        "cadiz": (36.53, -6.29),
        "constantinople": (41.01, 28.98),
        "danzig": (54.35, 18.65),
        "dieppe": (49.92, 1.08),
        "edinburgh": (55.95, -3.19),
        "erzurum": (39.90, 41.27),
        "essen": (51.46, 7.01),
        "frankfurt": (50.11, 8.68),
        "kharkov": (49.99, 36.23),
        "kobenhavn": (55.68, 12.57),
        "kyiv": (50.45, 30.52),
        "lisboa": (38.72, -9.14),
        "london": (51.51, -0.13),
        "madrid": (40.42, -3.70),
        "marseille": (43.30, 5.37),
        "moskva": (55.76, 37.62),
        "munchen": (48.14, 11.58),
        "palermo": (38.12, 13.36),
        "pamplona": (42.81, -1.64),
        "paris": (48.86, 2.35),
        "petrograd": (59.93, 30.34),
        "riga": (56.95, 24.11),
        "roma": (41.90, 12.50),
        "rostov": (47.24, 39.71),
        "sarajevo": (43.86, 18.41),
        "sevastopol": (44.62, 33.52),
        "smolensk": (54.78, 32.05),
        "smyrna": (38.42, 27.14),
        "sochi": (43.60, 39.73),
        "sofia": (42.70, 23.32),
        "stockholm": (59.33, 18.07),
        "venezia": (45.44, 12.32),
        "warszawa": (52.23, 21.01),
        "wien": (48.21, 16.37),
        "wilno": (54.69, 25.28),
        "zagrab": (45.81, 15.98),
        "zurich": (47.38, 8.54),
    },
    "nederland": {
        "aarschot": (50.99, 4.84),
        "amsterdam": (52.37, 4.90),
        "antwerpen": (51.22, 4.40),
        "arnhem": (51.98, 5.91),
        "breda": (51.59, 4.78),
        "den_helder": (52.96, 4.76),
        "duisburg": (51.43, 6.76),
        "eindhoven": (51.44, 5.48),
        "emden": (53.37, 7.21),
        "emmen": (52.79, 6.90),
        "enschede": (52.22, 6.89),
        "s_gravenhage": (52.08, 4.30),
        "groningen": (53.22, 6.57),
        "haarlem": (52.38, 4.64),
        "hasselt": (50.93, 5.34),
        "s_hertogenbosch": (51.69, 5.30),
        "leeuwarden": (53.20, 5.80),
        "lelystad": (52.52, 5.47),
        "lingen": (52.52, 7.32),
        "liege": (50.63, 5.57),
        "maastricht": (50.85, 5.69),
        "middelburg": (51.50, 3.61),
        "nijmegen": (51.84, 5.86),
        "roermond": (51.19, 5.99),
        "rotterdam": (51.92, 4.48),
        "sneek": (53.03, 5.66),
        "turnhout": (51.32, 4.95),
        "utrecht": (52.09, 5.12),
        "waddeneilanden": (53.36, 5.22),
        "zwolle": (52.52, 6.08),
    },
    "switzerland": {
        "baden": (47.47, 8.31),
        "basel": (47.56, 7.59),
        "bellinzona": (46.19, 9.02),
        "bern": (46.95, 7.45),
        "brig": (46.32, 7.99),
        "brusio": (46.26, 10.12),
        "chur": (46.85, 9.53),
        "davos": (46.80, 9.84),
        "delemont": (47.36, 7.34),
        "fribourg": (46.81, 7.16),
        "geneve": (46.20, 6.14),
        "interlaken": (46.69, 7.86),
        "kreuzlingen": (47.65, 9.18),
        "la_chaux_de_fonds": (47.10, 6.83),
        "lausanne": (46.52, 6.63),
        "locarno": (46.17, 8.80),
        "lugano": (46.00, 8.95),
        "luzern": (47.05, 8.31),
        "martigny": (46.10, 7.07),
        "neuchatel": (46.99, 6.93),
        "olten": (47.35, 7.90),
        "pfaffikon": (47.20, 8.78),
        "sargans": (47.05, 9.44),
        "schaffhausen": (47.70, 8.63),
        "schwyz": (47.02, 8.65),
        "sion": (46.23, 7.36),
        "solothurn": (47.21, 7.54),
        "st_gallen": (47.42, 9.38),
        "vaduz": (47.14, 9.52),
        "wassen": (46.71, 8.60),
        "winterthur": (47.50, 8.72),
        "yverdon": (46.78, 6.64),
        "zug": (47.17, 8.52),
        "zurich": (47.38, 8.54),
    },
    "nordic": {
        "alborg": (57.05, 9.92),
        "andalsnes": (62.57, 7.69),
        "arhus": (56.16, 10.20),
        "bergen": (60.39, 5.32),
        "boden": (65.83, 21.69),
        "goteborg": (57.71, 11.97),
        "helsinki": (60.17, 24.94),
        "honningsvag": (70.98, 25.97),
        "imatra": (61.17, 28.77),
        "kajaani": (64.23, 27.73),
        "karlskrona": (56.16, 15.59),
        "kirkenes": (69.73, 30.05),
        "kiruna": (67.86, 20.23),
        "kobenhavn": (55.68, 12.57),
        "kristiansand": (58.15, 8.00),
        "kuopio": (62.89, 27.68),
        "lahti": (60.98, 25.66),
        "lieksa": (63.32, 30.02),
        "lillehammer": (61.12, 10.47),
        "mo_i_rana": (66.31, 14.14),
        "murmansk": (68.97, 33.08),
        "narvik": (68.44, 17.43),
        "norrkoping": (58.59, 16.19),
        "orebro": (59.27, 15.21),
        "oslo": (59.91, 10.75),
        "ostersund": (63.18, 14.64),
        "oulu": (65.01, 25.47),
        "rovaniemi": (66.50, 25.73),
        "stavanger": (58.97, 5.73),
        "stockholm": (59.33, 18.07),
        "sundsvall": (62.39, 17.31),
        "tallinn": (59.44, 24.75),
        "tampere": (61.50, 23.76),
        "tornio": (65.85, 24.15),
        "tromso": (69.65, 18.96),
        "trondheim": (63.43, 10.40),
        "turku": (60.45, 22.27),
        "umea": (63.83, 20.26),
        "vaasa": (63.10, 21.62),
    },
    "marklin": {
        "augsburg": (48.37, 10.90),
        "berlin": (52.52, 13.40),
        "bremen": (53.08, 8.80),
        "bremerhaven": (53.55, 8.58),
        "chemnitz": (50.83, 12.92),
        "dortmund": (51.51, 7.47),
        "dresden": (51.05, 13.74),
        "dusseldorf": (51.23, 6.78),
        "emden": (53.37, 7.21),
        "erfurt": (50.98, 11.03),
        "frankfurt": (50.11, 8.68),
        "freiburg": (47.99, 7.85),
        "hamburg": (53.55, 9.99),
        "hannover": (52.37, 9.74),
        "karlsruhe": (49.01, 8.40),
        "kassel": (51.31, 9.48),
        "kiel": (54.32, 10.14),
        "koblenz": (50.36, 7.59),
        "koln": (50.94, 6.96),
        "konstanz": (47.66, 9.18),
        "leipzig": (51.34, 12.37),
        "lindau": (47.55, 9.68),
        "magdeburg": (52.13, 11.63),
        "mainz": (50.00, 8.27),
        "mannheim": (49.49, 8.47),
        "munchen": (48.14, 11.58),
        "munster": (51.96, 7.63),
        "nurnberg": (49.45, 11.08),
        "regensburg": (49.01, 12.10),
        "rostock": (54.09, 12.10),
        "saarbrucken": (49.24, 6.99),
        "schwerin": (53.63, 11.41),
        "stuttgart": (48.78, 9.18),
        "ulm": (48.40, 9.99),
        "wurzburg": (49.79, 9.95),
    },
}

#: The countries a board is about (Natural Earth names), drawn in the board's land color; other
#: land is drawn a little grayer, so a national board shows where its country ends.
HOME: dict[str, frozenset[str]] = {
    "usa": frozenset({"United States of America", "Canada"}),
    "europe": frozenset(),  # every country: the whole continent is the board
    "nederland": frozenset({"Netherlands"}),
    "switzerland": frozenset({"Switzerland", "Liechtenstein"}),
    "nordic": frozenset({"Norway", "Sweden", "Finland", "Denmark"}),
    "marklin": frozenset({"Germany"}),
}
#: Natural Earth scale per map: 1:10m for the small countries, 1:50m for continents.
DETAIL = {"usa": "50m", "europe": "50m", "nordic": "50m", "nederland": "10m", "switzerland": "10m", "marklin": "10m"}
#: Thin-plate spline smoothing (board units squared per residual): bends gently between cities.
SMOOTHING = 2e-4
#: The bending is whole up to REACH from the nearest city and fades over FADE beyond (in units of
#: the cities' spread).
REACH, FADE = 0.12, 0.15
#: Douglas-Peucker tolerance, in board units (the board is 1 unit high): about 2 px at 1280 px wide.
TOLERANCE = 0.0022


def load_atlas(directory: Path, detail: str) -> dict:
    return json.loads((directory / f"countries-{detail}.json").read_text())


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """TopoJSON arcs as (longitude, latitude) points (delta-encoded, quantized)."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    out = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            pts.append((x * sx + tx, y * sy + ty))
        out.append(pts)
    return out


def ring_points(arcs: list, ring: list[int]) -> list[tuple[float, float]]:
    """A ring's points, its longitudes unwrapped: a ring cut at the antimeridian (Russia) would
    otherwise cross the whole globe along one parallel, and through the board."""
    pts: list[tuple[float, float]] = []
    for i in ring:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        pts.extend(arc if not pts else arc[1:])
    out = pts[:1]
    for lon, lat in pts[1:]:
        lon += 360 * round((out[-1][0] - lon) / 360)
        out.append((lon, lat))
    return out


class Spline:
    """A thin-plate spline from the plane to the plane, fitted by regularized least squares."""

    def __init__(self, src: list[tuple[float, float]], dst: list[tuple[float, float]], smoothing: float) -> None:
        n = len(src)
        size = n + 3
        a = [[0.0] * size for _ in range(size)]
        for i, p in enumerate(src):
            for j, q in enumerate(src):
                a[i][j] = self.kernel(math.dist(p, q)) + (smoothing if i == j else 0.0)
            for k, v in enumerate((1.0, p[0], p[1])):
                a[i][n + k] = a[n + k][i] = v
        self.src = src
        self.coef = [solve(a, [d[axis] for d in dst] + [0.0, 0.0, 0.0]) for axis in (0, 1)]

    @staticmethod
    def kernel(r: float) -> float:
        return r * r * math.log(r) if r > 0 else 0.0

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        """The fitted map; away from every city the bending fades into the affine part, so the
        far field (seas, other countries) never folds over the board."""
        n = len(self.src)
        near = min(math.dist((x, y), p) for p in self.src)
        fade = 1.0 if near <= REACH else math.exp(-(((near - REACH) / FADE) ** 2))
        u = [self.kernel(math.dist((x, y), p)) for p in self.src]
        return tuple(  # type: ignore[return-value]
            fade * sum(w * k for w, k in zip(c[:n], u)) + c[n] + c[n + 1] * x + c[n + 2] * y for c in self.coef
        )


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def clip_polygon(pts: list[tuple[float, float]], box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """Sutherland-Hodgman against an axis-aligned box (concave rings stay fillable)."""
    x0, y0, x1, y1 = box
    edges = (
        (lambda p: p[0] >= x0, lambda p, q: _cut_x(p, q, x0)),
        (lambda p: p[0] <= x1, lambda p, q: _cut_x(p, q, x1)),
        (lambda p: p[1] >= y0, lambda p, q: _cut_y(p, q, y0)),
        (lambda p: p[1] <= y1, lambda p, q: _cut_y(p, q, y1)),
    )
    for inside, cut in edges:
        if not pts:
            break
        out = []
        prev = pts[-1]
        for cur in pts:
            if inside(cur):
                if not inside(prev):
                    out.append(cut(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cut(prev, cur))
            prev = cur
        pts = out
    return pts


def clip_line(pts: list[tuple[float, float]], box) -> list[list[tuple[float, float]]]:
    """The parts of a polyline inside a box (points outside dropped, the crossing kept)."""
    x0, y0, x1, y1 = box
    parts, cur = [], []
    for p in pts:
        if x0 <= p[0] <= x1 and y0 <= p[1] <= y1:
            cur.append(p)
        elif cur:
            parts.append(cur + [p])
            cur = []
    if cur:
        parts.append(cur)
    return [p for p in parts if len(p) > 1]


def _cut_x(p, q, x):
    t = (x - p[0]) / (q[0] - p[0])
    return x, p[1] + t * (q[1] - p[1])


def _cut_y(p, q, y):
    t = (y - p[1]) / (q[1] - p[1])
    return p[0] + t * (q[0] - p[0]), y


def simplify(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas-Peucker (iterative)."""
    if len(pts) < 3:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        i, j = stack.pop()
        (ax, ay), (bx, by) = pts[i], pts[j]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        best, at = -1.0, -1
        for k in range(i + 1, j):
            px, py = pts[k]
            d = abs(dy * (px - ax) - dx * (py - ay)) / norm if norm else math.dist((px, py), (ax, ay))
            if d > best:
                best, at = d, k
        if best > tol:
            keep[at] = True
            stack += [(i, at), (at, j)]
    return [p for p, k in zip(pts, keep) if k]


def area(pts) -> float:
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(pts, pts[1:] + pts[:1]))) / 2


def build(map_id: str, atlas: Path) -> dict:
    data = json.loads((ROOT / "engine" / "maps" / f"{map_id}.json").read_text())
    aspect = data["board"]["width"] / data["board"]["height"]
    places = PLACES[map_id]
    cities = [c for c in data["cities"] if c.get("kind", "city") == "city"]
    missing = [c["id"] for c in cities if c["id"] not in places]
    assert not missing, f"{map_id}: no latitude/longitude for {missing}"
    lat0 = sum(places[c["id"]][0] for c in cities) / len(cities)
    k = math.cos(math.radians(lat0))

    def plane(lon: float, lat: float) -> tuple[float, float]:  # equirectangular, true to scale at lat0
        return lon * k, -lat

    src = [plane(places[c["id"]][1], places[c["id"]][0]) for c in cities]
    dst = [(c["x"] * aspect, c["y"]) for c in cities]
    # the spline's units: the source scaled to the board's size, so the smoothing means the same everywhere
    sx0, sy0 = min(p[0] for p in src), min(p[1] for p in src)
    span = max(max(p[0] for p in src) - sx0, max(p[1] for p in src) - sy0)
    unit = [((x - sx0) / span, (y - sy0) / span) for x, y in src]
    spline = Spline(unit, dst, SMOOTHING)

    def warp(lon: float, lat: float) -> tuple[float, float]:
        x, y = plane(lon, lat)
        return spline((x - sx0) / span, (y - sy0) / span)

    residual = max(math.dist(warp(places[c["id"]][1], places[c["id"]][0]), d) for c, d in zip(cities, dst))
    # the board's frame (cities and spaces) with a margin, in board units
    xs = [c["x"] * aspect for c in data["cities"]] + [
        s[0] * aspect for t in data["tracks"] for s in t.get("spaces", [])
    ]
    ys = [c["y"] for c in data["cities"]] + [s[1] for t in data["tracks"] for s in t.get("spaces", [])]
    margin = 0.12 * max(max(xs) - min(xs), max(ys) - min(ys))
    frame = (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
    # the globe's part to bend: the cities' box and a third of it on each side
    lats = [places[c["id"]][0] for c in cities]
    lons = [places[c["id"]][1] for c in cities]
    dlat, dlon = max(lats) - min(lats), max(lons) - min(lons)
    region = (min(lons) - 0.35 * dlon, min(lats) - 0.35 * dlat, max(lons) + 0.35 * dlon, max(lats) + 0.35 * dlat)

    topo = load_atlas(atlas, DETAIL[map_id])
    arcs = decode_arcs(topo)
    used: dict[int, int] = {}
    land = []
    for g in topo["objects"]["countries"]["geometries"]:
        polys = g.get("arcs", [])
        polys = [polys] if g["type"] == "Polygon" else polys
        for poly in polys:
            for ring in poly:
                for i in ring:
                    used[i if i >= 0 else ~i] = used.get(i if i >= 0 else ~i, 0) + 1
            outer = clip_polygon(ring_points(arcs, poly[0]), region)  # holes are other countries, drawn over
            if len(outer) < 3:
                continue
            pts = clip_polygon([warp(*p) for p in densify(outer, 0.05)], frame)
            pts = simplify(pts + pts[:1], TOLERANCE)[:-1]
            if len(pts) >= 3 and area(pts) > (4 * TOLERANCE) ** 2:
                home = not HOME[map_id] or g["properties"]["name"] in HOME[map_id]
                land.append({"home": home, "ring": flat(pts, aspect)})
    borders = []
    for i, n in used.items():
        if n < 2:  # an arc of one country only: a coast
            continue
        for part in clip_line(densify(arcs[i], 0.05), region):
            for piece in clip_line([warp(*p) for p in part], frame):
                piece = simplify(piece, TOLERANCE)
                if len(piece) > 1:
                    borders.append(flat(piece, aspect))
    land.sort(key=lambda p: p["home"])  # foreign land first (drawn under the home countries' borders)
    return {
        "map": map_id,
        "source": f"Natural Earth 4.1.0 admin-0 countries 1:{DETAIL[map_id]} (public domain), via {ATLAS}",
        "units": "the map file's: x of the board's width, y of its height",
        "fit": {"cities": len(cities), "smoothing": SMOOTHING, "largest_residual": round(residual, 4)},
        "positions": positions_digest([(c["id"], c["x"], c["y"]) for c in cities]),
        "land": land,
        "borders": borders,
    }


def densify(pts: list[tuple[float, float]], step: float) -> list[tuple[float, float]]:
    """Points at most `step` degrees apart, so straight source edges bend with the warp."""
    out = []
    for p, q in zip(pts, pts[1:] + pts[-1:]):
        out.append(p)
        n = int(math.dist(p, q) / step)
        out += [(p[0] + (q[0] - p[0]) * s / (n + 1), p[1] + (q[1] - p[1]) * s / (n + 1)) for s in range(1, n + 1)]
    return out


def flat(pts: list[tuple[float, float]], aspect: float) -> list[float]:
    return [v for x, y in pts for v in (round(x / aspect, 4), round(y, 4))]


def fetch_atlas(into: Path) -> Path:
    subprocess.run(["npm", "pack", ATLAS, "--silent"], cwd=into, check=True, capture_output=True)
    (tgz,) = into.glob("world-atlas-*.tgz")
    with tarfile.open(tgz) as tar:
        tar.extractall(into, filter="data")
    return into / "package"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--atlas", type=Path, help="an unpacked world-atlas package (default: npm pack it)")
    ap.add_argument("maps", nargs="*", default=list(PLACES))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        atlas = args.atlas or fetch_atlas(Path(tmp))
        for map_id in args.maps:
            out = build(map_id, atlas)
            path = OUT / f"{map_id}.json"
            path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
            points = sum(len(p["ring"]) for p in out["land"]) // 2 + sum(len(b) for b in out["borders"]) // 2
            print(
                f"{map_id}: {len(out['land'])} land rings, {len(out['borders'])} borders, {points} points, "
                f"{path.stat().st_size} bytes, largest city residual {out['fit']['largest_residual']}"
            )


if __name__ == "__main__":
    main()
