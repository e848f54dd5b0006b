"""Tournament pairings and standings (storage/pairings.py, pure): the invariants of seating, points,
standings and whole tournaments of each format played with random results."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import pairings
from storage.pairings import (
    ELIMINATION,
    GROUPS,
    STAGE_KNOCKOUT,
    SWISS,
    PairingError,
    Rules,
    TableResult,
    meetings,
    next_round,
    repeats,
    standings,
    swiss_tables,
    table_points,
    table_sizes,
)


@given(st.integers(2, 60), st.integers(2, 5), st.integers(0, 3))
def test_table_sizes_are_few_even_and_within_the_limits(players, smallest, spread):
    largest = max(smallest + spread, 3)  # (tables of exactly 2 cannot seat an odd number)
    sizes = table_sizes(players, smallest, largest)
    fits = -(-players // largest) * smallest <= players  # the fewest tables of `largest` can be filled
    assert sum(sizes) == players and all((smallest if fits else 2) <= s <= largest for s in sizes)
    assert (
        len(sizes) == -(-players // largest) and max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    )
    with pytest.raises(PairingError):
        table_sizes(1, 2, largest)


@given(st.lists(st.integers(1, 5), min_size=2, max_size=5))
def test_table_points_share_ties_and_always_add_up_to_the_same(ranks):
    ranks = [1 + sum(r < x for r in ranks) for x in ranks]  # competition ranks (1, 1, 3)
    points = table_points(ranks)
    assert sum(points) == pytest.approx(3.0 * len(ranks) / 2)
    for a, b in zip(ranks, points):
        for c, d in zip(ranks, points):
            assert (a < c) <= (b > d) and (a == c) <= (b == d)
    if ranks.count(1) == 1:
        assert points[ranks.index(1)] == 3.0


def _history(rng: random.Random, players: list[int], rounds: int) -> list[TableResult]:
    results = []
    for number in range(1, rounds + 1):
        rng.shuffle(players)
        for size_start in range(0, len(players) - len(players) % 4, 4):
            table = tuple(players[size_start : size_start + 4])
            results.append(TableResult(number, SWISS, table, (1, 2, 3, 4), (40, 30, 20, 10)))
    return results


@given(st.integers(6, 24), st.integers(0, 3), st.randoms(use_true_random=False))
def test_swiss_tables_seat_everyone_once_and_no_single_swap_lowers_the_repeats(n, rounds, rng):
    order = list(range(100, 100 + n))
    met = meetings(_history(rng, list(order), rounds))
    tables = swiss_tables(order, met, 3, 4)
    assert sorted(u for t in tables for u in t) == order
    assert sorted((len(t) for t in tables), reverse=True) == table_sizes(n, 3, 4)
    assert tables == swiss_tables(order, met, 3, 4)  # deterministic
    total = sum(repeats(t, met) for t in tables)
    for i, a in enumerate(tables):
        for j, b in enumerate(tables[i + 1 :], start=i + 1):
            for x in a:
                for y in b:
                    swapped = [tuple(y if u == x else u for u in a), tuple(x if u == y else u for u in b)]
                    rest = sum(repeats(t, met) for k, t in enumerate(tables) if k not in (i, j))
                    assert rest + sum(repeats(t, met) for t in swapped) >= total
    if not met:  # the first round: plain slices of the standings
        assert [u for t in tables for u in t] == order


def test_swiss_avoids_every_repeat_when_a_seating_allows_it():
    """16 players in tables of 4: round 2 can seat each table with one player of each first table."""
    order = list(range(16))
    first = [TableResult(1, SWISS, tuple(order[i : i + 4]), (1, 2, 3, 4), (4, 3, 2, 1)) for i in range(0, 16, 4)]
    tables = swiss_tables(order, meetings(first), 3, 4)
    assert sum(repeats(t, meetings(first)) for t in tables) == 0


@given(st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_the_order_of_the_tables(rng):
    players = list(range(1, 13))
    results = [
        TableResult(
            r.round,
            r.stage,
            r.players,
            tuple(rng.sample(range(1, 5), 4)),
            tuple(rng.randrange(0, 150) for _ in range(4)),
        )
        for r in _history(rng, list(players), 3)
    ]
    shuffled = list(results)
    rng.shuffle(shuffled)
    table = standings(players, results)
    assert table == standings(players, shuffled)
    assert sorted(s.user_id for s in table) == players
    assert [s.place for s in table] == sorted(s.place for s in table)
    assert sum(s.points for s in table) == pytest.approx(3.0 * 4 / 2 * len(results))
    keys = [(-s.points, -s.score, -s.strength) for s in table]
    assert keys == sorted(keys)


def test_tie_breaks_points_then_score_then_opponents_strength():
    # a and b both won once and came last once with equal scores: b met the stronger opponents
    results = [
        TableResult(1, SWISS, (1, 3, 4), (1, 2, 3), (50, 40, 30)),
        TableResult(1, SWISS, (2, 5, 6), (1, 2, 3), (50, 40, 30)),
        TableResult(2, SWISS, (3, 4, 1), (1, 2, 3), (60, 50, 30)),
        TableResult(2, SWISS, (5, 6, 2), (1, 2, 3), (60, 50, 30)),
        TableResult(3, SWISS, (6, 7, 8), (1, 2, 3), (10, 5, 1)),
    ]
    table = standings([1, 2, 3, 4, 5, 6, 7, 8], results)
    rows = {s.user_id: s for s in table}
    assert rows[1].points == rows[2].points and rows[1].score == rows[2].score
    assert rows[2].strength > rows[1].strength and rows[2].place < rows[1].place
    # 5 and 6 have equal points: 5 scored more in the games
    assert rows[5].points == rows[6].points and rows[5].score > rows[6].score and rows[5].place < rows[6].place
    assert rows[3].points > rows[1].points and rows[3].place < rows[1].place  # points come first


def _play(rules: Rules, entrants: list[int], rng: random.Random, drop: int | None = None) -> list:
    results, plans = [], []
    dropped: set[int] = set()
    while (plan := next_round(rules, entrants, results, dropped=dropped)) is not None:
        plans.append(plan)
        seated = [u for t in plan.tables for u in t.players]
        assert len(seated) == len(set(seated)) and not set(seated) & dropped
        assert all(2 <= len(t.players) <= rules.largest for t in plan.tables)
        for t in plan.tables:
            ranks = tuple(rng.sample(range(1, len(t.players) + 1), len(t.players)))
            results.append(
                TableResult(
                    plan.number, plan.stage, t.players, ranks, tuple(rng.randrange(0, 120) for _ in t.players), t.group
                )
            )
        if drop is not None and plan.number == 1:
            dropped.add(drop)
        assert len(plans) < 30
    return plans


@given(st.integers(6, 20), st.integers(1, 4), st.randoms(use_true_random=False))
def test_a_swiss_tournament_seats_every_player_still_in_each_round(n, rounds, rng):
    entrants = list(range(1, n + 1))
    plans = _play(Rules(SWISS, rounds=rounds), entrants, rng, drop=2)
    assert [p.number for p in plans] == list(range(1, rounds + 1))
    assert sorted(u for t in plans[0].tables for u in t.players) == entrants
    for plan in plans[1:]:
        assert sorted(u for t in plan.tables for u in t.players) == [u for u in entrants if u != 2]


@given(st.integers(2, 40), st.integers(1, 2), st.randoms(use_true_random=False))
def test_an_elimination_shrinks_every_round_and_ends_with_one_final_table(n, advance, rng):
    plans = _play(Rules(ELIMINATION, smallest=3, largest=4, advance=advance), list(range(1, n + 1)), rng)
    counts = [sum(len(t.players) for t in p.tables) for p in plans]
    assert counts[0] == n and counts == sorted(counts, reverse=True) and len(set(counts)) == len(counts)
    assert plans[-1].final and all(p.stage == STAGE_KNOCKOUT for p in plans)


@given(st.integers(6, 24), st.randoms(use_true_random=False))
def test_groups_play_their_rounds_in_pods_then_a_knockout(n, rng):
    rules = Rules(GROUPS, smallest=3, largest=4, rounds=2, advance=1, group_size=6)
    entrants = list(range(1, n + 1))
    plans = _play(rules, entrants, rng)
    pods = pairings.group_of(entrants, rules)
    for plan in plans[:2]:
        for t in plan.tables:
            assert {pods[u] for u in t.players} == {t.group}
    assert all(p.stage == STAGE_KNOCKOUT for p in plans[2:])
    if len(set(pods.values())) == 1:  # one pod: its leader after its rounds is the champion
        assert len(plans) == 2
    else:
        assert plans[-1].final and sum(len(t.players) for t in plans[2].tables) == len(set(pods.values()))


def test_the_module_imports_no_sql():
    tree = ast.parse(Path(pairings.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert {name.split(".")[0] for name in imported} <= {
        "__future__",
        "collections",
        "dataclasses",
        "itertools",
        "storage",
    }
    assert {name for name in imported if name.startswith("storage")} == {"storage.ratings"}
