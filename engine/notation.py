"""Text notation for actions, both ways: what players type, what logs store, what tests read.

    draw deck | draw market 3 | claim Frankfurt-Paris orange | claim Palermo-Smyrna pink loco=3
    claim Dieppe-London/2 red loco=1 | claim Madrid-Pamplona loco=3 | tickets draw | tickets keep 12 31
    station Paris red | station Paris loco=2 | tunnel pay | tunnel pay loco=1 | tunnel decline
    neutral claim Amsterdam-Rotterdam/2 | pass | skip | resign | remove 3
    claim Ålborg-Göteborg blue sub=pink:1,green:2 | claim Lieksa-Murmansk red sub=blue:4,green:4
    claim Berlin-Hamburg yellow passenger=Berlin | tickets draw long=2 | move Hamburg-Kiel-Rostock cards=1

Defaults when a player leaves something out (docs/engine.md): no `loco=` means the fewest
locomotives that can pay; no color on a colored route means the route's color; a gray double
without `/1` or `/2` means its first track the player may claim. A gray route (or station) with
no color given is ambiguous unless only one color can pay.
`format_action` always prints the canonical form, and `parse_action(format_action(a)) == a`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
    Move,
    NeutralClaim,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    Skip,
    Undo,
)
from engine.cards import COLORS, LOCO, card_index
from engine.errors import (
    AmbiguousActionError,
    CardRef,
    CityRef,
    IllegalActionError,
    InvalidActionError,
    ListRef,
    MapRef,
    RouteRef,
)
from engine.mapdata import City, MapData, Track, printed_name
from engine.payments import extended_payment_options, payment_options, surcharge_options

if TYPE_CHECKING:
    from engine.hooks import GameState

_DASHES = re.compile(r"\s*[-–—]\s*")
_LOCO_OPTION = re.compile(r"^(?:loco|locos|locomotives?)=([0-9]+)$")
#: Bounds on what a player may type (a Discord message or a terminal line), so no text can make the
#: parser build huge values: the whole text, and every number in it (counts, slots, ticket ids).
MAX_TEXT = 400
MAX_DIGITS = 4
#: Train cards in the game: no payment can name more substitute cards.
MAX_CARDS = 110
_SUB_OPTION = re.compile(r"^(?:sub|subs)=(.+)$")


def _map_of(game_or_map: GameState | MapData) -> MapData:
    return game_or_map if isinstance(game_or_map, MapData) else game_or_map.map


def route_label(m: MapData, track: Track, city_name: Callable[[City], str] = printed_name) -> str:
    """'Dieppe-London/2' for a track of a double route, 'Dieppe-Paris' otherwise; tracks from
    one city to different border points of one country (Switzerland's two Kreuzlingen-Deutschland
    tracks) are numbered the same way, in map order. `city_name` gives other names (translations)."""
    name = m.route_name(track, city_name)
    if track.double is not None and "/" in track.id:
        return f"{name}/{track.id.rsplit('/', 1)[1]}"
    siblings = _border_siblings(m, track)
    if len(siblings) > 1:
        return f"{name}/{siblings.index(track) + 1}"
    return name


def route_ref(m: MapData, track: Track, numbered: bool = False) -> RouteRef:
    """A track for an error message: its route name, or with `numbered` its label (above)."""
    return RouteRef(track.index, route_label(m, track) if numbered else m.route_name(track), numbered)


def ticket_label(
    m: MapData, ticket, reached: int | None = None, city_name: Callable[[City], str] = printed_name
) -> str:
    """'Bern-Zürich 6'; a ticket with several destinations (Switzerland's country tickets) lists
    them all, 'Bern: France 5 / Deutschland 6 / Österreich 11 / Italia 8', or only the one scored
    when `reached` (a final `TicketResult.reached`) is given: 'Bern-Österreich 11'."""
    a = city_name(m.cities[ticket.a])
    if not ticket.destinations:
        return f"{a}-{city_name(m.cities[ticket.b])} {ticket.points}"
    if reached is not None:
        points = next(p for place, _, p in ticket.destinations if place == reached)
        return f"{a}-{city_name(m.cities[reached])} {points}"
    return f"{a}: " + " / ".join(f"{city_name(m.cities[place])} {p}" for place, _, p in ticket.destinations)


def _place(m: MapData, city: int) -> int:
    """The place a track end stands for: a border point's country, else the city itself."""
    country = m.cities[city].country
    return city if country is None else country


def _border_siblings(m: MapData, track: Track) -> list[Track]:
    """Tracks joining the same two places as `track` (more than one only at a border)."""
    if m.cities[track.a].country is None and m.cities[track.b].country is None:
        return [track]
    return _tracks_between_places(m, _place(m, track.a), _place(m, track.b))


def _tracks_between_places(m: MapData, a: int, b: int) -> list[Track]:
    out = []
    for x in m.nodes(a):
        for y in m.nodes(b):
            out.extend(m.tracks_between.get((min(x, y), max(x, y)), ()))
    return sorted(out, key=lambda t: t.index)


def claim_names_track(m: MapData, action: Claim) -> bool:
    """Whether a claim must say which track ('/2'): a double (or border) route whose payment alone
    does not tell its tracks apart."""
    t = m.track_by_id[action.track]
    siblings = [t, m.tracks[t.double]] if t.double is not None else _border_siblings(m, t)
    return len(siblings) > 1 and (
        t.color is None or action.color is None or any(o.color == t.color for o in siblings if o is not t)
    )


def format_action(game_or_map: GameState | MapData, action: Action) -> str:
    m = _map_of(game_or_map)
    kind = type(action)
    if kind is DrawDeck:
        return "draw deck"
    if kind is DrawMarket:
        return f"draw market {action.slot + 1}"
    if kind is Claim:
        t = m.track_by_id[action.track]
        route = route_label(m, t) if claim_names_track(m, action) else m.route_name(t)
        passenger = None if action.passenger is None else "passenger=" + _word(m.city_by_id[action.passenger].name)
        return " ".join(
            filter(
                None, ["claim", route, _payment_text(action.color, action.locos), _subs_text(action.subs), passenger]
            )
        )
    if kind is DrawTickets:
        return "tickets draw" if action.long is None else f"tickets draw long={action.long}"
    if kind is Move:
        path = "-".join(_word(m.city_by_id[c].name) for c in action.path)
        return f"move {path}" + (f" cards={action.cards}" if action.cards else "")
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
    if kind is Undo:
        return "undo"
    if kind is Remove:
        return f"remove {action.seat + 1}"
    raise TypeError(f"not an action: {action!r}")


def _word(name: str) -> str:
    """A city name as one word of the notation ('Frankfurt am Main' -> 'Frankfurt_am_Main'; the
    lookup ignores the underscores)."""
    return name.replace(" ", "_")


def _subs_text(subs: tuple[int, ...]) -> str:
    if not subs:
        return ""
    return "sub=" + ",".join(f"{COLORS[c]}:{subs.count(c)}" for c in sorted(set(subs)))


def _parse_subs(text: str) -> tuple[int, ...]:
    out: list[int] = []
    for part in text.split(","):
        name, _, count = part.partition(":")
        try:
            card = card_index(name)
        except KeyError:
            raise InvalidActionError("unknown card color {name!r} in sub=", name=name) from None
        if card == LOCO:
            raise InvalidActionError("substitute cards are colored cards, not locomotives")
        if count and not _is_number(count):
            raise InvalidActionError(
                "write sub= as color:count pairs, like sub=blue:2,green:1 (got {part!r})", part=part
            )
        n = int(count) if count else 1
        if len(out) + n > MAX_CARDS:
            raise InvalidActionError("a payment has at most {most} substitute cards", most=MAX_CARDS)
        out.extend([card] * n)
    return tuple(sorted(out))


def _payment_text(color: int | None, locos: int) -> str:
    parts = [] if color is None else [COLORS[color]]
    if locos:
        parts.append(f"loco={locos}")
    return " ".join(parts)


def _is_number(word: str) -> bool:
    """ASCII digits only (no '²' or '①', which str.isdigit accepts and int() refuses), and few."""
    return word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS


def _count(digits: str) -> int:
    if not _is_number(digits):
        raise InvalidActionError("{number} is too large a number here", number=digits[: MAX_DIGITS + 2] + "…")
    return int(digits)


def parse_action(game: GameState, seat: int | None, text: str) -> Action:
    """Parse what `seat` typed into an action, resolving defaults against the current state.

    Raises only the engine's errors: InvalidActionError (cannot be read: also a text over
    MAX_TEXT characters or a number over MAX_DIGITS digits), AmbiguousActionError (several actions
    fit) and IllegalActionError where the state already decides (a route taken, a map without
    stations, a seat not in the game). Legality is otherwise checked by Game.apply, not here.
    """
    if not isinstance(text, str):
        raise InvalidActionError("an action is text, like 'draw deck'")
    if len(text) > MAX_TEXT:
        raise InvalidActionError(
            "that is too long for an action ({length} characters; at most {most})", length=len(text), most=MAX_TEXT
        )
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.seats):
        raise IllegalActionError("seat {seat} is not a seat of this game", seat=seat)
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
    if verb == "move":
        return _parse_move(game, seat, rest)
    if not rest and verb in ("pass", "skip", "resign", "undo"):
        return {"pass": Pass(), "skip": Skip(), "resign": Resign(), "undo": Undo()}[verb]
    if verb == "remove" and len(rest) == 1 and _is_number(rest[0]):
        return Remove(int(rest[0]) - 1)
    raise InvalidActionError(
        "unknown action {text!r}: actions are draw, claim, tickets, station, tunnel, neutral, move, pass, resign",
        text=text.strip(),
    )


def _parse_draw(rest: list[str]) -> Action:
    if rest == ["deck"] or rest == ["blind"]:
        return DrawDeck()
    if len(rest) == 2 and rest[0] == "market" and _is_number(rest[1]):
        return DrawMarket(int(rest[1]) - 1)
    raise InvalidActionError("write 'draw deck' or 'draw market N' with N from 1 to 5")


def _parse_tickets(rest: list[str]) -> Action:
    if rest == ["draw"]:
        return DrawTickets()
    if len(rest) == 2 and rest[0] == "draw" and rest[1].lower().startswith("long="):
        return DrawTickets(_count(rest[1][5:]))
    if rest and rest[0] == "keep" and rest[1:] and all(_is_number(w) for w in rest[1:]):
        return KeepTickets(tuple(sorted(int(w) for w in rest[1:])))
    raise InvalidActionError("write 'tickets draw' or 'tickets keep' followed by ticket numbers")


def _split_payment(words: list[str], subs: list | None = None) -> tuple[list[str], int | None, bool, int | None]:
    """Strip trailing payment words: returns (rest, color, all_loco, loco_count); a `sub=` word
    is parsed into `subs` (a list the caller passes) where allowed."""
    color: int | None = None
    all_loco = False
    locos: int | None = None
    while words:
        word = words[-1].lower()
        match = _LOCO_OPTION.match(word)
        sub_match = _SUB_OPTION.match(word) if subs is not None else None
        if sub_match:
            subs[:] = _parse_subs(sub_match.group(1))
        elif match:
            locos = _count(match.group(1))
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
                raise InvalidActionError(
                    "pay with one color, not {card} and {other}", card=CardRef(card), other=CardRef(color)
                )
        words = words[:-1]
    return words, color, all_loco, locos


def _find_route(m: MapData, text: str) -> tuple[list[Track], int | None]:
    """Tracks joining the two cities named in `text` ('Paris-Dieppe', 'Dieppe-London/2')."""
    index = None
    match = re.search(r"/([0-9])$", text)
    if match:
        index, text = int(match.group(1)), text[: match.start()]
    parts = _DASHES.split(text.strip())
    for cut in range(1, len(parts)):
        a, b = m.find_city("-".join(parts[:cut])), m.find_city("-".join(parts[cut:]))
        if a and b:
            if m.borders:  # a country stands for its border points (Switzerland)
                tracks = _tracks_between_places(m, _place(m, a.index), _place(m, b.index))
            else:
                tracks = m.tracks_between.get((min(a.index, b.index), max(a.index, b.index)))
            if not tracks:
                raise InvalidActionError(
                    "no route joins {a} and {b} on the {map} map",
                    a=CityRef(a.index, a.name),
                    b=CityRef(b.index, b.name),
                    map=MapRef(m.name),
                )
            return list(tracks), index
    known = [CityRef(c.index, c.name) for c in map(m.find_city, parts) if c]
    unknown = [p for p in parts if not m.find_city(p)]
    if len(parts) < 2:
        raise InvalidActionError("name a route as two cities, like 'Paris-Dieppe' (got {text!r})", text=text)
    names = _typed_names(unknown or [text])
    if known:
        raise InvalidActionError(
            "no city {names} on the {map} map (found {found})",
            names=names,
            map=MapRef(m.name),
            found=ListRef(tuple(known)),
        )
    raise InvalidActionError("no city {names} on the {map} map", names=names, map=MapRef(m.name))


def _typed_names(texts: list[str]) -> ListRef:
    """City names as the player typed them, quoted: "'Atlantis' or 'Oz'"."""
    return ListRef(tuple(map(repr, texts)), "or", " or ")


def _parse_claim(game: GameState, seat: int | None, words: list[str]) -> Action:
    """A claim, with Märklin's `passenger=City` (where the claim puts a passenger) anywhere after the route."""
    passenger = None
    for word in words:
        if word.lower().startswith("passenger="):
            city = game.map.find_city(word[10:])
            if city is None:
                raise InvalidActionError(
                    "no city {names} on the {map} map", names=_typed_names([word[10:]]), map=MapRef(game.map.name)
                )
            passenger = city.id
    claim = _parse_claim_payment(game, seat, [w for w in words if not w.lower().startswith("passenger=")])
    return claim if passenger is None else claim._replace(passenger=passenger)


def _parse_claim_payment(game: GameState, seat: int | None, words: list[str]) -> Action:
    m = game.map
    subs: list[int] = []
    route_words, color, all_loco, locos = _split_payment(words, subs)
    if not route_words:
        raise InvalidActionError("name the route to claim, like 'claim Paris-Dieppe pink'")
    tracks, index = _find_route(m, " ".join(route_words))
    if index is not None:
        if len(tracks) == 2 and tracks[0].double is not None:
            chosen = [t for t in tracks if t.id.endswith(f"/{index}")]
        else:
            chosen = tracks[index - 1 : index] if index >= 1 else []
        if not chosen:
            raise InvalidActionError("{route} has no track {index}", route=route_ref(m, tracks[0]), index=index)
        tracks = chosen
    elif len(tracks) > 1 and color is not None and any(t.color == color for t in tracks):
        tracks = [t for t in tracks if t.color == color]
    if len(tracks) > 1:
        free = [t for t in tracks if game.owner[t.index] < 0 and (t.double is None or game.owner[t.double] != seat)]
        tracks = free[:1] or tracks[:1]
    track = tracks[0]
    if seat is not None and game.owner[track.index] >= 0:  # who took it comes before how to pay
        raise game.hooks.taken_error(game, route_ref(m, track), game.owner[track.index])
    card_rules = game.track_rules[track.index]
    if card_rules is not None:
        return _parse_claim_extended(game, seat, track, color, all_loco, locos, tuple(subs), card_rules)
    if subs:
        return Claim(track.id, color, locos or 0, tuple(subs))  # the engine says this route takes none
    if all_loco and color is None:
        return Claim(track.id, None, track.length if locos is None else locos)
    if track.color is not None and color is not None and color != track.color:
        return Claim(track.id, color, locos or 0)  # the engine says which color the route needs
    payments = game.track_payments(seat, track) if seat is not None else []
    if locos is not None:  # an explicit count: taken as written, the color filled in
        if color is None:
            color = track.color
        if color is None:
            colored = sorted({c for c, _, _ in payments if c is not None})
            if locos >= track.length:
                return Claim(track.id, None, locos)
            if len(colored) != 1:
                raise _gray_route(m, track, colored or [c for c, _, _ in payments])
            color = colored[0]
        return Claim(track.id, None if locos == track.length else color, locos)
    return Claim(track.id, *_fill_payment(game, seat, track, color, payments)[:2])


def _fill_payment(
    game: GameState, seat: int | None, track: Track, named: int | None, payments: list
) -> tuple[int | None, int, tuple[int, ...]]:
    """The payment a claim without `loco=` means: the fewest locomotives that pay in the color
    named (or the route's color), all locomotives if only they pay. When nothing pays, a payment
    of that color (at least one card of it) for the engine to refuse with the reason."""

    def fewest(color: int | None) -> tuple | None:
        fits = [p for p in payments if p[0] == color]
        return min(fits, key=lambda p: (len(p[2]), p[1])) if fits else None

    want = track.color if named is None else named
    if want is not None:
        best = fewest(want) or (None if named is not None else fewest(None))
        if best:
            return best
    else:  # gray, no color named: the only color that pays, else ambiguous
        colored = sorted({p[0] for p in payments if p[0] is not None})
        if len(colored) > 1:
            raise _gray_route(game.map, track, colored)
        if colored or any(p[0] is None for p in payments):
            return fewest(colored[0] if colored else None)
        hand = game.hands[seat] if seat is not None else [0] * 9
        want = max(range(len(COLORS)), key=lambda c: (hand[c], -c))  # the player's best color
    have = game.hands[seat][want] if seat is not None else 0
    return want, min(max(track.ferry, track.length - have, 0), track.length - 1), ()


def _parse_claim_extended(
    game: GameState,
    seat: int | None,
    track: Track,
    color: int | None,
    all_loco: bool,
    locos: int | None,
    subs: tuple[int, ...],
    card_rules: tuple,
) -> Action:
    """Claims under a map's card rules (Switzerland, Nordic): what is left out is filled in from
    the payments the engine lists (no substitutes and the fewest locomotives first)."""
    m = game.map
    locos_ok, ferry_sub, substitute = card_rules
    if subs or locos is not None:  # an explicit payment: taken as written
        k = locos or 0
        unit = ferry_sub if track.ferry else substitute
        covered = track.length - k - (len(subs) // unit if unit else 0)
        if color is None and track.color is not None and covered > 0:
            color = track.color
        return Claim(track.id, color if covered > 0 else None, k, subs)
    hand = game.hands[seat] if seat is not None else [0] * 9
    want = track.color if color is None else color
    options = extended_payment_options(
        hand, track.length, track.color, track.ferry, locos_ok=locos_ok, ferry_sub=ferry_sub, substitute=substitute
    )
    if all_loco and color is None:
        return Claim(track.id, None, track.length)
    if want is not None:
        fits = sorted((o for o in options if o[0] == want), key=lambda o: (len(o[2]), o[1]))
        if not fits and color is None:  # the route's own color: locomotives alone may pay
            fits = sorted((o for o in options if o[0] is None), key=lambda o: (len(o[2]), o[1]))
        if fits:
            return Claim(track.id, *fits[0])
        if track.color is not None or color is not None:
            return Claim(track.id, want, 0)  # the engine says what is missing
    colors = sorted({o[0] for o in options}, key=lambda c: (c is None, c or 0))
    if len(colors) == 1:
        best = min((o for o in options if o[0] == colors[0]), key=lambda o: (len(o[2]), o[1]))
        return Claim(track.id, *best)
    raise _gray_route(m, track, colors)


def _card_options(colors: list[int | None]) -> ListRef:
    """The cards that could pay (None: all locomotives), every color when none can."""
    cards = [LOCO if c is None else c for c in colors] or range(len(COLORS))
    return ListRef(tuple(map(CardRef, cards)), "or")


def _gray_route(m: MapData, track: Track, colors: list[int | None]) -> AmbiguousActionError:
    return AmbiguousActionError(
        "{route} is gray: say which color to pay with ({options})",
        route=route_ref(m, track),
        options=_card_options(colors),
    )


def _parse_station(game: GameState, seat: int | None, words: list[str]) -> Action:
    m = game.map
    city_words, color, all_loco, locos = _split_payment(words)
    city = m.find_city(" ".join(city_words)) if city_words else None
    if not city_words:
        raise InvalidActionError("name the city for the station")
    if city is None:
        raise InvalidActionError(
            "no city {names} on the {map} map", names=_typed_names([" ".join(city_words)]), map=MapRef(m.name)
        )
    if not m.rules.stations:
        raise IllegalActionError("the {map} map has no stations", map=MapRef(m.name))
    built = len(game.stations[seat]) if seat is not None else 0
    costs = m.rules.station_costs
    cost = costs[min(built, len(costs) - 1)]
    hand = game.hands[seat] if seat is not None else [0] * 9
    if color is None and (all_loco or locos == cost):
        return BuildStation(city.id, None, cost if locos is None else locos)
    if color is None:
        options = payment_options(hand, cost, None, 0, True)
        colored = sorted({c for c, _ in options if c is not None})
        if len(colored) > 1:
            raise AmbiguousActionError(
                "say which color pays for the station in {city} ({options})",
                city=CityRef(city.index, city.name),
                options=_card_options(colored),
            )
        if not colored and options:
            return BuildStation(city.id, None, cost)
        # the one color that pays, or (none pays) the player's best color for the engine to refuse
        color = colored[0] if colored else max(range(len(COLORS)), key=lambda c: (hand[c], -c))
    if locos is None:
        # a color the player holds none of still pays one card of it: refused, naming what would pay
        locos = min(max(cost - hand[color], 0), cost - 1)
    return BuildStation(city.id, None if locos == cost else color, locos)


def _parse_tunnel(game: GameState, seat: int | None, words: list[str]) -> Action:
    if words == ["decline"]:
        return DeclineTunnel()
    if words and words[0] == "pay":
        if len(words) == 2:
            match = _LOCO_OPTION.match(words[1].lower())
            if match:
                return PayTunnel(_count(match.group(1)))
        elif len(words) == 1:
            tunnel = game.tunnel
            if tunnel is None or seat is None:
                return PayTunnel(0)
            options = surcharge_options(game.hands[seat], tunnel["surcharge"], tunnel["color"])
            return PayTunnel(options[0] if options else 0)
    raise InvalidActionError("write 'tunnel pay', 'tunnel pay loco=N' or 'tunnel decline'")


def _parse_neutral(game: GameState, words: list[str]) -> Action:
    """'neutral claim Amsterdam-Rotterdam/2'; without /1 or /2, the first free track."""
    if len(words) < 2 or words[0].lower() != "claim":
        raise InvalidActionError("write 'neutral claim' and the route, like 'neutral claim Amsterdam-Rotterdam/1'")
    tracks, index = _find_route(game.map, " ".join(words[1:]))
    if index is not None:
        chosen = [t for t in tracks if t.id.endswith(f"/{index}")]
        if not chosen:
            raise InvalidActionError("{route} has no track {index}", route=route_ref(game.map, tracks[0]), index=index)
        return NeutralClaim(chosen[0].id)
    free = [t for t in tracks if game.owner[t.index] < 0]
    return NeutralClaim((free or tracks)[0].id)


def _parse_move(game: GameState, seat: int | None, words: list[str]) -> Action:
    """'move Hamburg-Kiel-Rostock cards=1' (Märklin, docs/rules.md §8.5): the cities of the path, the
    first where the passenger stands; a country's name stands for its border point on the path.
    Without `cards=`, the passenger cards the path needs."""
    cards = None
    if words and words[-1].lower().startswith("cards="):
        cards = _count(words[-1][6:])
        words = words[:-1]
    parts = _DASHES.split(" ".join(words).strip()) if words else []
    if len(parts) < 2:
        raise InvalidActionError("name the passenger's path as cities, like 'move Hamburg-Kiel-Rostock'")
    m = game.map
    path: list[str] = []
    for part in parts:
        city = m.find_city(part)
        if city is None:
            raise InvalidActionError("no city {names} on the {map} map", names=_typed_names([part]), map=MapRef(m.name))
        index = city.index
        if index in m.borders:  # a country: the border point joined to the city before it (or after it)
            near = m.city_by_id[path[-1]].index if path else None
            index = next(
                (b for b in m.borders[index] if near is None or (min(b, near), max(b, near)) in m.tracks_between),
                m.borders[index][0],
            )
            if near is None and len(parts) > 1 and (after := m.find_city(parts[1])) is not None:
                index = next(
                    (
                        b
                        for b in m.borders[city.index]
                        if (min(b, after.index), max(b, after.index)) in m.tracks_between
                    ),
                    index,
                )
        path.append(m.cities[index].id)
    if cards is None:
        cards = _move_cost(game, seat, path) if seat is not None else 0
    return Move(tuple(path), cards)


def _move_cost(game: GameState, seat: int, path: list[str]) -> int:
    """Passenger cards a path needs (docs/rules.md §8.5: one per route only other players own);
    routes nobody owns count 0 here, the move's check refuses them."""
    m = game.map
    cost = 0
    for a, b in zip(path, path[1:]):
        ca, cb = m.city_by_id[a], m.city_by_id[b]
        key = (ca.index, cb.index) if ca.index < cb.index else (cb.index, ca.index)
        owners = {game.owner[t.index] for t in m.tracks_between.get(key, ())}
        if seat not in owners and any(o >= 0 for o in owners):
            cost += 1
    return cost
