"""Notation and payments that do what the player means: locomotives filled in when only they pay,
a named color the player lacks refused with the payment that works, a route taken named first,
shortfalls worded from the player's best payment (docs/engine.md "Actions and notation")."""

import pytest

from engine import BuildStation, Claim, IllegalActionError, parse_action
from engine.errors import CardsShortError
from tests.engine.helpers import arrange, give_route, started, track_between


def refusal(game, seat, text) -> str:
    with pytest.raises(IllegalActionError) as info:
        game.apply(seat, parse_action(game, seat, text))
    return str(info.value)


def test_three_locomotives_pay_for_a_colored_route_when_no_color_is_held():
    game = started("europe")
    arrange(game, hands={0: "loco loco loco"})
    t = track_between(game, "Sofia", "Constantinople")
    assert (t.length, t.color is not None) == (3, True)
    claim = parse_action(game, 0, "claim Sofia-Constantinople")
    assert claim == Claim(t.id, None, 3) and game.is_legal(0, claim)


def test_the_fewest_locomotives_still_come_first():
    game = started("europe")
    arrange(game, hands={0: "blue loco loco loco"})
    t = track_between(game, "Sofia", "Constantinople")
    assert parse_action(game, 0, "claim Sofia-Constantinople") == Claim(t.id, t.color, 2)


def test_a_named_color_the_player_lacks_is_refused_with_the_payment_that_works():
    game = started("europe")
    arrange(game, hands={0: "loco"})
    assert refusal(game, 0, "station Paris green") == (
        "you have no green cards: station Paris loco=1 would pay for your station no. 1"
    )
    assert game.stations_left[0] == 3 and game.hands[0][8] == 1
    assert parse_action(game, 0, "station Paris") == BuildStation("paris", None, 1)


def test_an_unpayable_gray_ferry_says_why_instead_of_asking_for_a_color():
    game = started("europe")
    arrange(game, hands={0: " ".join(["red"] * 8 + ["loco"])})
    assert refusal(game, 0, "claim Palermo-Smyrna") == (
        "you have 8 red cards and 1 locomotive: Palermo-Smyrna is a ferry and needs 2 locomotives"
    )


def test_a_taken_route_names_its_owner_before_asking_for_a_color():
    game = started("usa")
    give_route(game, 2, "Atlanta", "Charleston")  # gray
    arrange(game, hands={0: "red red blue blue"})
    with pytest.raises(IllegalActionError, match="Atlanta-Charleston is already taken by seat 3"):
        parse_action(game, 0, "claim Atlanta-Charleston")


def test_not_enough_cards_is_worded_from_the_best_payment_with_plurals():
    game = started("usa")
    arrange(game, hands={0: "yellow yellow yellow loco"})
    text = refusal(game, 0, "claim Helena-Seattle")
    assert text == "you have 3 yellow cards and 1 locomotive: Helena-Seattle needs 6 cards, 2 short"
    arrange(game, hands={0: "yellow"})
    assert refusal(game, 0, "claim Helena-Seattle") == (
        "you have 1 yellow card and 0 locomotives: Helena-Seattle needs 6 cards, 5 short"
    )
    with pytest.raises(CardsShortError):
        game.apply(0, parse_action(game, 0, "claim Helena-Seattle"))


def test_a_split_that_the_hand_cannot_make_names_one_it_can():
    game = started("usa")
    arrange(game, hands={0: "yellow yellow yellow loco loco loco"})
    assert refusal(game, 0, "claim Helena-Seattle yellow loco=1") == (
        "your cards do not make that payment for Helena-Seattle: claim Helena-Seattle yellow loco=3 would pay"
    )


def test_station_on_a_map_without_stations_says_so():
    game = started("usa")
    with pytest.raises(IllegalActionError, match="the USA map has no stations"):
        parse_action(game, 0, "station Denver red")
