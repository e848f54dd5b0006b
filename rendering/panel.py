"""The panel below a board's map: whose turn and the market, the recap of the last turns, the
legend of a player's own board, and one row per seat (points, trains, cards, tickets, stations,
loans), sized to read on a phone's first 400 px view."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.mapdata import MapData
from i18n import N_, Translator
from rendering import fonts
from rendering.cards import card
from rendering.geometry import min_text_px
from rendering.style import (
    ALERT,
    GOOD,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_LINE,
    ROUTE_COLORS,
    TICKET_CITY,
    PlayerStyle,
    darker,
    lighter,
    text_on,
)
from rendering.words import (
    decks_text,
    player_name,
    recap,
    route_letters,
    seat_name,
    status_text,
    tunnel_text,
)


def text_size(width: int) -> int:
    """Main panel text: 7.6 px when the image is shown 400 px wide (a phone's first view)."""
    return math.ceil(7.6 * width / 400)


def small_size(width: int) -> int:
    """The smallest text of any image: 7 px at 400 px wide (titles, notes, the recap)."""
    return min_text_px(width)


#: The board panel's text, in pixels of the picture shown 400 px wide (what a phone shows first):
#: the status, names and numbers, and the recap with the legend and the column titles. At the
#: 7-7.6 px of the other images' text the recap and the table could not be read there.
PANEL_PX_AT_400 = 11.0
RECAP_PX_AT_400 = 10.0
#: A turn's recap takes at most this many lines (then it is cut with "…").
RECAP_LINES = 2


def panel_size(width: int) -> int:
    return math.ceil(PANEL_PX_AT_400 * width / 400)


def recap_size(width: int) -> int:
    return math.ceil(RECAP_PX_AT_400 * width / 400)


def _has_key(view: dict, key: str) -> bool:
    return any(key in p for p in view["players"])


def _columns(m: MapData, view: dict) -> list[tuple[str, str]]:
    """(view key, column title) of the panel's table; titles are translated where drawn."""
    cols = [("score", N_("Points")), ("trains", N_("Trains")), ("hand_size", N_("Cards")), ("tickets", N_("Tickets"))]
    if m.rules.stations:
        cols.append(("stations_left", N_("Stations")))
    if _has_key(view, "loans"):
        cols.append(("loans", N_("Loans")))
    return cols


class PanelText:
    """What the panel says above the table: the recap of the turns since the viewer last looked,
    one (seat, words) line per turn, and a tunnel being paid for."""

    def __init__(
        self,
        t: Translator,
        view: dict,
        players: Sequence[PlayerStyle],
        m: MapData,
        since: int | None = None,
        legend: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.lines = recap(t, view, players, m, since)
        self.tunnel = tunnel_text(t, view, players, m) if view.get("tunnel") else ""
        self.legend = list(legend)  # (icon: "glow" | "halo" | "ring" | "done", words), private board
        self._rows: dict[tuple, list] = {}

    def recap_rows(
        self, t: Translator, players: Sequence[PlayerStyle], width: int
    ) -> list[tuple[int | None, str, str]]:
        """The recap as drawn: (seat, "who:" on a turn's first row else "", words), each turn's
        words wrapped on up to RECAP_LINES rows of the panel's width."""
        key = (id(t), tuple(p.name for p in players), width)
        if key in self._rows:
            return self._rows[key]
        ss, gap = recap_size(width), round(panel_size(width) * 0.35)
        margin = round(panel_size(width) * 0.9)
        rows = []
        for seat, words in self.lines:
            if seat is not None and seat < len(players):
                who = fonts.fit(player_name(t, players, seat), ss, width * 0.3, "bold")
                indent = round(ss * 1.2) + gap
            else:
                who, indent = t.gettext("Table"), 0
            who = t.gettext("{player}:", player=who)
            room = width - 2 * margin - indent - fonts.measure(who, ss, "bold") - gap
            for k, line in enumerate(fonts.wrap(words.split(" "), " ", ss, room, RECAP_LINES)):
                rows.append((seat, who if k == 0 else "", line))
        self._rows[key] = rows  # counted for the panel's height, then drawn
        return rows

    def legend_rows(self, width: int) -> list[list[tuple[str, str, float]]]:
        """The legend's items laid out in rows that fit `width` (each item with its width)."""
        ss = recap_size(width)
        rows: list[list[tuple[str, str, float]]] = [[]]
        used = 0.0
        for icon, words in self.legend:
            w = ss * 1.6 + fonts.measure(words, ss) + ss * 1.2
            if rows[-1] and used + w > width - 2 * ss:
                rows.append([])
                used = 0.0
            rows[-1].append((icon, fonts.fit(words, ss, width - 4 * ss), w))
            used += w
        return rows if self.legend else []

    def count(self, t: Translator, players: Sequence[PlayerStyle], width: int) -> int:
        return len(self.recap_rows(t, players, width)) + bool(self.tunnel) + len(self.legend_rows(width))


def panel_height(width: int, seats: int, lines: int = 0) -> int:
    fs, ss = panel_size(width), recap_size(width)
    return (
        round(fs * 0.7)
        + round(fs * 2.2)
        + round(ss * 1.5)
        + lines * round(ss * 1.55)
        + round(fs * 0.4)
        + round(fs * 1.5)
        + seats * round(fs * 1.7)
        + round(fs * 0.8)
    )


def swatch(draw: ImageDraw.ImageDraw, box, color, seat: int, fs: int) -> None:
    """A player's color with the seat number, the number at least the smallest text size."""
    draw.rounded_rectangle(box, radius=max(3, fs // 5), fill=color, outline=darker(color, 0.45), width=2)
    size = max(math.ceil(fs * 0.8), small_size(draw.im.size[0]))  # the image's smallest text size
    fonts.draw_text(
        draw,
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        str(seat + 1),
        size,
        text_on(color),
        style="bold",
        anchor="mm",
    )


def key_height(width: int) -> int:
    """The height of the color key under a board drawn without its panel."""
    return round(panel_size(width) * 2.4)


def draw_key(canvas: Image.Image, players: Sequence[PlayerStyle], seats: int, top: int) -> None:
    """Under a board drawn without its panel (the channel's table, whose text tells the rest):
    each seat's color, number and name in one row, so a claim reads as its owner's."""
    W = canvas.width
    fs = panel_size(W)
    d = ImageDraw.Draw(canvas)
    d.rectangle((0, top, W, canvas.height), fill=PANEL)
    d.line((0, top, W, top), fill=PANEL_LINE, width=2)
    margin, gap, sw = round(fs * 0.9), round(fs * 0.35), round(fs * 1.3)
    cell = (W - 2 * margin) / seats
    mid = top + key_height(W) / 2
    for seat in range(seats):
        x = margin + seat * cell
        swatch(d, (x, mid - sw / 2, x + sw, mid + sw / 2), players[seat].color, seat, fs)
        name = fonts.fit(players[seat].name, fs, cell - sw - 2 * gap, "bold")
        fonts.draw_text(d, (x + sw + gap, mid), name, fs, INK, style="bold", anchor="lm")


def legend_icon(d: ImageDraw.ImageDraw, icon: str, x: float, y: float, ss: int) -> None:
    """The legend's sample of a glow (what changed), a light (claimable), a ring (ticket city)."""
    h = ss * 0.5
    if icon == "glow":
        d.rounded_rectangle(
            (x, y - h, x + ss * 1.2, y + h), radius=3, fill=HIGHLIGHT, outline=darker(HIGHLIGHT, 0.45), width=3
        )
        d.rectangle((x + ss * 0.3, y - h * 0.35, x + ss * 0.9, y + h * 0.35), fill=MUTED)
    elif icon == "halo":
        d.rounded_rectangle((x, y - h, x + ss * 1.2, y + h), radius=3, fill=HIGHLIGHT)
        d.rectangle((x + ss * 0.3, y - h * 0.35, x + ss * 0.9, y + h * 0.35), fill=ROUTE_COLORS["gray"], outline=INK)
    else:
        color = GOOD if icon == "done" else TICKET_CITY
        d.ellipse((x + ss * 0.1, y - ss * 0.5, x + ss * 1.1, y + ss * 0.5), outline=color, width=max(2, ss // 6))


def draw_panel(
    canvas: Image.Image,
    m: MapData,
    view: dict,
    players: Sequence[PlayerStyle],
    top: int,
    *,
    colorblind: bool,
    t: Translator,
    text: PanelText,
) -> None:
    W = canvas.width
    fs, ss = panel_size(W), recap_size(W)
    d = ImageDraw.Draw(canvas)
    d.rectangle((0, top, W, canvas.height), fill=PANEL)
    d.line((0, top, W, top), fill=PANEL_LINE, width=2)
    margin = round(fs * 0.9)
    y = top + round(fs * 0.7)
    # status (left) and market (right), the deck sizes under the market
    card_h = round(fs * 2.0)
    card_w = round(card_h * 1.4)
    gap = round(fs * 0.35)
    market = view.get("market", [])
    mx = W - margin - len(market) * card_w - (len(market) - 1) * gap
    letters = route_letters(t) if colorblind else {}
    for k, name in enumerate(market):
        x = mx + k * (card_w + gap)
        card(
            d,
            (x, y, x + card_w, y + card_h),
            name,
            letter=letters.get(name, ""),
            letter_size=ss,
            radius=max(4, fs // 4),
        )
    decks = decks_text(t, view)
    y2 = y + card_h + round(ss * 1.15)
    decks = fonts.fit(decks, ss, W / 2)
    fonts.draw_text(d, (W - margin, y2), decks, ss, MUTED, anchor="rs")
    status = status_text(t, view, players)
    x = margin
    sw = round(fs * 1.4)
    mid = y + card_h / 2
    if view["phase"] == "playing" and view["current"] is not None:
        swatch(d, (x, mid - sw / 2, x + sw, mid + sw / 2), players[view["current"]].color, view["current"], fs)
        x += sw + gap
    bs = round(fs * 1.1)
    last_round = bool(view.get("last_round") and view["phase"] == "playing")
    badge = fonts.fit(t.gettext("LAST ROUND"), fs, (mx - margin) / 2, "bold") if last_round else ""
    bw = fonts.measure(badge, fs, "bold") + fs + gap if badge else 0
    # the market's label where the status leaves room for it; else the status takes its room,
    # squeezed if need be (condensed, down to the recap's size)
    market_label = fonts.fit(t.gettext("Market"), ss, mx / 2)
    label_w = fonts.measure(market_label, ss, "regular") + gap
    room = mx - gap - x - bw
    if fonts.measure(status, bs, "bold") > room - label_w:
        market_label, label_w = "", 0.0
    if market_label:
        fonts.draw_text(d, (mx - gap, y + card_h / 2), market_label, ss, MUTED, anchor="rm")
    status, size, style = fonts.squeeze(status, bs, room - label_w, "bold", min_size=ss)
    tw = fonts.draw_text(d, (x, mid), status, size, INK, style=style, anchor="lm")
    if badge:
        bx = x + tw + gap
        d.rounded_rectangle((bx, mid - fs * 0.8, bx + bw - gap, mid + fs * 0.8), radius=fs // 3, fill=ALERT)
        fonts.draw_text(d, (bx + fs / 2, mid), badge, fs, (255, 255, 255), style="bold", anchor="lm")
    # the recap: one line per turn since the viewer last looked, and a tunnel being paid for
    y = y2 + round(ss * 0.35)
    lh = round(ss * 1.55)
    ssw = round(ss * 1.2)
    x = margin
    for seat, who, words in text.recap_rows(t, players, W):
        ly = y + lh / 2
        if who:  # a turn's first row: the player's swatch and name, its words after them
            x = margin
            if seat is not None and seat < len(players):
                swatch(d, (x, ly - ssw / 2, x + ssw, ly + ssw / 2), players[seat].color, seat, ss)
                x += ssw + gap
            x += fonts.draw_text(d, (x, ly), who, ss, INK, style="bold", anchor="lm") + gap
        fonts.draw_text(d, (x, ly), fonts.fit(words, ss, W - margin - x), ss, INK, anchor="lm")
        y += lh
    if text.tunnel:
        fonts.draw_text(
            d,
            (margin, y + lh / 2),
            fonts.fit(text.tunnel, ss, W - 2 * margin, "bold"),
            ss,
            ALERT,
            style="bold",
            anchor="lm",
        )
        y += lh
    for row in text.legend_rows(W):
        x = margin
        ly = y + lh / 2
        for icon, words, w in row:
            legend_icon(d, icon, x, ly, ss)
            fonts.draw_text(d, (x + ss * 1.6, ly), words, ss, MUTED, anchor="lm")
            x += w
        y += lh
    # player table
    y += round(fs * 0.4)
    cols = _columns(m, view)
    titles = [t.gettext(title) for _, title in cols]
    # a longer title (another language) widens every column, up to 5.5 em
    col_w = round(min(fs * 5.5, max([fs * 4.1] + [fonts.measure(x, ss) + 2 * gap for x in titles])))
    name_x = margin + round(fs * 1.9)
    cols_x0 = W - margin - len(cols) * col_w
    for k, title in enumerate(titles):
        title, size, style = fonts.squeeze(title, ss, col_w - 2 * gap, min_size=ss)
        fonts.draw_text(d, (cols_x0 + (k + 1) * col_w - gap, y + fs), title, size, MUTED, style=style, anchor="rs")
    fonts.draw_text(d, (name_x, y + fs), fonts.fit(t.gettext("Player"), ss, cols_x0 - name_x - gap), ss, MUTED)
    y += round(fs * 1.5)
    row_h = round(fs * 1.7)
    for p in view["players"]:
        seat = p["seat"]
        ry = y + seat * row_h
        if seat == view.get("current") and view["phase"] == "playing":
            d.rounded_rectangle(
                (margin * 0.4, ry, W - margin * 0.4, ry + row_h - 2), radius=fs // 3, fill=lighter(HIGHLIGHT, 0.72)
            )
        sw = round(fs * 1.3)
        sy = ry + (row_h - sw) / 2
        swatch(d, (margin, sy, margin + sw, sy + sw), players[seat].color, seat, fs)
        name = fonts.fit(players[seat].name, fs, cols_x0 - name_x - gap, "bold", fallback=seat_name(t, seat))
        left = p.get("left")
        fonts.draw_text(d, (name_x, ry + row_h * 0.5), name, fs, MUTED if left else INK, style="bold", anchor="lm")
        if left:
            nw = fonts.measure(name, fs, "bold")
            d.line((name_x, ry + row_h * 0.5, name_x + nw, ry + row_h * 0.5), fill=MUTED, width=2)
        for k, (key, _) in enumerate(cols):
            fonts.draw_text(
                d,
                (cols_x0 + (k + 1) * col_w - gap, ry + row_h * 0.5),
                str(p.get(key, "")),
                fs,
                INK,
                style="bold" if key == "score" else "regular",
                anchor="rm",
            )
