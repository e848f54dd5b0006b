"""Images in Russian, Chinese and the pseudo-locale: every label goes through the catalogs, every
glyph of the translations and translated city names is in the fonts and actually drawn, the alt
text is translated, city names follow the viewer's choice, and caches keep languages apart."""

from __future__ import annotations

import json
import random
import unicodedata
from importlib import resources

import pytest

from engine import Game
from engine.mapdata import available_maps, load_map, parse_map
from i18n import catalogs, translator
from i18n.translator import MARK_CLOSE, MARK_OPEN
from rendering import (
    PlayerStyle,
    default_players,
    fonts,
    render_board,
    render_final,
    render_hand,
    render_player_board,
    render_ticket_offer,
)
from rendering import board as board_module
from rendering.sample import synthetic_final, synthetic_view, with_seat
from rendering.standings import (
    LadderRow,
    ProfileCard,
    RecentRow,
    render_profile,
    render_standings,
)
from tests.rendering.conftest import decode

LANGUAGES = ("ru", "zh")
#: Names without Cyrillic or CJK letters, so any such glyph on an image comes from a catalog.
LATIN_NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve"]
MIXED_NAMES = ["Alice", "Борис", "李小龍", "Zoë", "Train Fan"]
SCRIPTS = {  # the letters a language brings: Cyrillic, or CJK (and fullwidth punctuation)
    "ru": lambda ch: 0x400 <= ord(ch) <= 0x52F,
    "zh": lambda ch: ord(ch) >= 0x2E80,
}


def _tunnel_game() -> Game:
    """A seeded Europe game stopped while a tunnel's extra cost is being decided."""
    game = Game.new("europe", seats=3, seed=1)
    rng = random.Random(1)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
        tunnel = game.view(None)["tunnel"]
        if tunnel and tunnel["surcharge"]:
            return game
    raise AssertionError("no tunnel in this game")


def images(t, names=MIXED_NAMES, quote=lambda s: s) -> dict:
    """Every kind of image in the language of `t` (`quote` stands for the bot translating the
    texts it passes in: league, season, titles)."""
    players = default_players(names)
    usa, europe = load_map("usa"), load_map("europe")
    v_usa = synthetic_view(usa, seats=5, seed=1)
    v_eu = synthetic_view(europe, seats=5, seed=1)
    game = _tunnel_game()
    choosing = dict(v_usa, phase="choosing", current=None, to_move=[0, 2], last_round=False)
    rows = [LadderRow(i + 1, names[i], 12.5 - 3 * i, 6 + i, max(0, 4 - i), highlight=i == 1) for i in range(5)]
    card = ProfileCard(
        name=names[0],
        league=quote("Club"),
        season=quote("Season 1"),
        rating=11.5,
        place=2,
        ranked=4,
        games=4,
        wins=1,
        average_score=87.5,
        ticket_rate=0.71,
        longest_bonuses=2,
        map_ratings=[(quote("USA"), 9.2)],
        history=[3.1, 6.2, 11.5],
        recent=[RecentRow(quote("Nov 29"), quote("USA"), 1, 4, 102, 2.6)],
        min_games=3,
    )
    short = ProfileCard(
        name=names[1],
        league=quote("Club"),
        season=quote("S"),
        rating=1.5,
        place=None,
        ranked=3,
        games=1,
        wins=0,
        average_score=None,
        ticket_rate=None,
        longest_bonuses=0,
        min_games=3,
    )
    return {
        "board": render_board(v_usa, usa, players, t=t),
        "board choosing": render_board(choosing, usa, players, t=t),
        "board colorblind": render_board(v_eu, europe, players, colorblind=True, t=t),
        "board tunnel": render_board(game.view(None), europe, players[:3], t=t),
        "player board": render_player_board(game.view(0), europe, players[:3], claimable_tracks=["berlin-wien"], t=t),
        "hand": render_hand(with_seat(v_usa, usa, 2), usa, players, colorblind=True, t=t),
        "offer": render_ticket_offer(with_seat(v_eu, europe, 1, offer=4), europe, colorblind=True, t=t),
        "final": render_final(synthetic_final(v_eu, europe), europe, players, t=t),
        "standings": render_standings(rows, title=quote("Club · Standings"), subtitle=quote("Season 1"), t=t),
        "standings empty": render_standings([], title=quote("Club · Standings"), t=t),
        "profile": render_profile(card, t=t),
        "profile short": render_profile(short, t=t),
    }


@pytest.fixture
def drawn(monkeypatch):
    """Every (text, style) rendering.fonts.draw_text draws (the one place text is drawn), with the
    cached map layers cleared so their labels and letters are drawn again."""
    calls: list[tuple[str, str]] = []
    real = fonts.draw_text

    def record(draw, xy, text, size, fill, **kw):
        calls.append((text, kw.get("style", "regular")))
        return real(draw, xy, text, size, fill, **kw)

    for cached in (board_module._static_map, board_module._overlay_sprites):
        cached.cache_clear()
    monkeypatch.setattr(fonts, "draw_text", record)
    return calls


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


# ---------------------------------------------------------------------------------------------
# Glyphs


def _rendering_messages() -> set:
    """The catalog keys whose text rendering draws: its own messages and the card names."""
    return {
        key
        for key, m in catalogs.extract().items()
        if any(w.startswith("rendering/") for w in m.where) or key[0] == "card"
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_images_draw_has_its_glyphs(language):
    entries = catalogs.load(language)
    checked = 0
    for key in _rendering_messages():
        string = entries[key][1]
        for form in string if isinstance(string, (tuple, list)) else [string]:
            for style in fonts.CHAINS:
                assert fonts.clean_text(form, style) == _normal(form), (key, form, style)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("map_id", available_maps())
def test_every_translated_city_name_has_its_glyphs(map_id):
    for city in load_map(map_id).cities:
        for name in city.names.values():
            for style in fonts.CHAINS:
                assert fonts.clean_text(name, style) == _normal(name), (map_id, name, style)


@pytest.mark.parametrize("language", LANGUAGES)
def test_translated_glyphs_are_drawn(language, monkeypatch):
    """Without the language's glyphs in the fonts the images come out different: the translated
    labels are drawn with them (the names here are Latin, so only catalog text has them)."""
    t = translator(language)
    with_glyphs = {name: image.data for name, image in images(t, LATIN_NAMES).items()}
    has = SCRIPTS[language]
    real = fonts.coverage
    monkeypatch.setattr(fonts, "coverage", lambda f: frozenset(c for c in real(f) if not has(chr(c))))
    cleaned = (fonts.clean_text, fonts.runs)  # kept per text: they read the fonts' coverage
    for cached in cleaned:
        cached.cache_clear()
    try:
        without = images(t, LATIN_NAMES)
    finally:
        for cached in cleaned:
            cached.cache_clear()
    for name, image in without.items():
        assert image.data != with_glyphs[name], name


# ---------------------------------------------------------------------------------------------
# Russian and Chinese images


@pytest.mark.parametrize("language", LANGUAGES)
def test_images_in_russian_and_chinese(language, drawn):
    t = translator(language)
    has = SCRIPTS[language]
    english = images(None, LATIN_NAMES)
    drawn.clear()
    for name, image in images(t, LATIN_NAMES).items():
        img = decode(image.data)
        assert img.size == (image.width, image.height) and img.mode == "RGB"
        assert image.alt_text != english[name].alt_text and any(map(has, image.alt_text)), (name, image.alt_text)
        assert "\n" not in image.alt_text
    texts = {text for text, _ in drawn}
    for text, style in drawn:  # nothing of a translation is dropped for lack of a glyph
        assert fonts.clean_text(text, style) == _normal(text), text
    expected = [
        t.gettext("Market"),
        t.gettext("Player"),
        t.gettext("Rank"),
        t.gettext("Rating"),
        t.gettext("Recent games"),
        t.card(2),
        t.pgettext("color letter", "B"),
    ]
    for label in expected:
        assert any(label in text for text in texts), label
    assert not any("Market" in text or "to play" in text for text in texts)


# ---------------------------------------------------------------------------------------------
# The pseudo-locale: every label wrapped in ⟦ ⟧


def unmarked(text: str) -> str:
    """The characters of text outside ⟦ ⟧ (a label cut with an ellipsis, or one line of a label on
    two lines, may have only one of the marks)."""
    depth, depths = 0, []
    for ch in text:
        if ch == MARK_OPEN:
            depth += 1
        elif ch == MARK_CLOSE:
            depth -= 1
        depths.append(depth)
    floor = min([0, *depths])  # a closing mark without its opening: the text before it was inside
    return "".join(ch for ch, d in zip(text, depths) if d <= floor and ch not in (MARK_OPEN, MARK_CLOSE))


def _letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _is_name(text: str, names: list[str]) -> bool:
    """A player's name as drawn: whole, or cut with an ellipsis to fit."""
    return any(text == name or (text.endswith("…") and name.startswith(text[:-1].rstrip())) for name in names)


def test_pseudo_locale_wraps_every_label_and_alt_text(drawn):
    t = translator("qps")
    names = ["Alice", "Борис", "李小龍", "Zoë", "Eve"]
    rendered = images(t, names, quote=lambda s: f"{MARK_OPEN}{s}{MARK_CLOSE}")
    assert drawn
    for text, _ in drawn:
        rest = unmarked(text)
        assert not _letters(rest) or _is_name(text, names), text
    for name, image in rendered.items():
        rest = unmarked(image.alt_text)
        for word in names + ["USA", "Europe"]:  # player and map names are data
            rest = rest.replace(word, "")
        assert not _letters(rest), (name, image.alt_text)


def test_unmarked():
    assert unmarked("⟦a ⟦b⟧ c⟧") == ""
    assert unmarked("⟦Last: x — ⟦claim…") == ""
    assert unmarked("Angeles⟧") == ""
    assert unmarked("Alice") == "Alice"
    assert unmarked("⟦a⟧ b") == " b"


# ---------------------------------------------------------------------------------------------
# City names and caches


def _map_with_names(map_id: str):
    """A map (not one shipped, so nothing is cached) whose cities carry Russian names."""
    doc = json.loads(resources.files("engine.maps").joinpath(f"{map_id}.json").read_bytes())
    for city in doc["cities"]:
        city["names"] = {"ru": f"Гор {city['name']}"}
    doc["id"] = f"{map_id}-names"
    return parse_map(json.dumps(doc).encode())


def test_city_names_follow_the_viewer_choice(drawn):
    m = _map_with_names("usa")
    view = synthetic_view(m, seats=3, seed=1)
    render_board(view, m, t=translator("ru", "translated"))
    labels = [text for text, style in drawn if style == "label"]
    assert sum(text.count("Гор") for text in labels) == len(m.cities)  # every city labelled in Russian
    drawn.clear()
    render_board(view, m, t=translator("ru", "printed"))
    labels = [text for text, style in drawn if style == "label"]
    assert not any("Гор" in text for text in labels)
    assert sorted(" ".join(labels).split()) == sorted(" ".join(c.name for c in m.cities).split())


def test_caches_keep_languages_apart():
    """The static layer is cached per language (its color-blind letters); labels per city names
    (test_city_names_follow_the_viewer_choice draws both kinds from one map)."""
    m = load_map("europe")
    view = synthetic_view(m, seats=3, seed=2)
    english = render_board(view, m, colorblind=True).data
    russian = render_board(view, m, colorblind=True, t=translator("ru")).data
    assert russian != english
    assert render_board(view, m, colorblind=True).data == english
    assert render_board(view, m, colorblind=True, t=translator("ru")).data == russian


def test_english_is_the_default():
    m = load_map("usa")
    view = synthetic_view(m, seats=3, seed=1)
    assert render_board(view, m, t=translator("en")).data == render_board(view, m).data
    players = [PlayerStyle("", (10, 120, 200))]
    assert "Игрок 1" in render_board(view, m, players, t=translator("ru")).alt_text


@pytest.mark.parametrize("language", LANGUAGES)
def test_translated_city_labels_are_cached_apart(language):
    m = load_map("usa")
    if not any(language in c.names for c in m.cities):
        pytest.skip(f"the USA map has no {language} city names yet")
    view = synthetic_view(m, seats=3, seed=1)
    printed = render_board(view, m, t=translator(language)).data
    translated = render_board(view, m, t=translator(language, "translated")).data
    assert translated != printed
    assert render_board(view, m, t=translator(language)).data == printed


@pytest.mark.parametrize("map_id", ["usa", "europe", "nordic", "switzerland"])
def test_turns_worded_as_players_speak(map_id):
    """Every turn of a random game, as the panel's recap tells it: no engine notation and no track
    id in any language, both cities of a claimed route named, a face-up card's color named;
    Russian and Chinese in their own script."""
    from rendering.words import card_name, recap, route_words

    game = Game.new(map_id, seats=3, seed=4)
    rng = random.Random(4)
    kinds = set()
    en = translator("en")
    players = default_players(3)
    for _ in range(400):
        if game.is_over():
            break
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=False)))
        view = game.view(None)
        entry = view["recent"][-1]
        kinds.add(entry["kind"])
        last = recap(en, view, players, game.map)[-1][1]
        assert not any(
            word in last for word in ("loco=", "market ", "tickets keep", "tunnel pay", "sub=", "/1", "/2")
        ), last
        track = game.map.track_by_id.get(entry.get("track") or "")
        if entry["kind"] in ("Claim", "PayTunnel", "DeclineTunnel") and track is not None:
            assert route_words(en, game.map, track) in last, last
        if entry["kind"] == "DrawMarket":
            assert card_name(en, entry["card"]) in last, last
        for language in LANGUAGES:
            worded = recap(translator(language, "translated"), view, players, game.map)[-1][1]
            assert not any(word in worded for word in ("claim", "took", "loco", "tickets", "station", "tunnel")), worded
            assert any(map(SCRIPTS[language], worded)), worded
    assert {"DrawDeck", "DrawMarket", "Claim", "DrawTickets", "KeepTickets"} <= kinds
