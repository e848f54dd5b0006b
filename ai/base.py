"""The interface every AI player implements, and the one call that asks it for a move.

An AI sees exactly what a person in that seat sees: its own view (`game.view(seat)`), the
public map data and the host's public options (`GameInfo`), and the list of legal actions.
It never receives the Game object, so it cannot read hidden cards, the deck order or the seed.

    from ai import make_ai, ask
    player = make_ai("baseline", seed=7)
    action = ask(player, game, seat)          # a legal action for `seat` now
    game.apply(seat, action)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from engine import Action, GameOptions, Resign
from engine.mapdata import MapData, TicketDeck

if TYPE_CHECKING:
    from engine import Game


@dataclass(frozen=True)
class GameInfo:
    """Public facts about a game that are not in the view: the map data and the host's options."""

    map: MapData
    seat: int
    seats: int
    options: GameOptions
    doubles_open: bool  # whether both tracks of a double route may be claimed
    deck: TicketDeck  # the ticket deck in play (deal/keep numbers, bonuses)
    returned_tickets: str  # where returned mid-game tickets go: "box" | "bottom" | "discard"
    loco_tracks: frozenset[int] | None = None  # tracks locomotives may pay for (None: all of them)
    free_locos: bool = False  # a face-up locomotive is an ordinary draw (Switzerland, Nordic)

    @classmethod
    def from_game(cls, game: Game, seat: int) -> GameInfo:
        """Only public configuration is copied: never hands, decks or the seed."""
        return cls(
            map=game.map,
            seat=seat,
            seats=game.seats,
            options=game.options,
            doubles_open=game.doubles_open,
            deck=game.deck_rules,
            returned_tickets=game.returned_policy,
            loco_tracks=_loco_tracks(game),
            free_locos=bool(getattr(game.hooks, "free_locomotive_draws", False)),
        )


def _loco_tracks(game: Game) -> frozenset[int] | None:
    """Where a map limits locomotives (Switzerland: tunnels; Nordic: ferries and tunnels)."""
    usable = getattr(game.hooks, "locomotives_usable", None)
    if usable is None:
        return None
    tracks = frozenset(t.index for t in game.map.tracks if usable(t))
    return None if len(tracks) == len(game.map.tracks) else tracks


@runtime_checkable
class Player(Protocol):
    """An AI (or scripted) player. `choose` must return one of `legal`."""

    name: str

    def choose(self, view: dict, legal: Sequence[Action], info: GameInfo) -> Action: ...


def legal_for(game: Game, seat: int) -> list[Action]:
    """The legal actions an AI is offered: one payment per track and color (fewest locomotives),
    every payment for stations and tunnels as the engine lists them."""
    return game.legal_actions(seat, collapse_payments=True)


def ask(player: Player, game: Game, seat: int, info: GameInfo | None = None) -> Action:
    """Ask `player` for `seat`'s next action (one step of a turn, a ticket choice or a hook decision).

    Raises ValueError when the seat has nothing to decide now. The result is checked to be legal;
    an AI bug falls back to the engine's default action rather than breaking a game.
    """
    legal = legal_for(game, seat)
    if not legal:
        raise ValueError(f"seat {seat + 1} has no decision to make now")
    info = info or GameInfo.from_game(game, seat)
    action = player.choose(game.view(seat), legal, info)
    if action in legal or (not isinstance(action, Resign) and game.is_legal(seat, action)):
        return action
    return game.default_action(seat)
