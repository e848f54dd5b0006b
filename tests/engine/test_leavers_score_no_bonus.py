"""A seat that resigned or was removed takes no end-of-game bonus, on every map, and the bonuses
that go to the best player are contested by the seats that stayed (docs/rules.md §1.8): the
player with the longest trail (or the most money, or tokens) leaves, and the best of the others
scores the bonus instead."""

from __future__ import annotations

import random

import pytest

from engine import Game, GameOptions, Remove, Resign, available_maps
from engine.scoring import final_scores
from engine.trail import longest_trail

#: Bonuses the best seat wins (a leaver never holds them); penalties are not bonuses.
CONTESTED = {"longest_path", "globetrotter", "toll_bonus"}
VARIANTS = {"switzerland": {"most_tickets": True}}


def _longest(game: Game, seat: int) -> int:
    return longest_trail([t for t in game.map.tracks if game.owner[t.index] == seat])[0]


def _play_until_one_leaves(map_id: str, seed: int, *, removed: bool) -> tuple[Game, int]:
    """A random 3-seat game; near its end (a seat down to 12 trains) the seat with the longest trail
    leaves (resigns, or the table removes it); the others play on to the end."""
    game = Game.new(map_id, 3, seed, GameOptions(variants=VARIANTS.get(map_id, {})))
    rng = random.Random(seed)
    leaver = None
    while not game.is_over():
        if leaver is None and game.phase == "playing" and min(game.trains) <= 12:
            leaver = max(range(3), key=lambda s: (_longest(game, s), -s))
            if removed:
                game.apply(None, Remove(leaver))
            else:
                game.apply(leaver, Resign())
            continue
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    assert leaver is not None, "the game ended before anyone left"
    return game, leaver


@pytest.mark.parametrize("map_id", available_maps())
@pytest.mark.parametrize("removed", [False, True], ids=["resigned", "removed"])
def test_a_leaver_takes_no_end_bonus_and_the_others_contest_them(map_id, removed):
    for seed in range(3):
        game, leaver = _play_until_one_leaves(map_id, seed, removed=removed)
        scores = {s.seat: s for s in final_scores(game)}
        assert not [k for k, v in scores[leaver].bonuses.items() if v > 0], scores[leaver].bonuses
        stayed = [s for s in scores if s != leaver]
        best = max(scores[s].longest for s in stayed)
        for seat in stayed:
            if "longest_path" in scores[seat].bonuses:
                assert scores[seat].longest == best > 0
        if game.hooks.end_bonuses(game, game.deck_rules)[0] and best > 0:
            assert any("longest_path" in scores[s].bonuses for s in stayed)  # someone who stayed takes it
        if map_id == "marklin":
            assert "merchandise" not in scores[leaver].bonuses
        for seat in stayed:  # the rest of their score is as it was
            assert set(scores[seat].bonuses) <= CONTESTED | {"loans", "merchandise"}
