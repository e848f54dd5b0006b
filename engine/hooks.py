"""Named rule hooks: where a map's rules differ from the common core, and nothing else.

A map file lists its hooks by name (`rules.hooks`); the Game calls them at fixed points.
The base class is the common core (docs/rules.md §1), so a map without hooks needs no code.

Extension points, in the order a game meets them:
- `variants` / `configure`: the host's options (`GameOptions.variants`), validated at creation;
  `configure` also sets the hook's initial state (also before `from_json` restores it).
- `card_kinds` / `train_deck`: the card kinds of a hand and the unshuffled train deck (Märklin's 118).
- `choosing` / `choosing_actions`: a seat's own step before its starting tickets are dealt
  (Märklin names its mix of short and long tickets); `return_tickets`: where tickets not kept go.
- `after_setup`: once cards and tickets are dealt.
- `doubles_open`: whether both tracks of a double route are usable.
- card rules: `free_locomotive_draws` (a face-up locomotive is an ordinary card), `market_resets`
  (3 face-up locomotives reset the market), `locomotives_usable(track)` (where locomotives pay;
  `locomotive_use` names it for the rules summary, `locomotive_error` is the error elsewhere),
  `ferry_substitute` (cards of any colors replacing one required ferry locomotive); a track's own
  `substitute` (data) is handled by the payments.
- `action_types` may also name core actions the hook checks and applies itself, and with
  `lists_turns` the hook lists a turn's first actions (`turn_actions`): Märklin's claims with a
  passenger, its +4 locomotives and triple routes, its passenger moves and ticket mixes.
- `after_claim`: effects of a claim (tolls).
- `after_round`: between turns, once every active seat has played a round; it may open a
  pending decision (a hook `stage`) for one seat, which the hook's own actions resolve
  (`action_types`, `check_action`, `apply_action`, `stage_actions`, `default_action`); the
  hook then calls `game.resume_turns(events)`.
- `end_bonuses`: the longest-path and most-tickets bonuses (a variant may swap them).
- `adjust_final_scores`: map bonuses and penalties.
- `public_state` / `private_state` / `public_view`: extra view fields (who may see what).
- `to_json` / `from_json`: the hook's state.

A hook sees the game as a `GameState`: the state and the few steps of a move a hook may take
itself (check the turn, pay, place a track, end the turn). The scoring, the views and the
notation see it so too. They name that protocol instead of engine.game, which imports them, so the
engine's import graph has no cycle (pyproject's import contracts).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Protocol

from engine.cards import NUM_CARD_KINDS, standard_deck
from engine.errors import (
    N_,
    IllegalActionError,
    MapRef,
    OptionValueError,
    RouteRef,
    SeatRef,
    VariantError,
)

if TYPE_CHECKING:
    import random

    from engine.actions import Action
    from engine.events import Event
    from engine.mapdata import MapData, TicketDeck, Track
    from engine.options import GameOptions
    from engine.outcome import PlayerScore
    from engine.phases import Phase, Stage, Termination


class GameState(Protocol):
    """A game as the rule hooks, the scoring, the views and the notation use it (engine.game.Game
    is the one implementation; see its attributes there)."""

    map: MapData
    seats: int
    options: GameOptions
    deck_rules: TicketDeck
    hooks: RuleHooks
    log: list[tuple[int | None, Action]]
    public_log: list[tuple]
    last_action: tuple[int | None, Action] | None
    # Cards (stacks: the top is the last element) and tickets.
    deck: list[int]
    discard: list[int]
    market: list[int]
    hands: list[list[int]]
    ticket_deck: list[int]
    ticket_discard: list[int]
    tickets: list[list[int]]
    offers: list[list[int]]
    offer_keep: list[int]
    # Board and players.
    owner: list[int]
    stations: list[list[int]]
    trains: list[int]
    stations_left: list[int]
    score: list[int]
    left: list[str | None]
    # Turns.
    phase: Phase
    first: int
    current: int
    round: int
    stage: Stage | None
    tunnel: dict | None
    last_round: list[int] | None
    passes: int
    end_reason: Termination | None
    final: list[PlayerScore] | None
    #: Per track: None under the common payments, else (locomotives usable, ferry substitute, substitute).
    track_rules: list[tuple | None]

    @property
    def doubles_open(self) -> bool: ...
    def is_over(self) -> bool: ...
    def to_move(self) -> list[int]: ...
    def decision_token(self, seat: int) -> int: ...
    def rng(self, purpose: str) -> random.Random: ...
    def track(self, track_id: str) -> Track: ...
    def track_payments(self, seat: int, track: Track) -> list[tuple[int | None, int, tuple[int, ...]]]: ...
    def track_claimed(self, index: int) -> None: ...

    # The steps of a move a hook that applies an action itself takes.
    def check_turn(self, seat: int, stage: str | None, action: Action) -> None: ...
    def better_payment(
        self, seat: int, error: IllegalActionError, color: int | None, payments: list, what: object, make: Callable
    ) -> IllegalActionError: ...
    def discard_cards(self, counts: list[int]) -> None: ...
    def place(self, seat: int, t: Track, color: int | None, locos: int, events: list[Event]) -> None: ...
    def end_turn(self, events: list[Event]) -> None: ...
    def resume_turns(self, events: list[Event]) -> None: ...


class RuleHooks:
    name = "core"
    #: Variant options this hook understands: name -> default value (all booleans so far).
    variants: dict[str, bool] = {}
    #: Action types beyond the core ones that this hook checks and applies.
    action_types: tuple[type, ...] = ()
    #: Pending-decision stages (values of `game.stage`) that this hook opens.
    stages: tuple[str, ...] = ()
    #: Card kinds in a hand (engine.cards).
    card_kinds: int = NUM_CARD_KINDS
    #: Whether `turn_actions` lists the actions at the start of a turn instead of the core.
    lists_turns: bool = False
    #: A face-up locomotive counts as one card: it may be the second card and allows a second one.
    free_locomotive_draws: bool = False
    #: Whether 3 face-up locomotives discard and replace the market (docs/rules.md §1).
    market_resets: bool = True
    #: Tunnels are paid with cards of one color or with locomotives only, never both (the surcharge
    #: may still be paid with locomotives).
    unmixed_tunnels: bool = False
    #: Cards of any colors that may replace one required ferry locomotive (0: none may).
    ferry_substitute: int = 0
    #: Where locomotives may be used, for the rules summary (when `locomotives_usable` is narrower).
    locomotive_use: str = "any route"
    #: The error (a template) for locomotives paying where `locomotives_usable` forbids them.
    locomotive_error: str = N_("locomotives cannot be used on this route")

    def locomotives_usable(self, track: Track) -> bool:
        """Whether locomotives may pay for (part of) this track."""
        return True

    def configure(self, game: GameState) -> None:
        """Validate `game.options.variants` (VariantError) and set the hook's initial state."""
        given = game.options.variants
        unknown = sorted(set(given) - set(self.variants))
        if unknown:
            names = ", ".join(map(repr, unknown))
            if not self.variants:
                raise VariantError("the {map} map has no variant {names}", map=MapRef(game.map.name), names=names)
            raise VariantError(
                "the {map} map has no variant {names} (its variants: {known})",
                map=MapRef(game.map.name),
                names=names,
                known=", ".join(sorted(self.variants)),
            )
        for key, value in given.items():
            if not isinstance(value, bool):
                raise VariantError(
                    "variant {name!r} is on or off (true or false), not {value!r}", name=key, value=value
                )

    def train_deck(self, game: GameState) -> list[int]:
        """The train cards before shuffling (docs/rules.md §1.1: 110)."""
        return standard_deck()

    def choosing(self, game: GameState, seat: int) -> bool:
        """Whether `seat` has a step of its own to take before its starting tickets are dealt."""
        return False

    def choosing_actions(self, game: GameState, seat: int) -> list[Action]:
        """The legal actions of a seat for which `choosing` is true."""
        return []

    def turn_actions(self, game: GameState, seat: int, collapse: bool) -> list[Action]:
        """The actions at the start of a turn, when `lists_turns` (Pass when there are none)."""
        raise NotImplementedError

    def return_tickets(self, game: GameState, ids: list[int], policy: str) -> None:
        """Tickets not kept: under the deck ("bottom"), on the face-up pile ("discard") or out of the game."""
        if policy == "bottom":
            game.ticket_deck[:0] = ids
        elif policy == "discard":
            game.ticket_discard.extend(ids)

    def variant(self, game: GameState, name: str) -> bool:
        return bool(game.options.variants.get(name, self.variants[name]))

    def doubles_open(self, game: GameState) -> bool:
        """Whether both tracks of a double route may be claimed (docs/rules.md §1: 4+ players)."""
        return game.seats >= game.map.rules.doubles_min_players

    def after_setup(self, game: GameState) -> None:
        """Extra setup once cards and tickets are dealt."""

    def after_claim(self, game: GameState, seat: int, track: Track, events: list[Event]) -> None:
        """Extra effects of a claim (tolls)."""

    def after_round(self, game: GameState, events: list[Event]) -> int | None:
        """A round is complete (`game.round` is the number of the next one). Return the seat that
        must now decide something (after setting `game.stage` to one of `stages`), or None."""
        return None

    def stage_actions(self, game: GameState, seat: int) -> list[Action]:
        """Legal actions of the deciding seat in one of this hook's stages."""
        return []

    def stage_error(self, game: GameState) -> IllegalActionError:
        """What the deciding seat must do first in one of this hook's stages."""
        return IllegalActionError("finish the pending decision first")

    def check_action(self, game: GameState, seat: int, action: Action) -> None:
        """Raise IllegalActionError unless `action` (one of `action_types`) is legal now."""

    def apply_action(self, game: GameState, seat: int, action: Action, events: list[Event]) -> None:
        """Apply a checked action of `action_types`."""

    def default_action(self, game: GameState, seat: int) -> Action:
        """The forced move in one of this hook's stages (timeouts, skips)."""
        raise NotImplementedError

    def taken_error(self, game: GameState, route: RouteRef, owner: int) -> IllegalActionError:
        """The error for claiming a track that `owner` (maybe a non-seat owner of a hook) has."""
        return IllegalActionError("{route} is already taken by {owner}", route=route, owner=SeatRef(owner))

    def end_bonuses(self, game: GameState, deck: TicketDeck) -> tuple[int, int]:
        """Points of the longest-path bonus and of the most-completed-tickets bonus (Globetrotter);
        0 means the game has none. The deck's numbers unless a variant changes them."""
        return deck.longest_path_bonus, deck.globetrotter_bonus

    def adjust_final_scores(self, game: GameState, scores: list[PlayerScore]) -> list[PlayerScore]:
        """Map bonuses and penalties beyond longest path and Globetrotter."""
        return scores

    def public_state(self, game: GameState, seat: int) -> dict:
        """Extra public fields of a player in views."""
        return {}

    def private_state(self, game: GameState, seat: int) -> dict:
        """Extra fields only the seat itself (and the final scoring) may see."""
        return {}

    def public_view(self, game: GameState) -> dict:
        """Extra top-level fields of every view (public information only)."""
        return {}

    def to_json(self, game: GameState) -> dict:
        return {}

    def from_json(self, game: GameState, data: dict) -> None:
        pass


#: The hook a map file names (`rules.hooks`) -> "module:class". Imported when a game needs it, so
#: no module has to be imported first for its hook to exist.
HOOKS: dict[str, str] = {
    "tolls": "engine.nederland:NederlandHooks",
    "nordic": "engine.nordic:NordicHooks",
    "switzerland": "engine.switzerland:SwitzerlandHooks",
    "marklin": "engine.marklin:MarklinHooks",
}


def hook_class(name: str) -> type[RuleHooks]:
    try:
        module, _, cls = HOOKS[name].partition(":")
    except KeyError:
        raise OptionValueError("unknown rule hook {name!r}", name=name) from None
    return getattr(import_module(module), cls)


def hooks_for(names: tuple[str, ...]) -> RuleHooks:
    """The hook object for a map; at most one named hook per map for now."""
    if not names:
        return RuleHooks()
    if len(names) > 1:
        raise OptionValueError("a map combines at most one rule hook, not {names}", names=", ".join(names))
    return hook_class(names[0])()
