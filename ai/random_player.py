"""The weakest player: a uniformly random legal action (the yardstick for the baseline)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ai.base import GameInfo
from engine import Action


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int | str | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal: Sequence[Action], info: GameInfo) -> Action:
        return legal[self.rng.randrange(len(legal))]
