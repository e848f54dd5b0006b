"""Per-viewer views: everything a seat (or a spectator, seat None) may see, and nothing else.

A view is plain JSON-compatible data with a fixed key order, so two states that differ only in
what the viewer cannot see give byte-identical views. Rendering and the bot read views, never
the full state, for anything shown in public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import (
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawMarket,
    KeepTickets,
    NeutralClaim,
    PayTunnel,
    Remove,
    Undo,
)
from engine.cards import ALL_CARD_NAMES, CARD_NAMES
from engine.notation import claim_names_track, format_action
from engine.version import RULES_VERSION

if TYPE_CHECKING:
    from engine.hooks import GameState

VIEW_SCHEMA = 1


def _hand(counts: list[int]) -> dict[str, int]:
    return {ALL_CARD_NAMES[k]: n for k, n in enumerate(counts) if n}


def _ticket(game: GameState, ticket_id: int) -> dict:
    m = game.map
    t = m.ticket_by_id[ticket_id]
    out = {"id": t.id, "a": m.cities[t.a].id, "b": m.cities[t.b].id, "points": t.points, "long": t.long}
    if t.destinations:  # country tickets (Switzerland): every destination with its value
        out["destinations"] = [{"to": m.cities[p].id, "points": points} for p, _, points in t.destinations]
    return out


def public_last_action(game: GameState) -> dict | None:
    """The last action as everyone may see it (kept ticket ids hidden)."""
    if game.last_action is None:
        return None
    if game.public_log:
        return public_entry(game, *game.public_log[-1])
    return public_entry(game, *game.last_action)  # a game restored from JSON without its log


def public_context(game: GameState, action) -> object:
    """What an entry needs to know of the state an action is applied to, recorded with it
    (cheap, for every action): a face-up draw's card, a tunnel decision's route and color."""
    if isinstance(action, DrawMarket):
        return game.market[action.slot] if 0 <= action.slot < len(game.market) else None
    if game.tunnel is not None and isinstance(action, (PayTunnel, DeclineTunnel)):
        return game.tunnel["track"], game.tunnel["color"]
    return None


def public_entry(game: GameState, seat: int | None, action, context: object = None) -> dict:
    """An action as everyone may see it (kept ticket ids hidden), with `public_context`'s facts:
    the face-up card taken ("card"), the tunnel route paid or declined ("track", "color")."""
    entry: dict = {"seat": seat, "kind": type(action).__name__}
    if isinstance(action, KeepTickets):
        entry["text"] = f"tickets keep ({len(action.ids)})"
    else:
        entry["text"] = format_action(game, action)
    if isinstance(action, (Claim, NeutralClaim)):
        entry["track"] = action.track
    if isinstance(action, Claim):
        entry.update(
            _payment(action.color, action.locos),
            subs=[CARD_NAMES[c] for c in action.subs],
            numbered=claim_names_track(game.map, action),
        )
    elif isinstance(action, BuildStation):
        entry.update(_payment(action.color, action.locos), city=action.city)
    elif isinstance(action, DrawMarket):
        entry["slot"] = action.slot
        if isinstance(context, int) and context >= 0:
            entry["card"] = ALL_CARD_NAMES[context]
    elif isinstance(action, KeepTickets):
        entry["count"] = len(action.ids)
    elif isinstance(action, Remove):
        entry["removed"] = action.seat
    if isinstance(action, PayTunnel):
        entry["locos"] = action.locos
    if isinstance(action, (PayTunnel, DeclineTunnel)) and context is not None:
        track, color = context
        entry.update(track=track, color=None if color is None else CARD_NAMES[color])
    return entry


def recent_actions(game: GameState) -> list[dict]:
    """The public entries, each with its "ply" (the log length after it), of the last `seats`
    turns, oldest first: from any seat's previous turn to now, what a player away since then
    missed. Undone actions and the Undo entries are left out."""
    out: list[dict] = []
    skip, turns, seat = 0, 0, object()
    for ply in range(len(game.public_log), 0, -1):
        entry_seat, action, *context = game.public_log[ply - 1]  # (no context: a pair)
        if isinstance(action, Undo):
            skip += 1
        elif skip:
            skip -= 1
        else:
            if entry_seat != seat:
                if turns == game.seats:
                    break
                turns, seat = turns + 1, entry_seat
            out.append({"ply": ply, **public_entry(game, entry_seat, action, *context)})
    return out[::-1]


def _payment(color: int | None, locos: int) -> dict:
    """A payment as data: the color's card name (None: locomotives only) and the locomotives."""
    return {"color": None if color is None else CARD_NAMES[color], "locos": locos}


def build_view(game: GameState, seat: int | None) -> dict:
    over = game.is_over()
    players = []
    for s in range(game.seats):
        players.append(
            {
                "seat": s,
                "score": game.score[s],
                "trains": game.trains[s],
                "stations_left": game.stations_left[s],
                "hand_size": sum(game.hands[s]),
                "tickets": len(game.tickets[s]),
                "choosing_tickets": bool(game.offers[s]),
                "left": game.left[s],
                **game.hooks.public_state(game, s),
            }
        )
    tunnel = None
    if game.tunnel is not None:
        tunnel = {
            "seat": game.current,
            "track": game.tunnel["track"],
            "color": None if game.tunnel["color"] is None else CARD_NAMES[game.tunnel["color"]],
            "revealed": [CARD_NAMES[c] for c in game.tunnel["revealed"]],
            "surcharge": game.tunnel["surcharge"],
        }
    view = {
        "schema": VIEW_SCHEMA,
        "rules_version": RULES_VERSION,
        "map": game.map.id,
        "deck": game.deck_rules.id,
        "viewer": seat,
        "phase": game.phase.value,
        "current": game.current if game.phase == "playing" else None,
        "round": game.round,
        "stage": None if game.stage is None else game.stage.value,
        "to_move": game.to_move(),
        "last_round": game.last_round is not None,
        "plies": len(game.log),
        "players": players,
        "market": [ALL_CARD_NAMES[c] if c >= 0 else None for c in game.market],
        "deck_size": len(game.deck),
        "discard_size": len(game.discard),
        "ticket_deck_size": len(game.ticket_deck),
        "ticket_discard": [_ticket(game, i) for i in game.ticket_discard],
        "claims": {t.id: game.owner[t.index] for t in game.map.tracks if game.owner[t.index] >= 0},
        "stations": {game.map.cities[c].id: s for s, cities in enumerate(game.stations) for c in cities},
        "tunnel": tunnel,
        **game.hooks.public_view(game),
        "last_action": public_last_action(game),
        "recent": recent_actions(game),
        "you": None,
        "final": None,
    }
    if seat is not None:
        view["you"] = {
            "seat": seat,
            "hand": _hand(game.hands[seat]),
            "tickets": [_ticket(game, i) for i in game.tickets[seat]],
            "offer": [_ticket(game, i) for i in sorted(game.offers[seat])],
            "keep_at_least": game.offer_keep[seat],
            "decision": game.decision_token(seat),
            **game.hooks.private_state(game, seat),
        }
    if over:
        view["end_reason"] = game.end_reason.value
        view["final"] = [s.to_json() for s in game.final]
        view["all_tickets"] = [[_ticket(game, i) for i in game.tickets[s]] for s in range(game.seats)]
    return view
