"""Private images, sent by DM: a seat's hand and tickets, a ticket offer, the seat's own board.

Each takes that seat's view (`game.view(seat)`); nothing here is ever posted in a channel.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from engine.cards import CARD_NAMES
from engine.mapdata import MapData
from engine.scoring import TicketResult, tickets_now
from i18n import Translator
from rendering import fonts
from rendering.board import board_image, seat_styles
from rendering.cards import card
from rendering.draw import disc, encode, encode_small, mark, paste_centered
from rendering.panel import small_size, swatch, text_size
from rendering.style import (
    GOOD,
    INK,
    MUTED,
    PANEL,
    PANEL_LINE,
    TICKET_CITY,
    PlayerStyle,
    RenderedImage,
    darker,
)
from rendering.words import (
    card_name,
    city,
    clauses,
    listing,
    player_name,
    route_letters,
    ticket_name,
    translator_or_english,
)

HAND_WIDTH = 800


def _you(view: dict) -> dict:
    if not view.get("you"):
        raise ValueError("private images need a seat's view: game.view(seat)")
    return view["you"]


def ticket_results_now(view: dict, map_data: MapData, seat: int, tickets: list[dict]) -> list[TicketResult]:
    """Each ticket as the final scoring would count it now (engine.scoring.tickets_now): on the
    seat's claimed tracks and the rival tracks its stations would borrow; for a country ticket
    (Switzerland) the destination reached and its value, or the value it would lose."""
    owner = [-1] * len(map_data.tracks)
    for track_id, s in view["claims"].items():
        if track_id in map_data.track_by_id:
            owner[map_data.track_by_id[track_id].index] = s
    stations = [map_data.city_by_id[c].index for c, s in view.get("stations", {}).items() if s == seat]

    class _T:  # tickets_now reads .id, .points, .a, .b (city indices), .a_nodes, .destinations
        __slots__ = ("id", "points", "a", "b", "a_nodes", "destinations")

        def __init__(self, t: dict) -> None:
            self.id, self.points = t["id"], t["points"]
            self.a, self.b = map_data.city_by_id[t["a"]].index, map_data.city_by_id[t["b"]].index
            known = map_data.ticket_by_id.get(t["id"])  # country tickets (Switzerland) need the map's
            self.a_nodes, self.destinations = (known.a_nodes, known.destinations) if known else ((), ())

    return list(tickets_now(map_data, owner, seat, len(view["players"]), stations, [_T(t) for t in tickets]))


def ticket_status(view: dict, map_data: MapData, seat: int, tickets: list[dict]) -> list[bool]:
    """Whether each ticket is connected now (its own tracks, and what its stations would borrow)."""
    return [r.completed for r in ticket_results_now(view, map_data, seat, tickets)]


def _ticket_points(t: dict) -> str:
    """A ticket's value; a country ticket's is its highest (its destinations are listed by name)."""
    return f"{t['points']}"


def _reached(m: MapData, ticket: dict, result: TicketResult | None) -> tuple[dict, str]:
    """The ticket as the hand shows it now: a country ticket that reaches a destination reads
    'Lugano – Italia' with that destination's value; one that reaches none lists them all with
    the value it would lose ('–5'); other tickets as they are."""
    if not ticket.get("destinations") or result is None:
        return ticket, _ticket_points(ticket)
    if result.completed and result.reached is not None:
        return {**ticket, "b": m.cities[result.reached].id, "destinations": None}, str(result.points)
    return ticket, f"–{result.points}"  # en dash: the fonts have no minus sign


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
    players = seat_styles(view, players, t)
    fs, ss = text_size(width), small_size(width)
    margin = round(fs * 1.0)
    hand = you["hand"]
    kinds = [k for k in CARD_NAMES if hand.get(k)]
    tickets = you["tickets"]
    results = ticket_results_now(view, map_data, seat, tickets)
    done = [r.completed for r in results]
    card_w = min(round(fs * 4.2), (width - 2 * margin - 8 * round(fs * 0.5)) // 9)
    card_h = round(card_w * 1.4)
    row_h = round(fs * 2.1)
    height = (
        margin + round(fs * 1.8) + card_h + round(fs * 2.2) + round(fs * 1.8) + max(1, len(tickets)) * row_h + margin
    )
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
    info_w = fonts.draw_text(d, (width - margin, y + fs * 1.05), info, ss, MUTED, anchor="rs")
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
        card(d, (x, y + 6, x + card_w, y + card_h + 6), k, letter=letters.get(k, ""), letter_size=ss, radius=6)
        cx, cy = x + card_w / 2, y + 6 + card_h * (0.74 if colorblind else 0.5)
        r = fs * 1.05
        paste_centered(img, disc(r, (255, 255, 255), INK, 2), cx, cy)
        fonts.draw_text(d, (cx, cy), str(n), round(fs * 1.2), INK, style="bold", anchor="mm")
        label, size, style = fonts.squeeze(card_name(t, k), fs, card_w + gap - 2)
        fonts.draw_text(d, (cx, y + card_h + 6 + fs * 1.25), label, size, INK, style=style, anchor="ms")
    y += card_h + round(fs * 2.2)
    heading = t.gettext("Tickets ({done} of {n} connected)", done=sum(done), n=len(tickets))
    fonts.draw_text(
        d, (margin, y + fs * 1.1), fonts.fit(heading, fs, width - 2 * margin, "bold"), fs, INK, style="bold"
    )
    y += round(fs * 1.8)
    if not tickets:
        fonts.draw_text(d, (margin, y + row_h / 2), t.gettext("No tickets"), fs, MUTED, anchor="lm")
    for ticket, result in zip(tickets, results):
        _ticket_row(d, t, map_data, ticket, result, margin, y, width - margin, row_h, fs)
        y += row_h
    cards = listing(t, [t.pgettext("hand", "{n} {card}", n=hand[k], card=card_name(t, k)) for k in kinds])
    held = listing(
        t,
        [
            (
                t.gettext("{ticket} connected", ticket=_ticket_alt(t, map_data, ticket, r))
                if r.completed
                else t.gettext("{ticket} not connected", ticket=_ticket_alt(t, map_data, ticket, r))
            )
            for ticket, r in zip(tickets, results)
        ],
    )
    alt = t.gettext(
        "Your hand: {cards}; tickets: {tickets}.",
        cards=cards or t.pgettext("alt text", "no cards"),
        tickets=held or t.pgettext("alt text", "none"),
    )
    return RenderedImage(encode_small(img), alt, img.width, img.height)


def _ticket_alt(t: Translator, m: MapData, ticket: dict, result: TicketResult | None = None) -> str:
    """'Paris-Wien 8'; a country ticket lists its destinations with their values (or, reached,
    names the destination reached and its value)."""
    ticket, points = _reached(m, ticket, result)
    return ticket_name(t, m, ticket, "-") + ("" if ticket.get("destinations") else f" {points}")


def _ticket_row(
    d: ImageDraw.ImageDraw,
    t: Translator,
    m: MapData,
    ticket: dict,
    result: TicketResult | None,
    x0: float,
    y: float,
    x1: float,
    row_h: float,
    fs: int,
) -> None:
    ok = None if result is None else result.completed
    ticket, pts = _reached(m, ticket, result)
    d.rounded_rectangle(
        (x0, y + 2, x1, y + row_h - 4), radius=fs // 3, fill=(255, 252, 240), outline=PANEL_LINE, width=2
    )
    mid = y + (row_h - 2) / 2
    bx = x0 + fs * 0.5
    if ok is not None:
        r = fs * 0.6
        if ok:
            mark(d, bx + r, mid, r, True, GOOD)
        else:  # not connected yet: an empty circle (a red cross is for the final count)
            d.ellipse((bx, mid - r, bx + 2 * r, mid + r), outline=MUTED, width=max(2, fs // 7))
        bx += 2 * r + fs * 0.5
    pw = fonts.measure(pts, fs, "bold")
    label = ticket_name(t, m, ticket)
    if ticket.get("long"):
        label = t.gettext("{ticket}  (long)", ticket=label)
    label = fonts.fit(label, fs, x1 - bx - pw - fs * 1.5, "regular")
    fonts.draw_text(d, (bx, mid), label, fs, INK, anchor="lm")
    fonts.draw_text(d, (x1 - fs * 0.6, mid), pts, fs, INK, style="bold", anchor="rm")


# ---------------------------------------------------------------------------------------------
# Ticket offer


def thumbnail(
    view: dict, m: MapData, players: Sequence[PlayerStyle], thumb_w: int, *, t: Translator, colorblind: bool
) -> tuple[Image.Image, float, object]:
    """The board as it stands, reduced to `thumb_w`: every claim, the seat's own network lit, so
    a mid-game offer can be judged against it. No text: reduced to a fifth, a city's name would
    be 2 px high at 400 px (the ticket's cities are named under it)."""
    seat = view["you"]["seat"]
    own = [tid for tid, s in view["claims"].items() if s == seat]
    base, geo, _ = board_image(view, m, players, t=t, colorblind=colorblind, highlight=own, panel=False, words=False)
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
    players = seat_styles(view, players, t)
    fs, ss = text_size(width), small_size(width)
    margin = round(fs * 0.9)
    cols = 1 if len(offer) <= 1 else 2 if len(offer) <= 4 else 3  # 5 tickets: two rows, shorter than a phone screen
    cell_w = (width - margin * (cols + 1)) // cols
    thumb, k, geo = thumbnail(view, map_data, players, cell_w - 2 * round(fs * 0.4), t=t, colorblind=colorblind)
    cell_h = thumb.height + round(fs * 3.6) + ss
    rows = max(1, math.ceil(len(offer) / cols))
    head = round(fs * 2.2)
    height = margin + head + rows * (cell_h + margin)
    img = Image.new("RGB", (width, height), PANEL)
    d = ImageDraw.Draw(img)
    keep = you.get("keep_at_least", 1)
    title = t.gettext("Choose tickets: keep at least {keep} of {n}", keep=keep, n=len(offer))
    fonts.draw_text(
        d, (margin, margin + fs * 1.1), fonts.fit(title, fs, width - 2 * margin, "bold"), fs, INK, style="bold"
    )
    for i, ticket in enumerate(offer):
        cx0 = margin + (i % cols) * (cell_w + margin)
        cy0 = margin + head + (i // cols) * (cell_h + margin)
        d.rounded_rectangle(
            (cx0, cy0, cx0 + cell_w, cy0 + cell_h),
            radius=fs // 2,
            fill=(255, 252, 240),
            outline=darker(PANEL_LINE, 0.85),
            width=2,
        )
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
        name_w = cell_w - 2 * inner - 2 * r - pw - fs * 1.2
        name = ticket_name(t, map_data, ticket)
        below: list[str] = []  # the second and third lines: what does not fit beside the number
        if ticket.get("destinations"):  # the destinations and their values go below
            name = f"{city(t, map_data, ticket['a'])} –"
            below = fonts.wrap(
                [f"{city(t, map_data, x['to'])} {x['points']}" for x in ticket["destinations"]], " / ", ss, line_w, 2
            )
        elif fonts.measure(name, fs, "bold") > name_w:  # a narrow cell: the second city below
            name = f"{city(t, map_data, ticket['a'])} –"
            below = [fonts.fit(city(t, map_data, ticket["b"]), fs, line_w, "bold")]
        if ticket.get("long"):
            below.append(t.gettext("long ticket"))
        name = fonts.fit(name, fs, name_w, "bold")
        fonts.draw_text(d, (tx + 2 * r + fs * 0.4, by + r), name, fs, INK, style="bold", anchor="lm")
        fonts.draw_text(d, (cx0 + cell_w - inner, by + r), pts, round(fs * 1.2), INK, style="bold", anchor="rm")
        ly = by + r + fs * 1.15
        for n, line in enumerate(below[:2]):
            city_line = not ticket.get("destinations") and n == 0 and line != t.gettext("long ticket")
            size, style, color = (fs, "bold", INK) if city_line else (ss, "regular", MUTED)
            fonts.draw_text(
                d,
                (tx + 2 * r + fs * 0.4, ly),
                fonts.fit(line, size, line_w, style),
                size,
                color,
                style=style,
                anchor="lm",
            )
            ly += fs * 1.05
    offered = [f"{i + 1}: {_ticket_alt(t, map_data, ticket)}" for i, ticket in enumerate(offer)]
    alt = t.gettext("Ticket offer, keep at least {keep}: {tickets}.", keep=keep, tickets=clauses(t, offered))
    return RenderedImage(encode_small(img), alt, img.width, img.height)


# ---------------------------------------------------------------------------------------------
# The seat's own board


def render_player_board(
    view: dict,
    map_data: MapData,
    players: Sequence[PlayerStyle] | None = None,
    *,
    claimable_tracks: Iterable[str] = (),
    my_turn: bool | None = None,
    since: int | None = None,
    colorblind: bool = False,
    width: int | None = None,
    t: Translator | None = None,
) -> RenderedImage:
    """The board from one seat's view: its ticket cities ringed (magenta: not yet connected;
    green: every ticket through that city connected), `claimable_tracks` lit (gold), what
    changed since ply `since` glowing (dark-rimmed gold, as on the public board), a legend, and
    the public panel. On the seat's turn the bot passes the Claim actions' tracks of
    `game.legal_actions(seat, collapse_payments=True)`; off turn (`my_turn=False`; None: from
    the view) those of `game.payable_claims(seat)`, what the hand could pay for."""
    you = _you(view)
    t = translator_or_english(t)
    players = seat_styles(view, players, t)
    if my_turn is None:
        my_turn = view["phase"] == "playing" and view.get("current") == you["seat"]
    claimable = sorted(set(claimable_tracks))
    tickets = you["tickets"]
    done = ticket_status(view, map_data, you["seat"], tickets)

    def places(ticket: dict) -> list[str]:  # a country ticket: every destination (its border points ringed)
        return [ticket["a"], *(x["to"] for x in ticket.get("destinations") or [{"to": ticket["b"]}])]

    cities = sorted({c for ticket, ok in zip(tickets, done) if not ok for c in places(ticket)})
    rings = {c: GOOD for ticket, ok in zip(tickets, done) if ok for c in places(ticket)}
    rings.update({c: TICKET_CITY for c in cities})  # a city of an open ticket stays magenta
    legend = [
        ("halo", t.gettext("you can claim now") if my_turn else t.gettext("your hand could pay for (not your turn)")),
        ("glow", t.gettext("new since your last look")),
        ("ring", t.gettext("ticket city to connect")),
        ("done", t.gettext("ticket connected")),
    ]
    img, _, palette = board_image(
        view,
        map_data,
        players,
        t=t,
        width=width,
        colorblind=colorblind,
        claimable=claimable,
        since=since,
        legend=legend,
        ring_cities=rings,
    )
    to_connect = listing(t, [city(t, map_data, c) for c in cities]) or t.pgettext("alt text", "none")
    if my_turn:
        alt = t.ngettext(
            "Your board: {n} route you can claim now; ticket cities still to connect: {cities}.",
            "Your board: {n} routes you can claim now; ticket cities still to connect: {cities}.",
            len(claimable),
            cities=to_connect,
        )
    else:
        alt = t.ngettext(
            "Your board, not your turn: your hand could pay for {n} route; ticket cities still to connect: {cities}.",
            "Your board, not your turn: your hand could pay for {n} routes; ticket cities still to connect: {cities}.",
            len(claimable),
            cities=to_connect,
        )
    return RenderedImage(encode(img, palette), alt, img.width, img.height)
