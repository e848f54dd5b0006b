"""The end-of-game image: the final board with the longest path lit, and the score breakdown."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from engine.mapdata import MapData
from i18n import N_, Translator
from rendering import fonts
from rendering.board import board_image, seat_styles
from rendering.draw import encode, mark
from rendering.panel import panel_size, recap_size, swatch
from rendering.style import BAD, GOOD, HIGHLIGHT, INK, MUTED, PANEL, PANEL_LINE, PlayerStyle, RenderedImage, lighter
from rendering.words import city_names, clauses, listing, player_name, seat_name, translator_or_english

#: The engine's bonus keys, named (translated where drawn).
BONUS_NAMES = {
    "longest_path": N_("Longest path"),
    "globetrotter": N_("Globetrotter"),
    "toll_bonus": N_("Toll bonus"),
    "loans": N_("Loans"),
    "merchandise": N_("Merchandise"),
}


def _completed(t) -> bool:
    """A final ticket entry: {"id", "points", "completed", ...} (or the older [id, points, completed])."""
    return bool(t["completed"] if isinstance(t, dict) else t[2])


def longest_winners(final: list[dict]) -> list[int]:
    """Seats whose longest path is shown: the longest-path bonus winners, else the longest."""
    won = [p["seat"] for p in final if "longest_path" in p.get("bonuses", {})]
    if won:
        return won
    best = max((p["longest"] for p in final), default=0)
    return [p["seat"] for p in final if p["longest"] == best and best > 0]


def has_longest_bonus(m: MapData, view: dict) -> bool:
    """Whether the game's ticket deck scores the longest path (not Nordic's, not Nederland's)."""
    deck = m.rules.decks.get(view.get("deck") or m.rules.default_deck) or m.rules.decks[m.rules.default_deck]
    return deck.longest_path_bonus > 0


def _columns(m: MapData, view: dict, final: list[dict]) -> list[tuple[str, str]]:
    """(final key, column title) of the score table; titles are translated where drawn. The
    longest path only on maps with that bonus; Nederland's money left, which ranks the toll bonus."""
    cols = [("route_points", N_("Routes")), ("tickets", N_("Tickets"))]
    if m.rules.stations:
        cols.append(("station_points", N_("Stations")))
    if has_longest_bonus(m, view):
        cols.append(("longest", N_("Longest")))
    if any("money" in p.get("details", {}) for p in final):
        cols.append(("money", N_("Money")))
    if any(p.get("bonuses") for p in final):
        cols.append(("bonuses", N_("Bonuses")))
    cols.append(("total", N_("Total")))
    return cols


def _notes(t: Translator, view: dict, final: list[dict], players: Sequence[PlayerStyle]) -> list[str]:
    """Lines under the table: who won which bonus; the neutral player's trains left (Nederland)."""
    ranked = sorted(final, key=lambda p: (p["rank"], p["seat"]))
    out = []
    names = sorted({k for p in final for k in p.get("bonuses", {})})
    if names:
        bonuses = []
        for k in names:
            won = [
                t.gettext("{player} {points:+d}", player=player_name(t, players, p["seat"]), points=p["bonuses"][k])
                for p in ranked
                if k in p.get("bonuses", {})
            ]
            bonus = t.gettext(BONUS_NAMES[k]) if k in BONUS_NAMES else k
            bonuses.append(t.gettext("{bonus} {players}", bonus=bonus, players=listing(t, won)))
        out.append(t.gettext("Bonuses: {bonuses}", bonuses=clauses(t, bonuses)))
    neutral = view.get("neutral")
    if neutral:
        out.append(t.ngettext("Neutral player: {n} train left", "Neutral player: {n} trains left", neutral["trains"]))
    return out


def render_final(
    view: dict,
    map_data: MapData,
    players: Sequence[PlayerStyle] | None = None,
    *,
    colorblind: bool = False,
    width: int | None = None,
    t: Translator | None = None,
) -> RenderedImage:
    """Final board (each winner's longest path glowing) and a table: rank, route points,
    tickets completed/failed with their points, stations, longest path, bonuses, total."""
    if view.get("you") is not None:
        raise ValueError("render_final draws a public image: pass the spectator view game.view(None)")
    final = view.get("final")
    if not final:
        raise ValueError("the game is not over: the view has no final scores")
    t = translator_or_english(t)
    players = seat_styles(view, players, t)
    winners = longest_winners(final) if has_longest_bonus(map_data, view) else []
    glow = [track for s in winners for track in final[s]["longest_tracks"]]
    from rendering.geometry import geometry

    geo = geometry(map_data, width, city_names(t, map_data))
    fs, ss = panel_size(geo.width), recap_size(geo.width)
    row_h = round(fs * 1.8)
    notes = _notes(t, view, final, players)
    table_h = (
        round(fs * 0.8)
        + round(fs * 1.6)
        + round(fs * 1.5)
        + len(final) * row_h
        + len(notes) * round(ss * 1.5)
        + round(fs * 0.8)
    )
    img, geo, palette = board_image(
        view,
        map_data,
        players,
        t=t,
        width=width,
        colorblind=colorblind,
        highlight=False,
        glow=glow,
        panel=False,
        extra_height=table_h,
    )
    d = ImageDraw.Draw(img)
    W = img.width
    top = geo.map_height
    d.rectangle((0, top, W, img.height), fill=PANEL)
    d.line((0, top, W, top), fill=PANEL_LINE, width=2)
    margin = round(fs * 0.9)
    y = top + round(fs * 0.8)
    ranked = sorted(final, key=lambda p: (p["rank"], p["seat"]))
    champs = [player_name(t, players, p["seat"]) for p in ranked if p["rank"] == 1]
    if len(champs) == 1:
        title = t.gettext("Winner: {player}", player=champs[0])
    else:
        title = t.gettext("Shared victory: {players}", players=listing(t, champs))
    title_w = fonts.draw_text(
        d,
        (margin, y + fs * 1.1),
        fonts.fit(title, round(fs * 1.1), W * 0.6, "bold"),
        round(fs * 1.1),
        INK,
        style="bold",
    )
    if winners:
        lengths = [
            t.gettext("{player} ({n})", player=player_name(t, players, s), n=final[s]["longest"]) for s in winners
        ]
        note = t.gettext("glow: longest path {players}", players=listing(t, lengths))
        room = W - 2 * margin - title_w - fs  # what the title leaves of the row
        fonts.draw_text(d, (W - margin, y + fs * 1.1), fonts.fit(note, ss, room), ss, MUTED, anchor="rs")
    y += round(fs * 1.6)
    cols = _columns(map_data, view, final)
    r_mark = fs * 0.45

    def tickets_cell_w(p: dict) -> float:
        ok = sum(1 for ticket in p["tickets"] if _completed(ticket))
        parts = (f"{p['ticket_points']:+d}", str(len(p["tickets"]) - ok), str(ok))
        return sum(fonts.measure(x, fs) for x in parts) + 4 * r_mark + 6 + fs * 1.05

    widths = {
        "route_points": 3.6,
        "station_points": 3.8,
        "longest": 3.8,
        "money": 3.6,
        "bonuses": 4.2,
        "total": 3.4,
        "tickets": max(4.0, max(tickets_cell_w(p) for p in final) / fs + 0.9),
    }
    hs = ss
    for key, title_ in cols:  # a longer title (another language) widens its column, up to 6 em
        widths[key] = max(widths[key], min(6.0, fonts.measure(t.gettext(title_), hs) / fs + 0.5))
    xs = []
    x = W - margin
    for key, _ in reversed(cols):
        xs.append(x)
        x -= round(widths[key] * fs)
    xs.reverse()
    name_x = margin + round(fs * 3.4)
    for (key, title_), rx in zip(cols, xs):
        head, size, style = fonts.squeeze(t.gettext(title_), hs, round(widths[key] * fs) - fs * 0.35, min_size=ss)
        fonts.draw_text(d, (rx, y + fs), head, size, MUTED, style=style, anchor="rs")
    head, size, style = fonts.squeeze(t.gettext("Rank"), hs, name_x - margin - fs * 0.2, min_size=ss)
    fonts.draw_text(d, (margin, y + fs), head, size, MUTED, style=style)
    fonts.draw_text(
        d,
        (name_x, y + fs),
        fonts.fit(t.gettext("Player"), hs, xs[0] - round(widths[cols[0][0]] * fs) - name_x),
        hs,
        MUTED,
    )
    y += round(fs * 1.5)
    for p in ranked:
        seat = p["seat"]
        if p["rank"] == 1:
            d.rounded_rectangle(
                (margin * 0.4, y, W - margin * 0.4, y + row_h - 2), radius=fs // 3, fill=lighter(HIGHLIGHT, 0.72)
            )
        mid = y + row_h / 2
        fonts.draw_text(d, (margin + fs * 0.6, mid), str(p["rank"]), fs, INK, style="bold", anchor="mm")
        sw = round(fs * 1.3)
        swatch(
            d, (margin + fs * 1.5, mid - sw / 2, margin + fs * 1.5 + sw, mid + sw / 2), players[seat].color, seat, fs
        )
        name = fonts.fit(
            players[seat].name, fs, xs[0] - round(widths[cols[0][0]] * fs) - name_x, "bold", fallback=seat_name(t, seat)
        )
        fonts.draw_text(d, (name_x, mid), name, fs, INK, style="bold", anchor="lm")
        for (key, _), rx in zip(cols, xs):
            if key == "tickets":
                ok = sum(1 for ticket in p["tickets"] if _completed(ticket))
                bad = len(p["tickets"]) - ok
                pts = f"{p['ticket_points']:+d}"
                w = fonts.draw_text(d, (rx, mid), pts, fs, INK, anchor="rm")
                r = r_mark
                x2 = rx - w - fs * 0.6
                x2 -= fonts.draw_text(d, (x2, mid), str(bad), fs, BAD, anchor="rm") + r + 3
                mark(d, x2, mid, r, False, BAD)
                x2 -= r + fs * 0.45
                x2 -= fonts.draw_text(d, (x2, mid), str(ok), fs, GOOD, anchor="rm") + r + 3
                mark(d, x2, mid, r, True, GOOD)
            elif key == "bonuses":
                b = sum(p.get("bonuses", {}).values())
                fonts.draw_text(d, (rx, mid), f"{b:+d}" if b else "–", fs, INK, anchor="rm")
            elif key == "money":
                fonts.draw_text(d, (rx, mid), str(p.get("details", {}).get("money", "")), fs, INK, anchor="rm")
            elif key == "total":
                fonts.draw_text(d, (rx, mid), str(p["total"]), fs, INK, style="bold", anchor="rm")
            else:
                fonts.draw_text(d, (rx, mid), str(p.get(key, 0)), fs, INK, anchor="rm")
        y += row_h
    for note in notes:
        fonts.draw_text(d, (margin, y + ss * 1.15), fonts.fit(note, ss, W - 2 * margin), ss, MUTED)
        y += round(ss * 1.5)

    def row(p: dict) -> str:
        who = player_name(t, players, p["seat"])
        if has_longest_bonus(map_data, view):
            return t.gettext(
                "{rank}. {player} {total} (routes {routes}, tickets {tickets:+d}, longest {longest})",
                rank=p["rank"],
                player=who,
                total=p["total"],
                routes=p["route_points"],
                tickets=p["ticket_points"],
                longest=p["longest"],
            )
        return t.gettext(
            "{rank}. {player} {total} (routes {routes}, tickets {tickets:+d})",
            rank=p["rank"],
            player=who,
            total=p["total"],
            routes=p["route_points"],
            tickets=p["ticket_points"],
        )

    rows = [row(p) for p in ranked]
    alt = t.gettext("{map} final scores: {rows}.", map=t.map_name(map_data), rows=clauses(t, rows))
    return RenderedImage(encode(img, palette), alt, img.width, img.height)
