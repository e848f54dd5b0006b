"""Nederland's toll bonus as the expert's search foresees it (`ai/tolls.py`): each seat's money as
the public claims tell it, a sampled game holding that money, and each seat's expected bonus."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ai import GameInfo, legal_for
from ai.baseline import BaselinePlayer
from ai.board import Board
from ai.expert import ExpertPlayer
from ai.simulate import determinize
from ai.tolls import expected_bonus, money_from_claims
from engine import Game, GameOptions

TABLE_4 = [55, 35, 20, 0]


def nederland_views(seats=4, seed=11, every=15):
    """A Nederland game played by the baseline, paused every `every` plies: (game, seat to move)."""
    game = Game.new("nederland", seats, seed, GameOptions(first_seat=0))
    players = [BaselinePlayer(s) for s in range(seats)]
    plies = 0
    while not game.is_over():
        seat = game.to_move()[0]
        if plies % every == 0 and game.stage is None and game.tunnel is None:
            yield game, seat
        game.apply(seat, players[seat].choose(game.view(seat), legal_for(game, seat), GameInfo.from_game(game, seat)))
        plies += 1


def shared_doubles(game: Game, seat: int) -> float:
    """Half the tolls of the doubles `seat` shares with another seat: where the estimate may err."""
    owner = game.owner
    return sum(
        t.toll / 2
        for t in game.map.tracks
        if owner[t.index] == seat and t.double is not None and 0 <= owner[t.double] < game.seats
    )


def test_the_claims_tell_each_seats_money_but_for_who_took_a_shared_double_first():
    exact = off = 0
    for game, seat in nederland_views():
        board = Board(game.view(seat), GameInfo.from_game(game, seat))
        money = money_from_claims(board)
        truth = game.hooks.money
        assert money[seat] == truth[seat]  # its own, from its private view
        for o in range(game.seats):
            if o == seat or game.hooks.loans[o]:
                continue  # a Loan's claim paid nothing: there the claims overstate what was paid
            err = shared_doubles(game, o)
            assert abs(money[o] - truth[o]) <= err
            if err == 0:
                assert money[o] == truth[o]
                exact += any(owner == o for owner in game.owner)
            else:
                off += 1
    assert exact and off  # both cases met in this game


def test_a_sampled_game_gives_each_opponent_the_money_its_claims_tell():
    """Before, every opponent was sampled holding this seat's own money."""
    views = list(nederland_views(every=40))
    game, seat = views[len(views) // 2]
    info = GameInfo.from_game(game, seat)
    board = Board(game.view(seat), info)
    told = [max(0, int(v)) for v in money_from_claims(board)]
    assert len(set(told)) > 1
    for k in range(3):
        sampled = determinize(game.view(seat), info, random.Random(k))
        assert sampled.hooks.money == told
        assert sum(sampled.hooks.money) + sampled.hooks.bank == 30 * game.seats


def test_the_rule_books_example_with_nothing_left_to_spend():
    """docs/rules.md §4.3: 9 and 9 share the first rank, a Loan scores −5, 1 is third."""
    assert expected_bonus([9, 9, 4, 1], [0, 0, 1, 0], TABLE_4, 5, 0) == [55, 55, -5, 20]


money = st.lists(st.integers(min_value=0, max_value=40).map(float), min_size=2, max_size=5)


@given(money, st.floats(min_value=0.5, max_value=20))
def test_more_money_never_expects_less_and_every_share_is_a_bonus_of_the_table(held, spread):
    table = {2: [35, 0], 3: [55, 35, 0], 4: TABLE_4, 5: [55, 35, 20, 10, 0]}[len(held)]
    shares = expected_bonus(held, [0] * len(held), table, 5, spread)
    for a in range(len(held)):
        assert min(table) - 1e-9 <= shares[a] <= max(table) + 1e-9
        for b in range(len(held)):
            if held[a] > held[b]:
                assert shares[a] > shares[b]
            if held[a] == held[b]:
                assert abs(shares[a] - shares[b]) < 1e-9


def test_the_searchs_valuation_counts_the_money_a_seat_keeps():
    """The same position with 5 less in this seat's purse is worth less to the search; before,
    money counted for nothing there (while every toll, 4 at most, stays payable, its plans are
    the same)."""
    game, seat = next((g, s) for g, s in nederland_views(every=10) if s in g.owner and g.hooks.money[s] >= 9)
    expert = ExpertPlayer(1)
    infos = [GameInfo.from_game(game, s) for s in range(game.seats)]
    state = game.to_json()
    poorer = Game.from_json(state)
    poorer.hooks.money[seat] -= 5
    poorer.hooks.bank += 5
    assert expert.outlook(poorer, seat, infos) < expert.outlook(Game.from_json(state), seat, infos) - 1
