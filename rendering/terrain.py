"""Land, sea and borders under a board's network, so its cities stand on a country, not on beige.

The shapes are the project's own files, rendering/geography/<map>.json: Natural Earth's coasts and
borders bent onto each board by rendering/geography/build.py (how to rebuild them is in its
docstring), in the map file's units. A map without such a file (a test's own map) is drawn on
plain ground. Quiet colors: the routes, cities and labels are what a player reads.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from rendering.geometry import MapGeometry
from rendering.style import BACKGROUND, hex_rgb

DIR = Path(__file__).resolve().parent / "geography"

SEA = hex_rgb("#CCDDE2")
HOME_LAND = BACKGROUND  # the countries the board is about
FOREIGN_LAND = hex_rgb("#E1DCCF")  # the others, a little grayer
BORDER = hex_rgb("#B7A48F")


@dataclass(frozen=True, slots=True)
class Geography:
    land: tuple[tuple[bool, tuple[tuple[float, float], ...]], ...]  # (home country, outline)
    borders: tuple[tuple[tuple[float, float], ...], ...]
    positions: str  # digest of the city positions the shapes were fitted on (build.positions_digest)


def positions_digest(cities) -> str:
    """What a geography was fitted on ((id, x, y) of each city): a map whose cities move needs
    its geography built again (tests/rendering/test_terrain.py compares them)."""
    text = ";".join(f"{c}:{x:.4f}:{y:.4f}" for c, x, y in sorted(cities))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fitted_on(m) -> str:
    """The digest of a map's own cities (kind "city": countries and border points have no place)."""
    return positions_digest([(c.id, c.x, c.y) for c in m.cities if c.kind == "city"])


def _pairs(flat: list[float]) -> tuple[tuple[float, float], ...]:
    return tuple(zip(flat[0::2], flat[1::2]))


@lru_cache(maxsize=16)
def geography(map_id: str) -> Geography | None:
    """The map's shapes, or None when it has none."""
    path = DIR / f"{map_id}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    return Geography(
        land=tuple((p["home"], _pairs(p["ring"])) for p in data["land"]),
        borders=tuple(_pairs(b) for b in data["borders"]),
        positions=data["positions"],
    )


def draw_terrain(big: Image.Image, geo: MapGeometry, shapes: Geography, scale: int, frame) -> None:
    """Sea, land, coasts and borders on `big` (the static layer, drawn `scale` times larger),
    inside `frame`, the map's rounded rectangle (x0, y0, x1, y1, radius) in big's pixels."""
    # drawn at 1x, no smoothing: the terrain's edges stay two colors, which keeps the PNG small
    # (smoothed coasts and borders cost a sixth of a board's bytes) and the routes the crisp part
    layer = Image.new("RGB", (geo.width, geo.map_height), SEA)
    d = ImageDraw.Draw(layer)
    for home, ring in shapes.land:
        d.polygon([geo.point(*p) for p in ring], fill=HOME_LAND if home else FOREIGN_LAND)
    for line in shapes.borders:
        d.line([geo.point(*p) for p in line], fill=BORDER, width=max(1, round(geo.width / 900)))
    layer = layer.resize(big.size, Image.Resampling.NEAREST)
    mask = Image.new("L", big.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(frame[:4], radius=frame[4], fill=255)
    big.paste(layer, (0, 0), mask)
