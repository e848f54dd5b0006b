"""The words players read: turn accounts stay short and never name a blind card."""

from bot.present import describe, merge_turn
from engine import DrawDeck, DrawMarket
from tests.engine.helpers import arrange, started

NAMES = ["Anna", "Ben", "Cleo"].__getitem__


def test_a_two_step_draw_is_one_line_and_blind_cards_stay_hidden():
    game = started()
    arrange(game, market="red blue green white black", deck_top="yellow orange loco")
    notes = describe(game, game.apply(0, DrawMarket(0)), NAMES)
    notes += describe(game, game.apply(0, DrawDeck()), NAMES)
    line = merge_turn(notes, 0, NAMES)
    assert line == "**Anna** drew a face-up 🟥 red and a card from the deck"
    notes = describe(game, game.apply(1, DrawDeck()), NAMES) + describe(game, game.apply(1, DrawDeck()), NAMES)
    assert merge_turn(notes, 1, NAMES) == "**Ben** drew 2 cards from the deck"


def test_claim_line_names_route_length_payment_and_points():
    from engine import Claim
    from engine.cards import card_index

    game = started()
    arrange(game, hands={0: "blue blue blue blue loco"})
    line = describe(game, game.apply(0, Claim("atlanta-miami", card_index("blue"), 1)), NAMES)[0]
    assert line == "**Anna** claimed Atlanta – Miami (5) with 4 blue + 1 loco · +10"
