"""Issue 34's words: a player's own moves in the second person, one tense in the turn accounts,
'Game over' said once, tickets a station completes shown as completed, case-free Russian."""

from __future__ import annotations

from engine import Claim, DrawDeck, DrawMarket, DrawTickets, Remove
from engine.cards import card_index
from engine.events import GameOver
from i18n import translator
from tests.engine.helpers import arrange, give_route, started, track_between
from texts.present import describe, drawn, merge_turn, my_draws, private_summary
from texts.yours import own_lines

EN, RU, ZH = translator("en"), translator("ru"), translator("zh")
NAMES = ["Anna", "Ben"].__getitem__


def test_a_ticket_a_station_completes_reads_completed_with_the_station():
    """docs/rules.md §3.4: Budapest–Sofia through a rival's Sarajevo–Sofia and the seat's station in
    Sarajevo is completed now, and says through which station."""
    game = started("europe", seats=2)
    give_route(game, 0, "Budapest", "Sarajevo")
    give_route(game, 1, "Sarajevo", "Sofia")
    game.tickets[0] = [14]
    assert "⬜ #14 Budapest – Sofia (5)\n" in private_summary(EN, game, 0)
    game.stations[0].append(game.map.find_city("Sarajevo").index)
    assert "✅ #14 Budapest – Sofia (5) · via your station in Sarajevo\n" in private_summary(EN, game, 0)
    assert "✅ #14 Budapest – Sofia (5) · через вашу станцию в городе Sarajevo\n" in private_summary(RU, game, 0)
    assert "✅ #14 Budapest – Sofia (5) · 经由你在 Sarajevo 的车站\n" in private_summary(ZH, game, 0)


def test_the_turn_accounts_are_in_one_tense():
    """Every public line of a turn is in the past: 'drew', 'dug', 'claimed', never 'draws' or 'digs'."""
    game = started("europe", seats=2)
    line = describe(EN, game, game.apply(0, DrawTickets()), NAMES)
    assert line == ["**Anna** drew 3 destination tickets"]
    game = started("europe", seats=2)
    tunnel = track_between(game, "Marseille", "Zürich")  # a pink tunnel
    arrange(game, hands={0: "pink pink loco loco"}, deck_top="red red red")
    assert describe(EN, game, game.apply(0, Claim(tunnel.id, card_index("pink"), 0)), NAMES) == [
        "**Anna** dug the tunnel Marseille – Zürich: revealed 🟥 red, 🟥 red, and 🟥 red → no extra cost",
        "**Anna** claimed Marseille – Zürich with 2 pink · +2",
    ]


def test_the_last_move_says_nothing_of_the_games_end():
    """The final message's heading says 'Game over' once: the last move's account does not."""
    game = started("usa", seats=2)
    events = game.apply(None, Remove(1))
    assert game.is_over() and any(isinstance(e, GameOver) for e in events)
    assert describe(EN, game, events, NAMES) == ["**Ben** was removed from the game"]
    assert not any(
        "游戏结束" in line or "окончена" in line for t in (RU, ZH) for line in describe(t, game, events, NAMES)
    )


def test_your_face_up_draw_is_confirmed_like_your_blind_one():
    """One confirmation style: 'You drew …' for a card from the deck and a face-up one."""
    game = started("europe", seats=2)
    arrange(game, market="pink red loco blue green", deck_top="orange white")
    assert my_draws(EN, game.apply(0, DrawDeck()), 0) == "You drew an orange card from the deck"
    face_up = game.apply(0, DrawMarket(0))
    assert my_draws(EN, face_up, 0) == "You drew a pink card from the face-up cards"
    assert my_draws(RU, face_up, 0) == "Вы взяли из открытых карт розовую карту"  # the case the verb asks


def test_russian_face_up_cards_need_no_case_agreement():
    """A card's colour after 'берёт' would need the accusative ('красную'): the Russian names the
    card with a noun that takes the case ('открытую карту (🟥 красный)') instead."""
    game = started("europe", seats=2)
    arrange(game, market="red blue green white black", deck_top="yellow orange")
    events = game.apply(0, DrawMarket(0)) + game.apply(0, DrawDeck())
    assert merge_turn(RU, [], drawn(events), 0, NAMES) == "**Anna** берёт открытую карту (🟥 красный) и карту из колоды"
    arrange(game, market="red blue green white black")
    events = game.apply(1, DrawMarket(0)) + game.apply(1, DrawMarket(1))
    assert merge_turn(RU, [], drawn(events), 1, NAMES) == "**Ben** берёт открытые карты: 🟥 красный и 🟦 синий"


def test_your_own_moves_are_told_to_you_in_the_past_in_russian():
    """'Вы взяли', 'Вы проложили': «вы» has one past form for everyone (a third person's past would
    need their gender, so the table's accounts stay in the present)."""
    game = started("usa", seats=2)
    arrange(game, hands={0: "blue blue blue blue loco"})
    claim = game.apply(0, Claim("atlanta-miami", card_index("blue"), 1))
    assert own_lines(RU, game, claim, 0, NAMES) == [
        "Вы проложили маршрут Atlanta – Miami: синий ×4 + 1 локомотив · +10"
    ]
    arrange(game, deck_top="orange")
    draw = game.apply(1, DrawDeck())
    assert own_lines(RU, game, draw, 1, NAMES) == ["Вы взяли из колоды оранжевую карту"]
