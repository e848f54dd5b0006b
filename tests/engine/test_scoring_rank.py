"""Final scores are built once with their places (`final_scores`), and `rank()` redoes only the
places that changed: both must give the competition ranking by total then the map's tie-breaks."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.scoring import PlayerScore, TicketResult, final_scores, rank
from tests.engine.test_scoring_trail import MAPS


def _key(game: Game, s: PlayerScore) -> tuple:
    keys = {"tickets": s.completed, "fewer_stations": -len(game.stations[s.seat]), "longest": s.longest}
    return (s.total, *(keys[rule] for rule in game.map.rules.tie_breaks))


def _places(game: Game, scores: list[PlayerScore]) -> list[int]:
    """Plainly: one more than the number of scores with a higher key."""
    return [1 + sum(_key(game, o) > _key(game, s) for o in scores) for s in scores]


@settings(max_examples=30)
@given(
    st.sampled_from(MAPS),
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=3
    ),
)
def test_rank_gives_competition_places_and_keeps_unchanged_scores(map_id, rows):
    """Few distinct values, so ties on the total and on each tie-break are common; some scores come
    in with their right place already (kept as they are), the others with a wrong one; 2-3 seats
    (every map allows them)."""
    game = Game.new(map_id, len(rows), 0)
    scores = []
    for seat, (total, completed, longest, stations) in enumerate(rows):
        game.stations[seat][:] = list(range(10 * seat, 10 * seat + stations))
        tickets = tuple(TicketResult(i, 1, i < completed) for i in range(2))
        scores.append(PlayerScore(seat, 0, tickets, 0, (), 0, longest, (), total=total, rank=(seat * 7) % 3 + 1))
    ranked = rank(game, scores)
    assert [s.rank for s in ranked] == _places(game, scores)
    for before, after in zip(scores, ranked):
        assert (after is before) == (before.rank == after.rank)
        assert after == replace(before, rank=after.rank)


def test_final_scores_places_match_rank_on_finished_games():
    """Nederland's and Märklin's hooks change totals after the places are first given."""
    from benchmarks.engine_bench import play_random

    for map_id in [*MAPS, "nederland"]:
        game = play_random(map_id, 3, 1)
        final = final_scores(game)
        assert [s.rank for s in final] == _places(game, final)
        assert all(a is b for a, b in zip(rank(game, final), final))
