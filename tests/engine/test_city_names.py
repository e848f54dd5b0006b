"""Translated city names (`names` in engine/maps/usa.json and europe.json): complete, in the right
script, unambiguous when typed, and left out of the map hash that stored games check."""

from __future__ import annotations

import re
import unicodedata
from importlib import resources

import pytest

from engine import parse_action
from engine.cards import CARD_NAMES, card_index
from engine.mapdata import fold_name, load_map, parse_map
from i18n import translator
from tests.engine.helpers import started

TRANSLATED = ["usa", "europe"]
RED = card_index("red")
CYRILLIC = re.compile(r"[А-Яа-яЁё]+(?:[ -][А-Яа-яЁё]+)*")


def is_cjk(text: str) -> bool:
    return all(unicodedata.name(ch).startswith("CJK UNIFIED IDEOGRAPH") for ch in text)


@pytest.mark.parametrize("map_id", TRANSLATED)
def test_every_city_has_russian_and_chinese_names(map_id):
    m = load_map(map_id)
    for c in m.cities:
        assert set(c.names) == {"ru", "zh"}, c
        assert CYRILLIC.fullmatch(c.names["ru"]), c
        assert c.names["zh"] and is_cjk(c.names["zh"]), c


@pytest.mark.parametrize("map_id", TRANSLATED)
@pytest.mark.parametrize("language", ["ru", "zh"])
def test_names_are_unique_and_find_their_own_city(map_id, language):
    m = load_map(map_id)
    folded = [fold_name(c.names[language]) for c in m.cities]
    assert len(set(folded)) == len(folded)
    for c in m.cities:
        assert m.find_city(c.names[language]) is c
        assert m.find_city(c.names[language].upper()) is c


@pytest.mark.parametrize("map_id", TRANSLATED)
def test_no_typed_name_means_two_cities(map_id):
    m = load_map(map_id)
    owner: dict[str, str] = {}
    for c in m.cities:
        for name in (c.id, c.name, *c.names.values()):
            assert owner.setdefault(fold_name(name), c.id) == c.id, (name, owner[fold_name(name)], c.id)


def test_a_russian_or_chinese_route_name_parses():
    game = started("europe")
    assert parse_action(game, 0, "claim Париж-Дьеп").track == "dieppe-paris"
    assert parse_action(game, 0, "claim париж – дьеп").track == "dieppe-paris"
    assert parse_action(game, 0, "claim 巴黎-迪耶普").track == "dieppe-paris"
    assert parse_action(game, 0, "claim Франкфурт-Париж/2").track == "frankfurt-paris/2"
    usa = started("usa")
    assert parse_action(usa, 0, "claim Солт-Лейк-Сити-Денвер").track.startswith("denver-salt_lake_city")
    assert parse_action(usa, 0, "claim Новый Орлеан-Хьюстон").track == "houston-new_orleans"


@pytest.mark.parametrize("map_id", TRANSLATED)
@pytest.mark.parametrize("language", ["ru", "zh"])
def test_every_translated_route_label_parses_back(map_id, language):
    """What the bot shows with translated names (`Translator.route`) is what a player may type."""
    game = started(map_id)
    t = translator(language, "translated")
    for track in game.map.tracks:
        label = t.route(game.map, track)
        color = CARD_NAMES[track.color if track.color is not None else RED]
        assert parse_action(game, 0, f"claim {label} {color}").track == track.id, label


@pytest.mark.parametrize("map_id", TRANSLATED)
def test_the_map_hash_ignores_translated_names(map_id):
    raw = resources.files("engine.maps").joinpath(f"{map_id}.json").read_bytes()
    untranslated = re.sub(rb'"names": \{[^{}]*\}', b'"names": {}', raw)
    assert untranslated != raw
    assert parse_map(untranslated).sha256 == load_map(map_id).sha256
    changed_fact = raw.replace(b'"trains": 45', b'"trains": 44', 1)
    assert parse_map(changed_fact).sha256 != load_map(map_id).sha256
