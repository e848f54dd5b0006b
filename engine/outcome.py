"""A finished game's result as typed values: every seat's score breakdown (`PlayerScore`, with its
tickets' `TicketResult`s, made by engine.scoring) and the `Outcome` (python-chess's): why it
ended, the scores, the ranking and the winners, for the bot, leagues and the terminal game."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.phases import Termination


@dataclass(frozen=True, slots=True)
class TicketResult:
    id: int
    points: int
    completed: bool
    via: tuple[str, ...] = ()  # borrowed (station) track ids this ticket cannot do without
    reached: int | None = None  # country tickets (Switzerland): the destination scored (place index)


@dataclass(frozen=True, slots=True)
class PlayerScore:
    seat: int
    route_points: int  # points scored on the track during play (route claims, start offsets)
    tickets: tuple[TicketResult, ...]
    ticket_points: int
    borrowed: tuple[str, ...]  # track ids used through stations (Europe)
    station_points: int
    longest: int
    longest_tracks: tuple[str, ...]
    bonuses: dict[str, int] = field(default_factory=dict)
    total: int = 0
    rank: int = 0
    details: dict[str, int] = field(default_factory=dict)  # map facts behind the bonuses (Nederland: money, loans)

    @property
    def completed(self) -> int:
        return sum(1 for t in self.tickets if t.completed)

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "route_points": self.route_points,
            "tickets": [_ticket_json(t) for t in self.tickets],
            "ticket_points": self.ticket_points,
            "borrowed": list(self.borrowed),
            "station_points": self.station_points,
            "longest": self.longest,
            "longest_tracks": list(self.longest_tracks),
            "bonuses": dict(self.bonuses),
            "total": self.total,
            "rank": self.rank,
            "details": dict(self.details),
        }


def _ticket_json(t: TicketResult) -> dict:
    out = {"id": t.id, "points": t.points, "completed": t.completed, "via": list(t.via)}
    if t.reached is not None:
        out["reached"] = t.reached  # place (city/country) index of the destination scored
    return out


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    #: Final scores by seat (index = seat), resigned and removed seats included.
    scores: tuple[PlayerScore, ...]

    @property
    def ranking(self) -> tuple[int, ...]:
        """Seats best first (rank, then seat order among equals)."""
        return tuple(s.seat for s in sorted(self.scores, key=lambda s: (s.rank, s.seat)))

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first: one, or several when the map's tie-breaks leave a shared victory."""
        return tuple(s.seat for s in self.scores if s.rank == 1)

    def total(self, seat: int) -> int:
        return self.scores[seat].total

    def rank(self, seat: int) -> int:
        return self.scores[seat].rank
