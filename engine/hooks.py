"""Named rule hooks: where a map's rules differ from the common core, and nothing else.

A map file lists its hooks by name (`rules.hooks`); the Game calls them at fixed points.
The base class is the common core (RULES.md §1), so a map without hooks needs no code.

Extension points, in the order a game meets them:
- `variants` / `configure`: the host's options (`GameOptions.variants`), validated at creation;
  `configure` also sets the hook's initial state (also before `from_json` restores it).
- `after_setup`: once cards and tickets are dealt.
- `doubles_open`: whether both tracks of a double route are usable.
- card rules: `free_locomotive_draws` (a face-up locomotive is an ordinary card), `market_resets`
  (3 face-up locomotives reset the market), `locomotives_usable(track)` (where locomotives pay;
  `locomotive_use` names it for the rules summary, `locomotive_error` is the error elsewhere),
  `ferry_substitute` (cards of any colors replacing one required ferry locomotive); a track's own
  `substitute` (data) is handled by the payments.
- `after_claim`: effects of a claim (tolls).
- `after_round`: between turns, once every active seat has played a round; it may open a
  pending decision (a hook `stage`) for one seat, which the hook's own actions resolve
  (`action_types`, `check_action`, `apply_action`, `stage_actions`, `default_action`); the
  hook then calls `game.resume_turns(events)`.
- `adjust_final_scores`: map bonuses and penalties.
- `public_state` / `private_state` / `public_view`: extra view fields (who may see what).
- `to_json` / `from_json`: the hook's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import N_, GameOptionsError, IllegalActionError, MapRef, RouteRef, SeatRef

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.events import Event
    from engine.game import Game
    from engine.mapdata import Track
    from engine.scoring import PlayerScore


class RuleHooks:
    name = "core"
    #: Variant options this hook understands: name -> default value (all booleans so far).
    variants: dict[str, bool] = {}
    #: Action types beyond the core ones that this hook checks and applies.
    action_types: tuple[type, ...] = ()
    #: Pending-decision stages (values of `game.stage`) that this hook opens.
    stages: tuple[str, ...] = ()
    #: A face-up locomotive counts as one card: it may be the second card and allows a second one.
    free_locomotive_draws: bool = False
    #: Whether 3 face-up locomotives discard and replace the market (RULES.md §1).
    market_resets: bool = True
    #: Cards of any colors that may replace one required ferry locomotive (0: none may).
    ferry_substitute: int = 0
    #: Where locomotives may be used, for the rules summary (when `locomotives_usable` is narrower).
    locomotive_use: str = "any route"
    #: The error (a template) for locomotives paying where `locomotives_usable` forbids them.
    locomotive_error: str = N_("locomotives cannot be used on this route")

    def locomotives_usable(self, track: "Track") -> bool:
        """Whether locomotives may pay for (part of) this track."""
        return True

    def configure(self, game: "Game") -> None:
        """Validate `game.options.variants` (ValueError) and set the hook's initial state."""
        given = game.options.variants
        unknown = sorted(set(given) - set(self.variants))
        if unknown:
            names = ", ".join(map(repr, unknown))
            if not self.variants:
                raise GameOptionsError("the {map} map has no variant {names}", map=MapRef(game.map.name), names=names)
            raise GameOptionsError("the {map} map has no variant {names} (its variants: {known})",
                                   map=MapRef(game.map.name), names=names,
                                   known=", ".join(sorted(self.variants)))
        for key, value in given.items():
            if not isinstance(value, bool):
                raise ValueError(f"variant {key!r} is true or false, not {value!r}")

    def variant(self, game: "Game", name: str) -> bool:
        return bool(game.options.variants.get(name, self.variants[name]))

    def doubles_open(self, game: "Game") -> bool:
        """Whether both tracks of a double route may be claimed (RULES.md §1: 4+ players)."""
        return game.seats >= game.map.rules.doubles_min_players

    def after_setup(self, game: "Game") -> None:
        """Extra setup once cards and tickets are dealt."""

    def after_claim(self, game: "Game", seat: int, track: "Track", events: list["Event"]) -> None:
        """Extra effects of a claim (tolls)."""

    def after_round(self, game: "Game", events: list["Event"]) -> int | None:
        """A round is complete (`game.round` is the number of the next one). Return the seat that
        must now decide something (after setting `game.stage` to one of `stages`), or None."""
        return None

    def stage_actions(self, game: "Game", seat: int) -> list["Action"]:
        """Legal actions of the deciding seat in one of this hook's stages."""
        return []

    def stage_error(self, game: "Game") -> IllegalActionError:
        """What the deciding seat must do first in one of this hook's stages."""
        return IllegalActionError("finish the pending decision first")

    def check_action(self, game: "Game", seat: int, action: "Action") -> None:
        """Raise IllegalActionError unless `action` (one of `action_types`) is legal now."""

    def apply_action(self, game: "Game", seat: int, action: "Action", events: list["Event"]) -> None:
        """Apply a checked action of `action_types`."""

    def default_action(self, game: "Game", seat: int) -> "Action":
        """The forced move in one of this hook's stages (timeouts, skips)."""
        raise NotImplementedError

    def taken_error(self, game: "Game", route: RouteRef, owner: int) -> IllegalActionError:
        """The error for claiming a track that `owner` (maybe a non-seat owner of a hook) has."""
        return IllegalActionError("{route} is already taken by {owner}", route=route, owner=SeatRef(owner))

    def adjust_final_scores(self, game: "Game", scores: list["PlayerScore"]) -> list["PlayerScore"]:
        """Map bonuses and penalties beyond longest path and Globetrotter."""
        return scores

    def public_state(self, game: "Game", seat: int) -> dict:
        """Extra public fields of a player in views."""
        return {}

    def private_state(self, game: "Game", seat: int) -> dict:
        """Extra fields only the seat itself (and the final scoring) may see."""
        return {}

    def public_view(self, game: "Game") -> dict:
        """Extra top-level fields of every view (public information only)."""
        return {}

    def to_json(self, game: "Game") -> dict:
        return {}

    def from_json(self, game: "Game", data: dict) -> None:
        pass


HOOKS: dict[str, type[RuleHooks]] = {}


def register(cls: type[RuleHooks]) -> type[RuleHooks]:
    HOOKS[cls.name] = cls
    return cls


def hooks_for(names: tuple[str, ...]) -> RuleHooks:
    """The hook object for a map; at most one named hook per map for now."""
    if not names:
        return RuleHooks()
    if len(names) > 1:
        raise ValueError(f"maps combine at most one rule hook, got {names}")
    try:
        return HOOKS[names[0]]()
    except KeyError:
        raise ValueError(f"unknown rule hook {names[0]!r}") from None
