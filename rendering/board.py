"""The board image: a cached static map layer, the claims and stations on top, and a panel.

A public board is drawn from the spectator view (`game.view(None)`) and shows nothing private.
The private board (`render_player_board`) is the same picture from one seat's view with that
seat's ticket cities and the tracks it may claim now ringed, and its hand and tickets below.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import CARD_NAMES
from engine.mapdata import MapData
from i18n import Translator
from rendering import fonts, marklin, terrain
from rendering.badges import STATION_SCALE, STATION_TAG, Badge, badge_text_px, badges, station_badges
from rendering.draw import SS, blends, disc, encode, palette_for, paste, paste_centered, sprite
from rendering.geometry import MapGeometry, geometry, toll_spots
from rendering.panel import PanelText, draw_key, draw_panel, key_height, panel_height, small_size
from rendering.shapes import overlap
from rendering.style import (
    ALERT,
    BACKGROUND,
    CITY_FILL,
    DEFAULT_PLAYER_COLORS,
    GOOD,
    HALO,
    HIGHLIGHT,
    INK,
    MAP_EDGE,
    MUTED,
    NEUTRAL_PLAYER,
    PANEL,
    PANEL_LINE,
    RGB,
    ROUTE_COLORS,
    TICKET_CITY,
    PlayerStyle,
    RenderedImage,
    darker,
    lighter,
    luminance,
    text_on,
)
from rendering.words import (
    changed,
    city_names,
    clauses,
    listing,
    player_name,
    recap,
    route_letters,
    seat_name,
    status_text,
    translator_or_english,
    tunnel_text,
)

TOLL_FILL = (232, 185, 35)
BORDER_FILL = (150, 46, 40)  # a country's border point (Switzerland): a small diamond


# ---------------------------------------------------------------------------------------------
# Static layer (cached per map, width, and the letters it carries: color-blind mode, language)


def _route_color_name(map_data: MapData, track_index: int) -> str:
    c = map_data.tracks[track_index].color
    return "gray" if c is None else CARD_NAMES[c]


Marks = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]


def map_marks(m: MapData, t: Translator, colorblind: bool) -> Marks:
    """The letters drawn on the static layer, in the viewer's language: the color-blind letters
    ((card name, letter) pairs, none without color-blind mode) and each border point's country
    initial (the first letter of the country's name as labelled)."""
    letters = tuple(route_letters(t).items()) if colorblind else ()
    initials = tuple(_initial(t.city(m.cities[c.country])) if c.kind == "border" else "" for c in m.cities)
    return letters, initials


def _initial(name: str) -> str:
    return next((ch for ch in fonts.clean_text(name, "bold") if ch.isalnum()), "")


@lru_cache(maxsize=16)
def _static_map(map_id: str, sha: str, width: int, names: tuple[str, ...] | None, marks: Marks) -> Image.Image:
    from engine.mapdata import load_map

    m = load_map(map_id)
    return build_static_map(m, geometry(m, width, names), marks)


def shipped(map_data: MapData) -> bool:
    """Whether this is a map file from engine/maps (only those are cached by id and hash)."""
    from engine.mapdata import load_map

    try:
        return load_map(map_data.id).sha256 == map_data.sha256
    except KeyError:
        return False


def static_map(map_data: MapData, geo: MapGeometry, marks: Marks) -> Image.Image:
    """The empty board (background, tracks, cities); callers copy it before drawing."""
    if shipped(map_data):
        return _static_map(map_data.id, map_data.sha256, geo.width, geo.names, marks)
    return build_static_map(map_data, geo, marks)


def build_static_map(m: MapData, geo: MapGeometry, marks: Marks) -> Image.Image:
    W, H = geo.width, geo.map_height
    S = 2  # the static layer is drawn 2x and reduced: smooth edges, paid once per map
    big = Image.new("RGB", (W * S, H * S), BACKGROUND)
    d = ImageDraw.Draw(big)
    inset = geo.pad * 0.35 * S
    frame = (inset, inset, W * S - inset, H * S - inset)
    shapes = terrain.geography(m.id) if shipped(m) else None
    if shapes is not None:
        terrain.draw_terrain(big, geo, shapes, S, (*frame, 14 * S))
    d.rounded_rectangle(frame, radius=14 * S, outline=MAP_EDGE, width=3 * S)
    outline = (58, 54, 48)
    for tg in geo.tracks:
        t = m.tracks[tg.index]
        color = ROUTE_COLORS[_route_color_name(m, tg.index)]
        for k, car in enumerate(tg.cars):
            if t.tunnel:  # a thick dark frame and a light gap: seen at a phone's 400 px, on black routes too
                d.polygon(car.polygon(grow=4.2, scale=S), fill=(20, 20, 20))
                d.polygon(car.polygon(grow=1.9, scale=S), fill=(250, 248, 240))
                d.polygon(car.polygon(grow=-0.2, scale=S), fill=color)
            else:
                d.polygon(car.polygon(grow=1.0, scale=S), fill=outline)
                d.polygon(car.polygon(grow=-0.1, scale=S), fill=color)
            if k < t.ferry:  # a locomotive is needed: dark disc with a light center
                r = geo.car_width * 0.36 * S
                x, y = car.x * S, car.y * S
                d.ellipse((x - r, y - r, x + r, y + r), fill=(25, 25, 25))
                r2 = r * 0.45
                d.ellipse((x - r2, y - r2, x + r2, y + r2), fill=(250, 250, 250))
    for i, (x, y) in enumerate(geo.cities):
        kind = geo.kinds[i] if geo.kinds else "city"
        r = geo.city_r * S
        if kind == "country":  # a country is its name (a label) and its border points
            continue
        if kind == "border":  # a diamond with the country's initial (drawn below, after the resize)
            rb = geo.border_r * S
            pts = [(x * S, y * S - rb), (x * S + rb, y * S), (x * S, y * S + rb), (x * S - rb, y * S)]
            d.polygon(pts, fill=INK)
            k = (rb - 2.2 * S) / rb
            d.polygon([(x * S + (px - x * S) * k, y * S + (py - y * S) * k) for px, py in pts], fill=BORDER_FILL)
            continue
        d.ellipse((x * S - r, y * S - r, x * S + r, y * S + r), fill=INK)
        r2 = r - 2.2 * S
        d.ellipse((x * S - r2, y * S - r2, x * S + r2, y * S + r2), fill=CITY_FILL)
    # BOX: each pixel the mean of its 2x2, so an edge has 5 shades (LANCZOS's ringing made ~17,000
    # colors and a PNG a third larger, with no difference one sees)
    img = big.resize((W, H), Image.Resampling.BOX)
    d = ImageDraw.Draw(img)
    letters, initials = dict(marks[0]), marks[1]
    for i, (x, y) in enumerate(geo.cities):
        if initials[i]:
            fonts.draw_text(d, (x, y), initials[i], geo.border_letter, (255, 255, 255), style="bold", anchor="mm")
    if letters:
        for tg, spot in zip(geo.tracks, badges(m, geo, tuple(letters.values()))):
            letter_badge(img, m, geo, spot, tg.index, letters)
    return img


def letter_badge(canvas: Image.Image, m: MapData, geo: MapGeometry, spot: Badge, track: int, letters: dict) -> None:
    """Color-blind mode: an unclaimed track's color letter on its badge (gray routes: none)."""
    name = _route_color_name(m, track)
    if letters.get(name):
        paste_centered(
            canvas, _badge_sprite(spot.r, ROUTE_COLORS[name], letters[name], badge_text_px(geo.width)), spot.x, spot.y
        )


@lru_cache(maxsize=256)
def _badge_sprite(r: float, fill: RGB, text: str, size: int) -> Image.Image:
    """A disc in `fill` with a dark rim and `text` on it, as large as the smallest text."""
    img = disc(r, fill, darker(fill, 0.45) if luminance(fill) > 60 else lighter(fill, 0.55), max(1.5, r / 7)).copy()
    fonts.draw_text(
        ImageDraw.Draw(img), (img.width / 2, img.height / 2), text, size, text_on(fill), style="bold", anchor="mm"
    )
    return img


def palette_colors(players: Sequence[PlayerStyle]) -> tuple[list, list]:
    """The colors drawn over the static layer, exactly (players', glow, rings, panel), and the
    mixtures at their anti-aliased edges, for `draw.palette_for`."""
    own = []
    for p in players:
        c = p.color
        own += [c, darker(c, 0.4), lighter(c, 0.6), darker(c, 0.35), darker(c, 0.45), text_on(c)]
    glow = [HIGHLIGHT, darker(HIGHLIGHT, 0.45), lighter(HIGHLIGHT, 0.72), TICKET_CITY, GOOD, ALERT]
    ui = [PANEL, PANEL_LINE, INK, MUTED, HALO, (255, 255, 255), BACKGROUND]
    grounds = [BACKGROUND, PANEL, INK, (255, 255, 255), lighter(HIGHLIGHT, 0.72)]
    extra = blends(own + glow, grounds + [ROUTE_COLORS[k] for k in ("gray", "black", "white")]) + blends(
        [INK, MUTED], grounds
    )
    return own + glow + ui, extra


@lru_cache(maxsize=32)
def _palette(
    map_id: str, sha: str, width: int, names: tuple[str, ...] | None, marks: Marks, colors: tuple
) -> Image.Image:
    exact, extra = palette_colors([PlayerStyle("", c) for c in colors])
    return palette_for(_static_map(map_id, sha, width, names, marks), exact, extra)


def board_palette(m: MapData, geo: MapGeometry, marks: Marks, players: Sequence[PlayerStyle]) -> Image.Image:
    """The 256 colors a board picture is encoded with (cached per map, width, letters, players' colors)."""
    if shipped(m):
        return _palette(m.id, m.sha256, geo.width, geo.names, marks, tuple(p.color for p in players))
    exact, extra = palette_colors(players)
    return palette_for(build_static_map(m, geo, marks), exact, extra)


def overlay_sprites(m: MapData, geo: MapGeometry) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Tolls and city labels as small RGBA patches, pasted after the claims so no car hides them."""
    out = toll_sprites(m, geo) + substitute_sprites(m, geo)
    for lab in geo.labels:
        x0, y0 = int(lab.box[0]) - 2, int(lab.box[1]) - 2
        w, h = int(lab.box[2]) + 3 - x0, int(lab.box[3]) + 3 - y0
        patch = Image.new("RGBA", (w, h), HALO + (0,))
        d = ImageDraw.Draw(patch)
        for text, (x, y) in zip(lab.lines, lab.origins):
            fonts.draw_text(d, (x - x0, y - y0), text, lab.size, INK, style="label", stroke=geo.halo, stroke_fill=HALO)
        out.append((patch, (x0, y0)))
    return out


@lru_cache(maxsize=32)  # per map, width and city names (printed, Russian, Chinese)
def _overlay_sprites(map_id: str, sha: str, width: int, names: tuple[str, ...] | None):
    from engine.mapdata import load_map

    m = load_map(map_id)
    return overlay_sprites(m, geometry(m, width, names))


def overlay_for(map_data: MapData, geo: MapGeometry):
    if shipped(map_data):
        return _overlay_sprites(map_data.id, map_data.sha256, geo.width, geo.names)
    return overlay_sprites(map_data, geo)


def toll_sprites(m: MapData, geo: MapGeometry) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Nederland: the bridge toll as a gold coin beside each route (`geometry.toll_spots`)."""
    out = []
    for ti, x, y, r, size in toll_spots(m, geo):
        coin = disc(r, TOLL_FILL, (110, 80, 10), 1.5).copy()
        fonts.draw_text(
            ImageDraw.Draw(coin),
            (coin.width / 2, coin.height / 2),
            str(m.tracks[ti].toll),
            size,
            INK,
            style="bold",
            anchor="mm",
        )
        out.append((coin, (round(x - coin.width / 2), round(y - coin.height / 2))))
    return out


SUBSTITUTE_FILL = (60, 60, 70)


def substitute_sprites(m: MapData, geo: MapGeometry) -> list[tuple[Image.Image, tuple[int, int]]]:
    """A track whose missing cards may each be replaced by N cards of any colors (Nordic
    Murmansk-Lieksa, data `substitute`): a dark tag "N:1" beside its middle car."""
    out = []
    size = max(round(geo.pitch * 0.36), small_size(geo.width))
    for tg in geo.tracks:
        n = m.tracks[tg.index].substitute
        if not n:
            continue
        text = f"{n}:1"
        w = fonts.measure(text, size, "bold") + size * 0.7
        h = size * 1.45
        tag = Image.new("RGBA", (round(w) + 2, round(h) + 2), (0, 0, 0, 0))
        d = ImageDraw.Draw(tag)
        d.rounded_rectangle(
            (1, 1, w, h), radius=h / 2.5, fill=SUBSTITUTE_FILL + (255,), outline=(250, 248, 240, 255), width=2
        )
        fonts.draw_text(d, (w / 2 + 0.5, h / 2 + 0.5), text, size, (255, 255, 255), style="bold", anchor="mm")
        car = tg.cars[len(tg.cars) // 2]
        points = [p for t in geo.tracks for c in t.cars for p in c.samples()]
        spot = None
        for step in range(12):  # beside the middle car, on whichever side is clear of train cars
            off = geo.car_width / 2 + h / 2 + 3 + step * size * 0.4
            for side in (1, -1):
                x, y = car.x + side * tg.normal[0] * off, car.y + side * tg.normal[1] * off
                pad = geo.car_width * 0.8 + 2  # the samples run along a car's middle: keep its width clear
                box = (x - w / 2 - pad, y - h / 2 - pad, x + w / 2 + pad, y + h / 2 + pad)
                if not any(box[0] <= px <= box[2] and box[1] <= py <= box[3] for px, py in points):
                    spot = (x, y)
                    break
            if spot:
                break
        x, y = spot or (car.x + tg.normal[0] * off, car.y + tg.normal[1] * off)
        out.append((tag, (round(x - tag.width / 2), round(y - tag.height / 2))))
    return out


# ---------------------------------------------------------------------------------------------
# Sprites for what changes: claimed tracks, highlights, stations


@lru_cache(maxsize=4096)
def _track_sprite(map_id: str, sha: str, width: int, track: int, kind: str, color: tuple, tag: str = ""):
    from engine.mapdata import load_map

    return track_sprite(geometry(load_map(map_id), width), track, kind, color)


#: A claimed space's train car, against the space's length: the route's own color shows at its ends.
CAR_LENGTH = 0.76


def track_sprite(geo: MapGeometry, track: int, kind: str, color: tuple):
    """kind: "claim" (train cars in a player's color, light stripe, dark outline, a little wider
    and shorter than their spaces), "plain" (the same
    without the stripe), "glow" / "halo" (a wide / narrower light under the cars) or "mask"
    (the cars' shapes, to lift unclaimed cars from the static layer above a glow)."""
    tg = geo.tracks[track]
    grow = {"claim": 2.0, "plain": 2.0, "glow": 10.5, "halo": 7.5, "mask": 4.4}[kind]
    box = tg.bbox(grow + 1)

    def paint(d: ImageDraw.ImageDraw, tr):
        for car in tg.cars:
            if kind in ("claim", "plain"):  # a train car on its space: the route's color shows at both ends
                d.polygon(tr(car.polygon(grow=1.9, length_f=CAR_LENGTH)), fill=darker(color, 0.4))
                d.polygon(tr(car.polygon(grow=0.5, length_f=CAR_LENGTH)), fill=color)
                if kind == "claim":  # color-blind mode writes the seat number there instead
                    d.polygon(tr(car.polygon(length_f=0.5, width_f=0.26)), fill=lighter(color, 0.6))
            elif kind == "mask":  # the car with its outline or tunnel frame, as drawn on the static layer
                d.polygon(tr(car.polygon(grow=4.3)), fill=(255, 255, 255, 255))
            elif kind == "glow":  # a dark rim outside the light: it reads on yellow and orange routes too
                d.polygon(tr(car.polygon(grow=grow)), fill=darker(color, 0.45) + (235,))
        if kind in ("glow", "halo"):
            for car in tg.cars:
                d.polygon(tr(car.polygon(grow=grow - 2.6 if kind == "glow" else grow)), fill=color + (245,))

    return sprite(box, paint)


def _sprite(map_data: MapData, geo: MapGeometry, track: int, kind: str, color: tuple):
    if shipped(map_data):
        return _track_sprite(map_data.id, map_data.sha256, geo.width, track, kind, tuple(color))
    return track_sprite(geo, track, kind, color)


_TRACK_BOXES: dict[tuple, list] = {}


def _track_boxes(geo: MapGeometry) -> list[tuple[tuple, tuple]]:
    """Per track: the box of its cars as the static layer draws them, and the box its light
    reaches (cached per map, width and labels)."""
    key = (geo.map_id, geo.width, geo.names, len(geo.tracks))
    if key not in _TRACK_BOXES:
        if len(_TRACK_BOXES) > 32:
            _TRACK_BOXES.clear()
        _TRACK_BOXES[key] = [(tg.bbox(4.4), tg.bbox(12)) for tg in geo.tracks]
    return _TRACK_BOXES[key]


@lru_cache(maxsize=64)
def _station_sprite(size: float, color: tuple) -> Image.Image:
    """A small house in the owner's color."""
    s = size

    def paint(d, tr):
        pts = [(-0.5 * s, -0.05 * s), (0, -0.55 * s), (0.5 * s, -0.05 * s), (0.5 * s, 0.5 * s), (-0.5 * s, 0.5 * s)]
        big = [(x * 1.25, y * 1.25) for x, y in pts]
        d.polygon(tr(big), fill=darker(color, 0.35))
        d.polygon(tr(pts), fill=color)

    img, _ = sprite((-0.7 * s, -0.75 * s, 0.7 * s, 0.7 * s), paint)
    return img


def draw_state(
    canvas: Image.Image,
    m: MapData,
    geo: MapGeometry,
    view: dict,
    players: Sequence[PlayerStyle],
    *,
    colorblind: bool,
    letters: dict[str, str] | None = None,
    highlight: Iterable[str] = (),
    claimable: Iterable[str] = (),
    glow_color=HIGHLIGHT,
    ring_cities: Iterable[str] | dict = (),  # city ids, or {city id: ring color}
    highlight_cities: Iterable[str] = (),
    static: Image.Image | None = None,
    overlays: bool = True,
) -> None:
    """Claims, stations and highlights on a copy of the static map: `highlight` tracks get a
    gold glow with a dark rim (what changed; the longest path), `claimable` ones a thinner gold
    light (private board: routes you can claim now). `letters`: color-blind mode's route letters
    (`map_marks`), whose badges the static layer carries. overlays: the labels, toll coins and
    substitute tags."""
    track_by_id = m.track_by_id
    lit = [(tid, "glow") for tid in highlight if tid in track_by_id]
    lit += [(tid, "halo") for tid in claimable if tid in track_by_id]
    for tid, kind in lit:
        paste(canvas, _sprite(m, geo, track_by_id[tid].index, kind, glow_color))
    if static is not None and lit:
        # put the unclaimed cars back above the light: the lit routes' own and their neighbours'
        # (a light spilling over the next route's cars read as that route being lit too)
        reach = _track_boxes(geo)
        boxes = [reach[track_by_id[tid].index][1] for tid, _ in lit]
        for tg in geo.tracks:
            tid = m.tracks[tg.index].id
            if tid not in view["claims"] and any(overlap(reach[tg.index][0], b) for b in boxes):
                mask, (x, y) = _sprite(m, geo, tg.index, "mask", (255, 255, 255))
                canvas.paste(static.crop((x, y, x + mask.width, y + mask.height)), (x, y), mask)
    for tid, seat in view["claims"].items():
        if tid in track_by_id:
            paste(
                canvas, _sprite(m, geo, track_by_id[tid].index, "plain" if colorblind else "claim", players[seat].color)
            )
    if letters:  # color-blind mode: a claim's badge carries its owner's seat number
        spots = badges(m, geo, tuple(letters.values()))
        # a light, or the claimed other track of its double (a badge may touch it), covers the
        # letter's badge of an unclaimed track: put it back
        covered = {tid for tid, _ in lit}
        covered |= {
            m.tracks[m.track_by_id[tid].double].id
            for tid in view["claims"]
            if tid in track_by_id and track_by_id[tid].double is not None
        }
        for tid in sorted(covered - set(view["claims"])):
            letter_badge(canvas, m, geo, spots[track_by_id[tid].index], track_by_id[tid].index, letters)
        size = badge_text_px(geo.width)
        for tid, seat in view["claims"].items():
            if tid in track_by_id:
                spot = spots[track_by_id[tid].index]
                paste_centered(canvas, _badge_sprite(spot.r, players[seat].color, str(seat + 1), size), spot.x, spot.y)
    for item in overlay_for(m, geo) if overlays else ():
        paste(canvas, item)
    for cid in ring_cities:
        if cid in m.city_by_id:
            color = ring_cities[cid] if isinstance(ring_cities, dict) else TICKET_CITY
            for node in m.nodes(m.city_by_id[cid].index):  # a country: ring its border points
                x, y = geo.cities[node]
                paste_centered(canvas, disc(geo.mark_r, color, None, max(2.5, geo.mark_r * 0.22), ring_only=True), x, y)
    size = geo.city_r * STATION_SCALE
    lit_cities = set(highlight_cities)
    tags = station_badges(m, geo, tuple(letters.values())) if letters and view.get("stations") else ()
    for cid, seat in view.get("stations", {}).items():
        if cid not in m.city_by_id:
            continue
        x, y = geo.cities[m.city_by_id[cid].index]
        if cid in lit_cities:
            paste_centered(canvas, disc(geo.mark_r, darker(HIGHLIGHT, 0.45), None), x, y)
            paste_centered(canvas, disc(geo.mark_r * 0.86, HIGHLIGHT, None), x, y)
        color = players[seat].color
        paste_centered(canvas, _station_sprite(size, color), x, y - size * 0.03)
        tag = tags[m.city_by_id[cid].index] if tags else None
        if tag is not None:  # color-blind mode: the seat number on a swatch touching the house
            paste_centered(canvas, _station_tag(tag.r, color, str(seat + 1), badge_text_px(geo.width)), tag.x, tag.y)
    if "merchandise" in view and overlays:  # Märklin's stacks and passengers (not on a thumbnail: too small)
        marklin.draw_board(canvas, m, geo, view, players, colorblind)


@lru_cache(maxsize=64)
def _station_tag(r: float, fill: RGB, text: str, size: int) -> Image.Image:
    """A station's seat number in color-blind mode: a rounded square in the owner's color (a
    panel swatch; a claimed route's number is on a disc), inside the circle of radius r."""
    h = STATION_TAG * r

    def paint(d, tr):
        (ax, ay), (bx, by) = tr([(-h, -h), (h, h)])
        d.rounded_rectangle((ax, ay, bx, by), radius=0.3 * r * SS, fill=darker(fill, 0.45))
        k = max(1.5, r / 7) * SS
        d.rounded_rectangle((ax + k, ay + k, bx - k, by - k), radius=0.3 * r * SS - k, fill=fill)

    img, _ = sprite((-r, -r, r, r), paint)
    fonts.draw_text(
        ImageDraw.Draw(img), (img.width / 2, img.height / 2), text, size, text_on(fill), style="bold", anchor="mm"
    )
    return img


# ---------------------------------------------------------------------------------------------
# Public API


def seat_styles(view: dict, players: Sequence[PlayerStyle] | None, t: Translator) -> list[PlayerStyle]:
    """One style per seat (missing seats: the default palette and "Player N"; in a seat's own view,
    that seat is "You"), then the neutral player's (its claims carry the owner index after the
    last seat, `view["neutral"]["owner"]`)."""
    n = len(view["players"])
    players = [] if players is None else list(players)[:n]
    players += [
        PlayerStyle(seat_name(t, s), DEFAULT_PLAYER_COLORS[s % len(DEFAULT_PLAYER_COLORS)])
        for s in range(len(players), n)
    ]
    you = (view.get("you") or {}).get("seat")
    if you is not None and you < n:  # a seat's own images call it "you", as its private texts do
        players[you] = PlayerStyle(t.pgettext("player", "You"), players[you].color)
    if view.get("neutral"):
        players.append(PlayerStyle("Neutral", NEUTRAL_PLAYER))
    return players


def board_image(
    view: dict,
    map_data: MapData,
    players,
    *,
    t: Translator,
    width=None,
    colorblind=False,
    highlight=None,
    claimable=(),
    since: int | None = None,
    legend=(),
    ring_cities=(),
    glow=(),
    glow_color=HIGHLIGHT,
    panel=True,
    key=False,
    extra_height: int = 0,
    words=True,
) -> tuple[Image.Image, MapGeometry, Image.Image]:
    """The picture, its geometry and the palette to encode it with. highlight None/True: what
    changed since ply `since` (the recent turns) glows; False: nothing; or track ids. key: the
    seats' colors and names under a map drawn without its panel. words False: no text on the
    map (no labels, coins, tags, letters or numbers; a thumbnail, where they would be too small
    to read)."""
    geo = geometry(map_data, width, city_names(t, map_data))
    marks = map_marks(map_data, t, colorblind)
    if not words:
        marks = ((), tuple("" for _ in marks[1]))
    static = static_map(map_data, geo, marks)
    text = PanelText(t, view, players, map_data, since, legend) if panel else None
    ph = panel_height(geo.width, len(view["players"]), text.count(t, players, geo.width)) if panel else 0
    ph += key_height(geo.width) if key else 0
    canvas = Image.new("RGB", (geo.width, geo.map_height + ph + extra_height), PANEL)
    canvas.paste(static, (0, 0))
    hl = list(glow)
    cities: list[str] = []
    if highlight is None or highlight is True:
        tracks, cities = changed(view, map_data, since)
        hl += tracks
        if view.get("tunnel"):
            hl.append(view["tunnel"]["track"])
    elif highlight:
        hl.extend(highlight)
    draw_state(
        canvas,
        map_data,
        geo,
        view,
        players,
        colorblind=colorblind,
        letters=dict(marks[0]),
        highlight=hl,
        claimable=claimable,
        glow_color=glow_color,
        ring_cities=ring_cities,
        highlight_cities=cities,
        static=static,
        overlays=words,
    )
    if panel:
        draw_panel(canvas, map_data, view, players, geo.map_height, colorblind=colorblind, t=t, text=text)
    if key:
        draw_key(canvas, players, len(view["players"]), geo.map_height)
    return canvas, geo, board_palette(map_data, geo, marks, players)


def board_alt_text(
    t: Translator, view: dict, map_data: MapData, players: Sequence[PlayerStyle], since: int | None = None
) -> str:
    scores = listing(
        t,
        [
            t.gettext("{player} {points}", player=player_name(t, players, p["seat"]), points=p["score"])
            for p in view["players"]
        ],
    )
    parts = [t.gettext("{map} board", map=t.map_name(map_data)), status_text(t, view, players)]
    if view.get("last_round") and view["phase"] == "playing":
        parts.append(t.gettext("last round"))
    parts.append(t.gettext("scores: {scores}", scores=scores))
    for seat, words in recap(t, view, players, map_data, since):
        who = player_name(t, players, seat) if seat is not None and seat < len(players) else t.gettext("Table")
        parts.append(t.gettext("{player}: {actions}", player=who, actions=words))
    if view.get("tunnel"):
        parts.append(tunnel_text(t, view, players, map_data))
    return t.gettext("{clauses}.", clauses=clauses(t, parts))


def render_board(
    view: dict,
    map_data: MapData,
    players: Sequence[PlayerStyle] | None = None,
    *,
    highlight: Iterable[str] | bool | None = None,
    colorblind: bool = False,
    width: int | None = None,
    t: Translator | None = None,
    since: int | None = None,
    panel: bool = True,
) -> RenderedImage:
    """The public board from a spectator view: map, claims, stations, what changed, panel, in
    the language of `t` (None: English).

    panel: False draws the map and the seats' color key alone (the channel's table says the rest
    in its text, which a phone reads better; the board costs some 16 KB less).

    since: the ply (`view["plies"]`) of the board the viewers saw before: the turns after it are
    told in the panel and their claims and stations glow (None: the last turn of every seat).
    highlight: None/True highlights those, False nothing, or track ids.
    """
    if view.get("you") is not None:
        raise ValueError("render_board draws public images: pass the spectator view game.view(None)")
    t = translator_or_english(t)
    players = seat_styles(view, players, t)
    img, _, palette = board_image(
        view,
        map_data,
        players,
        t=t,
        width=width,
        colorblind=colorblind,
        highlight=highlight,
        since=since,
        panel=panel,
        key=not panel,
    )
    return RenderedImage(encode(img, palette), board_alt_text(t, view, map_data, players, since), img.width, img.height)
