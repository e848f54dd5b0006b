"""Private images, sent by DM: a seat's hand and tickets, a ticket offer, the seat's own board.

Each takes that seat's view (`game.view(seat)`); nothing here is ever posted in a channel.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Sequence

from PIL import Image, ImageDraw

from engine.cards import CARD_NAMES
from engine.mapdata import MapData
from engine.scoring import ticket_results
from i18n import Translator

from rendering import fonts
from rendering.board import Marks, _players, _static_map, board_image, map_marks, shipped, static_map, swatch
from rendering.draw import card, disc, encode, mark, paste_centered
from rendering.geometry import geometry
from rendering.style import (
    GOOD, INK, MUTED, PANEL, PANEL_LINE, TICKET_CITY, PlayerStyle,
    RenderedImage, darker,
)
from rendering.words import card_name, city, clauses, listing, player_name, route_letters, ticket_name, translator_or_english

HAND_WIDTH = 800


def _you(view: dict) -> dict:
    if not view.get("you"):
        raise ValueError("private images need a seat's view: game.view(seat)")
    return view["you"]


def ticket_status(view: dict, map_data: MapData, seat: int, tickets: list[dict]) -> list[bool]:
    """Whether each ticket is connected by the seat's own claimed tracks now (stations, which
    may borrow a route at the end, are not counted before the final scoring)."""
    own = [map_data.track_by_id[t] for t, s in view["claims"].items() if s == seat and t in map_data.track_by_id]

    class _T:  # ticket_results reads .id, .points, .a, .b (city indices), .destinations
        __slots__ = ("id", "points", "a", "b", "a_nodes", "destinations")

        def __init__(self, t: dict) -> None:
            self.id, self.points = t["id"], t["points"]
            self.a, self.b = map_data.city_by_id[t["a"]].index, map_data.city_by_id[t["b"]].index
            known = map_data.ticket_by_id.get(t["id"])  # country tickets (Switzerland) need the map's
            self.a_nodes, self.destinations = (known.a_nodes, known.destinations) if known else ((), ())

    return [r.completed for r in ticket_results(own, [_T(t) for t in tickets])]


def _ticket_points(t: dict) -> str:
    """A ticket's value; a country ticket's is its highest (its destinations are listed by name)."""
    return f"{t['points']}"


def _fs(width: int) -> int:
    return math.ceil(7.2 * width / 400)


# ---------------------------------------------------------------------------------------------
# Hand and tickets


def render_hand(
    view: dict,
    map_data: MapData,
    players: Sequence[PlayerStyle] | None = None,
    *,
    colorblind: bool = False,
    width: int = HAND_WIDTH,
    t: Translator | None = None,
) -> RenderedImage:
    """The seat's cards grouped by color with counts, and its tickets marked done or not."""
    you = _you(view)
    seat = you["seat"]
    t = translator_or_english(t)
    players = _players(view, players, t)
    fs = _fs(width)
    margin = round(fs * 1.0)
    hand = you["hand"]
    kinds = [k for k in CARD_NAMES if hand.get(k)]
    tickets = you["tickets"]
    done = ticket_status(view, map_data, seat, tickets)
    card_w = min(round(fs * 4.2), (width - 2 * margin - 8 * round(fs * 0.5)) // 9)
    card_h = round(card_w * 1.4)
    row_h = round(fs * 2.1)
    height = (margin + round(fs * 1.8) + card_h + round(fs * 2.2) + round(fs * 1.8)
              + max(1, len(tickets)) * row_h + margin)
    img = Image.new("RGB", (width, height), PANEL)
    d = ImageDraw.Draw(img)
    me = view["players"][seat]
    y = margin
    extra = [t.ngettext("{n} train", "{n} trains", me["trains"])]
    if map_data.rules.stations:
        extra.append(t.ngettext("{n} station", "{n} stations", me["stations_left"]))
    if "money" in you:
        extra.append(t.gettext("money {n}", n=you["money"]))
    info = " · ".join(extra)
    info_w = fonts.draw_text(d, (width - margin, y + fs * 1.05), info, round(fs * 0.9), MUTED, anchor="rs")
    swatch(d, (margin, y, margin + fs * 1.3, y + fs * 1.3), players[seat].color, seat, fs)
    n_cards = sum(hand.values())
    title = t.ngettext("{player} — {n} card", "{player} — {n} cards", n_cards, player=player_name(t, players, seat))
    title = fonts.fit(title, fs, width - 3 * margin - fs * 1.3 - info_w, "bold")
    fonts.draw_text(d, (margin + fs * 1.8, y + fs * 1.05), title, fs, INK, style="bold")
    y += round(fs * 1.8)
    gap = round(fs * 0.5)
    letters = route_letters(t) if colorblind else {}
    if not kinds:
        fonts.draw_text(d, (margin, y + card_h / 2), t.gettext("No train cards"), fs, MUTED, anchor="lm")
    for i, k in enumerate(kinds):
        x = margin + i * (card_w + gap)
        n = hand[k]
        for s in range(min(n, 3) - 1, 0, -1):  # a small stack for several cards
            card(d, (x + s * 3, y - s * 3 + 6, x + card_w + s * 3, y + card_h - s * 3 + 6), k, radius=6)
        card(d, (x, y + 6, x + card_w, y + card_h + 6), k, letter=letters.get(k, ""), radius=6)
        cx, cy = x + card_w / 2, y + 6 + card_h * (0.74 if colorblind else 0.5)
        r = fs * 1.05
        paste_centered(img, disc(r, (255, 255, 255), INK, 2), cx, cy)
        fonts.draw_text(d, (cx, cy), str(n), round(fs * 1.2), INK, style="bold", anchor="mm")
        label, size, style = fonts.squeeze(card_name(t, k), fs, card_w + gap - 2)
        fonts.draw_text(d, (cx, y + card_h + 6 + fs * 1.25), label, size, INK, style=style, anchor="ms")
    y += card_h + round(fs * 2.2)
    heading = t.gettext("Tickets ({done} of {n} connected)", done=sum(done), n=len(tickets))
    fonts.draw_text(d, (margin, y + fs * 1.1), fonts.fit(heading, fs, width - 2 * margin, "bold"), fs, INK, style="bold")
    y += round(fs * 1.8)
    if not tickets:
        fonts.draw_text(d, (margin, y + row_h / 2), t.gettext("No tickets"), fs, MUTED, anchor="lm")
    for ticket, ok in zip(tickets, done):
        _ticket_row(d, t, map_data, ticket, ok, margin, y, width - margin, row_h, fs)
        y += row_h
    cards = listing(t, [t.pgettext("hand", "{n} {card}", n=hand[k], card=card_name(t, k)) for k in kinds])
    held = listing(t, [(t.gettext("{ticket} connected", ticket=_ticket_alt(t, map_data, ticket)) if ok else
                        t.gettext("{ticket} not connected", ticket=_ticket_alt(t, map_data, ticket)))
                       for ticket, ok in zip(tickets, done)])
    alt = t.gettext("Your hand: {cards}; tickets: {tickets}.", cards=cards or t.pgettext("alt text", "no cards"),
                    tickets=held or t.pgettext("alt text", "none"))
    return RenderedImage(encode(img), alt, img.width, img.height)


def _ticket_alt(t: Translator, m: MapData, ticket: dict) -> str:
    """'Paris-Wien 8'; a country ticket lists its destinations with their values."""
    return ticket_name(t, m, ticket, "-") + ("" if ticket.get("destinations") else f" {ticket['points']}")


def _ticket_row(d: ImageDraw.ImageDraw, t: Translator, m: MapData, ticket: dict, ok: bool | None, x0: float,
                y: float, x1: float, row_h: float, fs: int) -> None:
    d.rounded_rectangle((x0, y + 2, x1, y + row_h - 4), radius=fs // 3, fill=(255, 252, 240), outline=PANEL_LINE, width=2)
    mid = y + (row_h - 2) / 2
    bx = x0 + fs * 0.5
    if ok is not None:
        r = fs * 0.6
        if ok:
            mark(d, bx + r, mid, r, True, GOOD)
        else:  # not connected yet: an empty circle (a red cross is for the final count)
            d.ellipse((bx, mid - r, bx + 2 * r, mid + r), outline=MUTED, width=max(2, fs // 7))
        bx += 2 * r + fs * 0.5
    pts = _ticket_points(ticket)
    pw = fonts.measure(pts, fs, "bold")
    label = ticket_name(t, m, ticket)
    if ticket.get("long"):
        label = t.gettext("{ticket}  (long)", ticket=label)
    label = fonts.fit(label, fs, x1 - bx - pw - fs * 1.5, "regular")
    fonts.draw_text(d, (bx, mid), label, fs, INK, anchor="lm")
    fonts.draw_text(d, (x1 - fs * 0.6, mid), pts, fs, INK, style="bold", anchor="rm")


# ---------------------------------------------------------------------------------------------
# Ticket offer


@lru_cache(maxsize=16)
def _thumb(map_id: str, sha: str, width: int, thumb_w: int, marks: Marks) -> Image.Image:
    base = _static_map(map_id, sha, width, marks)
    k = thumb_w / base.width
    return base.resize((thumb_w, round(base.height * k)), Image.Resampling.LANCZOS)


def thumbnail(m: MapData, thumb_w: int, marks: Marks) -> tuple[Image.Image, float, object]:
    geo = geometry(m)
    if shipped(m):
        img = _thumb(m.id, m.sha256, geo.width, thumb_w, marks)
    else:
        base = static_map(m, geo, marks)
        img = base.resize((thumb_w, round(base.height * thumb_w / base.width)), Image.Resampling.LANCZOS)
    return img, thumb_w / geo.width, geo


def render_ticket_offer(
    view: dict,
    map_data: MapData,
    players: Sequence[PlayerStyle] | None = None,
    *,
    colorblind: bool = False,
    width: int = HAND_WIDTH,
    t: Translator | None = None,
) -> RenderedImage:
    """The tickets offered to the seat as numbered cards, each with a small map of its cities."""
    you = _you(view)
    t = translator_or_english(t)
    offer = you["offer"]
    fs = _fs(width)
    margin = round(fs * 0.9)
    cols = 2 if len(offer) > 1 else 1
    cell_w = (width - margin * (cols + 1)) // cols
    thumb, k, geo = thumbnail(map_data, cell_w - 2 * round(fs * 0.4), map_marks(map_data, t, colorblind))
    cell_h = thumb.height + round(fs * 2.6) + round(fs * 0.8)
    rows = max(1, math.ceil(len(offer) / cols))
    head = round(fs * 2.2)
    height = margin + head + rows * (cell_h + margin)
    img = Image.new("RGB", (width, height), PANEL)
    d = ImageDraw.Draw(img)
    keep = you.get("keep_at_least", 1)
    title = t.gettext("Choose tickets: keep at least {keep} of {n}", keep=keep, n=len(offer))
    fonts.draw_text(d, (margin, margin + fs * 1.1), fonts.fit(title, fs, width - 2 * margin, "bold"), fs, INK, style="bold")
    for i, ticket in enumerate(offer):
        cx0 = margin + (i % cols) * (cell_w + margin)
        cy0 = margin + head + (i // cols) * (cell_h + margin)
        d.rounded_rectangle((cx0, cy0, cx0 + cell_w, cy0 + cell_h), radius=fs // 2, fill=(255, 252, 240),
                            outline=darker(PANEL_LINE, 0.85), width=2)
        inner = round(fs * 0.4)
        tx, ty = cx0 + inner, cy0 + inner
        img.paste(thumb, (tx, ty))
        a = map_data.city_by_id.get(ticket["a"])
        ends = [map_data.city_by_id.get(x["to"]) for x in ticket.get("destinations") or [{"to": ticket["b"]}]]
        if a and all(ends):
            pa = (tx + geo.cities[a.index][0] * k, ty + geo.cities[a.index][1] * k)
            pbs = [(tx + geo.cities[b.index][0] * k, ty + geo.cities[b.index][1] * k) for b in ends]
            for pb in pbs:
                d.line([pa, pb], fill=TICKET_CITY, width=max(2, fs // 6))
            for p in (pa, *pbs):
                paste_centered(img, disc(fs * 0.45, TICKET_CITY, (255, 255, 255), 2), *p)
        # number badge, cities, points
        by = ty + thumb.height + round(fs * 0.35)
        r = fs * 0.85
        d.ellipse((tx, by, tx + 2 * r, by + 2 * r), fill=INK)
        fonts.draw_text(d, (tx + r, by + r), str(i + 1), fs, (255, 255, 255), style="bold", anchor="mm")
        pts = _ticket_points(ticket)
        pw = fonts.measure(pts, round(fs * 1.2), "bold")
        line_w = cell_w - 2 * inner - 2 * r - fs * 0.6
        name = ticket_name(t, map_data, ticket)
        if ticket.get("destinations"):  # the destinations and their values go on a second line
            name = f"{city(t, map_data, ticket['a'])} –"
            rest = " / ".join(f"{city(t, map_data, x['to'])} {x['points']}" for x in ticket["destinations"])
            rest = fonts.fit(rest, round(fs * 0.8), line_w, "regular")
            fonts.draw_text(d, (tx + 2 * r + fs * 0.4, by + r + fs * 1.15), rest, round(fs * 0.8), MUTED, anchor="lm")
        name = fonts.fit(name, fs, cell_w - 2 * inner - 2 * r - pw - fs * 1.2, "bold")
        fonts.draw_text(d, (tx + 2 * r + fs * 0.4, by + r), name, fs, INK, style="bold", anchor="lm")
        fonts.draw_text(d, (cx0 + cell_w - inner, by + r), pts, round(fs * 1.2), INK, style="bold", anchor="rm")
        if ticket.get("long"):
            long = fonts.fit(t.gettext("long ticket"), round(fs * 0.8), line_w)
            fonts.draw_text(d, (tx + 2 * r + fs * 0.4, by + r + fs * 1.15), long, round(fs * 0.8), MUTED, anchor="lm")
    offered = [f"{i + 1}: {_ticket_alt(t, map_data, ticket)}" for i, ticket in enumerate(offer)]
    alt = t.gettext("Ticket offer, keep at least {keep}: {tickets}.", keep=keep, tickets=clauses(t, offered))
    return RenderedImage(encode(img), alt, img.width, img.height)


# ---------------------------------------------------------------------------------------------
# The seat's own board


def render_player_board(
    view: dict,
    map_data: MapData,
    players: Sequence[PlayerStyle] | None = None,
    *,
    claimable_tracks: Iterable[str] = (),
    colorblind: bool = False,
    width: int | None = None,
    t: Translator | None = None,
) -> RenderedImage:
    """The board from one seat's view: its ticket cities ringed (magenta: not yet connected;
    green: every ticket through that city connected), the
    tracks it may claim right now glowing (gold, as the last action on the public board), and the
    public panel. The bot computes claimable_tracks
    from `game.legal_actions(seat, collapse_payments=True)` (the Claim actions' `.track`)."""
    you = _you(view)
    t = translator_or_english(t)
    players = _players(view, players, t)
    claimable = sorted(set(claimable_tracks))
    tickets = you["tickets"]
    done = ticket_status(view, map_data, you["seat"], tickets)

    def places(ticket: dict) -> list[str]:  # a country ticket: every destination (its border points ringed)
        return [ticket["a"], *(x["to"] for x in ticket.get("destinations") or [{"to": ticket["b"]}])]

    cities = sorted({c for ticket, ok in zip(tickets, done) if not ok for c in places(ticket)})
    rings = {c: GOOD for ticket, ok in zip(tickets, done) if ok for c in places(ticket)}
    rings.update({c: TICKET_CITY for c in cities})  # a city of an open ticket stays magenta
    img, _ = board_image(view, map_data, players, t=t, width=width, colorblind=colorblind, highlight=claimable,
                         ring_cities=rings)
    alt = t.ngettext(
        "Your board ({player}): {n} route you can claim now; ticket cities still to connect: {cities}.",
        "Your board ({player}): {n} routes you can claim now; ticket cities still to connect: {cities}.",
        len(claimable), player=player_name(t, players, you["seat"]),
        cities=listing(t, [city(t, map_data, c) for c in cities]) or t.pgettext("alt text", "none"))
    return RenderedImage(encode(img), alt, img.width, img.height)
