"""Märklin's words (docs/rules.md §8): the ticket mix, passengers placed and moved, the +4 and
passenger cards, the merchandise bonus, in every language."""

import re

import pytest

from engine import Claim, DrawTickets
from engine.actions import Move, Resign
from engine.cards import LOCO4, PASSENGER, card_index
from i18n import translator
from tests.engine.test_rules_marklin import own, place, set_hand, stack, started
from texts.present import card, describe, final_fields, hand_text, private_summary

NAMES = ["Anna", "Ben", "Cleo"].__getitem__
EN = translator("en")


def test_a_ticket_draw_says_the_mix_the_player_named():
    game = started()
    line = describe(EN, game, game.apply(0, DrawTickets(3)), NAMES)
    assert line == ["**Anna** drew 4 destination tickets (long: 3, short: 1)"]


def test_a_claim_with_a_passenger_and_a_move_are_worded():
    game = started()
    set_hand(game, 0, "orange orange orange")
    lines = describe(EN, game, game.apply(0, Claim("bremen-hamburg", card_index("orange"), 0, (), "hamburg")), NAMES)
    assert lines[-1] == "🧳 **Anna** put a passenger in Hamburg"
    own(game, 1, "bremen", "hannover")
    place(game, 1, "bremen")
    set_hand(game, 1, "passenger")
    tops = stack(game, "bremen")[-1], stack(game, "hannover")[-1]
    lines = describe(EN, game, game.apply(1, Move(("bremen", "hannover"), 0)), NAMES)
    assert lines == [
        f"🧳 **Ben** moved a passenger Bremen → Hannover (0 passenger cards): tokens "
        f"{tops[0]} + {tops[1]} → +{sum(tops)}"
    ]


@pytest.mark.parametrize("language", ["ru", "zh"])
def test_marklin_words_are_translated(language):
    t = translator(language)
    assert not re.search(r"[A-Za-z]{4,}", card(t, LOCO4) + card(t, PASSENGER))
    game = started()
    line = describe(t, game, game.apply(0, DrawTickets(2)), NAMES)[0]
    assert "Anna" in line and "2" in line and "tickets" not in line


def test_hand_and_summary_show_the_new_cards_passengers_and_tokens():
    game = started()
    set_hand(game, 0, "loco4 passenger passenger red")
    place(game, 0, "kiel")
    game.hooks.tokens[0] = [3, 2]
    text = hand_text(EN, game.view(0))
    assert "🚂 +4 locomotive ×1" in text and "🧳 passenger ×2" in text
    summary = private_summary(EN, game, 0)
    assert "passengers to place: 2 · waiting in Kiel · tokens 3 + 2 (5)" in summary


def test_final_breakdown_names_the_merchandise_bonus():
    game = started(2)
    game.hooks.tokens[0] = [7, 3]
    game.apply(1, Resign())
    body = dict(final_fields(EN, game, NAMES))
    first = next(b for title, b in body.items() if "Anna" in title)
    assert "merchandise +10" in first.splitlines()[0]
