"""A finished game's result as one typed value (python-chess's `Outcome`): why it ended, every
seat's score breakdown, the ranking and the winners, for the bot, leagues and the terminal game."""

from __future__ import annotations

from dataclasses import dataclass

from engine.phases import Termination
from engine.scoring import PlayerScore


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
