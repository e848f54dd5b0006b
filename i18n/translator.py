"""`Translator`: one language's catalogs plus the words every layer needs (cities, cards, lists)."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine.mapdata import City, MapData, Track
from engine.notation import route_label, ticket_label

DEFAULT_LANGUAGE = "en"
PSEUDO = "qps"
#: Languages players can choose, with their own name for the language picker.
LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский", "zh": "简体中文"}
#: Babel's locale for each language (list formatting).
_BABEL_LOCALE = {"en": "en", "ru": "ru", "zh": "zh_Hans_CN", PSEUDO: "en"}
#: City names: "printed" as on the board, or "translated" from the map data when it has them.
CITY_NAMES = ("printed", "translated")

_PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
MARK_OPEN, MARK_CLOSE = "⟦", "⟧"


def language_for_locale(locale: object) -> str | None:
    """The language of a Discord locale ('ru', 'zh-CN', 'zh-TW' ...), None if we have none for it."""
    code = str(getattr(locale, "value", locale) or "").lower()
    if code.startswith("ru"):
        return "ru"
    if code.startswith("zh"):  # Simplified Chinese also for zh-TW: closer than English
        return "zh"
    if code.startswith("en"):
        return "en"
    return None


def placeholders(text: str) -> set[str]:
    """The named placeholders of a str.format text ('{route} by {owner}' -> {'route', 'owner'})."""
    return set(_PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def catalog_files(language: str) -> list:
    """The .po files of one language (several, one per part of the program)."""
    folder = resources.files("i18n") / "locales" / language
    return sorted((f for f in folder.iterdir() if f.name.endswith(".po")), key=lambda f: f.name)


@cache
def _translations(language: str) -> gettext.NullTranslations:
    """A language's catalogs merged into one GNUTranslations (compiled in memory with Babel)."""
    if language in (DEFAULT_LANGUAGE, PSEUDO):
        return gettext.NullTranslations()
    merged: gettext.GNUTranslations | None = None
    for file in catalog_files(language):
        with file.open("rb") as fp:
            catalog = read_po(fp, locale=_BABEL_LOCALE[language] if language != "zh" else "zh_Hans")
        buf = io.BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        part = gettext.GNUTranslations(buf)
        if merged is None:
            merged = part
        else:
            merged._catalog.update(part._catalog)  # same header and plural rule in every file
    return merged or gettext.NullTranslations()


#: The pseudo-locale's letters: every ASCII letter becomes a look-alike outside ASCII, so English
#: that reached a player without a catalog (a word passed as data) still shows as plain ASCII.
_PSEUDO_LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥʠŕśţúṽŵẋýźÁßĆĐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŚŢÚṼŴẊÝŹ",
)
_FIELD = re.compile(r"(\{[^{}]*\})")


def _pseudo(text: str) -> str:
    """⟦Ţĥíś⟧: letters swapped for look-alikes (placeholders kept) and the whole marked."""
    parts = _FIELD.split(text)
    swapped = "".join(part if i % 2 else part.translate(_PSEUDO_LETTERS) for i, part in enumerate(parts))
    return f"{MARK_OPEN}{swapped}{MARK_CLOSE}"


class Translator:
    """Text in one language. `city_names` chooses printed or translated city names."""

    def __init__(self, language: str = DEFAULT_LANGUAGE, city_names: str = "printed") -> None:
        if language not in LANGUAGES and language != PSEUDO:
            raise ValueError(f"unknown language {language!r}")
        self.language = language
        self.city_names = city_names if city_names in CITY_NAMES else "printed"
        self._t = _translations(language)

    def __repr__(self) -> str:
        return f"Translator({self.language!r}, city_names={self.city_names!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Translator) and (self.language, self.city_names) == (other.language, other.city_names)

    def __hash__(self) -> int:
        return hash((self.language, self.city_names))

    # -------------------------------------------------------------------- catalog lookups

    def gettext(self, message: str, /, **params: object) -> str:
        return self._fill(self._mark(self._t.gettext(message)), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form for n (Russian has three); `{n}` in the text is n."""
        return self._fill(self._mark(self._t.ngettext(singular, plural, n)), {"n": n, **params})

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return self._fill(self._mark(self._t.pgettext(context, message)), params)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self._fill(self._mark(self._t.npgettext(context, singular, plural, n)), {"n": n, **params})

    def _mark(self, text: str) -> str:
        return _pseudo(text) if self.language == PSEUDO else text

    @staticmethod
    def _fill(text: str, params: dict) -> str:
        return text.format(**params) if params else text

    # -------------------------------------------------------------------- words of the game

    def city(self, city: City) -> str:
        """A city's name: as printed, or in this language when asked for and the map has it."""
        name = city.name
        if self.city_names == "translated":
            name = city.names.get(self.language, name)
        return _pseudo(name) if self.language == PSEUDO else name

    def route(self, m: MapData, track: Track) -> str:
        """'Paris-Dieppe' (with '/2' for the second track of a double route) in these city names."""
        return route_label(m, track, self.city)

    def ticket(self, m: MapData, ticket, reached: int | None = None) -> str:
        """'Paris-Wien 8' in these city names (see engine.notation.ticket_label)."""
        return ticket_label(m, ticket, reached, self.city)

    def map_name(self, m: MapData) -> str:
        """A map's name ('USA', 'Europe' ...) in this language (marked in texts/rules_text.py)."""
        return self.pgettext("map", m.name)

    def card(self, card: int) -> str:
        """A train card's name: a color or the locomotive."""
        return self.pgettext("card", CARD_WORDS[card])

    def join(self, items: Iterable[str], style: str = "standard") -> str:
        """'a, b and c' ('or' with style="or") by this language's rules."""
        items = list(items)
        if not items:
            return ""
        text = format_list(items, style=style, locale=_BABEL_LOCALE[self.language])
        return _pseudo(text) if self.language == PSEUDO and len(items) > 1 else text


def NC_(context: str, message: str) -> str:
    """Mark a string with a context for the catalogs, translated later with pgettext(context, ...)."""
    return message


#: Card names by engine card index (engine.cards.ALL_CARD_NAMES order: Märklin's +4 locomotive and
#: passenger card last); translated with context "card".
CARD_WORDS: tuple[str, ...] = (
    NC_("card", "pink"),
    NC_("card", "white"),
    NC_("card", "blue"),
    NC_("card", "yellow"),
    NC_("card", "orange"),
    NC_("card", "black"),
    NC_("card", "red"),
    NC_("card", "green"),
    NC_("card", "locomotive"),
    NC_("card", "+4 locomotive"),
    NC_("card", "passenger"),
)


@cache
def translator(language: str | None = None, city_names: str = "printed") -> Translator:
    """The shared Translator of a language (English when None)."""
    return Translator(language or DEFAULT_LANGUAGE, city_names)
