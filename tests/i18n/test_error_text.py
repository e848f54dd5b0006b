"""Engine errors in the player's language (texts/error_text.py): real illegal actions described in
Russian and Chinese with translated city and card names and players' names, the pseudo-locale
marking every letter, and the engine's English unchanged (issue 10)."""

from __future__ import annotations

import random
import re

import pytest

from engine import Game, GameOptions, parse_action
from engine.actions import BuildStation, Claim, DrawDeck, KeepTickets, PayTunnel
from engine.cards import card_index
from engine.errors import ActionError, IllegalActionError, ListRef, Phrase
from i18n import translator
from tests.engine.helpers import arrange, give_route, started, track_between
from texts.error_text import describe_error

NAMES = {0: "Alice", 1: "Bob", 2: "Carol", 3: "Dave"}
RED, GREEN = card_index("red"), card_index("green")


def error_of(call, *args) -> ActionError:
    with pytest.raises(ActionError) as info:
        call(*args)
    return info.value


def taken_route():
    game = started("usa")
    give_route(game, 2, "Atlanta", "Charleston")
    arrange(game, hands={0: "red red"})
    track = track_between(game, "Atlanta", "Charleston")
    return game, track, error_of(game.apply, 0, Claim(track.id, RED, 0))


def station_without_cards():
    game = started("europe", seats=2)
    arrange(game, hands={0: ""})
    return game, error_of(game.apply, 0, BuildStation("paris", RED, 0))


def unpaid_tunnel():
    game = started("europe")
    arrange(game, hands={0: "green green"}, deck_top="green red red")
    game.apply(0, Claim(track_between(game, "Venezia", "Zürich").id, GREEN, 0))
    return game, error_of(game.apply, 0, PayTunnel(0))


def gray_route():
    game = started("usa")
    arrange(game, hands={0: "orange orange red red"})
    return game, error_of(parse_action, game, 0, "claim Nashville-Saint Louis")


@pytest.mark.parametrize(
    "language,sentence",
    [
        ("ru", "Маршрут {route} уже занят (Carol)"),
        ("zh", "{route}已被Carol占领"),
    ],
)
def test_a_taken_route_reads_in_the_players_language_with_city_and_player_names(language, sentence):
    game, track, error = taken_route()
    t = translator(language, "translated")
    route = game.map.route_name(track, t.city)
    assert describe_error(t, error, game, NAMES.get) == sentence.format(route=route)
    atlanta = game.map.find_city("Atlanta")
    if atlanta.names.get(language):  # the map carries this language's city names
        assert atlanta.names[language] in route and "Atlanta" not in route


@pytest.mark.parametrize(
    "language,sentence",
    [
        ("ru", "Ваша станция № 1: стоимость — 1 карта, а у вас 0 карт цвета «красный»; не хватает 1"),
        ("zh", "你有0张红色牌：你的第1个车站需要1 张牌，还差1张"),
    ],
)
def test_a_station_payment_names_the_station_and_the_missing_cards(language, sentence):
    game, error = station_without_cards()
    assert describe_error(translator(language), error, game, NAMES.get) == sentence


@pytest.mark.parametrize(
    "language,sentence",
    [
        ("ru", "Вам нечем оплатить доплату за тоннель (карт цвета «зелёный» или локомотивов: 1) — откажитесь"),
        ("zh", "你付不起隧道额外的1张绿色牌或火车头：请放弃"),
    ],
)
def test_a_tunnel_payment_error_names_the_card_color(language, sentence):
    game, error = unpaid_tunnel()
    assert describe_error(translator(language), error, game, NAMES.get) == sentence


def test_choices_are_a_list_in_the_language_and_stay_notation_words_for_buttons():
    game, error = gray_route()
    t = translator("ru", "translated")
    route = game.map.route_name(track_between(game, "Nashville", "Saint Louis"), t.city)
    assert describe_error(t, error, game, NAMES.get) == (
        f"Маршрут {route} серый: укажите, каким цветом платить (оранжевый или красный)"
    )
    assert describe_error(translator("zh"), error, game, NAMES.get).endswith("（橙色或红色）")
    assert error.details["options"] == ["orange", "red"]


def test_whose_turn_names_the_player():
    game = started("usa")
    error = error_of(game.apply, 1, DrawDeck())
    assert describe_error(translator("ru"), error, game, NAMES.get) == "Сейчас ходит Alice, а не вы"
    assert describe_error(translator("en"), error, game, NAMES.get) == "It is Alice's turn, not yours"
    assert error.details["current"] == 0


def test_without_a_game_cities_keep_their_printed_names():
    error = taken_route()[2]
    assert describe_error(translator("ru", "translated"), error, None, NAMES.get) == (
        "Маршрут Atlanta-Charleston уже занят (Carol)"
    )


def outside_marks(text: str) -> str:
    """The text outside every ⟦ ⟧ pair (nested pairs allowed)."""
    depth, out = 0, []
    for ch in text:
        if ch == "⟦":
            depth += 1
        elif ch == "⟧":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    assert depth == 0, text
    return "".join(out)


def test_the_pseudo_locale_marks_every_letter():
    t = translator("qps")
    errors = [taken_route()[::2], station_without_cards(), unpaid_tunnel(), gray_route()]
    for game, error in errors:
        text = describe_error(t, error, game, lambda seat: f"#{seat + 1}")
        assert "⟦" in text and not re.search(r"[^\W\d_]", outside_marks(text)), text


def test_english_text_is_what_the_engine_always_said():
    """str(error) is the CLI's and the logs' text; templates did not change it."""
    assert str(taken_route()[2]) == "Atlanta-Charleston is already taken by seat 3"
    assert str(station_without_cards()[1]) == "you have 0 red cards: your station no. 1 needs 1 card, 1 short"
    assert str(unpaid_tunnel()[1]) == "you cannot pay the tunnel's extra 1 green or locomotive cards: decline instead"
    assert str(gray_route()[1]) == "Nashville-Saint Louis is gray: say which color to pay with (orange, red)"
    game = started("usa")
    assert str(error_of(parse_action, game, 0, "claim Atlantis-Oz")) == "no city 'Atlantis' or 'Oz' on the USA map"
    assert str(error_of(parse_action, game, 0, "claim Denver-Oz")) == "no city 'Oz' on the USA map (found Denver)"
    fresh = Game.new("usa", 3, 7, GameOptions(first_seat=0))
    offer = sorted(fresh.offers[0])
    wrong = tuple(i for i in range(1, 40) if i not in offer)[:2]
    assert str(error_of(fresh.apply, 0, KeepTickets(wrong))) == (
        f"tickets {wrong[0]}, {wrong[1]} are not among the tickets offered to you ({', '.join(map(str, offer))})"
    )
    assert str(error_of(fresh.apply, 0, DrawDeck())) == (
        "players are still choosing their starting tickets; drawing waits for the first turn"
    )


def templates_of(value) -> list[str]:
    """The templates of an error or parameter, nested phrases included."""
    if isinstance(value, (ActionError, Phrase)):
        return [value.template, *(x for v in value.params.values() for x in templates_of(v))]
    if isinstance(value, ListRef):
        return [x for item in value.items for x in templates_of(item)]
    return []


@pytest.mark.parametrize(
    "map_id,seats", [("usa", 3), ("europe", 4), ("nederland", 2), ("switzerland", 3), ("nordic", 3)]
)
def test_errors_met_in_play_are_all_translated(map_id, seats):
    """Templates chosen at run time (hook attributes, tables, nested phrases) are in the catalogs."""
    variants = {"neutral": True} if map_id == "nederland" else {}
    game = Game.new(map_id, seats, 1, GameOptions(variants=variants))
    rng = random.Random(1)
    found: set[str] = set()
    while not game.is_over():
        seat = game.to_move()[0]
        for _ in range(4):
            track = rng.choice(game.map.tracks)
            action = rng.choice(
                [
                    Claim(track.id, rng.choice([None, RED, GREEN]), rng.randrange(3)),
                    BuildStation(rng.choice(game.map.cities).id, RED, 0),
                    PayTunnel(1),
                    DrawDeck(),
                ]
            )
            try:
                game.check(rng.randrange(seats), action)
            except IllegalActionError as error:
                found.update(templates_of(error))
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    for language in ("ru", "zh"):
        t = translator(language)
        assert len(found) > 5 and [m for m in sorted(found) if t.gettext(m) == m] == [], language
