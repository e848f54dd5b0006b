"""The words players read: turn accounts stay short and never name a blind card."""

from engine import DrawDeck, DrawMarket
from i18n import translator
from tests.engine.helpers import arrange, started
from texts.present import describe, drawn, merge_turn

NAMES = ["Anna", "Ben", "Cleo"].__getitem__
EN = translator("en")


def turn_line(game, seat, *actions, t=EN):
    """Apply a turn's actions for `seat` and word it like the channel message does."""
    notes, draws = [], []
    for action in actions:
        events = game.apply(seat, action)
        notes += describe(t, game, events, NAMES)
        draws += drawn(events)
    return merge_turn(t, notes, draws, seat, NAMES)


def test_a_two_step_draw_is_one_line_and_blind_cards_stay_hidden():
    game = started()
    arrange(game, market="red blue green white black", deck_top="yellow orange loco")
    assert turn_line(game, 0, DrawMarket(0), DrawDeck()) == "**Anna** drew a face-up 🟥 red and a card from the deck"
    assert turn_line(game, 1, DrawDeck(), DrawDeck()) == "**Ben** drew 2 cards from the deck"


def test_claim_line_names_route_length_payment_and_points():
    from engine import Claim
    from engine.cards import card_index

    game = started()
    arrange(game, hands={0: "blue blue blue blue loco"})
    line = describe(EN, game, game.apply(0, Claim("atlanta-miami", card_index("blue"), 1)), NAMES)[0]
    assert line == "**Anna** claimed Atlanta – Miami (5) with 4 blue + 1 loco · +10"
