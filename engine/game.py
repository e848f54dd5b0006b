"""The game: state, legal actions, check and apply, views, JSON (docs/rules.md is the spec).

State is plain lists and ints so a random playout is fast and `to_json` is trivial. Every
change goes through `apply(seat, action)`, which validates first (raising an ActionError and
changing nothing) and then mutates, appends to `log` and returns typed events.
"""

from __future__ import annotations

import random
from collections.abc import Callable

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
from engine.claims import Claims
from engine.draws import MARKET_SIZE, Draws
from engine.errors import (
    IllegalActionError,
    MapRef,
    OptionValueError,
    SeatCountError,
    SeatRef,
    UnknownDeckError,
)
from engine.events import (
    Event,
    LastRoundStarted,
    LoanTaken,
    RouteClaimed,
    StationBuilt,
    TollPaid,
    TurnStarted,
)
from engine.hooks import hooks_for
from engine.listing import ClaimListing
from engine.mapdata import MapData, Track, load_map
from engine.options import GameOptions
from engine.outcome import Outcome
from engine.payments import (
    surcharge_options,
)
from engine.phases import (
    CHOOSING,
    OVER,
    PLAYING,
    SECOND_CARD,
    TICKETS,
    Phase,
    Stage,
    Termination,
)
from engine.scoring import final_scores
from engine.turns import Turns
from engine.version import RULES_VERSION
from engine.view import build_view, public_context

STATE_SCHEMA = 1
START_HAND = 4


def _json_copy(value):
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than copy.deepcopy."""
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    return value


class Game(ClaimListing, Draws, Claims, Turns):
    """One game of Ticket to Ride. Create with `Game.new(...)`, replay with `Game.replay(...)`.

    The moves live by concept in the base classes (each holds methods only, on this state):
    engine/listing.py the moves at the start of a turn, engine/draws.py cards and tickets drawn,
    engine/claims.py routes and stations claimed, engine/turns.py the flow of turns."""

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
            raise IllegalActionError(
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

    def _check(self, seat: int | None, action: Action) -> Callable | None:
        """Raise the IllegalActionError for `action`, or return its core effect (None: the hook's)."""
        kind = type(action)
        if kind in self.hooks.action_types:
            checker, core = self.hooks.check_action, None
        else:
            try:
                checker, core = _CORE[kind]
            except KeyError:
                raise IllegalActionError("{action!r} is not an action of this game", action=action) from None
        if self.phase is OVER:
            raise IllegalActionError("the game is over")
        if isinstance(action, (Skip, Remove)):
            if seat is not None and isinstance(action, Skip):
                raise IllegalActionError("only the table (host or timeout) may skip a seat")
            if seat is not None:
                raise IllegalActionError("only the table (host or timeout) may remove a seat")
        else:
            if seat is None or not 0 <= seat < self.seats:
                raise IllegalActionError("seat {seat} is not a seat of this game", seat=seat)
            if self.left[seat] is not None:
                raise IllegalActionError("{seat} has left the game", seat=SeatRef(seat))
        checker(self, seat, action)  # core: Game._check_x(self, ...); hook: hooks.check_action(game, ...)
        return core

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
