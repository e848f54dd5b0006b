"""AI players (pure Python on top of `engine`; no Discord, SQL or Pillow). See docs/ai.md.

from ai import make_ai, ask
bot = make_ai("baseline", seed=1)     # "random", "gentle", "baseline", "strong" or "expert"
game.apply(seat, ask(bot, game, seat))
"""

from __future__ import annotations

from collections.abc import Callable

from ai.base import GameInfo, Player, ask, legal_for
from ai.baseline import BaselinePlayer
from ai.expert import ExpertPlayer
from ai.gentle import GentlePlayer
from ai.random_player import RandomPlayer
from ai.strong import StrongPlayer

#: AI players by name; each factory takes a seed.
players: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "gentle": GentlePlayer,
    "baseline": BaselinePlayer,
    "strong": StrongPlayer,
    "expert": ExpertPlayer,
}


def make_ai(name: str, seed: int | str | None = 0, **params: object) -> Player:
    """A new AI player of the named strength (KeyError naming the choices if unknown); `params`
    set its class attributes for experiments (`make_ai("strong", 1, ROLLOUTS=0)`)."""
    try:
        factory = players[name]
    except KeyError:
        raise KeyError(f"unknown AI {name!r}; choose one of {', '.join(players)}") from None
    return factory(seed, **params)


__all__ = [
    "BaselinePlayer",
    "ExpertPlayer",
    "GameInfo",
    "GentlePlayer",
    "Player",
    "RandomPlayer",
    "StrongPlayer",
    "ask",
    "legal_for",
    "make_ai",
    "players",
]
