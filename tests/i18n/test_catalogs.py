"""The catalogs against the code: every message in every language, placeholders that match, plural
forms by each language's rule (issue 10)."""

from __future__ import annotations

from functools import cache

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from i18n import LANGUAGES, PSEUDO, catalogs, language_for_locale, translator
from i18n.translator import catalog_files, placeholders

TRANSLATED = catalogs.languages_to_check()


@pytest.fixture(scope="module")
def messages():
    return catalogs.extract()


def test_the_code_marks_its_messages(messages):
    """Extraction finds the shared words and the messages of every part of the program."""
    assert (("card", "locomotive")) in messages
    folders = {where.split("/")[0] for m in messages.values() for where in m.where}
    assert {"i18n", "engine", "bot", "rendering"} <= folders


def test_no_fstring_is_passed_to_a_translation_function():
    assert catalogs.fstring_warnings() == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language, messages):
    """Missing, empty or stale entries and placeholder mismatches (`python -m i18n check`)."""
    assert catalogs.problems(language, messages) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_file_declares_the_languages_plural_rule(language):
    rule = get_plural(language)
    for file in catalog_files(language):
        with file.open("rb") as fp:
            catalog = read_po(fp)
        assert catalog.plural_forms == f"nplurals={rule.num_plurals}; plural={rule.plural_expr};", file.name
        for message in catalog:
            if message.pluralizable:
                assert len(message.string) == rule.num_plurals, (file.name, message.id)


@pytest.mark.parametrize("language", TRANSLATED)
def test_one_message_has_one_translation_across_files(language):
    seen: dict = {}
    for file in catalog_files(language):
        with file.open("rb") as fp:
            for message in read_po(fp):
                if message.id:
                    key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
                    earlier = seen.setdefault(key, (file.name, message.string))
                    assert earlier[1] == message.string, f"{key} differs in {earlier[0]} and {file.name}"


def test_russian_plurals_take_three_forms():
    """1 and 21 take the first form, 2–4 and 22 the second, 5–20 and 11–14 the third."""
    entries = [
        (m.id, m.string, m.context) for f in catalog_files("ru") for m in read_po(f.open("rb")) if m.pluralizable
    ]
    assert entries, "no plural message in the Russian catalogs"
    t = translator("ru")
    for (singular, plural), forms, context in entries:
        for n, form in ((1, 0), (21, 0), (2, 1), (4, 1), (22, 1), (5, 2), (11, 2), (14, 2), (100, 2)):
            params = {p: "X" for p in placeholders(singular) | placeholders(plural) if p != "n"}
            got = (
                t.npgettext(context, singular, plural, n, **params)
                if context
                else t.ngettext(singular, plural, n, **params)
            )
            assert got == forms[form].format(n=n, **params), (singular, n)


def test_chinese_has_one_form_and_english_two():
    en, zh = translator("en"), translator("zh")
    assert en.ngettext("{n} train", "{n} trains", 1) == "1 train"
    assert en.ngettext("{n} train", "{n} trains", 3) == "3 trains"
    entries = [
        (m.id, m.string) for f in catalog_files("zh") for m in read_po(f.open("rb")) if m.pluralizable and not m.context
    ]
    for (singular, plural), _forms in entries[:20]:
        params = {p: "X" for p in placeholders(singular) | placeholders(plural) if p != "n"}
        assert zh.ngettext(singular, plural, 1, **params) == zh.ngettext(singular, plural, 7, **params).replace(
            "7", "1"
        )


def test_pseudo_locale_marks_every_string_and_keeps_placeholders():
    q = translator(PSEUDO)
    assert q.gettext("{route} is taken by {owner}", route="A-B", owner="ann") == "⟦A-B íś ţáķéñ ƀý ann⟧"
    assert q.ngettext("{n} train", "{n} trains", 2) == "⟦2 ţŕáíñś⟧"
    assert q.card(8) == "⟦ĺóçóɱóţíṽé⟧"


def test_card_words_are_translated():
    assert translator("ru").card(8) == "локомотив"
    assert translator("zh").card(0) == "粉色"
    assert translator("en").card(7) == "green"


@pytest.mark.parametrize(
    "locale, language",
    [
        ("ru", "ru"),
        ("zh-CN", "zh"),
        ("zh-TW", "zh"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", None),
        ("", None),
    ],
)
def test_discord_locales_map_to_languages(locale, language):
    assert language_for_locale(locale) == language


def test_languages_name_themselves():
    assert LANGUAGES == {"en": "English", "ru": "Русский", "zh": "简体中文"}


def test_lists_follow_each_languages_rules():
    assert translator("en").join(["a", "b", "c"], "or") == "a, b, or c"
    assert translator("ru").join(["a", "b", "c"]) == "a, b и c"
    assert translator("zh").join(["a", "b"]) == "a和b"


@cache
def _a_russian_plural() -> tuple:
    """A plural message of the Russian catalogs whose only placeholder is {n}."""
    return next(
        (m.id, m.string)
        for f in catalog_files("ru")
        for m in read_po(f.open("rb"))
        if m.pluralizable and not m.context and placeholders(m.id[0]) | placeholders(m.id[1]) <= {"n"}
    )


@given(st.integers(min_value=0, max_value=10**9))
def test_russian_plural_form_follows_the_cldr_rule_for_every_number(n):
    """One (1, 21, 101 …), few (2–4, 22–24 … but not 12–14), many (the rest), read through a real
    plural message of the catalogs."""
    (singular, plural), forms = _a_russian_plural()
    expected = 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    assert translator("ru").ngettext(singular, plural, n) == forms[expected].format(n=n)
