"""The rating maths without a database: openskill's invariants as the leagues rely on them, and
the module's promise to know no SQL."""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import models, ratings
from storage.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    OVERALL,
    GameResult,
    compute_ratings,
    displayed,
    rating_places,
    unrated_reason,
)
from storage.ratings import game_results as results_of

USERS = range(1, 7)
MAPS = ("usa", "europe")


def competition_ranks(scores: list[int]) -> list[int]:
    """1 + how many did better: equal scores share a rank (1, 1, 3)."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


@st.composite
def game_results(draw, game_id: int = 1) -> GameResult:  # type: ignore[no-untyped-def]
    users = draw(st.lists(st.sampled_from(USERS), min_size=2, max_size=5, unique=True))
    scores = draw(st.lists(st.integers(0, 3), min_size=len(users), max_size=len(users)))
    return GameResult(game_id, draw(st.sampled_from(MAPS)), tuple(zip(users, competition_ranks(scores))))


@st.composite
def seasons(draw) -> list[GameResult]:  # type: ignore[no-untyped-def]
    n = draw(st.integers(1, 6))
    return [draw(game_results(game_id=i)) for i in range(1, n + 1)]


def state(run, user: int, scope: str = OVERALL) -> tuple[float, float, int, int]:  # type: ignore[no-untyped-def]
    s = run.ratings[(scope, user)]
    return s.mu, s.sigma, s.games, s.wins


@given(seasons())
def test_deterministic(games: list[GameResult]) -> None:
    first, again = compute_ratings(games), compute_ratings(list(games))
    assert first.ratings == again.ratings and first.changes == again.changes


@given(seasons(), st.randoms(use_true_random=False))
def test_the_order_seats_are_listed_in_does_not_matter(games: list[GameResult], rng) -> None:  # type: ignore[no-untyped-def]
    shuffled = []
    for game in games:
        places = list(game.places)
        rng.shuffle(places)
        shuffled.append(GameResult(game.game_id, game.map_id, tuple(places)))
    a, b = compute_ratings(games), compute_ratings(shuffled)
    assert a.ratings.keys() == b.ratings.keys()
    for key in a.ratings:
        assert a.ratings[key].mu == pytest.approx(b.ratings[key].mu, abs=1e-9)
        assert a.ratings[key].sigma == pytest.approx(b.ratings[key].sigma, abs=1e-9)


@given(st.integers(2, 5), st.integers(1, 5))
def test_equal_players_with_equal_results_stay_equal(players: int, tied: int) -> None:
    """Tied players who start equal end equal, whoever is listed first."""
    tied = min(tied, players)
    places = tuple((user, 1 if n < tied else n + 1) for n, user in enumerate(range(1, players + 1)))
    run = compute_ratings([GameResult(1, "usa", places)])
    winners = {state(run, u)[:2] for u, rank in places if rank == 1}
    assert len(winners) == 1
    if tied == players:  # everyone tied: nothing learned about the order, mu unchanged
        assert all(run.ratings[(OVERALL, u)].mu == pytest.approx(DEFAULT_MU) for u, _ in places)


@given(st.floats(0.0, 50.0), st.floats(0.5, 10.0), st.floats(0.0, 50.0), st.floats(0.5, 10.0))
def test_in_a_two_player_game_the_winner_never_loses_mu_and_the_loser_never_gains(
    mu_w: float, sigma_w: float, mu_l: float, sigma_l: float
) -> None:
    priors = {(OVERALL, 1): (mu_w, sigma_w), (OVERALL, 2): (mu_l, sigma_l)}
    run = compute_ratings([GameResult(1, "usa", ((1, 1), (2, 2)))], priors)
    assert run.ratings[(OVERALL, 1)].mu >= mu_w
    assert run.ratings[(OVERALL, 2)].mu <= mu_l
    assert (run.ratings[(OVERALL, 1)].wins, run.ratings[(OVERALL, 2)].wins) == (1, 0)


def test_two_new_players_the_winner_gains_displayed_rating_the_loser_drops() -> None:
    run = compute_ratings([GameResult(1, "usa", ((1, 1), (2, 2)))])
    assert displayed(DEFAULT_MU, DEFAULT_SIGMA) == pytest.approx(0.0)
    assert run.ratings[(OVERALL, 1)].mu > DEFAULT_MU > run.ratings[(OVERALL, 2)].mu
    assert displayed(run.ratings[(OVERALL, 1)].mu, run.ratings[(OVERALL, 1)].sigma) > 0


@given(game_results(), st.floats(1.0, 10.0), st.floats(0.0, 50.0))
def test_equal_uncertainty_conserves_the_sum_of_mu(game: GameResult, sigma: float, mu: float) -> None:
    """Plackett–Luce moves mu by sigma²·(a gradient that sums to zero): with one sigma for all,
    what the winners gain the losers lose."""
    priors = {(scope, u): (mu, sigma) for u, _ in game.places for scope in (OVERALL, game.map_id)}
    run = compute_ratings([game], priors)
    total = sum(run.ratings[(OVERALL, u)].mu for u, _ in game.places)
    assert total == pytest.approx(mu * len(game.places), abs=1e-6)


@given(st.permutations(range(1, 6)), st.integers(2, 5))
def test_from_equal_starts_a_better_rank_ends_higher(ranks: list[int], players: int) -> None:
    places = tuple(zip(USERS, sorted(ranks[:players])))  # distinct ranks: see the tie test below
    run = compute_ratings([GameResult(1, "usa", places)])
    mus = [run.ratings[(OVERALL, u)].mu for u, _ in places]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == len(mus)


@pytest.mark.xfail(
    strict=True,
    reason="openskill 6.2 Plackett-Luce ties (vivekjoshy/openskill.py#155, PR #176): "
    "the player after a shared first place gains as much as the winners",
)
def test_after_a_tie_for_first_the_third_ends_below_the_winners() -> None:
    run = compute_ratings([GameResult(1, "usa", ((1, 1), (2, 1), (3, 3), (4, 4)))])
    assert run.ratings[(OVERALL, 3)].mu < run.ratings[(OVERALL, 1)].mu


@given(seasons())
def test_counts_changes_and_ladders_add_up(games: list[GameResult]) -> None:
    run = compute_ratings(games)
    for (scope, user), s in run.ratings.items():
        played = [g for g in games if scope in (OVERALL, g.map_id) and any(u == user for u, _ in g.places)]
        assert s.games == len(played)
        assert s.wins == sum(1 for g in played for u, r in g.places if u == user and r == 1)
        chain = [c for c in run.changes if c["scope"] == scope and c["user_id"] == user]
        assert [c["game_id"] for c in chain] == [g.game_id for g in played]
        assert (chain[0]["mu_before"], chain[0]["sigma_before"]) == (DEFAULT_MU, DEFAULT_SIGMA)
        for before, after in pairwise(chain):
            assert (before["mu_after"], before["sigma_after"]) == (after["mu_before"], after["sigma_before"])
        assert (chain[-1]["mu_after"], chain[-1]["sigma_after"]) == (s.mu, s.sigma)
        assert math.isfinite(s.mu) and s.sigma > 0
    one_map = [GameResult(g.game_id, "usa", g.places) for g in games]
    same = compute_ratings(one_map)
    for (scope, user), s in same.ratings.items():
        assert (s.mu, s.sigma) == state(same, user, "usa" if scope == OVERALL else OVERALL)[:2]


@given(seasons(), st.floats(0.0, 50.0), st.floats(1.0, 10.0))
def test_priors_seed_only_the_players_they_name(games: list[GameResult], mu: float, sigma: float) -> None:
    first = games[0].places[0][0]
    run = compute_ratings(games, {(OVERALL, first): (mu, sigma)})
    chain = [c for c in run.changes if c["scope"] == OVERALL]
    assert next((c["mu_before"], c["sigma_before"]) for c in chain if c["user_id"] == first) == (mu, sigma)
    for user in {c["user_id"] for c in chain} - {first}:
        assert next((c["mu_before"], c["sigma_before"]) for c in chain if c["user_id"] == user) == (
            DEFAULT_MU,
            DEFAULT_SIGMA,
        )


@dataclass
class Seat:
    user_id: int | None
    rank: int | None = None
    left: str | None = None
    ai: str | None = None


@given(st.lists(st.tuples(st.integers(0, 200), st.sampled_from([None, "removed", "resigned"])), min_size=2, max_size=5))
def test_rating_places_leavers_share_the_last_rank_the_others_keep_their_order(
    seats_drawn: list[tuple[int, str | None]],
) -> None:
    scores = [score for score, _ in seats_drawn]
    seats = [
        Seat(user_id=100 + n, rank=rank, left=left)
        for n, ((_, left), rank) in enumerate(zip(seats_drawn, competition_ranks(scores)))
    ]
    places = dict(rating_places(seats))
    stayed = [s for s in seats if s.left is None]
    for s in seats:
        if s.left is not None:
            assert places[s.user_id] == len(stayed) + 1
    for s in stayed:
        assert places[s.user_id] == 1 + sum(o.rank < s.rank for o in stayed)
    if stayed:
        assert min(places[s.user_id] for s in stayed) == 1


def test_unrated_reasons_are_english_templates_with_their_data() -> None:
    @dataclass
    class Record:
        status: str
        map_id: str

    @dataclass
    class Rules:
        maps: list
        player_counts: list

    seats = [Seat(1), Seat(2)]
    rules = Rules(["europe", "usa"], [3, 4])
    reason = unrated_reason(Record(models.FINISHED, "nordic"), seats, rules)
    assert (str(reason), reason.template, reason.params) == (
        "map nordic not in the season",
        "map {map} not in the season",
        {"map": "nordic"},
    )
    assert str(unrated_reason(Record(models.FINISHED, "usa"), seats, rules)) == "2 players not allowed"
    assert unrated_reason(Record(models.FINISHED, "usa"), [*seats, Seat(3)], rules) is None
    assert str(unrated_reason(Record(models.ABANDONED, "usa"), [*seats, Seat(3)], rules)) == "abandoned"
    assert str(unrated_reason(Record(models.FINISHED, "usa"), [*seats, Seat(None)], rules)) == "AI seats"
    assert str(unrated_reason(Record(models.FINISHED, "usa"), [*seats, Seat(2)], rules)) == "a player held two seats"
    assert unrated_reason(Record(models.FINISHED, "nordic"), seats, Rules([], [])) is None


def test_an_early_resign_is_a_loss_for_the_resigner_and_no_game_for_the_other() -> None:
    """The issue's 2-player game resigned after one turn, with a minimum of 5 turns each: the
    resigner loses exactly what losing to the winner costs; the winner has no game at all."""
    seats = [Seat(1, rank=1), Seat(2, rank=2, left="resigned")]
    results = results_of(7, "usa", seats, [1, 1], 5)
    run = compute_ratings(results)
    assert set(run.ratings) == {(OVERALL, 2), ("usa", 2)}
    assert {c["user_id"] for c in run.changes} == {2}
    full = compute_ratings([GameResult(7, "usa", ((1, 1), (2, 2)))])
    assert state(run, 2) == state(full, 2) and state(run, 2)[2:] == (1, 0)
    assert results_of(7, "usa", seats, [5, 5], 5) == [GameResult(7, "usa", ((1, 1), (2, 2)))]
    assert results_of(7, "usa", seats, [1, 1], 0) == [GameResult(7, "usa", ((1, 1), (2, 2)))]
    short = results_of(7, "usa", [Seat(1, rank=1), Seat(2, rank=2)], [3, 3], 5)
    assert (str(short), short.params) == ("fewer than 5 turns each", {"turns": 5})


@given(
    st.lists(
        st.tuples(st.integers(0, 8), st.sampled_from([None, None, "removed", "resigned"])), min_size=2, max_size=5
    ),
    st.integers(1, 6),
)
def test_minimum_play_moves_only_early_leavers_or_a_table_that_played_enough(drawn, min_turns) -> None:  # type: ignore[no-untyped-def]
    seats = [Seat(100 + n, rank=n + 1, left=left) for n, (_, left) in enumerate(drawn)]
    turns = [n for n, _ in drawn]
    results = results_of(1, "usa", seats, turns, min_turns)
    early = {s.user_id for s, n in zip(seats, turns) if s.left and n < min_turns}
    if isinstance(results, ratings.Unrated):
        assert not early and min(turns) < min_turns
        return
    moved = {c["user_id"] for c in compute_ratings(results).changes}
    others = {s.user_id for s in seats} - early
    rest_played = len(others) >= 2 and all(n >= min_turns for s, n in zip(seats, turns) if s.user_id in others)
    assert moved == early | (others if rest_played else set())
    for c in compute_ratings(results).changes:
        if c["user_id"] in early:  # a loss: never a gain
            assert c["mu_after"] <= c["mu_before"]


def test_the_rating_module_imports_no_sql() -> None:
    """Only the standard library, openskill and the error templates (storage's, on the project's one
    base in the pure engine): no sqlalchemy, no sqlmodel."""
    allowed = {"__future__", "collections", "dataclasses", "typing", "openskill", "storage", "engine"}
    for module in (ratings, __import__("storage.errors").errors):
        tree = ast.parse(Path(module.__file__).read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert {name.split(".")[0] for name in imported} <= allowed, module.__name__
        assert {name for name in imported if name.startswith("storage")} <= {"storage.errors"}


def test_a_seat_an_ai_still_kept_warm_at_the_end_counts_as_a_leaver():
    """An AI playing a person's seat when the game ended (storage/stand_ins.py): its player shares
    the last rank whatever the seat scored; an AI's own seat (no user) is not such a seat."""
    seats = [Seat(user_id=1, rank=1, ai="strong"), Seat(user_id=2, rank=2), Seat(user_id=3, rank=3)]
    assert dict(rating_places(seats)) == {1: 3, 2: 1, 3: 2}
    seats[0].ai = None  # they took the seat back before the end: the result is theirs
    assert dict(rating_places(seats)) == {1: 1, 2: 2, 3: 3}
