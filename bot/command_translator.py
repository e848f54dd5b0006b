"""Slash command names, descriptions and choices in Russian and Chinese, from the same catalogs as
every other text.

Command texts are `locale_str`: descriptions and most choice names are plain messages; names carry
a context, "command" for commands and groups, "option" for options (`locale_pstr("command",
"draw")`): Discord wants names lowercase and without spaces, unlike the same word in a sentence,
and an option may not share its translation with a command of the same English name. When the
tree syncs, discord.py asks `CommandTranslator` for each text in every Discord locale; it answers
for the locales we have a language for and returns None for the others (Discord then shows the
English).

Messages that name a command or an option write it with `slash` / `option_name` into a placeholder, so
the reader sees the name their Discord client lists ("/ttr войти", not "/ttr join").
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from i18n import DEFAULT_LANGUAGE, Translator, language_for_locale, translator


def locale_pstr(context: str, message: str, /) -> locale_str:
    """A command text with a catalog context (see above; "card", "map" ... for choices of those words)."""
    return locale_str(message, context=context)


def locale_format(template: str, /, **words: tuple[str, str]) -> locale_str:
    """A command text made of catalog words, each a (context, message) pair, in a template
    ('{map}: {deck}'): the English is filled in now, each language's template and words when the
    commands sync."""
    return locale_str(template.format(**{k: message for k, (_, message) in words.items()}),
                      template=template, words=words)


def command_text(t: Translator, text: locale_str) -> str:
    """One command text in `t`'s language."""
    extras = text.extras
    if "template" in extras:
        words = {k: t.pgettext(context, message) for k, (context, message) in extras["words"].items()}
        return t.gettext(extras["template"], **words)
    if extras.get("context"):
        return t.pgettext(extras["context"], text.message)
    return t.gettext(text.message)


def slash(t: Translator, path: str) -> str:
    """A command as `t`'s language's Discord client lists it: slash(ru, "ttr join") -> "/ttr войти".
    Each name after the root is translated as the tree declares it (context "command"; English when
    the catalog has none); the root "ttr" is the same in every language."""
    root, *names = path.split()
    return "/" + " ".join([root, *(t.pgettext("command", name) for name in names)])


def option_name(t: Translator, name: str) -> str:
    """An option's name as `t`'s language's Discord client shows it (context "option")."""
    return t.pgettext("option", name)


class CommandTranslator(app_commands.Translator):
    """Russian for `ru`, Simplified Chinese for `zh-CN` and `zh-TW`; None (English) elsewhere."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        language = language_for_locale(locale)
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        text = command_text(translator(language), string)
        return text if text != string.message else None
