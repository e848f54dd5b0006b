"""What a phone shows first (the image scaled to 400 px wide) and what it downloads: every text at
least 7 px high there, and boards in 256 colors that match the full-color picture."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine.mapdata import load_map
from i18n import translator
from rendering import board as board_module
from rendering import (
    default_players,
    fonts,
    render_board,
    render_final,
    render_hand,
    render_player_board,
    render_ticket_offer,
)
from rendering import panel as panel_module
from rendering.draw import encode
from rendering.geometry import MIN_TEXT_AT_400
from rendering.sample import synthetic_final, with_seat
from rendering.words import route_letters, translator_or_english
from tests.rendering.conftest import MAPS, decode

IMAGES = {
    "board": lambda v, m, **kw: render_board(v, m, **kw),
    "channel board": lambda v, m, **kw: render_board(v, m, panel=False, **kw),  # the map and its color key
    "player board": lambda v, m, **kw: render_player_board(
        with_seat(v, m, 0), m, claimable_tracks=[x.id for x in m.tracks[:5]], **kw
    ),
    "final": lambda v, m, **kw: render_final(synthetic_final(v, m), m, **kw),
    "hand": lambda v, m, **kw: render_hand(with_seat(v, m, 0), m, **kw),
    "offer": lambda v, m, **kw: render_ticket_offer(with_seat(v, m, 0, offer=5), m, **kw),
}
#: Sprites with text in them, cached: drawn again under the spy.
TEXT_CACHES = (
    board_module._static_map,
    board_module._overlay_sprites,
    board_module._badge_sprite,
    board_module._station_tag,
)


@pytest.mark.slow
@pytest.mark.parametrize("colorblind", [False, True])
@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("map_id", MAPS)
def test_every_text_is_at_least_7_px_at_400_px_wide(monkeypatch, synthetic_views, map_id, language, colorblind):
    """Every string any image draws (labels, coins, border initials, panel, tables; in color-blind
    mode the routes' letters, the claims' and the stations' seat numbers and the cards' letters
    too), by the size it is drawn at, in pixels of the image scaled to 400 px wide (a station's
    number was 3 px on its house before)."""
    drawn: list[tuple[str, int]] = []
    real = fonts.draw_text

    def spy(draw, xy, text, size, fill, **kw):
        drawn.append((text, size))
        return real(draw, xy, text, size, fill, **kw)

    monkeypatch.setattr(fonts, "draw_text", spy)
    m = load_map(map_id)
    t = translator(language, "translated")
    view = synthetic_views[map_id]
    assert view["stations"] or not m.rules.stations
    for name, make in IMAGES.items():
        drawn.clear()
        for cached in TEXT_CACHES:
            cached.cache_clear()
        r = make(view, m, t=t, colorblind=colorblind)  # cached layers were drawn before the spy
        assert drawn, name
        smallest = min(drawn, key=lambda d: d[1])
        assert smallest[1] * 400 / r.width >= MIN_TEXT_AT_400 - 0.05, (name, smallest, r.width)
        if colorblind and name != "offer":  # an offer's thumbnails carry no text
            letters = set(route_letters(t).values()) - {""}
            assert letters & {text for text, _ in drawn}, name  # the letters were drawn, and measured
            if name in ("board", "player board") and view["stations"]:  # and the stations' numbers
                made = board_module._station_tag.cache_info().misses  # one per seat and size
                assert len(set(view["stations"].values())) <= made <= len(view["stations"]), name
    for cached in TEXT_CACHES:
        cached.cache_clear()


@pytest.mark.parametrize("map_id", MAPS)
def test_palette_board_matches_the_full_color_picture(synthetic_views, map_id):
    """The posted picture (256 colors, about three quarters of the full-color file) differs little from the full-color
    picture pixel by pixel, and every player's color stays itself (Pillow maps onto a palette
    through a cache of 6 bits a channel, so within a few units, never another hue)."""
    m = load_map(map_id)
    view = synthetic_views[map_id]
    t = translator_or_english(None)
    players = board_module.seat_styles(view, default_players(len(view["players"])), t)
    full, _, palette = board_module.board_image(view, m, players, t=t)
    data = encode(full, palette)
    shown = decode(data)
    assert shown.size == full.size and len(data) < 0.8 * len(encode(full))  # measured 0.73
    worst = _max_channel(ImageChops.difference(full, shown))
    hist = worst.histogram()
    n = full.width * full.height
    mean = sum(v * c for v, c in enumerate(hist)) / n
    above = sum(hist[25:]) / n
    assert mean < 2.0 and above < 0.01, (mean, above)  # measured: 1.4-1.7 and 0.1-0.6 %
    for p in players:
        solid = Image.new("RGB", full.size, p.color)
        in_full = _max_channel(ImageChops.difference(full, solid)).point(lambda v: 255 if v == 0 else 0)
        in_shown = _max_channel(ImageChops.difference(shown, solid)).point(lambda v: 255 if v <= 8 else 0)
        assert in_full.getbbox() is not None or p.color not in [q.color for q in players[: len(view["players"])]]
        assert ImageChops.subtract(in_full, in_shown).getbbox() is None, p.color


def _max_channel(img: Image.Image) -> Image.Image:
    r, g, b = img.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


@pytest.mark.parametrize("language", ["en", "ru", "zh"])
@pytest.mark.parametrize("map_id", MAPS)
def test_the_panel_reads_at_400_px_wide(monkeypatch, synthetic_views, map_id, language):
    """The board's panel (status, recap, legend, score table) in pixels of the picture shown
    400 px wide: every word at least 10 px, the names and numbers of the table 11 px, the seat
    numbers on the small swatches 8 px (all were 7-7.6 px, too small to read there)."""
    m = load_map(map_id)
    view = synthetic_views[map_id]
    t = translator(language, "translated")
    geo_height = board_module.geometry(m, None, board_module.city_names(t, m)).map_height
    drawn: list[tuple[str, int]] = []
    real = fonts.draw_text

    def spy(draw, xy, text, size, fill, **kw):
        if draw.im.size[1] > geo_height and xy[1] > geo_height:  # drawn on the panel
            drawn.append((text, size))
        return real(draw, xy, text, size, fill, **kw)

    monkeypatch.setattr(fonts, "draw_text", spy)
    r = render_player_board(
        with_seat(view, m, 0), m, claimable_tracks=[x.id for x in m.tracks[:5]], t=t
    )  # the recap, the legend and the table
    k = 400 / r.width
    names = {p.name for p in default_players(len(view["players"]))} | {str(p["score"]) for p in view["players"]}
    assert drawn and {text for text, _ in drawn} & names
    for text, size in drawn:
        least = 8 if text.isdigit() and len(text) == 1 else panel_module.RECAP_PX_AT_400
        assert size * k >= least - 0.05, (text, size * k)
        if text in names:
            assert size * k >= panel_module.PANEL_PX_AT_400 - 0.05, (text, size * k)
