"""Actions: small immutable values, one class per kind of move.

Ids are stable: tracks and cities by their map id, tickets by number, cards by index
(engine.cards). `color` is the color of the non-locomotive cards paid; it is None only when
the payment is all locomotives.
"""

from __future__ import annotations

from typing import NamedTuple


class DrawDeck(NamedTuple):
    """Take the top card of the deck (blind)."""


class DrawMarket(NamedTuple):
    """Take face-up card `slot` (0-based; notation is 1-based)."""

    slot: int


class Claim(NamedTuple):
    """Pay `locos` locomotives, the rest in `color`; `subs` (sorted card indices, colored cards
    only) are substitute cards where the map allows them (Nordic: 3 for a ferry's locomotive,
    4 for a missing card on Murmansk-Lieksa); each set stands for one card of the route."""

    track: str
    color: int | None
    locos: int
    subs: tuple[int, ...] = ()
    passenger: str | None = None  # Märklin: the end city (id) where a passenger is placed


class DrawTickets(NamedTuple):
    """Draw destination tickets; the keep choice follows as KeepTickets. `long`: on Märklin, how
    many of them come from the long deck (docs/rules.md §8.3); None on maps with one deck."""

    long: int | None = None


class KeepTickets(NamedTuple):
    ids: tuple[int, ...]  # sorted


class BuildStation(NamedTuple):
    city: str
    color: int | None
    locos: int


class PayTunnel(NamedTuple):
    """Pay the tunnel surcharge with `locos` locomotives and the rest in the claim's color."""

    locos: int


class DeclineTunnel(NamedTuple):
    pass


class NeutralClaim(NamedTuple):
    """Nederland neutral player (docs/rules.md §4): the marker holder picks which free track of the
    revealed route the neutral player takes."""

    track: str


class Move(NamedTuple):
    """Märklin (docs/rules.md §8.5): move the passenger standing on `path[0]` along the cities of
    `path` (ids), paying `cards` passenger cards for the routes only other players own."""

    path: tuple[str, ...]
    cards: int


class Pass(NamedTuple):
    """Legal only when a player has no other legal action (docs/rules.md §1)."""


class Skip(NamedTuple):
    """The table skips the current turn (a timed-out player who cannot draw). Acting seat: None."""


class Undo(NamedTuple):
    """Take back the acting seat's last action: only right after it, and only if it revealed
    nothing hidden (a claim of a route or a station with no card dealt). The bot asks every other
    player first. The log keeps both; replay leaves the undone action out (docs/engine.md)."""


class Resign(NamedTuple):
    """The acting seat leaves the game (docs/rules.md §1 "Leaving")."""


class Remove(NamedTuple):
    """The table (host or timeout; acting seat None) removes `seat` from the game."""

    seat: int


Action = (
    DrawDeck
    | DrawMarket
    | Claim
    | DrawTickets
    | KeepTickets
    | BuildStation
    | PayTunnel
    | DeclineTunnel
    | NeutralClaim
    | Move
    | Pass
    | Skip
    | Undo
    | Resign
    | Remove
)

ACTION_TYPES = (
    DrawDeck,
    DrawMarket,
    Claim,
    DrawTickets,
    KeepTickets,
    BuildStation,
    PayTunnel,
    DeclineTunnel,
    NeutralClaim,
    Move,
    Pass,
    Skip,
    Undo,
    Resign,
    Remove,
)


def _same_action(self: tuple, other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _other_action(self: tuple, other: object) -> bool:
    return not _same_action(self, other)


def _action_hash(self: tuple) -> int:
    return hash((type(self).__name__, *self))


# Tuples compare by content alone, so DrawDeck() would equal Pass() and DrawMarket(1) would
# equal Remove(1): make equality and hashing include the action's kind.
for _cls in ACTION_TYPES:
    _cls.__eq__, _cls.__ne__, _cls.__hash__ = _same_action, _other_action, _action_hash

#: Actions the table (host, timeout) applies with seat=None.
TABLE_ACTIONS = (Skip, Remove)
