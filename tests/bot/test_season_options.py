"""A season's typed options (`/ttr-league season start: end: maps: players:`): any text is either
read as what it says or refused with a worded reason — never an exception of another kind."""

from __future__ import annotations

from datetime import UTC, date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import UserError, reason
from bot.transformers import parse_counts, parse_date, parse_maps
from engine import available_maps
from i18n import translator

TEXT = st.text(alphabet=st.sampled_from("0123456789-,; /*allusaeuropEUROPE\u00e9x"), max_size=30) | st.text(max_size=30)


@given(TEXT)
def test_player_counts_are_two_to_five_or_refused(text):
    try:
        counts = parse_counts(text)
    except UserError as refused:
        assert reason(translator("en"), refused)
        return
    assert counts == sorted(set(counts)) and all(2 <= c <= 5 for c in counts)


@given(st.lists(st.integers(2, 5), min_size=1, max_size=4))
def test_player_counts_read_back(counts):
    assert parse_counts(", ".join(map(str, counts))) == sorted(set(counts))
    assert parse_counts(f"{min(counts)}-{max(counts)}") == list(range(min(counts), max(counts) + 1))


@given(TEXT)
def test_maps_are_known_map_ids_or_refused(text):
    try:
        maps = parse_maps(text)
    except UserError as refused:
        assert reason(translator("en"), refused)
        return
    assert set(maps) <= set(available_maps())


@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2999, 12, 31)))
def test_a_date_is_that_day_at_midnight_utc(day):
    parsed = parse_date(f" {day:%Y-%m-%d} ")
    assert parsed.date() == day and parsed.tzinfo is UTC and (parsed.hour, parsed.minute) == (0, 0)


@pytest.mark.parametrize("text", ["", "tomorrow", "2026-13-01", "2026-02-30", "\x00"])
def test_a_date_that_is_not_one_is_refused(text):
    with pytest.raises(UserError):
        parse_date(text)
