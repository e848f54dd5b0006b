"""`/ttr rules`: built from each map's data and hooks, short enough for one message, in every language."""

import re
from collections import Counter

import pytest

from engine import available_maps, load_map
from i18n import LANGUAGES, PSEUDO, translator
from i18n.translator import MARK_CLOSE, MARK_OPEN
from texts.rules_text import DECK_NAMES, MAP_NAMES, rules_summary

LANGUAGE_CODES = sorted(LANGUAGES)


def numbers(text: str) -> Counter:
    return Counter(re.findall(r"\d+", text))


@pytest.mark.parametrize("language", LANGUAGE_CODES)
@pytest.mark.parametrize("map_id", available_maps())
def test_every_map_has_a_summary_that_fits_a_message(map_id, language):
    text = rules_summary(map_id, translator(language))
    assert 400 < len(text) <= 2000
    assert all(line.startswith("**") for line in text.splitlines())


def test_english_is_the_default():
    assert rules_summary("usa") == rules_summary("usa", translator("en"))
    assert "**End:**" in rules_summary("usa")


def test_summaries_follow_each_maps_rules():
    assert "build a station" in rules_summary("europe") and "station" not in rules_summary("usa")
    assert "Loan" in rules_summary("nederland")
    assert "locomotives only on tunnels" in rules_summary("switzerland")
    assert "any 3 cards" in rules_summary("nordic") and "9→27" in rules_summary("nordic")
    assert "any 4 cards" in rules_summary("nordic")
    assert "it can't be your second card" in rules_summary("usa")
    assert "it can't be your second card" not in rules_summary("nordic")
    assert "with fewer than 4 players only one of the two" not in rules_summary("nederland")  # tolls open doubles
    assert "55/35/20/10" in rules_summary("nederland")


@pytest.mark.parametrize("map_id", available_maps())
def test_the_numbers_come_from_the_map_data(map_id):
    m = load_map(map_id)
    text = rules_summary(map_id)
    for length in {t.length for t in m.tracks}:
        assert f"{length}→{m.rules.route_points[length]}" in text
    assert f"{m.rules.trains} trains" in text
    for deck in m.rules.decks.values():
        for bonus in (deck.longest_path_bonus, deck.globetrotter_bonus):
            assert not bonus or f"+{bonus}" in text


@pytest.mark.parametrize("language", ["ru", "zh"])
@pytest.mark.parametrize("map_id", available_maps())
def test_translations_keep_every_number(map_id, language):
    english = numbers(rules_summary(map_id))
    translated = rules_summary(map_id, translator(language))
    assert not english - numbers(translated), translated
    assert "**" in translated and not re.search(r"[A-Za-z]{4,}", translated.replace("Lieksa-Murmansk", ""))


@pytest.mark.parametrize("map_id", available_maps())
def test_every_line_goes_through_the_catalogs(map_id):
    for line in rules_summary(map_id, translator(PSEUDO)).splitlines():
        assert line.startswith(MARK_OPEN) and line.endswith(MARK_CLOSE), line


def test_russian_plurals_and_names():
    text = rules_summary("europe", translator("ru"))
    assert "**Правила: Европа** — у каждого 45 вагонов" in text
    assert "остаётся 2 вагона или меньше" in text and "даёт 4 очка" in text
    assert "Северные страны" in rules_summary("nordic", translator("ru"))
    assert "**美国规则**" in rules_summary("usa", translator("zh"))


def test_every_map_and_deck_name_is_marked_for_translation():
    for map_id in available_maps():
        m = load_map(map_id)
        assert m.name in MAP_NAMES
        assert {deck.name for deck in m.rules.decks.values()} <= set(DECK_NAMES)


def test_marklin_says_its_own_rules_and_which_facts_are_substitutes():
    text = rules_summary("marklin")
    assert "118 train cards" in text and "move a passenger" in text and "“+4” locomotives only on routes of 4" in text
    assert "Berlin 7-6-5-4; 6 red 4-3-2; 12 yellow 3-2-1; 16 white 2" in text
    assert "**Substitutes** (in no public source): the Märklin tickets → the Germany deck; the cities' dots" in text
    assert "start with" not in text  # the named mix replaces the usual deal
    for language in ("ru", "zh"):
        assert len(rules_summary("marklin", translator(language))) <= 2000
