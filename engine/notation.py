"""Text notation for actions, both ways: what players type, what logs store, what tests read.

    draw deck | draw market 3 | claim Frankfurt-Paris orange | claim Palermo-Smyrna pink loco=3
    claim Dieppe-London/2 red loco=1 | claim Madrid-Pamplona loco=3 | tickets draw | tickets keep 12 31
    station Paris red | station Paris loco=2 | tunnel pay | tunnel pay loco=1 | tunnel decline
    neutral claim Amsterdam-Rotterdam/2 | pass | skip | resign | remove 3

Defaults when a player leaves something out (docs/engine.md): no `loco=` means the fewest
locomotives that can pay; no color on a colored route means the route's color; a gray double
without `/1` or `/2` means its first track the player may claim. A gray route (or station) with
no color given is ambiguous unless only one color can pay.
`format_action` always prints the canonical form, and `parse_action(format_action(a)) == a`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.actions import (
    Action,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    NeutralClaim,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    Skip,
)
from engine.cards import CARD_NAMES, COLORS, LOCO, card_index
from engine.errors import AmbiguousActionError, InvalidActionError
from engine.mapdata import MapData, Track, fold_name
from engine.payments import payment_options, surcharge_options

if TYPE_CHECKING:
    from engine.game import Game

_DASHES = re.compile(r"\s*[-–—]\s*")
_LOCO_OPTION = re.compile(r"^(?:loco|locos|locomotives?)=(\d+)$")


def _map_of(game_or_map: "Game | MapData") -> MapData:
    return game_or_map if isinstance(game_or_map, MapData) else game_or_map.map


def route_label(m: MapData, track: Track) -> str:
    """'Dieppe-London/2' for a track of a double route, 'Dieppe-Paris' otherwise."""
    name = m.route_name(track)
    if track.double is not None and "/" in track.id:
        return f"{name}/{track.id.rsplit('/', 1)[1]}"
    return name


def format_action(game_or_map: "Game | MapData", action: Action) -> str:
    m = _map_of(game_or_map)
    kind = type(action)
    if kind is DrawDeck:
        return "draw deck"
    if kind is DrawMarket:
        return f"draw market {action.slot + 1}"
    if kind is Claim:
        t = m.track_by_id[action.track]
        needs_index = t.double is not None and (t.color is None or action.color is None or
                                                m.tracks[t.double].color == t.color)
        route = route_label(m, t) if needs_index else m.route_name(t)
        return " ".join(filter(None, ["claim", route, _payment_text(action.color, action.locos)]))
    if kind is DrawTickets:
        return "tickets draw"
    if kind is KeepTickets:
        return "tickets keep " + " ".join(map(str, action.ids))
    if kind is BuildStation:
        name = m.city_by_id[action.city].name
        return " ".join(filter(None, ["station", name, _payment_text(action.color, action.locos)]))
    if kind is PayTunnel:
        return "tunnel pay" + (f" loco={action.locos}" if action.locos else "")
    if kind is DeclineTunnel:
        return "tunnel decline"
    if kind is NeutralClaim:
        return f"neutral claim {route_label(m, m.track_by_id[action.track])}"
    if kind is Pass:
        return "pass"
    if kind is Skip:
        return "skip"
    if kind is Resign:
        return "resign"
    if kind is Remove:
        return f"remove {action.seat + 1}"
    raise TypeError(f"not an action: {action!r}")


def _payment_text(color: int | None, locos: int) -> str:
    parts = [] if color is None else [COLORS[color]]
    if locos:
        parts.append(f"loco={locos}")
    return " ".join(parts)


def parse_action(game: "Game", seat: int | None, text: str) -> Action:
    """Parse what `seat` typed into an action, resolving defaults against the current state.

    Raises InvalidActionError (cannot be read) or AmbiguousActionError (several actions fit).
    Legality is checked by Game.apply, not here.
    """
    words = text.strip().split()
    if not words:
        raise InvalidActionError("empty action: try 'draw deck', 'claim Paris-Dieppe pink' or 'tickets draw'")
    verb, rest = words[0].lower(), words[1:]
    if verb == "draw":
        return _parse_draw(rest)
    if verb == "claim":
        return _parse_claim(game, seat, rest)
    if verb in ("tickets", "ticket"):
        return _parse_tickets(rest)
    if verb == "station":
        return _parse_station(game, seat, rest)
    if verb == "tunnel":
        return _parse_tunnel(game, seat, rest)
    if verb == "neutral":
        return _parse_neutral(game, rest)
    if not rest and verb in ("pass", "skip", "resign"):
        return {"pass": Pass(), "skip": Skip(), "resign": Resign()}[verb]
    if verb == "remove" and len(rest) == 1 and rest[0].isdigit():
        return Remove(int(rest[0]) - 1)
    raise InvalidActionError(
        f"unknown action {text.strip()!r}: actions are draw, claim, tickets, station, tunnel, neutral, pass, resign"
    )


def _parse_draw(rest: list[str]) -> Action:
    if rest == ["deck"] or rest == ["blind"]:
        return DrawDeck()
    if len(rest) == 2 and rest[0] == "market" and rest[1].isdigit():
        return DrawMarket(int(rest[1]) - 1)
    raise InvalidActionError("write 'draw deck' or 'draw market N' with N from 1 to 5")


def _parse_tickets(rest: list[str]) -> Action:
    if rest == ["draw"]:
        return DrawTickets()
    if rest and rest[0] == "keep" and rest[1:] and all(w.isdigit() for w in rest[1:]):
        return KeepTickets(tuple(sorted(int(w) for w in rest[1:])))
    raise InvalidActionError("write 'tickets draw' or 'tickets keep' followed by ticket numbers")


def _split_payment(words: list[str]) -> tuple[list[str], int | None, bool, int | None]:
    """Strip trailing payment words: returns (rest, color, all_loco, loco_count)."""
    color: int | None = None
    all_loco = False
    locos: int | None = None
    while words:
        word = words[-1].lower()
        match = _LOCO_OPTION.match(word)
        if match:
            locos = int(match.group(1))
        elif word in ("gray", "grey"):
            pass  # the route's own color word; the payment color follows separately
        else:
            try:
                card = card_index(word)
            except KeyError:
                break
            if card == LOCO:
                all_loco = True
            elif color is None:
                color = card
            else:
                raise InvalidActionError(f"pay with one color, not {COLORS[card]} and {COLORS[color]}")
        words = words[:-1]
    return words, color, all_loco, locos


def _find_route(m: MapData, text: str) -> tuple[list[Track], int | None]:
    """Tracks joining the two cities named in `text` ('Paris-Dieppe', 'Dieppe-London/2')."""
    index = None
    match = re.search(r"/(\d)$", text)
    if match:
        index, text = int(match.group(1)), text[: match.start()]
    parts = _DASHES.split(text.strip())
    for cut in range(1, len(parts)):
        a, b = m.find_city("-".join(parts[:cut])), m.find_city("-".join(parts[cut:]))
        if a and b:
            tracks = m.tracks_between.get((min(a.index, b.index), max(a.index, b.index)))
            if not tracks:
                raise InvalidActionError(f"no route joins {a.name} and {b.name} on the {m.name} map")
            return list(tracks), index
    known = [p for p in parts if m.find_city(p)]
    unknown = [p for p in parts if not m.find_city(p)]
    if len(parts) < 2:
        raise InvalidActionError(f"name a route as two cities, like 'Paris-Dieppe' (got {text!r})")
    raise InvalidActionError(
        f"no city {' or '.join(repr(u) for u in unknown) or repr(text)} on the {m.name} map"
        + (f" (found {', '.join(known)})" if known else "")
    )


def _parse_claim(game: "Game", seat: int | None, words: list[str]) -> Action:
    m = game.map
    route_words, color, all_loco, locos = _split_payment(words)
    if not route_words:
        raise InvalidActionError("name the route to claim, like 'claim Paris-Dieppe pink'")
    tracks, index = _find_route(m, " ".join(route_words))
    if index is not None:
        chosen = [t for t in tracks if t.id.endswith(f"/{index}")]
        if not chosen:
            raise InvalidActionError(f"{m.route_name(tracks[0])} has no track {index}")
        tracks = chosen
    elif len(tracks) > 1 and color is not None and any(t.color == color for t in tracks):
        tracks = [t for t in tracks if t.color == color]
    if len(tracks) > 1:
        free = [t for t in tracks if game.owner[t.index] < 0 and game.owner[t.double] != seat]
        tracks = free[:1] or tracks[:1]
    track = tracks[0]
    if all_loco and color is None:
        return Claim(track.id, None, track.length if locos is None else locos)
    if color is None:
        color = track.color
    if color is None:
        hand = game.hands[seat] if seat is not None else [0] * 9
        options = sorted({c for c, _ in payment_options(hand, track.length, None, track.ferry, True)}, key=str)
        colored = [c for c in options if c is not None]
        if len(options) == 1:
            color = options[0]
        elif len(colored) == 1 and locos is not None and locos < track.length:
            color = colored[0]
        elif locos is not None and locos == track.length:
            return Claim(track.id, None, locos)
        else:
            names = [CARD_NAMES[c] if c is not None else "loco" for c in options] or list(COLORS)
            raise AmbiguousActionError(
                f"{m.route_name(track)} is gray: say which color to pay with ({', '.join(names)})",
                options=names,
            )
        if color is None:
            return Claim(track.id, None, track.length)
    if track.color is not None and color != track.color:
        return Claim(track.id, color, locos or 0)  # the engine says which color the route needs
    if locos is None:
        # Fewest locomotives, but at least one card of the color the player named.
        have = game.hands[seat][color] if seat is not None else 0
        locos = min(max(track.ferry, track.length - have, 0), track.length - 1)
    return Claim(track.id, None if locos == track.length else color, locos)


def _parse_station(game: "Game", seat: int | None, words: list[str]) -> Action:
    m = game.map
    city_words, color, all_loco, locos = _split_payment(words)
    city = m.find_city(" ".join(city_words)) if city_words else None
    if city is None:
        raise InvalidActionError(
            f"no city {' '.join(city_words)!r} on the {m.name} map" if city_words else "name the city for the station"
        )
    built = len(game.stations[seat]) if seat is not None else 0
    costs = m.rules.station_costs
    cost = costs[min(built, len(costs) - 1)] if costs else 1
    hand = game.hands[seat] if seat is not None else [0] * 9
    if color is None and (all_loco or locos == cost):
        return BuildStation(city.id, None, cost if locos is None else locos)
    if color is None:
        options = sorted({c for c, _ in payment_options(hand, cost, None, 0, True)}, key=str)
        if len(options) == 1:
            color = options[0]
            if color is None:
                return BuildStation(city.id, None, cost)
        else:
            names = [CARD_NAMES[c] if c is not None else "loco" for c in options] or list(COLORS)
            raise AmbiguousActionError(
                f"say which color pays for the station in {city.name} ({', '.join(names)})", options=names
            )
    if locos is None:
        locos = max(cost - hand[color], 0)
    return BuildStation(city.id, None if locos == cost else color, locos)


def _parse_tunnel(game: "Game", seat: int | None, words: list[str]) -> Action:
    if words == ["decline"]:
        return DeclineTunnel()
    if words and words[0] == "pay":
        if len(words) == 2:
            match = _LOCO_OPTION.match(words[1].lower())
            if match:
                return PayTunnel(int(match.group(1)))
        elif len(words) == 1:
            tunnel = game.tunnel
            if tunnel is None or seat is None:
                return PayTunnel(0)
            options = surcharge_options(game.hands[seat], tunnel["surcharge"], tunnel["color"])
            return PayTunnel(options[0] if options else 0)
    raise InvalidActionError("write 'tunnel pay', 'tunnel pay loco=N' or 'tunnel decline'")


def _parse_neutral(game: "Game", words: list[str]) -> Action:
    """'neutral claim Amsterdam-Rotterdam/2'; without /1 or /2, the first free track."""
    if len(words) < 2 or words[0].lower() != "claim":
        raise InvalidActionError("write 'neutral claim' and the route, like 'neutral claim Amsterdam-Rotterdam/1'")
    tracks, index = _find_route(game.map, " ".join(words[1:]))
    if index is not None:
        chosen = [t for t in tracks if t.id.endswith(f"/{index}")]
        if not chosen:
            raise InvalidActionError(f"{game.map.route_name(tracks[0])} has no track {index}")
        return NeutralClaim(chosen[0].id)
    free = [t for t in tracks if game.owner[t.index] < 0]
    return NeutralClaim((free or tracks)[0].id)
