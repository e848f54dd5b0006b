"""The weakest player: a uniformly random legal action (the yardstick for the baseline)."""

from __future__ import annotations

import random
from typing import Sequence

from engine import Action

from ai.base import GameInfo


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int | str | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal: Sequence[Action], info: GameInfo) -> Action:
        return legal[self.rng.randrange(len(legal))]
