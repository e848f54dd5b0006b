"""The words every image shares, in the viewer's language: names of cards, cities, tickets and
players, the color-blind letters, the game's status and its last action.

Each public render function takes `t: Translator | None` (None: English); the English strings are
the message ids (i18n/locales/*/rendering.po), so English images read as they always have. The
last action is worded from the view's fields (kind, track, payment, count ...), in the shape of
the engine's notation in English ("claim Paris-Dieppe red loco=1").
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import LOCO, card_index
from engine.mapdata import MapData
from i18n import Translator, translator
from i18n.translator import NC_
from rendering import fonts
from rendering.style import PlayerStyle

#: Color-blind mode: a letter on every car and card (by card name; gray routes have none), so no
#: color is told by hue alone. Translated with context "color letter" (each language's color words).
ROUTE_LETTERS: dict[str, str] = {
    "pink": NC_("color letter", "P"), "white": NC_("color letter", "W"), "blue": NC_("color letter", "B"),
    "yellow": NC_("color letter", "Y"), "orange": NC_("color letter", "O"), "black": NC_("color letter", "K"),
    "red": NC_("color letter", "R"), "green": NC_("color letter", "G"), "gray": "", "loco": NC_("color letter", "L"),
}


def translator_or_english(t: Translator | None) -> Translator:
    return t if t is not None else translator()


def route_letters(t: Translator) -> dict[str, str]:
    """The color-blind letter of every card name in this language ("" for gray)."""
    return {name: t.pgettext("color letter", letter) if letter else "" for name, letter in ROUTE_LETTERS.items()}


def card_name(t: Translator, name: str) -> str:
    """A card as the images name it (engine card name in): its color, or "loco" for short."""
    index = card_index(name)
    return t.pgettext("card, short", "loco") if index == LOCO else t.card(index)


def city_names(t: Translator, m: MapData) -> tuple[str, ...]:
    """Every city's name on this map for this viewer (printed, or translated when chosen)."""
    return tuple(t.city(c) for c in m.cities)


def city(t: Translator, m: MapData, city_id: str) -> str:
    c = m.city_by_id.get(city_id)
    return t.city(c) if c else city_id


def listing(t: Translator, items: Sequence[str]) -> str:
    """Items (names, scores) one after another: "Alice, Bob" ("Alice、Bob" in Chinese)."""
    return t.pgettext("list separator", ", ").join(items)


def clauses(t: Translator, parts: Sequence[str]) -> str:
    """Clauses of an alt text one after another: "a; b" ("a；b" in Chinese); empty ones left out."""
    return t.pgettext("clause separator", "; ").join(p for p in parts if p)


def player_name(t: Translator, players: Sequence[PlayerStyle], seat: int) -> str:
    """A seat's display name as drawn; "Player N" when nothing of it can be drawn."""
    return fonts.clean_text(players[seat].name, "bold") or seat_name(t, seat)


def seat_name(t: Translator, seat: int) -> str:
    return t.gettext("Player {n}", n=seat + 1)


def ticket_name(t: Translator, m: MapData, ticket: dict, sep: str = " – ") -> str:
    """'Bern – Zürich', or with several destinations (Switzerland's country tickets)
    'Bern – France 5 / Deutschland 6 / Österreich 11 / Italia 8'."""
    dests = ticket.get("destinations")
    if not dests:
        return f"{city(t, m, ticket['a'])}{sep}{city(t, m, ticket['b'])}"
    return f"{city(t, m, ticket['a'])}{sep}" + " / ".join(f"{city(t, m, d['to'])} {d['points']}" for d in dests)


# ---------------------------------------------------------------------------------------------
# The game's status and its last action


def status_text(t: Translator, view: dict, players: Sequence[PlayerStyle]) -> str:
    if view.get("final") is not None or view["phase"] == "over":
        return t.gettext("Game over")
    if view["phase"] == "choosing":
        return t.gettext("Choosing tickets: {players}",
                         players=listing(t, [player_name(t, players, s) for s in view["to_move"]]))
    if view["current"] is not None:
        return t.gettext("{player} to play", player=player_name(t, players, view["current"]))
    return ""


def payment_text(t: Translator, color: int | None, locos: int | None, subs: Sequence[int] = ()) -> str:
    """What a claim or station was paid with ("red loco=1" in the engine's notation)."""
    if color is not None and locos:
        text = t.ngettext("{color} loco={n}", "{color} loco={n}", locos, color=t.card(color))
    elif locos:
        text = t.ngettext("loco={n}", "loco={n}", locos)
    else:
        text = t.card(color) if color is not None else ""
    if subs:
        cards = t.pgettext("substitute separator", ",").join(
            t.pgettext("substitute", "{card}:{n}", card=t.card(c), n=subs.count(c)) for c in sorted(set(subs)))
        text = t.gettext("{payment} sub={cards}", payment=text, cards=cards) if text else t.gettext("sub={cards}", cards=cards)
    return text


def action_text(t: Translator, m: MapData, action: dict) -> str:
    """The last action of a view (`view["last_action"]`) in words."""
    kind = action.get("kind")
    track = m.track_by_id.get(action.get("track", ""))
    if kind == "DrawDeck":
        return t.pgettext("last action", "draw deck")
    if kind == "DrawMarket":
        return t.pgettext("last action", "draw market {n}", n=action["slot"] + 1)
    if kind == "DrawTickets":
        return t.pgettext("last action", "tickets draw")
    if kind == "KeepTickets":
        return t.npgettext("last action", "tickets keep ({n})", "tickets keep ({n})", action["count"])
    if kind == "Claim" and track is not None:
        route = t.route(m, track) if action["numbered"] else m.route_name(track, t.city)
        payment = payment_text(t, _card(action["color"]), action["locos"], [card_index(c) for c in action["subs"]])
        if payment:
            return t.pgettext("last action", "claim {route} {payment}", route=route, payment=payment)
        return t.pgettext("last action", "claim {route}", route=route)
    if kind == "BuildStation" and action.get("city") in m.city_by_id:
        name = city(t, m, action["city"])
        payment = payment_text(t, _card(action["color"]), action["locos"])
        if payment:
            return t.pgettext("last action", "station {city} {payment}", city=name, payment=payment)
        return t.pgettext("last action", "station {city}", city=name)
    if kind == "PayTunnel":
        if action["locos"]:
            return t.npgettext("last action", "tunnel pay loco={n}", "tunnel pay loco={n}", action["locos"])
        return t.pgettext("last action", "tunnel pay")
    if kind == "DeclineTunnel":
        return t.pgettext("last action", "tunnel decline")
    if kind == "NeutralClaim" and track is not None:
        return t.pgettext("last action", "neutral claim {route}", route=t.route(m, track))
    if kind == "Pass":
        return t.pgettext("last action", "pass")
    if kind == "Skip":
        return t.pgettext("last action", "skip")
    if kind == "Resign":
        return t.pgettext("last action", "resign")
    if kind == "Undo":
        return t.pgettext("last action", "undo")
    if kind == "Remove":
        return t.pgettext("last action", "remove {n}", n=action["removed"] + 1)
    return action.get("text", "")  # an action this module does not know yet: the engine's notation


def _card(name: str | None) -> int | None:
    return None if name is None else card_index(name)


def tunnel_text(t: Translator, view: dict, players: Sequence[PlayerStyle], m: MapData) -> str:
    """A tunnel being paid for: the cards revealed and what more it costs."""
    tun = view["tunnel"]
    track = m.track_by_id.get(tun["track"])
    route = m.route_name(track, t.city) if track is not None else tun["track"]
    player = player_name(t, players, tun["seat"])
    revealed = tun.get("revealed", [])
    more = tun.get("surcharge", 0)
    if not revealed:
        return t.gettext("Tunnel {route} ({player}): revealed nothing — nothing more to pay", route=route, player=player)
    cards = listing(t, [card_name(t, c) for c in revealed])
    if more:
        return t.ngettext("Tunnel {route} ({player}): revealed {cards} — {n} more card to pay",
                          "Tunnel {route} ({player}): revealed {cards} — {n} more cards to pay", more,
                          route=route, player=player, cards=cards)
    return t.gettext("Tunnel {route} ({player}): revealed {cards} — nothing more to pay",
                     route=route, player=player, cards=cards)


def acting(t: Translator, view: dict, players: Sequence[PlayerStyle]) -> str | None:
    """Who made the last action: a player, "Table", or None when there is no last action."""
    la = view.get("last_action")
    if not la:
        return None
    return player_name(t, players, la["seat"]) if la.get("seat") is not None else t.gettext("Table")


def last_action_text(t: Translator, view: dict, players: Sequence[PlayerStyle], m: MapData) -> str:
    """The panel's line under the status: the tunnel being paid, else the last action."""
    if view.get("tunnel"):
        return tunnel_text(t, view, players, m)
    who = acting(t, view, players)
    if who is None:
        return ""
    return t.gettext("Last: {player} — {action}", player=who, action=action_text(t, m, view["last_action"]))

