"""Russian wording across the catalogs. Templates put a name the translator cannot decline (a city, a route, a card's colour, a
player's, league's or tournament's name) where it needs no case: never right after a preposition
("в {city}", "за {route}"), but after a noun that takes the case ("в городе {city}", "за
маршрут {route}", "в лиге **{league}**"), or after a colon (docs/i18n.md)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

RU = Path(__file__).resolve().parents[2] / "i18n" / "locales" / "ru"
PREPOSITION = r"(?<![\w-])(?:в|во|на|за|из|с|со|к|ко|у|от|до|для|о|об|по|при|через|без|про|над|под|между)"
#: Inserted words whose case is unknown (a file path or a count is not one of them).
NAMES = r"city|cities|route|card|color|second|tournament|league|player|name|map|season|deck|level|owner|user"
AFTER_PREPOSITION = re.compile(rf"{PREPOSITION}\s+(?:\*\*)?[«\"]?\{{(?:{NAMES})\}}", re.IGNORECASE)


def translations():
    """(English id, Russian string) of every entry, each plural form apart."""
    for path in sorted(RU.glob("*.po")):
        with path.open("rb") as f:
            for message in read_po(f):
                english = message.id if isinstance(message.id, str) else message.id[0]
                strings = [message.string] if isinstance(message.string, str) else list(message.string)
                yield from ((english, s) for s in strings if s)


def test_no_undeclinable_name_follows_a_preposition():
    found = [(english, s) for english, s in translations() if AFTER_PREPOSITION.search(s)]
    assert not found, found


def test_a_player_is_never_he_or_she():
    """A player's gender is unknown: no pronoun stands for a named player ("за него" → "это место")."""
    pronoun = re.compile(r"(?<!\w)(?:него|неё|ему|ей|он|она)(?!\w)", re.IGNORECASE)
    found = [
        (english, s)
        for english, s in translations()
        if re.search(r"\{(?:player|name|user|winner)\}", s) and pronoun.search(s)
    ]
    assert not found, found


def test_a_named_player_has_no_masculine_past():
    """'**{name}** (сдался)' says the player is a man: a verb about a named player is in the present,
    or gives both forms ('сдался/сдалась', 'вернул(а)'), or agrees with a noun ('Игрок **{name}**
    исключён', 'последний ход отменён')."""
    past = re.compile(r"(?<!\w)\w+(?:ал|ил|ел|ял|ёл|ул|ыл|лся|ён|ят)(?![\w(/])", re.IGNORECASE)
    other_subjects = {"остался", "отменён"}  # '{name}: остался 1 вагон', '{name}: последний ход отменён'
    found = [
        (english, s, words)
        for english, s in translations()
        if re.search(r"\{(?:player|name|user|winner)\}", s)
        and not re.search(r"Игрок \**\{name\}", s)
        and (words := [w for w in past.findall(s) if w.lower() not in other_subjects])
    ]
    assert not found, found


def test_no_name_stands_where_a_case_is_asked():
    """'…, а не {map}' would need the case of what it contrasts with ('на карте США, а не Европе')."""
    contrast = re.compile(rf"а не (?:\*\*)?\{{(?:{NAMES})\}}")  # a name in quotes («{map}») needs no case
    found = [(english, s) for english, s in translations() if contrast.search(s)]
    assert not found, found


def test_a_station_has_one_name():
    """The button says what the turn accounts say: «станция», never «вокзал»."""
    found = [(english, s) for english, s in translations() if "station" in english.lower() and "вокзал" in s.lower()]
    assert not found, found
