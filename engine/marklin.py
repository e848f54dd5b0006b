"""Märklin (docs/rules.md §8): the rule hook "marklin" that `marklin.json` names.

- Cards: the 118-card deck (`rules.extra.train_deck`); hands have 11 kinds (engine.cards LOCO4,
  PASSENGER). A +4 is a wild card on routes of 4+ only: a claim's `locos` counts both kinds and
  the +4 cards go first. A face-up +4 or passenger card is taken like a colored card (the core's
  face-up limit and market reset look at LOCO only).
- Routes: the tracks between two cities are one route (the triple routes too): a player owns at
  most one of them, and with fewer than `doubles_min_players` only one is used.
- Tickets: a short and a long deck; a ticket draw names its mix (`DrawTickets.long`), at the start
  too (`choosing`), and tickets not kept go back to their own deck.
- Merchandise: stacks of tokens per German city, dealt to the cities from the seed while the
  printed dots are unknown (`rules.extra.merchandise.printed` null).
- Passengers: placed with a claim (`Claim.passenger`), moved as a turn (`Move`), taking the top
  token of every city on the path once (start and end included); tokens score at the end.

State lives here: the two ticket decks, the stacks, each seat's unplaced and placed passengers
and its tokens, and which seats still have to name their starting mix.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.actions import Action, Claim, DrawDeck, DrawMarket, DrawTickets, Move, Pass
from engine.cards import COLORS, LOCO, LOCO4, PASSENGER
from engine.errors import CardsShortError, CityRef, IllegalActionError, MapRef
from engine.events import Event, TicketsOffered
from engine.hooks import GameState, RuleHooks
from engine.mapdata import tracks_at
from engine.notation import route_ref
from engine.payments import payment_error, payment_options
from engine.phases import Phase, Stage

if TYPE_CHECKING:
    from engine.mapdata import MapData, Track
    from engine.outcome import PlayerScore

#: Steps of the search for the listed moves, per passenger city (`move_actions`).
_SEARCH_BUDGET = 4000


@dataclass(frozen=True, slots=True)
class PassengerPlaced(Event):
    seat: int
    city: str


@dataclass(frozen=True, slots=True)
class PassengerMoved(Event):
    seat: int
    path: tuple[str, ...]
    cards: int
    tokens: tuple[int, ...]  # the tokens taken, in path order


def _illegal(template: str, /, **params: object) -> IllegalActionError:
    return IllegalActionError(template, **params)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def wild_hand(hand: list[int], length: int, min_length: int = 4) -> list[int]:
    """The hand as the core payments see it for a route of `length`: the nine kinds, with the +4
    cards counted as locomotives where they pay."""
    seen = hand[: LOCO + 1]
    if length >= min_length:
        seen[LOCO] += hand[LOCO4]
    return seen


class MarklinHooks(RuleHooks):
    name = "marklin"
    action_types = (Claim, DrawTickets, Move)
    card_kinds = 11
    lists_turns = True
    locomotive_use = "any route (+4 locomotives: routes of 4 or more)"

    # ------------------------------------------------------------------ set-up

    def configure(self, game: GameState) -> None:
        super().configure(game)
        extra = game.map.rules.extra
        seats = game.seats
        self.min4 = int(extra.get("loco4_min_length", 4))
        self.deck_counts = dict(extra["train_deck"])
        self.ticket_rules = dict(extra["tickets"])
        self.unplaced = [int(extra["passengers"])] * seats
        self.placed: list[list[int]] = [[] for _ in range(seats)]  # city indices, in placing order
        self.tokens: list[list[int]] = [[] for _ in range(seats)]
        self.stacks: dict[int, list[int]] = {}  # city index -> tokens, top last
        self.dots: dict[int, str] = {}
        self.short: list[int] = []
        self.long: list[int] = []
        self.mixing = [True] * seats

    def train_deck(self, game: GameState) -> list[int]:
        d = self.deck_counts
        deck = [c for c in range(len(COLORS)) for _ in range(d["per_color"])]
        return deck + [LOCO] * d["loco"] + [LOCO4] * d["loco4"] + [PASSENGER] * d["passenger"]

    def after_setup(self, game: GameState) -> None:
        """Deal the merchandise and split the tickets into the two decks; nobody holds an offer
        until they name their mix (the core's starting deal is undone)."""
        m = game.map
        self.dots = deal_dots(m, game.rng("merchandise"))
        stacks = m.rules.extra["merchandise"]["stacks"]
        self.stacks = {city: list(reversed(stacks[color])) for city, color in self.dots.items()}
        ids = list(game.deck_rules.tickets)
        self.short = [i for i in ids if not m.ticket_by_id[i].long]
        self.long = [i for i in ids if m.ticket_by_id[i].long]
        game.rng("short-tickets").shuffle(self.short)
        game.rng("long-tickets").shuffle(self.long)
        game.ticket_deck = []
        game.offers = [[] for _ in range(game.seats)]
        game.offer_keep = [0] * game.seats

    # ------------------------------------------------------------------ tickets

    def choosing(self, game: GameState, seat: int) -> bool:
        return self.mixing[seat] and game.left[seat] is None

    def _mixes(self, count: int) -> range:
        """The long-ticket counts a draw of `count` may name (docs/rules.md §8.3)."""
        total = min(count, len(self.short) + len(self.long))
        if not total:
            return range(0)
        return range(max(0, total - len(self.short)), min(total, len(self.long)) + 1)

    def _draw_count(self, game: GameState) -> int:
        return self.ticket_rules["start_draw" if game.phase == Phase.CHOOSING else "draw"]

    def choosing_actions(self, game: GameState, seat: int) -> list[Action]:
        return [DrawTickets(k) for k in self._mixes(self._draw_count(game))]

    def default_action(self, game: GameState, seat: int) -> Action:
        return DrawTickets(self._mixes(self._draw_count(game))[0])  # as few long tickets as possible

    def _check_draw_tickets(self, game: GameState, seat: int, action: DrawTickets) -> None:
        if game.phase == Phase.CHOOSING:
            if not self.mixing[seat]:
                raise _illegal("you have already drawn your starting tickets")
        else:
            game.check_turn(seat, None, action)
        count = self._draw_count(game)
        mixes = self._mixes(count)
        if not mixes:
            raise _illegal("no destination tickets are left to draw")
        if action.long is None:
            raise _illegal(
                "say how many of the {count} tickets come from the long deck: tickets draw long=N",
                count=min(count, len(self.short) + len(self.long)),
            )
        if action.long not in mixes:
            raise _illegal(
                "the decks hold {short} short and {long} long tickets: draw long={low} to {high}",
                short=len(self.short),
                long=len(self.long),
                low=mixes[0],
                high=mixes[-1],
            )

    def _apply_draw_tickets(self, game: GameState, seat: int, action: DrawTickets, events: list[Event]) -> None:
        count = min(self._draw_count(game), len(self.short) + len(self.long))
        offer = [self.long.pop() for _ in range(action.long)]
        offer += [self.short.pop() for _ in range(count - action.long)]
        game.offers[seat] = offer
        if game.phase == Phase.CHOOSING:
            self.mixing[seat] = False
            keep = self.ticket_rules["start_keep"]
        else:
            game.stage = Stage.TICKETS
            keep = self.ticket_rules["draw_keep"]
        game.offer_keep[seat] = min(keep, len(offer))
        events.append(TicketsOffered(seat, len(offer), tuple(offer), game.offer_keep[seat]))

    def return_tickets(self, game: GameState, ids: list[int], policy: str) -> None:
        """Back into their own deck: shuffled in at the start, under it later; "box" (the host's
        option) puts them out of the game."""
        if policy == "box" and game.phase != Phase.CHOOSING:
            return
        for deck, long in ((self.short, False), (self.long, True)):
            back = [i for i in ids if game.map.ticket_by_id[i].long == long]
            if not back:
                continue
            deck[:0] = back
            if game.phase == Phase.CHOOSING:
                game.rng("returned-tickets").shuffle(deck)

    # ------------------------------------------------------------------ claims

    @staticmethod
    def _route_block(game: GameState, seat: int, t: Track) -> str | None:
        """Why another track of the route keeps `t` from `seat` ("own": a player owns one track of a
        route at most; "closed": fewer than `doubles_min_players` use one), or None."""
        for other in game.map.tracks_between[_pair(t.a, t.b)]:
            owner = game.owner[other.index]
            if other is t or owner < 0:
                continue
            if owner == seat:
                return "own"
            if not game.doubles_open:
                return "closed"
        return None

    def _passenger_ends(self, game: GameState, seat: int, t: Track) -> tuple[int, ...]:
        """Where a claim of `t` may put a passenger: its German cities, while the seat has one left."""
        if not self.unplaced[seat]:
            return ()
        return tuple(c for c in (t.a, t.b) if game.map.cities[c].kind == "city")

    def _check_claim(self, game: GameState, seat: int, action: Claim) -> None:
        game.check_turn(seat, None, action)
        t = game.track(action.track)
        route = route_ref(game.map, t)
        owner = game.owner[t.index]
        if owner >= 0:
            raise self.taken_error(game, route, owner)
        block = self._route_block(game, seat, t)
        if block == "own":
            raise _illegal("you own another track of {route}; one player never owns two", route=route)
        if block == "closed":
            raise _illegal(
                "another track of {route} is taken and with {players} players only one track of a "
                "double or triple route is used",
                route=route,
                players=game.seats,
            )
        if t.length > game.trains[seat]:
            raise _illegal(
                "{route} needs {length} trains and you have {left} left",
                route=route,
                length=t.length,
                left=game.trains[seat],
            )
        if action.subs:
            raise _illegal("{what} takes no substitute cards", what=route)
        seen = wild_hand(game.hands[seat], t.length, self.min4)
        error = payment_error(seen, t.length, t.color, 0, action.color, action.locos, route)
        if isinstance(error, CardsShortError):
            payments = [(c, k, ()) for c, k in payment_options(seen, t.length, t.color)]
            error = game.better_payment(
                seat, error, action.color, payments, route, lambda c, k, subs: Claim(t.id, c, k, (), action.passenger)
            )
        if error:
            raise error
        if action.passenger is not None:
            city = game.map.city_by_id.get(action.passenger)
            if city is None or city.index not in (t.a, t.b):
                raise _illegal("a passenger goes on one of the two ends of {route}", route=route)
            if city.kind != "city":
                raise _illegal("a passenger goes on a German city, not on {city}", city=CityRef(city.index, city.name))
            if not self.unplaced[seat]:
                raise _illegal("all your passengers have been placed")

    def _apply_claim(self, game: GameState, seat: int, action: Claim, events: list[Event]) -> None:
        t = game.map.track_by_id[action.track]
        hand = game.hands[seat]
        color = action.color if action.locos < t.length else None
        paid = [0] * self.card_kinds
        if color is not None:
            paid[color] = t.length - action.locos
        paid[LOCO4] = min(action.locos, hand[LOCO4]) if t.length >= self.min4 else 0
        paid[LOCO] = action.locos - paid[LOCO4]
        for kind, n in enumerate(paid):
            hand[kind] -= n
        game.discard_cards(paid)
        game.place(seat, t, color, action.locos, events)
        if action.passenger is not None:
            self.unplaced[seat] -= 1
            self.placed[seat].append(game.map.city_by_id[action.passenger].index)
            events.append(PassengerPlaced(seat, action.passenger))
        game.passes = 0
        game.end_turn(events)

    def turn_actions(self, game: GameState, seat: int, collapse: bool) -> list[Action]:
        actions: list[Action] = [DrawMarket(i) for i, c in enumerate(game.market) if c >= 0]
        if game.deck or game.discard:
            actions.append(DrawDeck())
        actions += [DrawTickets(k) for k in self._mixes(self.ticket_rules["draw"])]
        hand, trains, owner = game.hands[seat], game.trains[seat], game.owner
        for t in game.map.tracks:
            if owner[t.index] >= 0 or t.length > trains or self._route_block(game, seat, t):
                continue
            options = payment_options(wild_hand(hand, t.length, self.min4), t.length, t.color, 0, collapse)
            if not options:
                continue
            ends = (None, *(game.map.cities[c].id for c in self._passenger_ends(game, seat, t)))
            actions += [Claim(t.id, c, k, (), end) for c, k in options for end in ends]
        actions += self.move_actions(game, seat)
        return actions or [Pass()]

    # ------------------------------------------------------------------ passengers

    def _steps(self, game: GameState, seat: int, city: int) -> list[tuple[int, tuple[int, int], int]]:
        """(next city, route key, passenger cards) for each claimed route at `city`."""
        out = []
        m = game.map
        for t in tracks_at(m)[city]:
            other = t.b if t.a == city else t.a
            key = _pair(t.a, t.b)
            if any(s[1] == key for s in out):
                continue
            owners = {game.owner[x.index] for x in m.tracks_between[key]}
            if seat in owners:
                out.append((other, key, 0))
            elif any(o >= 0 for o in owners):
                out.append((other, key, 1))
        return out

    def _check_move(self, game: GameState, seat: int, action: Move) -> None:
        game.check_turn(seat, None, action)
        m = game.map
        path = action.path
        if len(path) < 2:
            raise _illegal("a passenger's path joins at least two cities")
        cities = []
        for cid in path:
            city = m.city_by_id.get(cid)
            if city is None:
                raise _illegal("there is no city {city!r} on the {map} map", city=cid, map=MapRef(m.name))
            cities.append(city)
        if cities[0].index not in self.placed[seat]:
            raise _illegal("you have no passenger on {city}", city=CityRef(cities[0].index, cities[0].name))
        used: set[tuple[int, int]] = set()
        cost = 0
        for a, b in zip(cities, cities[1:]):
            key = _pair(a.index, b.index)
            tracks = m.tracks_between.get(key)
            if not tracks:
                raise _illegal("no route joins {a} and {b}", a=CityRef(a.index, a.name), b=CityRef(b.index, b.name))
            route = route_ref(m, tracks[0])
            if key in used:
                raise _illegal("the path uses {route} twice", route=route)
            used.add(key)
            owners = {game.owner[t.index] for t in tracks}
            if seat not in owners:
                if not any(o >= 0 for o in owners):
                    raise _illegal("nobody has claimed {route}: a passenger travels on claimed routes", route=route)
                cost += 1
        if action.cards != cost:
            raise _illegal("that path takes {need} passenger cards, not {cards}", need=cost, cards=action.cards)
        if game.hands[seat][PASSENGER] < cost:
            raise _illegal(
                "that path takes {need} passenger cards and you have {have}",
                need=cost,
                have=game.hands[seat][PASSENGER],
            )

    def _apply_move(self, game: GameState, seat: int, action: Move, events: list[Event]) -> None:
        m = game.map
        indices = [m.city_by_id[c].index for c in action.path]
        game.hands[seat][PASSENGER] -= action.cards
        game.discard.extend([PASSENGER] * action.cards)
        taken = []
        for city in dict.fromkeys(indices):  # each city once, in path order
            stack = self.stacks.get(city)
            if stack:
                taken.append(stack.pop())
        self.tokens[seat].extend(taken)
        self.placed[seat].remove(indices[0])
        events.append(PassengerMoved(seat, action.path, action.cards, tuple(taken)))
        game.passes = 0
        game.end_turn(events)

    def move_actions(self, game: GameState, seat: int) -> list[Move]:
        """Per city with a passenger of the seat, the best path found to each city it can reach
        visiting no city twice (most token points, then fewest cards): a bounded list, since the
        paths through a network grow exponentially; `apply` takes any legal path."""
        out: list[Move] = []
        ids = [c.id for c in game.map.cities]
        for start in dict.fromkeys(self.placed[seat]):
            best = self._best_paths(game, seat, start)
            for end in sorted(best):
                _, path, spent = best[end]
                out.append(Move(tuple(ids[c] for c in path), spent))
        return out

    def _best_paths(self, game: GameState, seat: int, start: int) -> dict[int, tuple]:
        """End city -> ((token points, -cards), path, cards), by a depth-first search of at most
        `_SEARCH_BUDGET` steps over paths that visit no city twice."""
        cards = game.hands[seat][PASSENGER]
        best: dict[int, tuple] = {}
        budget = _SEARCH_BUDGET
        top = self.stacks.get(start)
        todo = [(start, (start,), 0, top[-1] if top else 0)]
        while todo and budget > 0:
            city, path, spent, value = todo.pop()
            budget -= 1
            for nxt, _, cost in self._steps(game, seat, city):
                if nxt in path or spent + cost > cards:
                    continue
                stack = self.stacks.get(nxt)
                gain = value + (stack[-1] if stack else 0)
                step = (nxt, (*path, nxt), spent + cost, gain)
                score = (gain, -(spent + cost))
                if nxt not in best or score > best[nxt][0]:
                    best[nxt] = (score, step[1], step[2])
                todo.append(step)
        return best

    # ------------------------------------------------------------------ dispatch

    def check_action(self, game: GameState, seat: int, action: Action) -> None:
        if isinstance(action, Claim):
            self._check_claim(game, seat, action)
        elif isinstance(action, DrawTickets):
            self._check_draw_tickets(game, seat, action)
        else:
            self._check_move(game, seat, action)

    def apply_action(self, game: GameState, seat: int, action: Action, events: list[Event]) -> None:
        if isinstance(action, Claim):
            self._apply_claim(game, seat, action, events)
        elif isinstance(action, DrawTickets):
            self._apply_draw_tickets(game, seat, action, events)
            game.passes = 0
        else:
            self._apply_move(game, seat, action, events)

    # ------------------------------------------------------------------ scoring and views

    def adjust_final_scores(self, game: GameState, scores: list[PlayerScore]) -> list[PlayerScore]:
        """Each seat's tokens score at the end (docs/rules.md §8.6), except a leaver's (§1.8)."""
        out = []
        for s in scores:
            if game.left[s.seat] is not None:
                out.append(s)
                continue
            points = sum(self.tokens[s.seat])
            out.append(
                replace(
                    s,
                    bonuses={**s.bonuses, "merchandise": points},
                    total=s.total + points,
                    details={**s.details, "tokens": len(self.tokens[s.seat])},
                )
            )
        return out

    def public_state(self, game: GameState, seat: int) -> dict:
        ids = game.map.cities
        return {
            "passengers": self.unplaced[seat],
            "passengers_placed": [ids[c].id for c in self.placed[seat]],
            "tokens": list(self.tokens[seat]),
            "naming_tickets": self.choosing(game, seat),
        }

    def public_view(self, game: GameState) -> dict:
        ids = game.map.cities
        return {
            "merchandise": {
                ids[c].id: {"dot": self.dots[c], "stack": list(reversed(self.stacks[c]))} for c in sorted(self.stacks)
            },
            "ticket_decks": {"short": len(self.short), "long": len(self.long)},
        }

    def to_json(self, game: GameState) -> dict:
        return {
            "unplaced": self.unplaced,
            "placed": self.placed,
            "tokens": self.tokens,
            "stacks": {str(c): s for c, s in self.stacks.items()},
            "dots": {str(c): d for c, d in self.dots.items()},
            "short": self.short,
            "long": self.long,
            "mixing": self.mixing,
        }

    def from_json(self, game: GameState, data: dict) -> None:
        self.unplaced = list(data["unplaced"])
        self.placed = [list(p) for p in data["placed"]]
        self.tokens = [list(t) for t in data["tokens"]]
        self.stacks = {int(c): list(s) for c, s in data["stacks"].items()}
        self.dots = {int(c): d for c, d in data["dots"].items()}
        self.short, self.long = list(data["short"]), list(data["long"])
        self.mixing = list(data["mixing"])


def deal_dots(m: MapData, rng) -> dict[int, str]:
    """Each German city's dot color: the printed ones when the map file has them, else the fixed
    ones (Berlin black) and the others dealt by `rng` (docs/rules.md §8, a substitute)."""
    merch = m.rules.extra["merchandise"]
    if merch.get("printed"):
        return {m.city_by_id[c].index: color for c, color in merch["printed"].items()}
    dots = {m.city_by_id[c].index: color for c, color in merch["fixed"].items()}
    counts = dict(merch["counts"])
    for color in dots.values():
        counts[color] -= 1
    colors = [color for color, n in counts.items() for _ in range(n)]
    rng.shuffle(colors)
    free = [c.index for c in m.cities if c.kind == "city" and c.index not in dots]
    if len(free) != len(colors):
        raise ValueError(f"{len(free)} cities for {len(colors)} merchandise stacks")
    dots.update(zip(free, colors))
    return dots
