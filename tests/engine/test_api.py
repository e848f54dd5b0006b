"""The engine's public API for the bot and leagues: phases and stages as enums, the typed outcome,
one staleness token, option errors as templates, restoring a game on a map given as an object."""

import json

import pytest

from engine import DrawDeck, Game, GameOptions, Resign, load_map
from engine.errors import (
    GameOptionsError,
    OptionValueError,
    SeatCountError,
    UnknownDeckError,
    UnknownMapError,
    VariantError,
)
from engine.mapdata import parse_map
from engine.phases import Phase, Stage, Termination
from tests.engine.helpers import started


def test_phases_and_stages_are_their_json_text():
    game = started()
    assert game.phase == "playing" == Phase.PLAYING
    game.apply(0, DrawDeck())
    assert game.stage == "second_card" == Stage.SECOND_CARD
    state = game.to_json()
    assert state["phase"] == "playing" and type(state["phase"]) is str and type(state["stage"]) is str
    restored = Game.from_json(json.loads(json.dumps(state)), log=game.log)
    assert restored.phase is Phase.PLAYING and restored.stage is Stage.SECOND_CARD
    assert restored.to_json() == state


def test_outcome_names_termination_scores_ranking_and_winners():
    game = started(seats=3)
    assert game.outcome() is None
    game.apply(1, Resign())
    game.apply(2, Resign())
    outcome = game.outcome()
    assert outcome.termination is Termination.TOO_FEW_SEATS and outcome.termination == game.end_reason
    assert [s.seat for s in outcome.scores] == [0, 1, 2]
    assert outcome.ranking[0] in outcome.winners and set(outcome.ranking) == {0, 1, 2}
    best = max(s.total for s in outcome.scores)
    assert {s.seat for s in outcome.scores if s.total == best} >= set(outcome.winners)
    assert all(outcome.rank(w) == 1 for w in outcome.winners) and outcome.total(0) == game.final[0].total


def test_version_counts_logged_actions_and_tokens_come_from_it():
    game = started(seats=2)
    assert game.version == 2  # the two starting ticket choices
    token, turn = game.decision_token(0), game.turn_token(0)
    game.apply(0, DrawDeck())  # the first card: the same turn, a new decision
    assert game.version == 3 and game.decision_token(0) == 3 != token and game.turn_token(0) == turn == 2
    other = game.decision_token(1)
    game.apply(0, DrawDeck())  # the turn passes to seat 1
    assert game.decision_token(1) == game.version == 4 != other and game.turn_token(1) == 4


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: Game.new("atlantis", 2, 1), UnknownMapError, "no map 'atlantis'"),
        (lambda: load_map("../engine/maps/usa"), UnknownMapError, "no map"),
        (lambda: Game.new("usa", 7, 1), SeatCountError, "2 to 5 seats, not 7"),
        (lambda: Game.new("usa", 2, 1, GameOptions(deck="nope")), UnknownDeckError, "no ticket deck 'nope'"),
        (lambda: Game.new("usa", 2, 1, GameOptions(variants={"x": True})), VariantError, "no variant 'x'"),
        (lambda: Game.new("nederland", 2, 1, GameOptions(variants={"tolls": "yes"})), VariantError, "on or off"),
        (lambda: Game.new("usa", 2, 1, GameOptions(first_seat=5)), OptionValueError, "not seat 6"),
        (lambda: Game.new("usa", 2, 1, GameOptions(returned_tickets="up")), OptionValueError, "not 'up'"),
    ],
)
def test_bad_options_raise_option_errors_with_templates(make, error, words):
    with pytest.raises(error, match=words) as info:
        make()
    assert isinstance(info.value, GameOptionsError) and "{" in info.value.template


def test_from_json_restores_a_game_on_a_map_object():
    raw = load_map("usa")
    custom = parse_map(json.dumps({**_doc("usa"), "id": "usa-custom"}).encode())
    game = Game.new(custom, 2, 5)
    game.apply(0, game.default_action(0))
    restored = Game.from_json(game.to_json(), log=game.log, map_data=custom)
    assert restored.to_json() == game.to_json() and restored.map is custom
    with pytest.raises(UnknownMapError):
        Game.from_json(game.to_json())  # not a shipped map
    with pytest.raises(ValueError, match="played on the map 'usa-custom', not 'usa'"):
        Game.from_json(game.to_json(), map_data=raw)


def _doc(map_id: str) -> dict:
    from importlib import resources

    return json.loads(resources.files("engine.maps").joinpath(f"{map_id}.json").read_bytes())
