"""What one viewer of the web table receives after each change: the engine's view for their seat
(`game.view(seat)`; a spectator's is `game.view(None)`, which holds nothing private), the players'
names and colours, the last moves in words and, for a seat only, the moves it may make now.

A move is offered as the engine's notation (`format_action`), which the page sends back as is:
the server plays it only if it is still one of the seat's legal moves (`chosen`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import StaleChoice
from bot.service import Table
from engine import (
    Action,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Game,
    KeepTickets,
    NeutralClaim,
    PayTunnel,
)
from engine.actions import Move, Pass
from engine.notation import format_action, parse_action
from i18n import Translator
from texts.present import card, claim_choice_label, payment_text, route_choice_label, ticket_text, tickets_done


@dataclass(frozen=True)
class Seat:
    """A seat as everyone sees it: the player's name and colour (#rrggbb)."""

    name: str
    color: str


def label(t: Translator, game: Game, seat: int, action: Action) -> str:
    """A move as the page's button or choice says it, in the viewer's words (the engine's notation
    only for a move no map has yet)."""
    m = game.map
    if isinstance(action, Claim):
        text = claim_choice_label(t, game, action, seat)
        return f"{text} · 🧳 {t.city(m.city_by_id[action.passenger])}" if action.passenger else text
    if isinstance(action, NeutralClaim):
        return route_choice_label(t, m, m.track_by_id[action.track])
    if isinstance(action, BuildStation):
        return payment_text(t, action.color, action.locos, len(game.stations[seat]) + 1)
    if isinstance(action, Move):
        cards = t.ngettext("{n} passenger card", "{n} passenger cards", action.cards)
        return " → ".join(t.city(m.city_by_id[c]) for c in action.path) + f" · {cards}"
    if isinstance(action, DrawTickets) and action.long is not None:  # Märklin's mix
        count = game.hooks.ticket_rules["start_draw" if game.phase == "choosing" else "draw"]
        return t.gettext("{long} long + {short} short", long=action.long, short=max(0, count - action.long))
    if isinstance(action, DrawTickets):
        return t.pgettext("button", "Tickets")
    if isinstance(action, KeepTickets):
        return "; ".join(ticket_text(t, m, ticket) for ticket in sorted(action.ids))
    if isinstance(action, DrawDeck):
        return t.pgettext("button", "Deck")
    if isinstance(action, DrawMarket):
        return card(t, game.market[action.slot])
    if isinstance(action, PayTunnel):
        return t.gettext("Pay (locomotives among them: {n})", n=action.locos)
    if isinstance(action, DeclineTunnel):
        return t.pgettext("button", "Decline")
    if isinstance(action, Pass):
        return t.pgettext("button", "Pass my turn")
    return format_action(game, action)


def moves(t: Translator, game: Game, seat: int) -> list[dict]:
    """The seat's legal moves now, one payment per colour (as the Discord menus offer them)."""
    out = []
    for action in game.legal_actions(seat, collapse_payments=True):
        move: dict = {
            "kind": type(action).__name__,
            "text": format_action(game, action),
            "label": label(t, game, seat, action),
        }
        if isinstance(action, (Claim, NeutralClaim)):
            move["track"] = action.track
        elif isinstance(action, DrawMarket):
            move["slot"] = action.slot
        elif isinstance(action, BuildStation):
            move["city"] = action.city
        elif isinstance(action, KeepTickets):
            move["ids"] = sorted(action.ids)
        elif isinstance(action, Move):  # Märklin: the page draws the trip on the map
            move["path"] = list(action.path)
        out.append(move)
    return out


def frame(t: Translator, table: Table, seat: int | None, seats: list[Seat], log: list[str]) -> dict:
    """One viewer's frame; a spectator's (`seat` None) has only what the channel's table shows."""
    game = table.game
    out: dict = {
        "game": table.id,
        "version": table.version,
        "view": game.view(seat),
        "seats": [{"name": s.name, "color": s.color} for s in seats],
        "log": log,
    }
    if seat is not None:
        out["moves"] = moves(t, game, seat)
        out["payable"] = sorted({claim.track for claim in game.payable_claims(seat)})
        out["done"] = {str(ticket): result.completed for ticket, result in tickets_done(game, seat).items()}
    return out


def chosen(seat: int, text: str):
    """The service's action for a move the page sent: the offered move of that notation on the game
    as it is when the move is made (under its lock); else refused with the engine's reason (whose
    turn it is, what comes first), or as a stale choice when nothing names one."""

    def choose(game: Game) -> Action:
        for action in game.legal_actions(seat, collapse_payments=True):
            if format_action(game, action) == text:
                return action
        game.check(seat, parse_action(game, seat, text))
        raise StaleChoice()

    return choose
