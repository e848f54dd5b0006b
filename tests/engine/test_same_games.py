"""Seeded games stay the same games, bit for bit, through the engine's speed work (issue 20).

`same_games.json` holds digests of seeded random games made by the engine as of commit 53e1971
(before the fifth speed pass): at every decision, every waiting seat's legal actions (every
payment, and one per color) in order; each action applied and the events it returned; the
final JSON state, log and view. A change that alters any of these on purpose (a rules fix) must
say so and regenerate the file: `PYTHONPATH=$PWD python tests/engine/test_same_games.py`.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from engine import Game

DIGESTS = Path(__file__).with_name("same_games.json")
#: (map, seats, seed): every map, the seat counts that open or close double routes.
GAMES = [
    ("usa", 4, 1),
    ("usa", 2, 2),
    ("europe", 4, 3),
    ("europe", 3, 4),
    ("nederland", 4, 5),
    ("switzerland", 3, 6),
    ("nordic", 3, 7),
    ("marklin", 4, 8),
]


def game_digest(map_id: str, seats: int, seed: int) -> str:
    """Play a seeded random game (choosing among every payment on even plies, one per color on
    odd ones) and hash everything a caller can observe along the way."""
    game = Game.new(map_id, seats, seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not game.is_over():
        waiting = game.to_move()
        for seat in waiting:
            digest.update(repr((seat, game.legal_actions(seat), game.legal_actions(seat, True))).encode())
        seat = waiting[0]
        actions = game.legal_actions(seat, collapse_payments=len(game.log) % 2 == 1)
        action = rng.choice(actions)
        digest.update(repr((seat, action, game.apply(seat, action))).encode())
    digest.update(json.dumps([game.to_json(), repr(game.log), game.view(0), game.view(None)], sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("map_id", "seats", "seed"), GAMES)
def test_seeded_games_are_the_reference_games(map_id, seats, seed):
    expected = json.loads(DIGESTS.read_text())[f"{map_id}/{seats}/{seed}"]
    assert game_digest(map_id, seats, seed) == expected


if __name__ == "__main__":
    DIGESTS.write_text(
        json.dumps({f"{m}/{n}/{s}": game_digest(m, n, s) for m, n, s in GAMES}, indent=1, sort_keys=True) + "\n"
    )
