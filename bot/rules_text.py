"""`/ttr rules`: a map's rules in a few lines, built from its data so it never disagrees with it."""

from __future__ import annotations

from engine import load_map
from engine.hooks import hooks_for


#: What a map's rule hook adds, in a few words (RULES.md §4–5; docs/engine.md for the details).
HOOK_RULES = {
    "nederland": (
        "**Bridge tolls:** every route has a toll (the coins). The first track of a route pays the bank; the "
        "second pays the first track's owner. Can't pay in full? You pay nothing and take a Loan (−5 at the end). "
        "Your money is secret.",
        "**Toll bonus:** players without a Loan are ranked by the money they have left: 55/35/20/10 points "
        "(fewer with fewer players). Seats after the first start with 1, 2, 3… points. "
        "Option: play without tolls; with 2 players, add the neutral player.",
    ),
    "switzerland": (
        "**2–3 players.**",
        "**Country tickets:** a ticket to or between countries scores its best connected country; if none is "
        "connected, you lose its lowest value. Routes never pass through a country.",
    ),
    "nordic": (
        "**2–3 players.** **Ferries:** any 3 cards may replace each locomotive a ferry needs. **Murmansk–Lieksa (9):** any 4 cards "
        "may replace each missing card of your color. **Globetrotter:** most completed tickets +10.",
    ),
}


def rules_summary(map_id: str) -> str:
    m = load_map(map_id)
    r = m.rules
    has = {"tunnels": any(t.tunnel for t in m.tracks), "ferries": any(t.ferry for t in m.tracks)}
    lines = [f"**{m.name} rules** — {r.trains} trains each"
             + (f", {r.stations} stations" if r.stations else "") + "; 110 train cards."]
    hooks = hooks_for(r.hooks)
    draw = ("draw 2 cards (a face-up locomotive counts as one card here)" if hooks.free_locomotive_draws else
            "draw 2 cards (a face-up locomotive counts as both; it can't be your second card)")
    wild = ("locomotives are wild" if hooks.locomotive_use == "any route"
            else f"locomotives only on {hooks.locomotive_use}")
    lines.append(f"**On your turn, do one:** {draw} · claim a route (cards of its color, any one color on gray; "
                 f"{wild}) · draw tickets" + (" · build a station" if r.stations else "") + ".")
    points = ", ".join(f"{k}→{v}" for k, v in sorted(r.route_points.items())
                       if any(t.length == k for t in m.tracks))
    lines.append(f"**Route points:** {points}.")
    if r.doubles_min_players > 2:
        lines.append(f"**Double routes:** one player never takes both; with fewer than {r.doubles_min_players} "
                     "players only one of the two is used.")
    if has["ferries"]:
        lines.append("**Ferries:** pay at least one locomotive per locomotive symbol.")
    if has["tunnels"]:
        lines.append("**Tunnels:** after paying, 3 cards are revealed; each of your color (or a locomotive) adds one "
                     "card to pay — pay it or take your cards back.")
    if r.stations:
        lines.append(f"**Stations:** cost {', '.join(map(str, r.station_costs))} cards; at the end each lets you use "
                     f"one opponent route at its city for your tickets; each unbuilt station scores {r.station_points}.")
    for line in HOOK_RULES.get(m.id, ()):
        lines.append(line)
    for deck in r.decks.values():
        bonus = [f"longest path +{deck.longest_path_bonus}" if deck.longest_path_bonus else "",
                 f"most tickets (Globetrotter) +{deck.globetrotter_bonus}" if deck.globetrotter_bonus else ""]
        bonus_text = ", ".join(b for b in bonus if b) or "no bonus"
        start = f"{deck.start_deal}" + (f" + {deck.start_long} long" if deck.start_long else "")
        lines.append(f"**Tickets — {deck.name}:** start with {start}, keep ≥ {deck.start_keep}; later draw "
                     f"{deck.draw_count}, keep ≥ {deck.draw_keep}; {bonus_text}.")
    lines.append("**End:** when someone has 2 or fewer trains, everyone (them too) plays one last turn. Completed "
                 "tickets add, unfinished ones subtract.")
    ties = {"tickets": "most completed tickets", "fewer_stations": "fewer stations built", "longest": "longest path"}
    lines.append("**Ties:** " + ", then ".join(ties.get(t, t) for t in r.tie_breaks) + ".")
    return "\n".join(lines)[:2000]
