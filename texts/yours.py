"""A player's own moves told to that player in the second person ("You drew an orange card"),
with what only they may know (the card a blind draw gave them). Other players' moves keep the
table's third-person words (texts/present.py); this module words the same events for their author.
"""

from __future__ import annotations

from engine import Game
from engine.events import (
    CardDrawn,
    Event,
    LastRoundStarted,
    LoanTaken,
    RouteClaimed,
    SeatLeft,
    StationBuilt,
    TicketsKept,
    TicketsOffered,
    TunnelDeclined,
    TunnelRevealed,
)
from engine.marklin import PassengerMoved, PassengerPlaced
from i18n import Translator
from texts import present


def _own(t: Translator, game: Game, events: list[Event], e: Event, names: present.Names) -> str | None:
    """The second-person line of one of the seat's own events; None for an event worded as the table words it."""
    m = game.map
    if isinstance(e, CardDrawn) and e.card is not None:
        return present.my_draws(t, [e], e.seat)
    if isinstance(e, RouteClaimed):
        track = m.track_by_id[e.track]
        line = t.gettext(
            "You claimed {route} with {payment} · +{points}",
            route=present.route_name(t, m, track),
            payment=present.payment_text(t, e.color, e.locos, track.length),
            points=e.points,
        )
        toll = present._toll(t, game, events, e, names)
        return f"{line} · {toll}" if toll else line
    if isinstance(e, StationBuilt):
        return t.gettext(
            "You built a station in {city} ({payment})",
            city=t.city(m.city_by_id[e.city]),
            payment=present.payment_text(t, e.color, e.locos, len(game.stations[e.seat])),
        )
    if isinstance(e, TicketsOffered):
        if "marklin" in m.rules.hooks and e.ids is not None:  # the mix the player named
            long = sum(m.ticket_by_id[i].long for i in e.ids)
            return t.ngettext(
                "You drew {n} destination ticket (long: {long}, short: {short})",
                "You drew {n} destination tickets (long: {long}, short: {short})",
                e.count,
                long=long,
                short=e.count - long,
            )
        return t.ngettext("You drew {n} destination ticket", "You drew {n} destination tickets", e.count)
    if isinstance(e, TicketsKept):
        return t.ngettext("You kept {n} ticket", "You kept {n} tickets", e.kept)
    if isinstance(e, TunnelRevealed):
        route = present.route_name(t, m, m.track_by_id[e.track])
        if not e.revealed:
            return t.gettext(
                "You dug the tunnel {route}: revealed nothing (no cards left) → no extra cost", route=route
            )
        shown = t.join(present.card(t, c) for c in e.revealed)
        if not e.surcharge:
            return t.gettext("You dug the tunnel {route}: revealed {cards} → no extra cost", route=route, cards=shown)
        return t.ngettext(
            "You dug the tunnel {route}: revealed {cards} → {n} more card to pay",
            "You dug the tunnel {route}: revealed {cards} → {n} more cards to pay",
            e.surcharge,
            route=route,
            cards=shown,
        )
    if isinstance(e, TunnelDeclined):
        return t.gettext("You declined the tunnel {route}", route=present.route_name(t, m, m.track_by_id[e.track]))
    if isinstance(e, PassengerPlaced):
        return "🧳 " + t.gettext("You put a passenger in {city}", city=t.city(m.city_by_id[e.city]))
    if isinstance(e, PassengerMoved):
        return "🧳 " + t.ngettext(
            "You moved a passenger {path} ({n} passenger card): tokens {tokens} → +{points}",
            "You moved a passenger {path} ({n} passenger cards): tokens {tokens} → +{points}",
            e.cards,
            path=" → ".join(t.city(m.city_by_id[c]) for c in e.path),
            tokens=" + ".join(map(str, e.tokens)) or "0",
            points=sum(e.tokens),
        )
    if isinstance(e, LoanTaken):
        return "💸 " + t.gettext("You couldn't pay the toll and took a Loan ({loans} now)", loans=e.loans)
    if isinstance(e, SeatLeft):
        return t.gettext("You resigned") if e.reason == "resigned" else t.gettext("You were removed from the game")
    if isinstance(e, LastRoundStarted):
        return "🔔 " + t.ngettext(
            "**Last round!** You have {n} train left: everyone gets one more turn.",
            "**Last round!** You have {n} trains left: everyone gets one more turn.",
            e.trains,
        )
    return None


def own_lines(t: Translator, game: Game, events: list[Event], seat: int, names: present.Names) -> list[str]:
    """One action of `seat` told to that seat: its own events in the second person (cards drawn
    named), the rest (a neutral route, the bank's toll, game over) as the table tells them."""
    lines: list[str] = []
    for e in events:
        own = _own(t, game, events, e, names) if getattr(e, "seat", None) == seat else None
        lines += [own] if own else present.describe(t, game, [e], names)
    return lines
