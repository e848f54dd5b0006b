"""What one viewer of the web table receives after each change: the engine's view for their seat
(`game.view(seat)`; a spectator's is `game.view(None)`, which holds nothing private), the players'
names and colours, the last moves in words and, for a seat only, the moves it may make now.

A move is offered as the engine's notation (`format_action`), which the page sends back as is:
the server plays it only if it is still one of the seat's legal moves (`chosen`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import StaleChoice
from bot.service import Table
from engine import Action, BuildStation, Claim, DrawMarket, Game, KeepTickets, NeutralClaim, PayTunnel
from engine.notation import format_action, parse_action
from i18n import Translator
from texts.present import claim_choice_label, payment_text, tickets_done


@dataclass(frozen=True)
class Seat:
    """A seat as everyone sees it: the player's name and colour (#rrggbb)."""

    name: str
    color: str


def moves(t: Translator, game: Game, seat: int) -> list[dict]:
    """The seat's legal moves now, one payment per colour (as the Discord menus offer them)."""
    out = []
    for action in game.legal_actions(seat, collapse_payments=True):
        move: dict = {"kind": type(action).__name__, "text": format_action(game, action)}
        if isinstance(action, (Claim, NeutralClaim)):
            move["track"] = action.track
        if isinstance(action, Claim):
            move["label"] = claim_choice_label(t, game, action, seat)
        elif isinstance(action, DrawMarket):
            move["slot"] = action.slot
        elif isinstance(action, BuildStation):
            move["city"] = action.city
            move["label"] = payment_text(t, action.color, action.locos, len(game.stations[seat]) + 1)
        elif isinstance(action, KeepTickets):
            move["ids"] = sorted(action.ids)
        elif isinstance(action, PayTunnel):
            move["locos"] = action.locos
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
        out["done"] = {str(ticket): done for ticket, done in tickets_done(game, seat).items()}
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
