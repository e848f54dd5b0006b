"""Undo (issue 8): only the mover's last action, right after it, never one that revealed a card."""

import random

import pytest

from engine import BuildStation, Claim, DrawDeck, DrawTickets, Game, IllegalActionError, Undo
from engine.cards import card_index
from engine.turns import effective_log
from tests.engine.helpers import arrange, started, track_between


def first_undoable(map_id: str, seed: int):
    game = Game.new(map_id, 3, seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        actions = game.legal_actions(seat, collapse_payments=True)
        claims = [a for a in actions if isinstance(a, (Claim, BuildStation))]
        action = rng.choice(claims) if claims and rng.random() < 0.5 else rng.choice(actions)
        before = game.to_json()
        game.apply(seat, action)
        if game.is_legal(seat, Undo()):
            return game, seat, before
    raise AssertionError("no undoable move came up")


@pytest.mark.parametrize("map_id,seed", [("usa", 3), ("europe", 5), ("nederland", 7)])
def test_undo_restores_the_state_and_replay_agrees(map_id, seed):
    game, seat, before = first_undoable(map_id, seed)
    game.apply(seat, Undo())
    after = game.to_json()
    assert {k for k in before if before[k] != after[k]} <= {"plies", "decisions"}
    assert isinstance(game.log[-1][1], Undo) and len(effective_log(game.log)) == len(game.log) - 2
    assert Game.replay(map_id, 3, seed, None, game.log).to_json() == after


def test_undo_is_refused_for_reveals_for_others_and_once_the_next_player_moved():
    game, seat, _ = first_undoable("usa", 3)
    nxt = game.current
    with pytest.raises(IllegalActionError, match="only your own last move"):
        game.apply(nxt, Undo())
    game.apply(nxt, DrawDeck())  # a card was revealed to the next player: too late now
    with pytest.raises(IllegalActionError):
        game.apply(seat, Undo())
    game = started()
    game.apply(0, DrawTickets())
    with pytest.raises(IllegalActionError):
        game.apply(0, Undo())


def test_a_claim_that_deals_a_market_card_cannot_be_undone():
    game = started()
    arrange(game, hands={0: "red red"}, market="red blue", deck_top="green green green")
    game.apply(0, Claim(track_between(game, "Atlanta", "Charleston").id, card_index("red"), 0))
    assert not game.is_legal(0, Undo())  # the empty slots were dealt at the end of the turn
