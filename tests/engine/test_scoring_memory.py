"""Final scoring leaves no reference cycles: what its searches build is freed as they return, not
left to the garbage collector (whose collections were 15 % of the costliest Europe scorings when
every recursive closure kept its own frame's data alive)."""

import gc

import pytest

from benchmarks.engine_bench import KNOWN_COSTLY_STATES, SEATS, _known_state, _scoring_state, play_random
from engine.scoring import final_scores

MAPS = ("usa", "europe", "nederland", "switzerland", "nordic", "marklin")


def _garbage(score) -> int:
    """How many objects only the garbage collector frees after `score()`."""
    gc.collect()
    gc.disable()
    try:
        score()
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("map_id", MAPS)
def test_finished_games_score_without_garbage(map_id):
    for seed in range(3):
        game = play_random(map_id, SEATS.get(map_id, 4), seed)
        assert _garbage(lambda game=game: final_scores(game)) == 0


def test_costly_europe_states_score_without_garbage():
    """Their networks go through the bounded trail search (block bounds, pairing, leftovers) and
    deep station choices."""
    for known in KNOWN_COSTLY_STATES["europe"]:
        game = _scoring_state(**_known_state("europe", known))
        assert _garbage(lambda game=game: final_scores(game)) == 0
