"""Translations for everything players read: gettext catalogs (.po files, read with Babel).

Source strings are English and are their own message ids. Code asks a `Translator` bound to one
language for the text it shows:

    t = translator("ru")
    t.gettext("{route} is already taken by {owner}", route=..., owner=...)
    t.ngettext("{n} train left", "{n} trains left", n)      # n is passed to the text too
    t.pgettext("button", "Draw")                            # same English, other meaning

Placeholders are named (`{name}`) and filled after translation, so a translator can move them;
sentences are never glued together from translated fragments. `N_` (`NC_` with a context) marks a
string for extraction where it is defined (tables, constants) and is translated where it is shown.

Languages: "en", "ru", "zh" (Simplified Chinese) and the pseudo-locale "qps", which wraps every
translated string in ⟦ ⟧ so a test can find text that never went through a catalog.
"""

from __future__ import annotations

from i18n.translator import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    NC_,
    PSEUDO,
    Translator,
    language_for_locale,
    translator,
)


def N_(message: str) -> str:
    """Mark a string for the catalogs without translating it (translate it where it is shown)."""
    return message


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "NC_",
    "N_",
    "PSEUDO",
    "Translator",
    "language_for_locale",
    "translator",
]
