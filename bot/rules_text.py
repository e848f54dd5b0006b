"""`/ttr rules`: a map's rules in a few lines, built from its data so it never disagrees with it."""

from __future__ import annotations

from engine import load_map


def rules_summary(map_id: str) -> str:
    m = load_map(map_id)
    r = m.rules
    has = {"tunnels": any(t.tunnel for t in m.tracks), "ferries": any(t.ferry for t in m.tracks)}
    lines = [f"**{m.name} rules** — {r.trains} trains each"
             + (f", {r.stations} stations" if r.stations else "") + "; 110 train cards."]
    lines.append("**On your turn, do one:** draw 2 cards (a face-up locomotive counts as both; it can't be your "
                 "second card) · claim a route (cards of its color, any one color on gray; locomotives are wild) · "
                 "draw tickets" + (" · build a station" if r.stations else "") + ".")
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
