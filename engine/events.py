"""Typed events returned by Game.apply: data, not English text.

Some events carry secrets (a blind card, ticket ids). `for_viewer(seat)` returns what that
viewer may see (seat None = spectator); everything else is public.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, replace


@dataclass(frozen=True, slots=True)
class Event:
    def for_viewer(self, viewer: int | None) -> Event:
        return self


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    seat: int
    card: int | None  # None when hidden from this viewer (a blind draw)
    slot: int | None  # market slot (0-based), None for the deck

    def for_viewer(self, viewer: int | None) -> Event:
        if self.slot is None and viewer != self.seat:
            return replace(self, card=None)
        return self


@dataclass(frozen=True, slots=True)
class MarketRefilled(Event):
    slot: int
    card: int | None  # None: the slot stays empty


@dataclass(frozen=True, slots=True)
class MarketReset(Event):
    """Three or more face-up locomotives: all five discarded, five new dealt (docs/rules.md §1)."""

    discarded: tuple[int, ...]
    dealt: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    size: int


@dataclass(frozen=True, slots=True)
class RouteClaimed(Event):
    seat: int
    track: str
    color: int | None
    locos: int
    points: int


@dataclass(frozen=True, slots=True)
class TunnelRevealed(Event):
    seat: int
    track: str
    revealed: tuple[int, ...]
    surcharge: int


@dataclass(frozen=True, slots=True)
class TunnelDeclined(Event):
    seat: int
    track: str


@dataclass(frozen=True, slots=True)
class TicketsOffered(Event):
    seat: int
    count: int
    ids: tuple[int, ...] | None  # None when hidden from this viewer
    keep_at_least: int

    def for_viewer(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else replace(self, ids=None)


@dataclass(frozen=True, slots=True)
class TicketsKept(Event):
    seat: int
    kept: int
    returned: int
    ids: tuple[int, ...] | None

    def for_viewer(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else replace(self, ids=None)


@dataclass(frozen=True, slots=True)
class StationBuilt(Event):
    seat: int
    city: str
    color: int | None
    locos: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int
    skipped: bool = False  # True when the table skipped the turn


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    seat: int
    reason: str  # "resigned" | "removed"


@dataclass(frozen=True, slots=True)
class LastRoundStarted(Event):
    seat: int
    trains: int


@dataclass(frozen=True, slots=True)
class TollPaid(Event):
    """Nederland (docs/rules.md §4): `payer` paid `payee` the toll of `track`. None = the bank.

    Money is secret: the amount is hidden from every viewer but the payer and the payee
    (the toll of a track is printed on the board, but what a player holds is theirs to know)."""

    payer: int | None
    payee: int | None
    track: str
    amount: int | None  # None when hidden from this viewer

    def for_viewer(self, viewer: int | None) -> Event:
        if viewer is not None and viewer in (self.payer, self.payee):
            return self
        return replace(self, amount=None)


@dataclass(frozen=True, slots=True)
class LoanTaken(Event):
    """Nederland: `seat` could not pay the toll of `track` in full, paid nothing and took a Loan."""

    seat: int
    track: str
    loans: int  # that seat's Loans now (public)


@dataclass(frozen=True, slots=True)
class NeutralTicketRevealed(Event):
    """Nederland neutral player: the marker holder turned the top ticket face up."""

    holder: int
    ticket: int
    route: tuple[str, str] | None  # city ids printed at its bottom; None: blank
    outcome: str  # "blank" | "built" (route already the neutral's) | "taken" (no free track)
    # | "choose" | "claimed" | "stopped" (too few neutral trains)


@dataclass(frozen=True, slots=True)
class NeutralRouteClaimed(Event):
    """The neutral player placed its trains on `track` (chosen by `holder` when both were free)."""

    holder: int
    track: str
    trains_left: int


@dataclass(frozen=True, slots=True)
class NeutralMarkerPassed(Event):
    seat: int  # the new holder


@dataclass(frozen=True, slots=True)
class NeutralStopped(Event):
    """No more neutral phases: "trains" (too few for the route) or "tickets" (the deck is empty)."""

    reason: str
    reshuffled: int  # discarded tickets shuffled back into the deck


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    reason: str  # "last_round" | "all_passed" | "too_few_seats"


def _fast_init(cls: type) -> None:
    """Give a frozen event class an `__init__` that sets its slots through their own descriptors:
    the same signature and values as the dataclass's (which sets each field by name through
    `object.__setattr__`), about twice as fast; every applied action makes one to four events."""
    names = [f.name for f in fields(cls)]
    scope = {f"_set_{f.name}": getattr(cls, f.name).__set__ for f in fields(cls)}
    scope.update({f"_default_{f.name}": f.default for f in fields(cls) if f.default is not MISSING})
    params = "".join(f", {n}=_default_{n}" if f"_default_{n}" in scope else f", {n}" for n in names)
    body = "".join(f"\n    _set_{n}(self, {n})" for n in names) or "\n    pass"
    exec(f"def __init__(self{params}):{body}", scope)  # noqa: S102 - generated from the fields, as dataclasses does
    scope["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = scope["__init__"]


_classes = [Event]
while _classes:
    _cls = _classes.pop()
    _classes.extend(_cls.__subclasses__())
    if globals().get(_cls.__name__) is _cls and fields(_cls):  # (not the classes `slots=True` replaced)
        _fast_init(_cls)
