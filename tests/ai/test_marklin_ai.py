"""The random and baseline AIs play Märklin (docs/rules.md §8) with legal choices only; the
baseline places and moves passengers. The strong AI does not play Märklin yet."""

from ai import make_ai
from ai.match import play_game


def test_random_and_baseline_play_marklin_to_the_end():
    game, _ = play_game("marklin", [make_ai("baseline", 1), make_ai("random", 2), make_ai("baseline", 3)], seed=5)
    assert game.is_over() and game.end_reason == "last_round"
    baseline = [s for s in game.final if s.seat in (0, 2)]
    assert all(s.bonuses.get("merchandise", 0) > 0 for s in baseline)  # passengers placed and moved
    assert max(s.total for s in baseline) > next(s.total for s in game.final if s.seat == 1)
