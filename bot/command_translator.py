"""Slash command names, descriptions and choices in Russian and Chinese, from the same catalogs as
every other text.

Descriptions and choice names are `locale_str` (choices of game words carry their catalog context:
`locale_pstr("map", "Europe")`). Names take their context from where they stand: "command" for
commands and groups, "option" for options — Discord wants names lowercase and without spaces,
unlike the same word in a sentence, and an option may not share its translation with a command of
the same English name. When the tree syncs, discord.py asks `CommandTranslator` for each text in
every Discord locale; it answers for the locales we have a language for and returns None for the
others (Discord then shows the English). `tree_names` lists the names for the catalog check, since
Babel cannot see names that are plain identifiers.

Messages that name a command or an option write it with `slash` / `option_name` into a placeholder, so
the reader sees the name their Discord client lists ("/ttr войти", not "/ttr join").
"""

from __future__ import annotations

from collections.abc import Iterable

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
    return locale_str(
        template.format(**{k: message for k, (_, message) in words.items()}), template=template, words=words
    )


#: The catalog context of a name, by where it stands in the command tree.
NAME_CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: "command",
    app_commands.TranslationContextLocation.group_name: "command",
    app_commands.TranslationContextLocation.parameter_name: "option",
}


def command_text(t: Translator, text: locale_str, context: str | None = None) -> str:
    """One command text in `t`'s language (`context`: the catalog context, unless the text has its own)."""
    extras = text.extras
    if "template" in extras:
        words = {k: t.pgettext(ctx, message) for k, (ctx, message) in extras["words"].items()}
        return t.gettext(extras["template"], **words)
    context = extras.get("context", context)
    return t.pgettext(context, text.message) if context else t.gettext(text.message)


def tree_names(
    commands: Iterable[app_commands.Command | app_commands.Group | app_commands.ContextMenu],
) -> list[tuple[str, str, str]]:
    """(context, name, where) of every command, group and option name under the bot's top-level
    commands (`bot.tree.get_commands()`), for the catalog check of
    tests/bot/test_command_localization.py: Babel cannot see names that are plain identifiers. The
    top-level names read the same in every language (bot/cog.py `ROOTS`), and context menus' names
    are messages Babel extracts, so neither is listed."""
    found = []

    def walk(node, path: str) -> None:
        for child in node.commands:
            where = f"/{path} {child.name}"
            found.append(("command", child.name, where))
            if isinstance(child, app_commands.Group):
                walk(child, f"{path} {child.name}")
            else:
                found.extend(("option", p.display_name, where) for p in child.parameters)

    for root in commands:
        if isinstance(root, app_commands.Group):
            walk(root, root.name)
    return found


def slash(t: Translator, path: str) -> str:
    """A command as `t`'s language's Discord client lists it: slash(ru, "ttr-host new") -> "/ttr-host новая".
    Each name after the top-level one is translated as the tree declares it (context "command";
    English when the catalog has none); "ttr", "ttr-host" ... read the same in every language."""
    root, *names = path.split()
    return "/" + " ".join([root, *(t.pgettext("command", name) for name in names)])


def option_name(t: Translator, name: str) -> str:
    """An option's name as `t`'s language's Discord client shows it (context "option")."""
    return t.pgettext("option", name)


class CommandTranslator(app_commands.Translator):
    """Russian for `ru`, Simplified Chinese for `zh-CN` and `zh-TW`; None (English) elsewhere."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = language_for_locale(locale)
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        text = command_text(translator(language), string, NAME_CONTEXTS.get(context.location))
        return text if text != string.message else None
