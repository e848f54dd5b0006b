"""Action notation: what players type, the documented defaults, and the error family."""

import pickle

import pytest

from engine import (
    ActionError,
    AmbiguousActionError,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    IllegalActionError,
    InvalidActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    format_action,
    parse_action,
)
from engine.cards import card_index
from tests.engine.helpers import arrange, give_route, started

PINK, ORANGE, RED, WHITE = (card_index(c) for c in ("pink", "orange", "red", "white"))


@pytest.mark.parametrize(
    "text,action",
    [
        ("draw deck", DrawDeck()),
        ("draw market 3", DrawMarket(2)),
        ("tickets draw", DrawTickets()),
        ("tickets keep 31 12", KeepTickets((12, 31))),
        ("tunnel decline", DeclineTunnel()),
        ("tunnel pay loco=1", PayTunnel(1)),
        ("pass", Pass()),
        ("resign", Resign()),
        ("remove 3", Remove(2)),
    ],
)
def test_simple_actions_parse(text, action):
    game = started("europe")
    assert parse_action(game, 0, text) == action


def test_claim_examples_from_the_issue():
    game = started("europe", seats=4)
    arrange(game, hands={0: "orange orange orange orange pink pink pink loco loco loco"})
    assert parse_action(game, 0, "claim Frankfurt-Paris orange") == Claim("frankfurt-paris/1", ORANGE, 0)
    assert parse_action(game, 0, "claim Paris-Frankfurt white loco=1").track == "frankfurt-paris/2"
    assert parse_action(game, 0, "claim Palermo-Smyrna pink loco=3") == Claim("palermo-smyrna", PINK, 3)
    # Without loco=: the fewest locomotives that pay (the ferry needs 2; 3 pink cover the rest... 6-3=3).
    assert parse_action(game, 0, "claim palermo - smyrna pink") == Claim("palermo-smyrna", PINK, 3)
    assert format_action(game, Claim("frankfurt-paris/1", ORANGE, 0)) == "claim Frankfurt-Paris orange"
    assert format_action(game, Claim("palermo-smyrna", PINK, 3)) == "claim Palermo-Smyrna pink loco=3"


def test_city_names_ignore_case_accents_and_dashes():
    game = started("europe", seats=4)
    arrange(game, hands={0: "green green"})
    a = parse_action(game, 0, "claim zurich – VENEZIA")
    assert a == Claim(game.map.track_by_id[a.track].id, card_index("green"), 0)
    assert parse_action(game, 0, "claim Zürich-Venezia") == a


def test_gray_double_defaults_to_first_free_track_and_names_it_when_printing():
    game = started("europe", seats=4)
    arrange(game, hands={0: "red loco"})
    first = parse_action(game, 0, "claim Dieppe-London red")
    assert first.track == "dieppe-london/1" and first.locos == 1
    give_route(game, 1, "Dieppe", "London")
    second = parse_action(game, 0, "claim London-Dieppe red")
    assert second.track == "dieppe-london/2"
    assert format_action(game, second) == "claim Dieppe-London/2 red loco=1"
    assert parse_action(game, 0, "claim Dieppe-London/2 red loco=1") == second


def test_gray_route_without_color_is_ambiguous_unless_one_color_pays():
    game = started("usa")
    arrange(game, hands={0: "red red blue blue"})
    with pytest.raises(AmbiguousActionError, match="gray: say which color to pay with \\(blue, red\\)") as info:
        parse_action(game, 0, "claim Atlanta-Charleston")
    assert info.value.details["options"] == ["blue", "red"]
    arrange(game, hands={0: "red red blue"})
    assert parse_action(game, 0, "claim Atlanta-Charleston") == Claim("atlanta-charleston", RED, 0)
    assert parse_action(game, 0, "claim Atlanta-Charleston loco") == Claim("atlanta-charleston", None, 2)


def test_station_notation():
    game = started("europe")
    arrange(game, hands={0: "red loco"})
    assert parse_action(game, 0, "station Paris") == BuildStation("paris", RED, 0)  # red is the only color
    assert parse_action(game, 0, "station paris loco") == BuildStation("paris", None, 1)
    arrange(game, hands={0: "red blue"})
    with pytest.raises(AmbiguousActionError, match="station in Paris"):
        parse_action(game, 0, "station Paris")


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty action"),
        ("fly to Paris", "unknown action"),
        ("draw market x", "draw market N"),
        ("claim Paris-Atlantis red", "no city 'Atlantis' on the Europe map"),
        ("claim Paris-Roma red", "no route joins Paris and Roma"),
        ("claim Paris", "two cities"),
        ("tickets keep", "ticket numbers"),
        ("claim Paris-Dieppe red blue", "pay with one color"),
    ],
)
def test_unreadable_input_is_invalid_with_a_specific_message(text, message):
    game = started("europe")
    with pytest.raises(InvalidActionError, match=message):
        parse_action(game, 0, text)


def test_error_family_tells_kinds_apart_and_all_are_value_errors():
    assert issubclass(InvalidActionError, ActionError) and issubclass(ActionError, ValueError)
    assert len({InvalidActionError.code, IllegalActionError.code, AmbiguousActionError.code}) == 3


def test_an_error_is_a_template_with_typed_parameters_and_survives_pickling():
    """The template and parameters let the bot word it (texts/error_text.py); tournaments send
    errors between processes."""
    game = started("usa")
    give_route(game, 2, "Atlanta", "Charleston")
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, parse_action(game, 0, "claim Atlanta-Charleston red"))
    error = info.value
    assert error.template == "{route} is already taken by {owner}"
    assert error.details == {"route": "Atlanta-Charleston", "owner": 2}
    copy = pickle.loads(pickle.dumps(error))
    assert (
        type(copy) is IllegalActionError and str(copy) == str(error) == "Atlanta-Charleston is already taken by seat 3"
    )
    assert copy.params == error.params


def test_illegal_action_changes_nothing_and_says_whose_turn():
    game = started("usa")
    with pytest.raises(IllegalActionError, match="it is seat 1's turn, not yours"):
        game.apply(1, DrawDeck())
    arrange(game, hands={0: "red"})
    before, plies = game.to_json(), len(game.log)
    with pytest.raises(IllegalActionError, match="you have 1 red card: Atlanta-Charleston needs 2 cards, 1 short"):
        game.apply(0, Claim("atlanta-charleston", RED, 0))
    assert game.to_json() == before and len(game.log) == plies
