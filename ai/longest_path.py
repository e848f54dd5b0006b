"""The longest-path bonus as part of a claim's worth (USA, Europe, Switzerland: 10 points).

The strong AI ignores the bonus, yet in its games against itself the winner holds it four times
in five. A claim's worth here is the change in the seat's expected share of the bonus: the chance
of holding it at the end grows with the lead of its longest trail over the best opponent's, on a
logistic curve that flattens while many trains are left (a lead early on is easily overtaken).
With two players the bonus swings the margin twice over (ours, or theirs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ai.board import Board
from engine.mapdata import Track
from engine.trail import longest_trail


class TrailOutlook:
    """What each free track would add, in expected margin points, through the longest-path bonus."""

    SCALE = 3.0  # trains of lead per logistic unit at the end of the game ...
    SPREAD = 8.0  # ... plus one per this many trains the shortest-handed seat has left

    def __init__(self, board: Board) -> None:
        m = board.m
        self.mine = [t for t in m.tracks if board.owner[t.index] == board.me]
        self.theirs = max(
            (longest_trail([t for t in m.tracks if board.owner[t.index] == s])[0] for s in board.opponents),
            default=0,
        )
        self.scale = self.SCALE + min(board.trains, board.min_opp_trains) / self.SPREAD
        self.swing = board.info.deck.longest_path_bonus * (2 if len(board.opponents) == 1 else 1)
        self.now = self.chance(longest_trail(self.mine)[0])

    def chance(self, length: int) -> float:
        """The chance of holding the bonus at the end with a longest trail of `length` today."""
        return 1.0 / (1.0 + math.exp(-(length - self.theirs) / self.scale))

    def gain(self, track: Track) -> float:
        """Expected margin points the bonus adds if this seat claims `track`."""
        return self.gain_of([track])

    def gain_of(self, tracks: Sequence[Track]) -> float:
        """Expected margin points the bonus adds if this seat claims all of `tracks`."""
        return self.swing * (self.chance(longest_trail([*self.mine, *tracks])[0]) - self.now)
