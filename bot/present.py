"""Words for what happened: engine events and views turned into short lines a phone shows well.

Everything shown in a channel comes from public events (`event.for_viewer(None)`) or the
spectator view; private texts take the seat's own view.
"""

from __future__ import annotations

from typing import Callable

from engine import Game
from engine.cards import CARD_NAMES
from engine.events import (
    CardDrawn,
    Event,
    GameOver,
    LastRoundStarted,
    LoanTaken,
    NeutralRouteClaimed,
    NeutralStopped,
    NeutralTicketRevealed,
    Passed,
    RouteClaimed,
    SeatLeft,
    StationBuilt,
    TicketsKept,
    TicketsOffered,
    TunnelDeclined,
    TunnelRevealed,
)
from engine.mapdata import MapData, Track
from engine.notation import ticket_label

CARD_EMOJI = {
    "pink": "🟪", "white": "⬜", "blue": "🟦", "yellow": "🟨", "orange": "🟧",
    "black": "⬛", "red": "🟥", "green": "🟩", "loco": "🌈", "gray": "◻️",
}

Names = Callable[[int], str]


def card(name: str | None) -> str:
    return f"{CARD_EMOJI.get(name or '', '')} {name}" if name else "a card"


def route_name(m: MapData, track: Track) -> str:
    """'Dieppe – Paris' (with '#2' for the second track of a double route)."""
    name = f"{m.cities[track.a].name} – {m.cities[track.b].name}"
    if track.double is not None and track.id.endswith("/2"):
        name += " #2"
    return name


def route_choice_label(m: MapData, track: Track) -> str:
    """Autocomplete label: 'Dieppe – Paris · 1 · pink', with tunnel/ferry marks."""
    color = "gray" if track.color is None else CARD_NAMES[track.color]
    extras = []
    if track.tunnel:
        extras.append("tunnel")
    if track.ferry:
        extras.append(f"ferry {track.ferry}🌈")
    return " · ".join([route_name(m, track), str(track.length), color, *extras])


def payment_text(color: int | None, locos: int, total: int) -> str:
    parts = []
    if color is not None and total - locos:
        parts.append(f"{total - locos} {CARD_NAMES[color]}")
    if locos:
        parts.append(f"{locos} loco")
    return " + ".join(parts)


def claim_payment_label(game: Game, claim) -> str:
    """'2 white + 1 loco'; with substitute cards (Nordic) '1 white + 1 loco + 3 others (blue, green, red)'."""
    t = game.map.track_by_id[claim.track]
    subs = getattr(claim, "subs", ())
    per_card = t.substitute or 3  # Nordic: any 4 cards for a missing card on Murmansk-Lieksa, 3 for a ferry loco
    covered = len(subs) // per_card if subs else 0
    colored = t.length - claim.locos - covered
    parts = [f"{colored} {CARD_NAMES[claim.color]}" if claim.color is not None and colored > 0 else "",
             f"{claim.locos} loco" if claim.locos else "",
             f"{len(subs)} others ({', '.join(CARD_NAMES[c] for c in subs)})" if subs else ""]
    return " + ".join(p for p in parts if p)


def describe(game: Game, events: list[Event], names: Names) -> list[str]:
    """Public lines for one action's events (redacted for spectators)."""
    m = game.map
    lines: list[str] = []
    draws: list[str] = []
    for raw in events:
        e = raw.for_viewer(None)
        if isinstance(e, CardDrawn):
            draws.append(f"a face-up {card(CARD_NAMES[e.card])}" if e.slot is not None else "a card from the deck")
        elif isinstance(e, RouteClaimed):
            t = m.track_by_id[e.track]
            paid = payment_text(e.color, e.locos, t.length)
            lines.append(f"**{names(e.seat)}** claimed {route_name(m, t)} ({t.length}) with {paid} · +{e.points}")
        elif isinstance(e, TunnelRevealed):
            t = m.track_by_id[e.track]
            shown = ", ".join(card(CARD_NAMES[c]) for c in e.revealed) or "nothing (no cards left)"
            extra = f"{e.surcharge} more card{'s' if e.surcharge != 1 else ''} to pay" if e.surcharge else "no extra cost"
            lines.append(f"**{names(e.seat)}** digs the tunnel {route_name(m, t)}: revealed {shown} → {extra}")
        elif isinstance(e, TunnelDeclined):
            lines.append(f"**{names(e.seat)}** declined the tunnel {route_name(m, m.track_by_id[e.track])}")
        elif isinstance(e, TicketsOffered):
            lines.append(f"**{names(e.seat)}** draws {e.count} destination ticket{'s' if e.count != 1 else ''}")
        elif isinstance(e, TicketsKept) and game.phase != "choosing":
            lines.append(f"**{names(e.seat)}** kept {e.kept} ticket{'s' if e.kept != 1 else ''}")
        elif isinstance(e, StationBuilt):
            cost = len(game.stations[e.seat])
            lines.append(f"**{names(e.seat)}** built a station in {m.city_by_id[e.city].name} "
                         f"({payment_text(e.color, e.locos, cost)})")
        elif isinstance(e, Passed):
            lines.append(f"**{names(e.seat)}** {'was skipped' if e.skipped else 'passed (no legal move)'}")
        elif isinstance(e, SeatLeft):
            lines.append(f"**{names(e.seat)}** {'resigned' if e.reason == 'resigned' else 'was removed from the game'}")
        elif isinstance(e, LastRoundStarted):
            lines.append(f"🔔 **Last round!** {names(e.seat)} has {e.trains} train{'s' if e.trains != 1 else ''} "
                         "left: everyone gets one more turn.")
        elif isinstance(e, LoanTaken):
            lines.append(f"💸 **{names(e.seat)}** couldn't pay the toll and took a Loan ({e.loans} now)")
        elif isinstance(e, NeutralTicketRevealed):
            where = (f"{m.city_by_id[e.route[0]].name} – {m.city_by_id[e.route[1]].name}" if e.route else "no route")
            what = {"blank": "nothing happens", "built": "already built: nothing happens",
                    "taken": "no free track: nothing happens", "choose": f"{names(e.holder)} picks the track",
                    "claimed": "the neutral player builds it", "stopped": "the neutral player is out of trains"}
            lines.append(f"🤖 Neutral ticket: {where} → {what.get(e.outcome, e.outcome)}")
        elif isinstance(e, NeutralRouteClaimed):
            lines.append(f"🤖 The neutral player built {route_name(m, m.track_by_id[e.track])} "
                         f"({e.trains_left} neutral trains left)")
        elif isinstance(e, NeutralStopped):
            lines.append("🤖 The neutral player stops " + ("(out of trains)." if e.reason == "trains" else
                                                           "(no tickets left)."))
        elif isinstance(e, GameOver):
            lines.append("🏁 **Game over!**")
    if draws:
        lines.insert(0, f"drew {' and '.join(draws)}")
    return lines


def merge_turn(notes: list[str], seat: int, names: Names) -> str:
    """One line for a whole turn: draws of two steps become one sentence."""
    draws = [n.removeprefix("drew ") for n in notes if n.startswith("drew ")]
    others = [n for n in notes if not n.startswith("drew ")]
    parts = []
    if draws == ["a card from the deck", "a card from the deck"]:
        parts.append(f"**{names(seat)}** drew 2 cards from the deck")
    elif draws:
        parts.append(f"**{names(seat)}** drew {' and '.join(draws)}")
    parts.extend(others)
    return "\n".join(parts)


def hand_text(view: dict) -> str:
    hand = view["you"]["hand"]
    if not hand:
        return "no cards"
    return "  ".join(f"{CARD_EMOJI[c]} {c} ×{n}" for c, n in hand.items())


def ticket_text(m: MapData, ticket_id: int, reached: int | None = None) -> str:
    """'Boston – Miami (12)'; a country ticket (Switzerland) lists its destinations, or the one
    it scored once the game is over (`reached`)."""
    t = m.ticket_by_id[ticket_id]
    if t.destinations:
        return ticket_label(m, t, reached)
    return f"{m.cities[t.a].name} – {m.cities[t.b].name} ({t.points})"


def ticket_line(m: MapData, ticket: dict, done: bool | None = None) -> str:
    mark = "" if done is None else ("✅ " if done else "⬜ ")
    return f"{mark}#{ticket['id']} {ticket_text(m, ticket['id'])}"


def tickets_done(game: Game, seat: int) -> dict[int, bool]:
    """Which of a seat's tickets its own routes already complete (stations not counted yet)."""
    from engine.scoring import ticket_results

    own = [t for t in game.map.tracks if game.owner[t.index] == seat]
    tickets = [game.map.ticket_by_id[i] for i in game.tickets[seat]]
    return {r.id: r.completed for r in ticket_results(own, tickets)}


def private_summary(game: Game, seat: int) -> str:
    """The seat's hand and tickets with progress (for a DM or an ephemeral reply)."""
    view = game.view(seat)
    done = tickets_done(game, seat)
    lines = [f"**Your hand:** {hand_text(view)}"]
    if view["you"]["tickets"]:
        lines.append("**Your tickets:**")
        lines.extend(ticket_line(game.map, t, done.get(t["id"])) for t in view["you"]["tickets"])
    player = view["players"][seat]
    extras = [f"stations left: {player['stations_left']}" if game.map.rules.stations else "",
              f"money: {view['you']['money']} (secret)" if "money" in view["you"] else "",
              f"loans: {player['loans']}" if player.get("loans") else ""]
    lines.append(" · ".join([f"Trains left: {player['trains']}", *filter(None, extras)]))
    return "\n".join(lines)


def final_fields(game: Game, names: Names) -> list[tuple[str, str]]:
    """End-of-game breakdown per player, best first, every ticket revealed: (title, body) pairs
    sized for embed fields (a field holds 1024 characters)."""
    m = game.map
    fields = []
    for score in sorted(game.final, key=lambda s: (s.rank, s.seat)):
        parts = [f"routes {score.route_points}", f"tickets {score.ticket_points:+d}"]
        if m.rules.stations:
            parts.append(f"stations {score.station_points}")
        parts.append(f"longest path {score.longest}")
        parts += [f"{name.replace('_', ' ')} {points:+d}" for name, points in score.bonuses.items()]
        lines = [" · ".join(parts)]
        for t in score.tickets:
            label = ticket_text(m, t.id, t.reached)
            lines.append(f"{'✅' if t.completed else '❌'} {label} → {'+' if t.completed else '−'}{t.points}")
        body = "\n".join(lines)
        if len(body) > 1024:
            body = body[:1020] + " …"
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(score.rank, f"{score.rank}.")
        fields.append((f"{medal} {names(score.seat)} — {score.total}", body))
    return fields
