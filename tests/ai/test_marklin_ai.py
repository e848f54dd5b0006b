"""The AIs play Märklin (docs/rules.md §8) with legal choices only; the baseline and the strong AI
place and move passengers, and the strong AI weighs its moves against the turns it has left."""

from ai import make_ai
from ai.board import Board
from ai.marklin import passenger_move
from ai.match import play_game
from engine import Game
from engine.actions import Move


def test_random_and_baseline_play_marklin_to_the_end():
    game, _ = play_game("marklin", [make_ai("baseline", 1), make_ai("random", 2), make_ai("baseline", 3)], seed=5)
    assert game.is_over() and game.end_reason == "last_round"
    baseline = [s for s in game.final if s.seat in (0, 2)]
    assert all(s.bonuses.get("merchandise", 0) > 0 for s in baseline)  # passengers placed and moved
    assert max(s.total for s in baseline) > next(s.total for s in game.final if s.seat == 1)


def test_strong_moves_all_its_passengers_and_outscores_the_baseline_on_tokens():
    tokens = {"strong": 0, "baseline": 0}
    for seed in range(4):
        lineup = [make_ai("strong", seed), make_ai("baseline", seed)]
        if seed % 2:
            lineup.reverse()
        game, result = play_game("marklin", lineup, seed=seed)
        me = result.names.index("strong")
        view = game.view(me)["players"][me]
        assert view["passengers"] == 0 and view["passengers_placed"] == []  # all placed, all moved
        for seat, name in enumerate(result.names):
            tokens[name] += game.final[seat].bonuses["merchandise"]
    assert tokens["strong"] > tokens["baseline"]


def test_a_small_move_waits_while_turns_remain_and_is_taken_when_they_run_short():
    game = Game.new("marklin", 2, 3)
    board = Board.__new__(Board)  # only what `passenger_move` reads
    board.me, board.last_round = 0, False
    stacks = {c.id: {"stack": [2]} for c in game.map.cities}
    board.view = {"merchandise": stacks, "players": [{"passengers_placed": ["berlin"]}]}
    move = Move(("berlin", "hamburg"), 0)  # 4 token points
    assert passenger_move(board, [move], turns_left=20, worth=18, rush=2) is None
    assert passenger_move(board, [move], turns_left=2, worth=18, rush=2) == move
    board.last_round = True
    assert passenger_move(board, [move], turns_left=20, worth=18, rush=2) == move
