"""A map as the web page draws it: the Pillow board's own layout (rendering/geometry.py: where the
cities, their labels and every train car go) and colours (rendering/style.py), as JSON the page
turns into SVG. Built once per map and set of city names, then served with a long cache."""

from __future__ import annotations

import json
from functools import lru_cache

from engine.cards import CARD_NAMES
from engine.mapdata import MapData, load_map
from rendering.geometry import geometry, layout_width
from rendering.style import BACKGROUND, CITY_FILL, HIGHLIGHT, INK, RGB, ROUTE_COLORS, TICKET_CITY

#: Coordinates are rounded to this many decimals (pixels of the layout, 1280 px wide: plenty for SVG).
DIGITS = 1


def css(color: RGB) -> str:
    return "#" + "".join(f"{c:02x}" for c in color[:3])


def board(map_data: MapData, names: tuple[str, ...]) -> dict:
    """The drawing of `map_data` with `names` as its city labels (one per city)."""
    geo = geometry(map_data, layout_width(map_data), names)  # the layout itself: an SVG scales
    r = lambda v: round(v, DIGITS)  # noqa: E731
    return {
        "map": map_data.id,
        "width": geo.width,
        "height": geo.map_height,
        "city_r": r(geo.city_r),
        "halo": geo.halo,
        "colors": {
            "background": css(BACKGROUND),
            "city": css(CITY_FILL),
            "ink": css(INK),
            "highlight": css(HIGHLIGHT),
            "ticket": css(TICKET_CITY),
            **{name: css(rgb) for name, rgb in ROUTE_COLORS.items()},
        },
        "cities": [
            {"id": c.id, "name": names[c.index], "x": r(x), "y": r(y), "kind": c.kind}
            for c, (x, y) in zip(map_data.cities, geo.cities)
        ],
        "labels": [
            {
                "city": map_data.cities[label.city].id,
                "size": label.size,
                "lines": list(label.lines),
                "at": [[r(x), r(y)] for x, y in label.origins],
            }
            for label in geo.labels
        ],
        "tracks": [
            {
                "id": t.id,
                "a": map_data.cities[t.a].id,
                "b": map_data.cities[t.b].id,
                "color": "gray" if t.color is None else CARD_NAMES[t.color],
                "length": t.length,
                "tunnel": t.tunnel,
                "ferry": t.ferry,
                "cars": [[r(c.x), r(c.y), r(c.angle), r(c.length), r(c.width)] for c in tg.cars],
            }
            for t, tg in zip(map_data.tracks, geo.tracks)
        ],
    }


@lru_cache(maxsize=32)
def board_json(map_id: str, names: tuple[str, ...]) -> bytes:
    """`board` encoded once per map and names (the bytes served)."""
    return json.dumps(board(load_map(map_id), names), ensure_ascii=False, separators=(",", ":")).encode()
