"""The game: state, legal actions, apply, views, JSON (docs/rules.md is the spec).

State is plain lists and ints so a random playout is fast and `to_json` is trivial. Every
change goes through `apply(seat, action)`, which validates first (raising an ActionError and
changing nothing) and then mutates, appends to `log` and returns typed events.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import chain, combinations

from engine.actions import (
    Action,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    Skip,
    Undo,
)
from engine.cards import LOCO
from engine.errors import (
    N_,
    CardRef,
    CardsShortError,
    CityRef,
    IllegalActionError,
    ListRef,
    MapRef,
    OptionValueError,
    SeatCountError,
    SeatRef,
    UnknownDeckError,
    phrase,
)
from engine.events import (
    CardDrawn,
    DeckReshuffled,
    Event,
    GameOver,
    LastRoundStarted,
    LoanTaken,
    MarketRefilled,
    MarketReset,
    Passed,
    RouteClaimed,
    SeatLeft,
    StationBuilt,
    TicketsKept,
    TicketsOffered,
    TollPaid,
    TunnelDeclined,
    TunnelRevealed,
    TurnStarted,
)
from engine.hooks import hooks_for
from engine.mapdata import MapData, Track, load_map
from engine.notation import format_action, route_ref
from engine.outcome import Outcome
from engine.payments import (
    any_color_options,
    extended_payment_error,
    extended_payment_options,
    held_colors,
    payment_error,
    payment_options,
    surcharge_options,
    tunnel_surcharge,
    unmixed_options,
)
from engine.phases import Phase, Stage, Termination
from engine.scoring import final_scores
from engine.version import RULES_VERSION
from engine.view import build_view, public_context

STATE_SCHEMA = 1
COLORED_ONLY = "colored"  # claim group: locomotives may not pay (Switzerland's and Nordic's plain routes)
UNMIXED = "unmixed"  # claim group: one color or locomotives only, never both (Nordic tunnels)
MARKET_SIZE = 5
START_HAND = 4
LAST_ROUND_TRAINS = 2
MAX_MARKET_RESETS = 3

# Phases and turn stages (engine/phases.py), by their short names here.
CHOOSING, PLAYING, OVER = Phase.CHOOSING, Phase.PLAYING, Phase.OVER
SECOND_CARD, TUNNEL, TICKETS = Stage.SECOND_CARD, Stage.TUNNEL, Stage.TICKETS

#: Why a turn's action must wait while players choose their starting tickets (error templates).
_WAITING = {
    DrawDeck: N_("players are still choosing their starting tickets; drawing waits for the first turn"),
    DrawMarket: N_("players are still choosing their starting tickets; drawing waits for the first turn"),
    Claim: N_("players are still choosing their starting tickets; claiming waits for the first turn"),
    DrawTickets: N_("players are still choosing their starting tickets; drawing tickets waits for the first turn"),
    KeepTickets: N_("players are still choosing their starting tickets; keeping tickets waits for the first turn"),
    BuildStation: N_("players are still choosing their starting tickets; building a station waits for the first turn"),
    PayTunnel: N_("players are still choosing their starting tickets; paying waits for the first turn"),
    DeclineTunnel: N_("players are still choosing their starting tickets; declining waits for the first turn"),
    Pass: N_("players are still choosing their starting tickets; passing waits for the first turn"),
}


@dataclass(frozen=True)
class GameOptions:
    """What the host picks at `new`. Everything else comes from the map."""

    deck: str | None = None  # ticket deck id; None = the map's default
    returned_tickets: str | None = None  # "box" | "bottom"; None = the deck's rule
    first_seat: int | None = None  # None = drawn from the seed
    variants: dict = field(default_factory=dict)  # map-hook options (e.g. Nederland tolls)

    def to_json(self) -> dict:
        return {
            "deck": self.deck,
            "returned_tickets": self.returned_tickets,
            "first_seat": self.first_seat,
            "variants": dict(self.variants),
        }

    @classmethod
    def from_json(cls, data: dict) -> GameOptions:
        return cls(
            deck=data.get("deck"),
            returned_tickets=data.get("returned_tickets"),
            first_seat=data.get("first_seat"),
            variants=dict(data.get("variants", {})),
        )


#: Card counts the listing's tables cover (beyond: `_turn_start_actions` caps a hand's counts).
_HAND_COUNTS = 32


class _ClaimListing:
    """Tracks grouped by what pays for them (color, length, ferry and the map's card rules for
    the track, None on most maps), so one payment check serves every track of a group when
    listing legal claims, with the caches `_turn_start_actions` fills (all bounded):
    - per group and payment, its Claim for every track (a column); per colored group and
      payment situation met (two counts of the hand), its columns (other groups look theirs up
      per payment: too many lists of payments to keep);
    - the groups worth a payment check, as bit sets (bit n: group n) to combine per turn start:
      `by_locos[locomotives][color][cards of that color]`, the colored groups these cards pay
      for, and `by_locos[locomotives][8][most cards of one color]` the gray ones, with the
      groups under other card rules (their own payment search decides); a ferry also needs its
      locomotives; counts below `_HAND_COUNTS`; `trains[t]`: the groups of length <= t;
    - `where`: per track index, its group's number and its position there (a game keeps each
      group's free track positions, `Game._free`, and the bit set of groups with one,
      `Game._free_mask`)."""

    __slots__ = ("groups", "longest", "where", "trains", "by_locos", "every_position")

    def __init__(self, map_data: MapData, card_rules: tuple) -> None:
        groups: dict[tuple, list] = {}
        for t in map_data.tracks:
            groups.setdefault((t.color, t.length, t.ferry, card_rules[t.index]), []).append((t.index, t.id, t.double))
        self.groups = tuple(
            (*key, tuple(tracks), tuple(double for _, _, double in tracks), {}, {}, number)
            for number, (key, tracks) in enumerate(groups.items())
        )
        self.longest = longest = max(t.length for t in map_data.tracks)
        self.where = {index: (g[-1], pos) for g in self.groups for pos, (index, _, _) in enumerate(g[4])}
        self.every_position = tuple(tuple(range(len(g[4]))) for g in self.groups)
        span = range(longest + 1)

        def reach(color, cards: int, locos: int) -> int:
            mask = 0
            for g in self.groups:
                rules = g[3]
                if g[0] == color and (
                    rules is None and cards + locos >= g[1] and locos >= g[2] or rules is COLORED_ONLY and cards >= g[1]
                ):
                    mask |= 1 << g[-1]
            return mask

        colored = [[[reach(c, n, k) for k in span] for n in span] for c in range(LOCO)]
        other = sum(1 << g[-1] for g in self.groups if g[3] is not None and g[3] is not COLORED_ONLY)
        gray = [[other | reach(None, n, k) for k in span] for n in span]
        self.trains = tuple(sum(1 << g[-1] for g in self.groups if g[1] <= t) for t in span)
        cap = [n if n < longest else longest for n in range(_HAND_COUNTS)]
        self.by_locos = tuple(
            tuple(tuple(table[cap[n]][cap[k]] for n in range(_HAND_COUNTS)) for table in (*colored, gray))
            for k in range(_HAND_COUNTS)
        )


@cache
def _claim_listing(map_data: MapData, card_rules: tuple) -> _ClaimListing:
    return _ClaimListing(map_data, card_rules)


def _claim_columns(tracks: tuple, made: dict, options: list) -> list[tuple]:
    """Per payment option, its Claim for every track of the group (each built once: `made`)."""
    columns = []
    for option in options:
        column = made.get(option)
        if column is None:
            column = made[option] = tuple(Claim(tid, *option) for _, tid, _ in tracks)
        columns.append(column)
    return columns


#: The moves that carry no choice, built once (actions are immutable values).
_DRAW_MARKET = tuple(DrawMarket(slot) for slot in range(MARKET_SIZE))
_DRAW_DECK = DrawDeck()
_DRAW_TICKETS = DrawTickets()

#: Events are immutable values too: the ones most moves make (a few hundred different ones per
#: map: seats, card kinds, market slots) are each made once, a lookup instead of a constructor.
_turn_started = cache(TurnStarted)
_card_drawn = cache(CardDrawn)
_market_refilled = cache(MarketRefilled)


@cache
def _station_builds(map_data: MapData) -> dict:
    """Per station payment met on the map, its BuildStation for every city."""
    return {}


def _json_copy(value):
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than copy.deepcopy."""
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    return value


def _illegal(template: str, /, **params: object) -> IllegalActionError:
    return IllegalActionError(template, **params)


class Game:
    """One game of Ticket to Ride. Create with `Game.new(...)`, replay with `Game.replay(...)`."""

    # Slots, not an instance dict: a game has more attributes than CPython 3.11 keeps in a shared-key
    # dict (30), past which every `self.x` is a slower dict lookup; a random game reads thousands.
    __slots__ = (
        "map", "seats", "seed", "options", "deck_rules", "hooks", "returned_policy", "log", "public_log",
        "shuffles", "deck", "discard", "market", "hands", "ticket_deck", "ticket_discard", "tickets", "offers",
        "offer_keep", "owner", "station_owner", "stations", "trains", "stations_left", "score", "left", "phase",
        "first", "current", "round", "resume", "stage", "tunnel", "last_round", "passes", "undoable", "decisions",
        "end_reason", "_final", "last_action", "_doubles_open", "_free_owner", "_free", "_free_mask",
        "_stations_free", "_free_locos", "track_rules", "_unmixed", "_listing", "__weakref__",
    )  # fmt: skip

    def __init__(self, map_data: MapData, seats: int, seed: int, options: GameOptions) -> None:
        if not 2 <= seats <= map_data.rules.max_players:
            raise SeatCountError(
                "a game on the {map} map has 2 to {most} seats, not {seats}",
                map=MapRef(map_data.name),
                most=map_data.rules.max_players,
                seats=seats,
            )
        self.map = map_data
        self.seats = seats
        self.seed = seed
        self.options = options
        deck_id = options.deck or map_data.rules.default_deck
        if deck_id not in map_data.rules.decks:
            raise UnknownDeckError(
                "the {map} map has no ticket deck {deck!r} (its decks: {decks})",
                map=MapRef(map_data.name),
                deck=deck_id,
                decks=", ".join(map_data.rules.decks),
            )
        if options.returned_tickets not in (None, "box", "bottom"):
            raise OptionValueError(
                "returned tickets go to the box or to the bottom of the deck, not {value!r}",
                value=options.returned_tickets,
            )
        if options.first_seat is not None and not (
            isinstance(options.first_seat, int) and 0 <= options.first_seat < seats
        ):
            raise OptionValueError(
                "the first player is one of the {seats} seats, not seat {seat}",
                seats=seats,
                seat=options.first_seat + 1 if isinstance(options.first_seat, int) else options.first_seat,
            )
        self.deck_rules = map_data.rules.decks[deck_id]
        self.hooks = hooks_for(map_data.rules.hooks)
        self.hooks.configure(self)  # validates options.variants (VariantError)
        self.returned_policy = options.returned_tickets or self.deck_rules.returned
        self.log: list[tuple[int | None, Action]] = []
        #: Per log entry (seat, action, engine.view.public_context), or (seat, action) when that is None.
        self.public_log: list[tuple] = []
        self.shuffles = 0
        # Cards. Lists are used as stacks: the top of a deck is its last element.
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.market: list[int] = [-1] * MARKET_SIZE
        self.hands: list[list[int]] = [[0] * self.hooks.card_kinds for _ in range(seats)]
        # Tickets.
        self.ticket_deck: list[int] = []
        self.ticket_discard: list[int] = []  # face-up pile of maps whose returned tickets go there
        self.tickets: list[list[int]] = [[] for _ in range(seats)]
        self.offers: list[list[int]] = [[] for _ in range(seats)]
        self.offer_keep: list[int] = [0] * seats
        # Board and players.
        self.owner: list[int] = [-1] * len(map_data.tracks)
        self.station_owner: dict[int, int] = {}
        self.stations: list[list[int]] = [[] for _ in range(seats)]
        self.trains: list[int] = [map_data.rules.trains] * seats
        self.stations_left: list[int] = [map_data.rules.stations] * seats
        self.score: list[int] = [0] * seats
        self.left: list[str | None] = [None] * seats  # None, "resigned" or "removed"
        # Turn state.
        self.phase = CHOOSING
        self.first = 0
        self.current = 0
        self.round = 1  # rounds of turns, from the first turn on
        self.resume: int | None = None  # seat whose turn ended while a hook's between-rounds decision waits
        self.stage: Stage | None = None
        self.tunnel: dict | None = None
        self.last_round: list[int] | None = None  # seats still owed their final turn
        self.passes = 0
        self.undoable = False  # the last action may be taken back (Undo)
        self.decisions: list[int] = [0] * seats  # log length when each seat's decision began
        self.end_reason: Termination | None = None
        self.final: list | None = None
        self.last_action: tuple[int | None, Action] | None = None
        self._doubles_open = self.hooks.doubles_open(self)
        self._free_owner: list[int] | None = None  # the owner list `_free` was built from
        self._free: list[tuple[int, ...]] = []
        self._free_mask = 0
        self._stations_free: tuple | None = None  # (station_owner, its size, cities free, columns)
        self._card_rules()

    def _card_rules(self) -> None:
        """Per track: None when docs/rules.md §1/§3 payments apply, else the map's card rules
        (locomotives usable, ferry substitute, substitute) from the hooks and the track data."""
        hooks = self.hooks
        self._free_locos = hooks.free_locomotive_draws
        rules = []
        for t in self.map.tracks:
            locos_ok = hooks.locomotives_usable(t)
            ferry_sub = hooks.ferry_substitute if t.ferry else 0
            rules.append(
                None if locos_ok and not ferry_sub and not t.substitute else (locos_ok, ferry_sub, t.substitute)
            )
        self.track_rules = rules
        #: Tunnels paid with one color or with locomotives only (docs/rules.md §6.4, Nordic Countries).
        self._unmixed = frozenset(t.index for t in self.map.tracks if t.tunnel and hooks.unmixed_tunnels)
        # Tracks paid with colored cards only (no locomotives, no substitutes) share the core's
        # fast payment listing, given a hand without its locomotives.
        self._listing = _claim_listing(
            self.map,
            tuple(
                [
                    UNMIXED if i in self._unmixed else COLORED_ONLY if r == (False, 0, 0) else r
                    for i, r in enumerate(rules)
                ]
            ),
        )

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, map_id: str | MapData, seats: int, seed: int, options: GameOptions | None = None) -> Game:
        map_data = load_map(map_id) if isinstance(map_id, str) else map_id
        game = cls(map_data, seats, seed, options or GameOptions())
        game._setup()
        return game

    @classmethod
    def replay(
        cls,
        map_id: str | MapData,
        seats: int,
        seed: int,
        options: GameOptions | None,
        log: list[tuple[int | None, Action]],
    ) -> Game:
        """Rebuild a game from its seed and action log (raises if the log is not legal)."""
        game = cls.new(map_id, seats, seed, options)
        for seat, action in log:
            game.apply(seat, action)
        return game

    def rng(self, purpose: str) -> random.Random:
        self.shuffles += 1
        return random.Random(f"{self.seed}:{purpose}:{self.shuffles}")

    def _setup(self) -> None:
        """docs/rules.md §1 setup order: shuffle, deal 4 each, turn 5 face up, deal tickets."""
        cards = self.hooks.train_deck(self)
        self.rng("cards").shuffle(cards)
        self.deck = cards
        for _ in range(START_HAND):
            for hand in self.hands:
                hand[self.deck.pop()] += 1
        for slot in range(MARKET_SIZE):
            self.market[slot] = self.deck.pop()
        self._check_market([])
        m, d = self.map, self.deck_rules
        regular = [i for i in d.tickets if not (d.start_long and m.ticket_by_id[i].long)]
        longs = [i for i in d.tickets if d.start_long and m.ticket_by_id[i].long]
        self.rng("tickets").shuffle(regular)
        if longs:
            self.rng("long-tickets").shuffle(longs)
        else:  # nothing to shuffle: only the count, which seeds the later shuffles, moves on
            self.shuffles += 1
        self.ticket_deck = regular
        for seat in range(self.seats):
            offer = [longs.pop() for _ in range(d.start_long)]
            offer += [self.ticket_deck.pop() for _ in range(min(d.start_deal, len(self.ticket_deck)))]
            self.offers[seat] = offer
            self.offer_keep[seat] = min(d.start_keep, len(offer))
        # The long tickets not dealt go back to the box unseen (docs/rules.md §3).
        self.first = (
            self.options.first_seat if self.options.first_seat is not None else self.rng("first").randrange(self.seats)
        )
        self.current = self.first
        self.hooks.after_setup(self)

    # ------------------------------------------------------------------ queries

    @property
    def rules_version(self) -> int:
        return RULES_VERSION

    def is_over(self) -> bool:
        return self.phase is OVER

    def outcome(self) -> Outcome | None:
        """The result once the game is over (why it ended, scores, ranking, winners), else None."""
        if self.phase is not OVER:
            return None
        return Outcome(Termination(self.end_reason), tuple(self.final))

    @property
    def version(self) -> int:
        """The staleness token: the number of logged actions (Undo entries included). It changes with
        every applied action and only then, so anything made against one state (a message's
        buttons, an undo request, a stored row) is stale once it differs (docs/engine.md)."""
        return len(self.log)

    def active_seats(self) -> list[int]:
        return [s for s in range(self.seats) if self.left[s] is None]

    def to_move(self) -> list[int]:
        """Seats whose decision the game is waiting for (several while choosing tickets)."""
        phase = self.phase
        if phase is PLAYING:  # (the common case first: one comparison)
            return [self.current]
        if phase is CHOOSING:
            hooks = self.hooks
            return [
                s for s in range(self.seats) if (self.offers[s] or hooks.choosing(self, s)) and self.left[s] is None
            ]
        return []

    @property
    def final(self) -> list | None:
        """The final scores (PlayerScore per seat) once the game is over, else None. Scored at
        the end of the game, or for a restored finished game when first read: restoring one
        (an undo, a view, a move refused) does not score it again."""
        if self._final is None and self.phase is OVER:
            self._final = final_scores(self)
        return self._final

    @final.setter
    def final(self, scores: list | None) -> None:
        self._final = scores

    def decision_token(self, seat: int) -> int:
        """The `version` at which `seat`'s pending decision began: changes when that decision is
        resolved or replaced, and not when another seat acts elsewhere."""
        return self.decisions[seat]

    def turn_token(self, seat: int) -> int:
        """The `version` at which `seat`'s current turn began: the steps of one turn (a second card, a
        tunnel payment, a ticket choice) keep it; the starting ticket choice is turn 0. For turn clocks."""
        if self.phase is CHOOSING:
            return 0
        n = len(self.log)
        while n and self.log[n - 1][0] == seat:
            n -= 1
        return n

    def track(self, track_id: str) -> Track:
        try:
            return self.map.track_by_id[track_id]
        except KeyError:
            raise _illegal(
                "there is no track {track!r} on the {map} map", track=track_id, map=MapRef(self.map.name)
            ) from None

    def _card_total(self) -> int:
        """All train cards wherever they are (110 when conserved)."""
        held = sum(sum(h) for h in self.hands)
        market = sum(1 for c in self.market if c >= 0)
        tunnel = 0
        if self.tunnel:
            tunnel = sum(self.tunnel["paid"]) + len(self.tunnel["revealed"])
        return len(self.deck) + len(self.discard) + market + held + tunnel

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int, collapse_payments: bool = False) -> list[Action]:
        """Every game move `seat` may make now (not Resign, which is always allowed).

        With `collapse_payments`, claims and stations list one payment per color (fewest
        locomotives), as most engines enumerate moves.
        """
        phase = self.phase
        if phase is not PLAYING or seat != self.current or self.left[seat] is not None:
            if phase is not CHOOSING or self.left[seat] is not None:  # (over, another's turn, or left)
                return []
            if self.hooks.choosing(self, seat):
                return self.hooks.choosing_actions(self, seat)
            return self._keep_choices(seat)
        stage = self.stage
        if stage is None:
            return self._turn_start_actions(seat, collapse_payments)
        if stage is SECOND_CARD:
            return self._second_card_actions()
        if stage is TICKETS:
            return self._keep_choices(seat)
        if stage in self.hooks.stages:
            return self.hooks.stage_actions(self, seat)
        tunnel = self.tunnel
        hand = self.hands[seat]
        actions: list[Action] = [PayTunnel(k) for k in surcharge_options(hand, tunnel["surcharge"], tunnel["color"])]
        actions.append(DeclineTunnel())
        return actions

    def payable_claims(self, seat: int) -> list[Claim]:
        """The claims `seat`'s hand and trains could pay for now, whoever's turn it is (one
        payment per color): what a player's own board shows while others play."""
        if self.phase is not PLAYING or self.left[seat] is not None:
            return []
        return [a for a in self._turn_start_actions(seat, True) if isinstance(a, Claim)]

    def _keep_choices(self, seat: int) -> list[Action]:
        offer = sorted(self.offers[seat])
        out: list[Action] = []
        for size in range(self.offer_keep[seat], len(offer) + 1):
            out.extend(KeepTickets(ids) for ids in combinations(offer, size))
        return out

    def _can_draw_blind(self) -> bool:
        return bool(self.deck or self.discard)

    def _can_draw_second(self) -> bool:
        """Whether `_second_card_actions` lists anything (without building the list)."""
        free = self._free_locos
        return bool(self.deck or self.discard) or any(c >= 0 and (free or c != LOCO) for c in self.market)

    def _second_card_actions(self) -> list[Action]:
        free = self._free_locos
        market = self.market
        if -1 in market:
            actions: list[Action] = [_DRAW_MARKET[i] for i, c in enumerate(market) if c >= 0 and (free or c != LOCO)]
        elif free or LOCO not in market:
            actions = list(_DRAW_MARKET)
        else:
            actions = [_DRAW_MARKET[i] for i, c in enumerate(market) if c != LOCO]
        if self._can_draw_blind():
            actions.append(_DRAW_DECK)
        return actions

    def _turn_start_actions(self, seat: int, collapse: bool) -> list[Action]:
        if self.hooks.lists_turns:
            return self.hooks.turn_actions(self, seat, collapse)
        market = self.market
        if -1 in market:
            actions: list[Action] = [_DRAW_MARKET[i] for i, c in enumerate(market) if c >= 0]
        else:
            actions = list(_DRAW_MARKET)
        if self.deck or self.discard:
            actions.append(_DRAW_DECK)
        if self.ticket_deck or (self.ticket_discard and self.returned_policy == "discard"):
            actions.append(_DRAW_TICKETS)
        hand = self.hands[seat]
        locos = hand[LOCO]
        trains = self.trains[seat]
        owner = self.owner
        open_ = self._doubles_open
        no_locos = None
        # Only the groups with a free track that something in the hand may pay for, in group order.
        listing = self._listing
        longest = listing.longest
        try:
            row = listing.by_locos[locos]
            mask = (
                row[0][hand[0]]
                | row[1][hand[1]]
                | row[2][hand[2]]
                | row[3][hand[3]]
                | row[4][hand[4]]
                | row[5][hand[5]]
                | row[6][hand[6]]
                | row[7][hand[7]]
                | row[8][max(hand[:LOCO])]
            )
        except IndexError:  # more cards of a kind than the tables count: their counts capped
            capped = [n if n < longest else longest for n in hand]
            row = listing.by_locos[capped[LOCO]]
            mask = row[8][max(capped[:LOCO])]
            for c in range(LOCO):
                mask |= row[c][capped[c]]
        held = None
        self._free_positions()
        mask &= listing.trains[trains if trains < longest else longest] & self._free_mask
        free = self._free
        groups = listing.groups
        while mask:
            low = mask & -mask
            mask ^= low
            color, length, ferry, card_rules, tracks, doubles, colored, made, number = groups[low.bit_length() - 1]
            positions = free[number]
            if color is not None and (card_rules is None or card_rules is COLORED_ONLY):
                # A colored group's Claim columns are ready for each payment situation met: two
                # counts of the hand (beyond the length they pay nothing more; no locomotives
                # count where they may not pay).
                have = hand[color]
                usable = locos if card_rules is None else 0
                key = (have if have < length else length) * 64 + (usable if usable < length else length) * 2 + collapse
                columns = colored.get(key)
                if columns is None:
                    if card_rules is not None and no_locos is None:
                        no_locos = hand[:LOCO] + [0]
                    columns = colored[key] = _claim_columns(
                        tracks,
                        made,
                        payment_options(hand if card_rules is None else no_locos, length, color, ferry, collapse),
                    )
            else:
                # Other groups meet too many payment situations to key them by a few counts: their
                # columns come from the payments met, one lookup per payment.
                if card_rules is None:  # gray: docs/rules.md §1/§3 payments (every USA, Europe and Nederland track)
                    if collapse:
                        if held is None:
                            held = held_colors(hand)
                        options = any_color_options(held, locos, length, ferry)
                    else:
                        options = payment_options(hand, length, color, ferry)
                elif card_rules is COLORED_ONLY:
                    if no_locos is None:
                        no_locos = hand[:LOCO] + [0]
                    options = payment_options(no_locos, length, color, ferry, collapse)
                elif card_rules is UNMIXED:
                    options = unmixed_options(payment_options(hand, length, color, ferry), length, collapse)
                else:
                    options = self._extended_options(hand, length, color, ferry, card_rules, collapse)
                columns = _claim_columns(tracks, made, options)
            if columns:
                for pos in positions:  # per free track, its Claim per payment
                    double = doubles[pos]
                    if double is None or (partner := owner[double]) < 0 or (open_ and partner != seat):
                        for column in columns:
                            actions.append(column[pos])
        if self.stations_left[seat]:
            cost = self.map.rules.station_costs[len(self.stations[seat])]
            options = payment_options(hand, cost, None, 0, collapse)
            if options:
                columns = self._station_columns(options)
                if len(columns) == 1:
                    actions += columns[0]
                else:  # per free city, each payment
                    actions.extend(chain.from_iterable(zip(*columns)))
        if not actions:
            actions.append(Pass())
        return actions

    def _free_positions(self) -> list[tuple[int, ...]]:
        """Per claim group of `_listing`, the positions of its unowned tracks, in group order, and
        `_free_mask`, the bit set of the groups with one: kept up to date by `track_claimed`,
        rebuilt whenever `owner` is another list (`from_json`)."""
        if self._free_owner is not self.owner:
            owner = self.owner
            if max(owner) < 0:  # a new game: every track free
                self._free = list(self._listing.every_position)
            else:
                self._free = [
                    tuple(pos for pos, (index, _, _) in enumerate(g[4]) if owner[index] < 0)
                    for g in self._listing.groups
                ]
            self._free_mask = sum(1 << number for number, positions in enumerate(self._free) if positions)
            self._free_owner = owner
        return self._free

    def _station_columns(self, options: list) -> list[tuple]:
        """Per payment of `options`, its BuildStation for every city without a station, in city
        order: kept per game until a station is built (each BuildStation made once per map)."""
        owners = self.station_owner
        kept = self._stations_free
        if kept is None or kept[0] is not owners or kept[1] != len(owners):
            free = tuple(i for i in range(len(self.map.cities)) if i not in owners)
            kept = self._stations_free = (owners, len(owners), free, {})
        columns = kept[3]
        out = []
        for option in options:
            column = columns.get(option)
            if column is None:
                made = _station_builds(self.map)
                every = made.get(option)
                if every is None:
                    every = made[option] = tuple(BuildStation(city.id, *option) for city in self.map.cities)
                column = columns[option] = tuple(every[i] for i in kept[2])
            out.append(column)
        return out

    def track_claimed(self, index: int) -> None:
        """Call after setting `owner[index]` outside a move (the engine's claims do), to an owner
        or back to -1: the move listing keeps each claim group's free tracks."""
        if self._free_owner is self.owner:
            number, pos = self._listing.where[index]
            positions = self._free[number]
            at = bisect_left(positions, pos)  # (positions are sorted)
            taken = at < len(positions) and positions[at] == pos
            if self.owner[index] >= 0 and taken:
                positions = positions[:at] + positions[at + 1 :]
            elif self.owner[index] < 0 and not taken:
                positions = (*positions[:at], pos, *positions[at:])
            self._free[number] = positions
            if positions:
                self._free_mask |= 1 << number
            else:
                self._free_mask &= ~(1 << number)

    @staticmethod
    def _extended_options(
        hand: list[int], length: int, color: int | None, ferry: int, card_rules: tuple, collapse: bool
    ) -> list:
        locos_ok, ferry_sub, substitute = card_rules
        return extended_payment_options(
            hand, length, color, ferry, locos_ok=locos_ok, ferry_sub=ferry_sub, substitute=substitute, collapse=collapse
        )

    def track_payments(self, seat: int, track: Track) -> list[tuple[int | None, int, tuple[int, ...]]]:
        """Every payment (color, locos, subs) `seat`'s hand has for `track` under this map's card
        rules, whether or not the track is free: the parser fills in defaults from these and an
        error names one of them."""
        hand = self.hands[seat]
        card_rules = self.track_rules[track.index]
        if card_rules is not None:
            return self._extended_options(hand, track.length, track.color, track.ferry, card_rules, False)
        options = payment_options(hand, track.length, track.color, track.ferry)
        if track.index in self._unmixed:
            options = unmixed_options(options, track.length)
        return [(c, k, ()) for c, k in options]

    def check(self, seat: int | None, action: Action) -> None:
        """Raise the IllegalActionError that `apply` would raise (naming why), or return."""
        self._check(seat, action)

    @property
    def doubles_open(self) -> bool:
        """Whether both tracks of a double route may be claimed in this game."""
        return self._doubles_open

    def is_legal(self, seat: int | None, action: Action) -> bool:
        try:
            self._check(seat, action)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply `action` by `seat` (None: the table). Raises IllegalActionError, changing nothing."""
        core = self._check(seat, action)
        events: list[Event] = []
        before_current, before_phase = self.current, self.phase
        context = public_context(self, action)
        if core is None:
            self.hooks.apply_action(self, seat, action, events)
        else:
            core(self, seat, action, events)
        entry = (seat, action)  # one tuple for the log and `last_action`, and the public log without context
        log = self.log
        log.append(entry)
        self.last_action = entry
        version = len(log)
        self.public_log.append(entry if context is None else (seat, action, context))
        if seat is not None:
            self.decisions[seat] = version
        if self.phase is PLAYING and (
            self.current != before_current or before_phase is not PLAYING or seat == self.current
        ):
            self.decisions[self.current] = version
        turn_over = self.stage is None or self.resume is not None  # (a between-rounds decision may follow)
        if turn_over and core is not None and type(action) not in _NOT_ACTING:
            self.passes = 0
        self.undoable = isinstance(action, (Claim, BuildStation)) and _UNDOABLE_EVENTS.issuperset(map(type, events))
        return events

    # --- validation (no mutation) ---

    def _check(self, seat: int | None, action: Action) -> Callable | None:
        """Raise the IllegalActionError for `action`, or return its core effect (None: the hook's)."""
        kind = type(action)
        if kind in self.hooks.action_types:
            checker, core = self.hooks.check_action, None
        else:
            try:
                checker, core = _CORE[kind]
            except KeyError:
                raise _illegal("{action!r} is not an action of this game", action=action) from None
        if self.phase is OVER:
            raise _illegal("the game is over")
        if isinstance(action, (Skip, Remove)):
            if seat is not None and isinstance(action, Skip):
                raise _illegal("only the table (host or timeout) may skip a seat")
            if seat is not None:
                raise _illegal("only the table (host or timeout) may remove a seat")
        else:
            if seat is None or not 0 <= seat < self.seats:
                raise _illegal("seat {seat} is not a seat of this game", seat=seat)
            if self.left[seat] is not None:
                raise _illegal("{seat} has left the game", seat=SeatRef(seat))
        checker(self, seat, action)  # core: Game._check_x(self, ...); hook: hooks.check_action(game, ...)
        return core

    def check_turn(self, seat: int, stage: str | None, action: Action) -> None:
        if self.phase is CHOOSING:
            raise _illegal(_WAITING[type(action)])
        if seat != self.current:
            raise _illegal("it is {current}'s turn, not yours", current=SeatRef(self.current))
        if self.stage is not stage:
            raise self._stage_error()

    def _stage_error(self) -> IllegalActionError:
        """What the seat to move must do first at this stage of its turn."""
        if self.stage in self.hooks.stages:
            return self.hooks.stage_error(self)
        if self.stage is None:
            return _illegal(
                "this is the start of your turn: draw cards, claim a route, draw tickets or build a station"
            )
        if self.stage is SECOND_CARD:
            return _illegal("draw your second card first (a face-up locomotive is not allowed now)")
        if self.stage is TUNNEL:
            return _illegal("decide on the tunnel first: pay the extra cards or decline")
        return _illegal("choose which tickets to keep first")

    def _check_draw_deck(self, seat: int, action: DrawDeck) -> None:
        self.check_turn(seat, self.stage if self.stage in (None, SECOND_CARD) else None, action)
        if not self._can_draw_blind():
            raise _illegal("the deck and the discard pile are both empty: take a face-up card or do something else")

    def _check_draw_market(self, seat: int, action: DrawMarket) -> None:
        self.check_turn(seat, self.stage if self.stage in (None, SECOND_CARD) else None, action)
        if not 0 <= action.slot < MARKET_SIZE:
            raise _illegal(
                "there is no face-up card {slot}; the market has 1 to {size}", slot=action.slot + 1, size=MARKET_SIZE
            )
        card = self.market[action.slot]
        if card < 0:
            raise _illegal("face-up slot {slot} is empty", slot=action.slot + 1)
        if self.stage is SECOND_CARD and card == LOCO and not self._free_locos:
            raise _illegal("a face-up locomotive cannot be your second card")

    def _check_claim(self, seat: int, action: Claim) -> None:
        self.check_turn(seat, None, action)
        t = self.track(action.track)
        if self._claim_error(seat, action, t, None) is not None:  # the route's name only for the error
            raise self._claim_error(seat, action, t, route_ref(self.map, t))

    def _claim_error(self, seat: int, action: Claim, t: Track, route: object) -> IllegalActionError | None:
        """Why `seat` may not claim `t` with `action`'s payment (naming the route as `route`), or None."""
        owner = self.owner[t.index]
        if owner >= 0:
            return self.hooks.taken_error(self, route, owner)
        if t.double is not None:
            partner = self.owner[t.double]
            if partner == seat:
                return _illegal("you own the other track of {route}; one player never owns both", route=route)
            if partner >= 0 and not self._doubles_open:
                return _illegal(
                    "the other track of {route} is taken and with {players} players only one track of a "
                    "double route is used",
                    route=route,
                    players=self.seats,
                )
        if t.length > self.trains[seat]:
            return _illegal(
                "{route} needs {length} trains and you have {left} left",
                route=route,
                length=t.length,
                left=self.trains[seat],
            )
        card_rules = self.track_rules[t.index]
        if card_rules is None:
            if action.subs:
                return _illegal("{what} takes no substitute cards", what=route)
            error = payment_error(self.hands[seat], t.length, t.color, t.ferry, action.color, action.locos, route)
        else:
            locos_ok, ferry_sub, substitute = card_rules
            error = extended_payment_error(
                self.hands[seat],
                t.length,
                t.color,
                t.ferry,
                action.color,
                action.locos,
                tuple(action.subs),
                route,
                locos_ok=locos_ok,
                ferry_sub=ferry_sub,
                substitute=substitute,
                no_locos=self.hooks.locomotive_error,
            )
        if error is None and t.index in self._unmixed and 0 < action.locos < t.length:
            error = _illegal(
                "{route} is a tunnel: on the {map} map pay for it with cards of one color or with "
                "locomotives only, not both",
                route=route,
                map=MapRef(self.map.name),
            )
        if isinstance(error, CardsShortError):
            error = self.better_payment(
                seat,
                error,
                action.color,
                self.track_payments(seat, t),
                route,
                lambda c, k, subs: Claim(t.id, c, k, subs),
            )
        return error

    def better_payment(
        self, seat: int, error: CardsShortError, color: int | None, payments: list, what: object, make: Callable
    ) -> IllegalActionError:
        """A payment the hand lacks cards for, when another payment works: name that one (in
        notation, which the player can type), preferring the color asked for and few locomotives."""
        if not payments:
            return error
        c, k, subs = min(payments, key=lambda p: (p[0] != color, p[0] is None, len(p[2]), p[1], p[0] or 0))
        fix = format_action(self.map, make(c, k, subs))
        if color is not None and not self.hands[seat][color]:
            return _illegal(
                "you have no {color} cards: {fix} would pay for {what}", color=CardRef(color), fix=fix, what=what
            )
        return _illegal("your cards do not make that payment for {what}: {fix} would pay", what=what, fix=fix)

    def _check_tickets(self, seat: int, action: DrawTickets) -> None:
        self.check_turn(seat, None, action)
        if not self.ticket_deck and not (self.ticket_discard and self.returned_policy == "discard"):
            raise _illegal("no destination tickets are left to draw")

    def _check_keep(self, seat: int, action: KeepTickets) -> None:
        if self.phase is PLAYING:
            self.check_turn(seat, TICKETS, action)
        elif not self.offers[seat]:
            raise _illegal("you have already chosen your starting tickets")
        offer = self.offers[seat]
        ids = action.ids
        unknown = [i for i in ids if i not in offer]
        if unknown:
            offered = ListRef(tuple(sorted(offer)))
            if len(unknown) > 1:
                raise _illegal(
                    "tickets {tickets} are not among the tickets offered to you ({offered})",
                    tickets=ListRef(tuple(unknown)),
                    offered=offered,
                )
            raise _illegal(
                "ticket {ticket} is not among the tickets offered to you ({offered})",
                ticket=unknown[0],
                offered=offered,
            )
        if len(set(ids)) != len(ids):
            raise _illegal("each ticket can be kept only once")
        if len(ids) < self.offer_keep[seat]:
            raise _illegal(
                "keep at least {keep} of the {offered} tickets", keep=self.offer_keep[seat], offered=len(offer)
            )

    def _check_station(self, seat: int, action: BuildStation) -> None:
        self.check_turn(seat, None, action)
        if not self.map.rules.stations:
            raise _illegal("the {map} map has no stations", map=MapRef(self.map.name))
        city = self.map.city_by_id.get(action.city)
        if city is None:
            raise _illegal("there is no city {city!r} on the {map} map", city=action.city, map=MapRef(self.map.name))
        if not self.stations_left[seat]:
            raise _illegal("you have built all your stations")
        if city.index in self.station_owner:
            raise _illegal(
                "{city} already has a station ({owner})",
                city=CityRef(city.index, city.name),
                owner=SeatRef(self.station_owner[city.index]),
            )
        built = len(self.stations[seat])
        what = phrase(N_("your station no. {number}"), number=built + 1)
        cost = self.map.rules.station_costs[built]
        error = payment_error(self.hands[seat], cost, None, 0, action.color, action.locos, what)
        if isinstance(error, CardsShortError):
            payments = [(c, k, ()) for c, k in payment_options(self.hands[seat], cost, None, 0)]
            error = self.better_payment(
                seat, error, action.color, payments, what, lambda c, k, subs: BuildStation(city.id, c, k)
            )
        if error:
            raise error

    def _check_pay_tunnel(self, seat: int, action: PayTunnel) -> None:
        self.check_turn(seat, TUNNEL, action)
        tunnel = self.tunnel
        options = surcharge_options(self.hands[seat], tunnel["surcharge"], tunnel["color"])
        if action.locos in options:
            return
        n, color = tunnel["surcharge"], tunnel["color"]
        if color is not None:
            if not options:
                raise _illegal(
                    "you cannot pay the tunnel's extra {n} {color} or locomotive cards: decline instead",
                    n=n,
                    color=CardRef(color),
                )
            raise _illegal(
                "the tunnel's extra cost is {n} {color} or locomotive cards; pay with {options} locomotives",
                n=n,
                color=CardRef(color),
                options=ListRef(tuple(options), "or"),
            )
        if not options and n == 1:
            raise _illegal("you cannot pay the tunnel's extra {n} locomotive: decline instead", n=n)
        if not options:
            raise _illegal("you cannot pay the tunnel's extra {n} locomotives: decline instead", n=n)
        if n == 1:
            raise _illegal(
                "the tunnel's extra cost is {n} locomotive; pay with {options} locomotives",
                n=n,
                options=ListRef(tuple(options), "or"),
            )
        raise _illegal(
            "the tunnel's extra cost is {n} locomotives; pay with {options} locomotives",
            n=n,
            options=ListRef(tuple(options), "or"),
        )

    def _check_decline(self, seat: int, action: DeclineTunnel) -> None:
        self.check_turn(seat, TUNNEL, action)

    def _check_pass(self, seat: int, action: Pass) -> None:
        self.check_turn(seat, None, action)
        if any(not isinstance(a, Pass) for a in self._turn_start_actions(seat, True)):
            raise _illegal("you can only pass when you have no other move")

    def _check_skip(self, seat: None, action: Skip) -> None:
        if self.phase is not PLAYING:
            raise _illegal("there is no turn to skip while players choose their starting tickets")

    def _check_undo(self, seat: int, action: Undo) -> None:
        if not self.log or self.log[-1][0] != seat or not self.undoable:
            raise _illegal(
                "only your own last move can be taken back, right after it, and only a route or a "
                "station that revealed no card"
            )

    def _apply_undo(self, seat: int, action: Undo, events: list[Event]) -> None:
        """Rebuild the state by replaying the effective log without its last action."""
        kept = effective_log(self.log)[:-1]
        fresh = Game.new(self.map, self.seats, self.seed, self.options)
        for entry_seat, entry in kept:
            fresh.apply(entry_seat, entry)
        for name in Game.__slots__[:-1]:  # (not __weakref__)
            if name not in ("log", "public_log"):
                setattr(self, name, getattr(fresh, name))
        events.append(_turn_started(self.current))

    def _check_resign(self, seat: int, action: Resign) -> None:
        pass

    def _check_remove(self, seat: None, action: Remove) -> None:
        if not 0 <= action.seat < self.seats:
            raise _illegal("seat {seat} is not a seat of this game", seat=action.seat + 1)
        if self.left[action.seat] is not None:
            raise _illegal("{seat} has already left", seat=SeatRef(action.seat))

    # --- effects ---

    def _draw_card(self, events: list[Event]) -> int | None:
        """Top card of the deck, reshuffling the discard when the deck is empty (docs/rules.md §1)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng("reshuffle").shuffle(self.deck)
            events.append(DeckReshuffled(len(self.deck)))
        return self.deck.pop()

    def _refill(self, slot: int, events: list[Event]) -> None:
        card = self.deck.pop() if self.deck else self._draw_card(events)
        market = self.market
        market[slot] = -1 if card is None else card
        events.append(_market_refilled(slot, card))
        if market.count(LOCO) >= 3:
            self._check_market(events)

    def _check_market(self, events: list[Event]) -> None:
        """3+ face-up locomotives: discard all five and deal five (at most 3 times in a row)."""
        if not self.hooks.market_resets:
            return
        for _ in range(MAX_MARKET_RESETS):
            if self.market.count(LOCO) < 3:
                return
            if len(self.deck) - self.deck.count(LOCO) + len(self.discard) - self.discard.count(LOCO) < 3:
                return
            old = tuple(c for c in self.market if c >= 0)
            self.discard.extend(old)
            for slot in range(MARKET_SIZE):
                card = self._draw_card(events)
                self.market[slot] = -1 if card is None else card
            events.append(MarketReset(old, tuple(None if c < 0 else c for c in self.market)))

    def _apply_draw_deck(self, seat: int, action: DrawDeck, events: list[Event]) -> None:
        card = self.deck.pop() if self.deck else self._draw_card(events)
        self.hands[seat][card] += 1
        events.append(_card_drawn(seat, card, None))
        self._after_card(seat, False, events)

    def _apply_draw_market(self, seat: int, action: DrawMarket, events: list[Event]) -> None:
        card = self.market[action.slot]
        self.hands[seat][card] += 1
        events.append(_card_drawn(seat, card, action.slot))
        self._refill(action.slot, events)
        self._after_card(seat, card == LOCO and not self._free_locos, events)

    def _after_card(self, seat: int, face_up_loco: bool, events: list[Event]) -> None:
        if self.stage is SECOND_CARD or face_up_loco:
            self.end_turn(events)
            return
        self.stage = SECOND_CARD
        if not self._can_draw_second():  # only one card could be drawn: the turn ends
            self.end_turn(events)

    def _pay(self, seat: int, color: int | None, locos: int, count: int, subs: tuple[int, ...] = ()) -> list[int]:
        """Take `count` cards (`locos` of them locomotives) and the substitute cards out of the
        hand; returns the counts paid by card kind."""
        paid = [0] * self.hooks.card_kinds
        hand = self.hands[seat]
        if color is not None and count > locos:
            paid[color] = count - locos
            hand[color] -= count - locos
        paid[LOCO] = locos
        hand[LOCO] -= locos
        for c in subs:
            paid[c] += 1
            hand[c] -= 1
        return paid

    def discard_cards(self, counts: list[int]) -> None:
        discard = self.discard
        for kind, n in enumerate(counts):
            if n:
                discard += [kind] * n

    def _apply_claim(self, seat: int, action: Claim, events: list[Event]) -> None:
        t = self.map.track_by_id[action.track]
        subs = action.subs
        covered = t.length
        if subs:  # each set of substitute cards stands for one card of the route
            covered -= len(subs) // (self.hooks.ferry_substitute if t.ferry else t.substitute)
        color = action.color if action.locos < covered else None
        paid = self._pay(seat, color, action.locos, covered, subs)
        if t.tunnel:
            revealed = []
            for _ in range(3):
                card = self._draw_card(events)
                if card is None:
                    break
                revealed.append(card)
            surcharge = tunnel_surcharge(revealed, color)
            events.append(TunnelRevealed(seat, t.id, tuple(revealed), surcharge))
            if surcharge:
                self.stage = TUNNEL
                self.tunnel = {
                    "track": t.id,
                    "color": color,
                    "paid": paid,
                    "revealed": revealed,
                    "surcharge": surcharge,
                }
                return
            self.discard.extend(revealed)
        self.discard_cards(paid)
        self.place(seat, t, color, action.locos, events)
        self.end_turn(events)

    def place(self, seat: int, t: Track, color: int | None, locos: int, events: list[Event]) -> None:
        self.owner[t.index] = seat
        self.track_claimed(t.index)
        self.trains[seat] -= t.length
        points = self.map.rules.route_points[t.length]
        self.score[seat] += points
        events.append(RouteClaimed(seat, t.id, color, locos, points))
        self.hooks.after_claim(self, seat, t, events)

    def _apply_pay_tunnel(self, seat: int, action: PayTunnel, events: list[Event]) -> None:
        tunnel, self.tunnel = self.tunnel, None
        extra = self._pay(seat, tunnel["color"], action.locos, tunnel["surcharge"])
        self.discard_cards(tunnel["paid"])
        self.discard_cards(extra)
        self.discard.extend(tunnel["revealed"])
        t = self.map.track_by_id[tunnel["track"]]
        self.place(seat, t, tunnel["color"], tunnel["paid"][LOCO], events)
        self.end_turn(events)

    def _apply_decline(self, seat: int, action: DeclineTunnel, events: list[Event]) -> None:
        tunnel, self.tunnel = self.tunnel, None
        hand = self.hands[seat]
        for kind, n in enumerate(tunnel["paid"]):
            hand[kind] += n
        self.discard.extend(tunnel["revealed"])
        events.append(TunnelDeclined(seat, tunnel["track"]))
        self.end_turn(events)

    def _apply_draw_tickets(self, seat: int, action: DrawTickets, events: list[Event]) -> None:
        offer = []
        for _ in range(self.deck_rules.draw_count):
            if not self.ticket_deck:
                if self.returned_policy != "discard" or not self.ticket_discard:
                    break
                self.ticket_deck, self.ticket_discard = self.ticket_discard, []
                self.rng("ticket-reshuffle").shuffle(self.ticket_deck)
            offer.append(self.ticket_deck.pop())
        self.offers[seat] = offer
        self.offer_keep[seat] = min(self.deck_rules.draw_keep, len(offer))
        self.stage = TICKETS
        events.append(TicketsOffered(seat, len(offer), tuple(offer), self.offer_keep[seat]))

    def _apply_keep(self, seat: int, action: KeepTickets, events: list[Event]) -> None:
        offer = self.offers[seat]
        kept = sorted(action.ids)
        returned = [i for i in offer if i not in kept]
        self.tickets[seat].extend(kept)
        self.offers[seat] = []
        self.offer_keep[seat] = 0
        starting = self.phase is CHOOSING
        self._return_tickets(returned, self.deck_rules.start_returned if starting else self.returned_policy)
        events.append(TicketsKept(seat, len(kept), len(returned), tuple(kept)))
        if starting:
            self._maybe_start_play(events)
        else:
            self.end_turn(events)

    def _return_tickets(self, ids: list[int], policy: str) -> None:
        self.hooks.return_tickets(self, ids, policy)  # "box": out of the game

    def _maybe_start_play(self, events: list[Event]) -> None:
        if self.phase is not CHOOSING or any(
            self.offers[s] or self.hooks.choosing(self, s) for s in self.active_seats()
        ):
            return
        self.phase = PLAYING
        if self.left[self.current] is not None:
            self.current = self._next_seat(self.current)
        events.append(_turn_started(self.current))

    def _apply_station(self, seat: int, action: BuildStation, events: list[Event]) -> None:
        city = self.map.city_by_id[action.city]
        cost = self.map.rules.station_costs[len(self.stations[seat])]
        color = action.color if action.locos < cost else None
        self.discard_cards(self._pay(seat, color, action.locos, cost))
        self.station_owner[city.index] = seat
        self.stations[seat].append(city.index)
        self.stations_left[seat] -= 1
        events.append(StationBuilt(seat, city.id, color, action.locos))
        self.end_turn(events)

    def _apply_pass(self, seat: int | None, action: Pass | Skip, events: list[Event]) -> None:
        events.append(Passed(self.current, skipped=isinstance(action, Skip)))
        if self.tunnel is not None:  # a skipped tunnel decision declines
            self._apply_decline(self.current, DeclineTunnel(), [])
            return
        if self.stage is TICKETS:  # a skipped ticket choice keeps the default
            self._apply_keep(self.current, self.default_action(self.current), events)
            return
        if self.stage in self.hooks.stages:  # a skipped hook decision takes its default
            self.hooks.apply_action(self, self.current, self.hooks.default_action(self, self.current), events)
            return
        if self.stage is None:  # a skipped second card is no pass
            self.passes += 1
        self.end_turn(events)

    def _apply_leave(self, seat: int | None, action: Resign | Remove, events: list[Event]) -> None:
        leaver = action.seat if isinstance(action, Remove) else seat
        self.left[leaver] = "removed" if isinstance(action, Remove) else "resigned"
        events.append(SeatLeft(leaver, self.left[leaver]))
        if self.tunnel is not None and leaver == self.current:
            tunnel, self.tunnel = self.tunnel, None
            self.discard_cards(tunnel["paid"])
            self.discard.extend(tunnel["revealed"])
        hand = self.hands[leaver]
        self.discard_cards(hand)
        self.hands[leaver] = [0] * self.hooks.card_kinds
        if self.offers[leaver]:
            policy = self.deck_rules.start_returned if self.phase is CHOOSING else self.returned_policy
            self._return_tickets(self.offers[leaver], policy)
            self.offers[leaver] = []
            self.offer_keep[leaver] = 0
        if self.last_round is not None and leaver in self.last_round:
            self.last_round.remove(leaver)
        if len(self.active_seats()) < 2:
            self._game_over("too_few_seats", events)
            return
        if self.phase is CHOOSING:
            self._maybe_start_play(events)
        elif leaver == self.current:
            self.stage = None
            if self.resume is not None:  # left during a between-rounds decision: the round had ended
                leaver, self.resume = self.resume, None
            elif self._closes_round(leaver):
                self.round += 1
            if self.last_round is not None and not self.last_round:
                self._game_over("last_round", events)
                return
            self.current = self._next_seat(leaver)
            events.append(_turn_started(self.current))

    def _next_seat(self, seat: int) -> int:
        nxt = seat + 1 if seat + 1 < self.seats else 0
        if self.left[nxt] is None:
            return nxt
        for step in range(2, self.seats + 1):
            nxt = (seat + step) % self.seats
            if self.left[nxt] is None:
                return nxt
        return seat

    def end_turn(self, events: list[Event]) -> None:
        seat = self.current
        self.stage = None
        if -1 in self.market:  # slots left empty by an exhausted deck
            for slot, card in enumerate(self.market):
                if card < 0 and (self.deck or self.discard):
                    self._refill(slot, events)
        if self.last_round is not None:
            if seat in self.last_round:
                self.last_round.remove(seat)
        elif self.trains[seat] <= LAST_ROUND_TRAINS:
            self.last_round = self.active_seats()
            events.append(LastRoundStarted(seat, self.trains[seat]))
        nxt = self._next_seat(seat)
        if self._closes_round(seat, nxt):
            self.round += 1
            decider = self.hooks.after_round(self, events)  # e.g. Nederland's neutral player phase
            if decider is not None:
                self.resume, self.current = seat, decider
                return
            nxt = None  # (the hook may have changed who plays)
        self._advance(seat, events, nxt)

    def _closes_round(self, seat: int, nxt: int | None = None) -> bool:
        """Whether the end of `seat`'s turn completes a round (the next turn, `nxt`'s, wraps past the first seat)."""
        if nxt is None:
            nxt = self._next_seat(seat)
        return (nxt - self.first) % self.seats <= (seat - self.first) % self.seats

    def resume_turns(self, events: list[Event]) -> None:
        """End a hook's between-rounds decision: the next turn (or the end of the game) follows."""
        seat, self.resume = self.resume, None
        self.stage = None
        self._advance(seat, events)

    def _advance(self, seat: int, events: list[Event], nxt: int | None = None) -> None:
        """After `seat`'s turn (and any between-rounds phase): the end of the game or the next turn
        (`nxt`'s when known)."""
        if self.last_round is not None and not self.last_round:
            self._game_over("last_round", events)
            return
        if self.passes >= self.left.count(None):  # every active seat passed
            self._game_over("all_passed", events)
            return
        self.current = self._next_seat(seat) if nxt is None else nxt
        events.append(_turn_started(self.current))

    def _game_over(self, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        self.stage = None
        self.end_reason = Termination(reason)
        self.final = final_scores(self)
        events.append(GameOver(reason))

    # ------------------------------------------------------------------ timeouts

    def default_action(self, seat: int) -> Action:
        """The forced move when `seat` times out: keep the fewest tickets (lowest points first),
        decline a tunnel, otherwise draw blind (or take a face-up card, or pass)."""
        if self.phase is CHOOSING and self.hooks.choosing(self, seat):
            return self.hooks.default_action(self, seat)
        if self.phase is CHOOSING or self.stage is TICKETS:
            by_points = sorted(self.offers[seat], key=lambda i: (self.map.ticket_by_id[i].points, i))
            return KeepTickets(tuple(sorted(by_points[: self.offer_keep[seat]])))
        if self.stage is TUNNEL:
            return DeclineTunnel()
        if self.stage in self.hooks.stages:
            return self.hooks.default_action(self, seat)
        if self._can_draw_blind():
            return DrawDeck()
        second = self.stage is SECOND_CARD
        for slot, card in enumerate(self.market):
            if card >= 0 and not (second and card == LOCO and not self._free_locos):
                return DrawMarket(slot)
        if self.is_legal(seat, Pass()):
            return Pass()
        return Skip()

    # ------------------------------------------------------------------ views and JSON

    def view(self, seat: int | None) -> dict:
        return build_view(self, seat)

    def to_json(self) -> dict:
        """The whole state (secrets included) as JSON-compatible data; the log is kept apart.
        A copy: changing it never changes the game."""
        return _json_copy(
            {
                "schema": STATE_SCHEMA,
                "rules_version": RULES_VERSION,
                "map": self.map.id,
                "map_sha256": self.map.sha256,
                "seats": self.seats,
                "seed": self.seed,
                "options": self.options.to_json(),
                "plies": len(self.log),
                "shuffles": self.shuffles,
                "deck": self.deck,
                "discard": self.discard,
                "market": self.market,
                "hands": self.hands,
                "ticket_deck": self.ticket_deck,
                "ticket_discard": self.ticket_discard,
                "tickets": self.tickets,
                "offers": self.offers,
                "offer_keep": self.offer_keep,
                "owner": self.owner,
                "stations": self.stations,
                "trains": self.trains,
                "stations_left": self.stations_left,
                "score": self.score,
                "left": self.left,
                "phase": self.phase.value,
                "first": self.first,
                "current": self.current,
                "round": self.round,
                "resume": self.resume,
                "stage": None if self.stage is None else self.stage.value,
                "tunnel": self.tunnel,
                "last_round": self.last_round,
                "passes": self.passes,
                "undoable": self.undoable,
                "decisions": self.decisions,
                "end_reason": None if self.end_reason is None else self.end_reason.value,
                "hooks": self.hooks.to_json(self),
            }
        )

    @classmethod
    def from_json(
        cls, data: dict, log: list[tuple[int | None, Action]] | None = None, map_data: MapData | None = None
    ) -> Game:
        """Restore a state saved by `to_json` (and optionally its log, for `plies` to match); a game
        on a map given as an object at `new` is restored with that object (`map_data`). What was
        public when each action was applied is not in the state: the view's `recent` starts empty
        here (storage rebuilds games by replay, which has it)."""
        if data.get("schema") != STATE_SCHEMA:
            raise ValueError(f"state schema {data.get('schema')!r} is not {STATE_SCHEMA}")
        data = _json_copy(data)  # the game must not share lists with the caller's data
        if map_data is None:
            map_data = load_map(data["map"])
        elif map_data.id != data["map"]:
            raise ValueError(f"this game was played on the map {data['map']!r}, not {map_data.id!r}")
        if data["map_sha256"] != map_data.sha256:
            raise ValueError(f"this game was played on another version of the {map_data.name} map data")
        game = cls(map_data, data["seats"], data["seed"], GameOptions.from_json(data["options"]))
        for name in (
            "shuffles",
            "deck",
            "discard",
            "market",
            "hands",
            "ticket_deck",
            "ticket_discard",
            "tickets",
            "offers",
            "offer_keep",
            "owner",
            "stations",
            "trains",
            "stations_left",
            "score",
            "left",
            "phase",
            "first",
            "current",
            "stage",
            "tunnel",
            "last_round",
            "passes",
            "decisions",
            "end_reason",
        ):
            setattr(game, name, data[name])
        game.phase = Phase(game.phase)
        game.stage = None if game.stage is None else Stage(game.stage)
        game.end_reason = None if game.end_reason is None else Termination(game.end_reason)
        game.undoable = data.get("undoable", False)
        game.round = data.get("round", 1)
        game.resume = data.get("resume")
        game.station_owner = {city: seat for seat, cities in enumerate(game.stations) for city in cities}
        game.hooks.from_json(game, data.get("hooks", {}))
        if log is not None:
            game.log = list(log)
            game.last_action = game.log[-1] if game.log else None
        return game  # a finished game's final scores are computed when first read (`final`)


#: Events after which an action may be taken back: nothing hidden was revealed (no card dealt,
#: no ticket drawn, no tunnel reveal, no neutral ticket, not the end of the game).
_UNDOABLE_EVENTS = frozenset({RouteClaimed, StationBuilt, TurnStarted, LastRoundStarted, TollPaid, LoanTaken})


def effective_log(log: list[tuple[int | None, Action]]) -> list[tuple[int | None, Action]]:
    """The log without undone actions (and without the Undo entries themselves)."""
    effective: list[tuple[int | None, Action]] = []
    for seat, action in log:
        if isinstance(action, Undo):
            effective.pop()
        else:
            effective.append((seat, action))
    return effective


#: Actions that do not end a run of passes (docs/rules.md §1: the game ends when all pass in a row).
_NOT_ACTING = frozenset({Pass, Skip, Undo})

#: Per core action kind: its check (raises, changes nothing) and its effect.
_CORE: dict[type, tuple[Callable, Callable]] = {
    DrawDeck: (Game._check_draw_deck, Game._apply_draw_deck),
    DrawMarket: (Game._check_draw_market, Game._apply_draw_market),
    Claim: (Game._check_claim, Game._apply_claim),
    DrawTickets: (Game._check_tickets, Game._apply_draw_tickets),
    KeepTickets: (Game._check_keep, Game._apply_keep),
    BuildStation: (Game._check_station, Game._apply_station),
    PayTunnel: (Game._check_pay_tunnel, Game._apply_pay_tunnel),
    DeclineTunnel: (Game._check_decline, Game._apply_decline),
    Pass: (Game._check_pass, Game._apply_pass),
    Skip: (Game._check_skip, Game._apply_pass),
    Undo: (Game._check_undo, Game._apply_undo),
    Resign: (Game._check_resign, Game._apply_leave),
    Remove: (Game._check_remove, Game._apply_leave),
}
