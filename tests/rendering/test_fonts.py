"""Text: Latin, Cyrillic and CJK names render; anything else falls back and never crashes."""

from __future__ import annotations

import pytest

from engine.mapdata import load_map
from rendering import PlayerStyle, fonts, render_board
from rendering.fonts import CHAINS, clean_text, coverage, fit
from tests.rendering.conftest import decode

ODD_NAMES = [
    "Zoë",
    "Андрей",
    "李小龍",
    "田中さん",
    "김민수",
    "🚂🚂🚂",
    "",
    "   ",
    "\u202eevil\u202c",
    "Z̷̧̛̛͎͓a̸͔͝l̶̨͝g̵o̶",
    "a\u0000b\u0007c",
    "\ud800lonely",
    "W" * 200,
    "مرحبا",
    "שלום",
    "😀 Émilie 😀",
    "\u200b\u200d",
    "Ǆǅǆ ẞ ŉ",
]


def test_scripts_are_covered():
    for text in ("Montréal København Zürich Liège 's-Gravenhage", "Москва Київ Ελλάδα", "東京 北京 서울 さくら"):
        for ch in text.replace(" ", ""):
            assert any(ord(ch) in coverage(f) for f in CHAINS["regular"]), ch


def test_coverage_parser_matches_rendering():
    """A character reported as covered draws something (not the empty .notdef)."""
    for ch in "AЖ李한あ":
        f = next(f for f in CHAINS["regular"] if ord(ch) in coverage(f))
        assert fonts._font(f, 20).getbbox(ch)[2] > 0


@pytest.mark.parametrize("name", ODD_NAMES)
def test_clean_and_fit_never_fail(name):
    cleaned = clean_text(name)
    assert all(ch.isprintable() or ch == " " for ch in cleaned)
    out = fit(name, 20, 150, fallback="Player 1")
    assert out and fonts.measure(out, 20) <= 150


def test_odd_names_on_the_board(synthetic_views):
    m = load_map("europe")
    players = [PlayerStyle(n, (100 + 20 * i, 50, 90)) for i, n in enumerate(ODD_NAMES[:5])]
    r = render_board(synthetic_views["europe"], m, players)
    assert decode(r.data).size == (r.width, r.height)
    players = [PlayerStyle(n, (10, 120, 200)) for n in ODD_NAMES[5:10]]
    r = render_board(synthetic_views["europe"], m, players)
    assert "Player 1" in r.alt_text  # an all-emoji name falls back to the seat


def test_squeeze_keeps_the_text_whole_when_it_can():
    assert fonts.squeeze("Points", 20, 200) == ("Points", 20, "regular")
    text, size, style = fonts.squeeze("оранжевый", 15, 66)
    assert text == "оранжевый" and fonts.measure(text, size, style) <= 66 and size >= 12
    text, size, style = fonts.squeeze("a much too long column title", 20, 60)
    assert text.endswith("…") and fonts.measure(text, size, style) <= 60


def test_fit_keeps_the_characters_it_was_given():
    """draw_text cleans what it draws; fit keeps marks a test may look for (the pseudo-locale's)."""
    assert fit("⟦Market⟧", 20, 500) == "⟦Market⟧"
    assert fit("⟦Last: a very long line of text⟧", 20, 120).startswith("⟦Last")
