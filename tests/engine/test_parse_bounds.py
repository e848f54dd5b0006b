"""parse_action has bounds (issue #18): any text, in any game state, for any seat, gives an Action
or an ActionError and nothing else, quickly; numbers are ASCII and short, the text is capped."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    ActionError,
    Claim,
    Game,
    GameOptions,
    InvalidActionError,
    available_maps,
    parse_action,
)
from engine.actions import ACTION_TYPES
from engine.cards import CARD_NAMES
from engine.notation import MAX_TEXT
from tests.engine.helpers import started

WORDS = [
    "draw",
    "deck",
    "market",
    "claim",
    "tickets",
    "keep",
    "station",
    "tunnel",
    "pay",
    "decline",
    "neutral",
    "pass",
    "skip",
    "resign",
    "undo",
    "remove",
    "gray",
    "loco",
    "-",
    "/1",
    "/2",
    "²",
    "①",
    "٣",
    "0",
    "1",
    "3",
    "99999999",
    "loco=2",
    "loco=²",
    "loco=20000000",
    "sub=red:20000000",
    "sub=blue:3,green:3",
    "sub=loco:1",
    "sub=red:①",
    "sub=",
    "sub=:",
    *CARD_NAMES,
]


@st.composite
def game_states(draw) -> Game:
    """A game on any map after a few random legal plies (every phase and stage can come up)."""
    map_id = draw(st.sampled_from(available_maps()))
    seats = draw(st.integers(2, Game.new(map_id, 2, 0).map.rules.max_players))
    game = Game.new(map_id, seats, draw(st.integers(0, 10_000)), GameOptions())
    rng = random.Random(draw(st.integers(0, 1000)))
    for _ in range(draw(st.integers(0, 80))):
        if game.is_over():
            break
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    return game


@st.composite
def typed(draw, game: Game) -> str:
    """Text near the notation: its words, the map's city names (joined with dashes), numbers."""
    cities = [c.name for c in game.map.cities]
    parts = draw(st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(cities), st.text(max_size=8)), max_size=8))
    return draw(st.sampled_from([" ", "-", " - ", "—"])).join(parts)


@given(st.data())
def test_any_text_gives_an_action_or_an_engine_error(data):
    game = data.draw(game_states())
    seat = data.draw(st.one_of(st.none(), st.integers(-2, game.seats + 1)))
    text = data.draw(st.one_of(typed(game), st.text(max_size=60)))
    try:
        action = parse_action(game, seat, text)
    except ActionError:
        return
    assert isinstance(action, ACTION_TYPES)


@pytest.mark.parametrize(
    "text",
    [
        "claim Atlanta-Miami blue sub=red:20000000",
        "claim Atlanta-Miami loco=20000000",
        "draw market ²",
        "draw market ①",
        "tickets keep 1 ²",
        "remove ①",
        "claim Atlanta-Miami/²",
        "tunnel pay loco=99999999",
        "tickets keep " + "1" * 5000,
    ],
)
def test_huge_or_unicode_numbers_are_refused_as_invalid(text):
    game = started("usa")
    with pytest.raises(InvalidActionError):
        parse_action(game, 0, text)


def test_the_whole_text_is_capped():
    game = started("usa")
    with pytest.raises(InvalidActionError, match=f"at most {MAX_TEXT}"):
        parse_action(game, 0, "draw deck" + " " * MAX_TEXT)
    assert isinstance(parse_action(game, 0, "claim Atlanta-Miami blue"), Claim)
