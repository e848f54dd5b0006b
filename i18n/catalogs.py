"""The catalogs against the source: which English strings the code uses and which translations lack.

`python -m i18n check` lists what is missing or stale in every language; `python -m i18n extract`
writes the template (messages.pot) a translator starts a new language from. The tests run the same
checks, so a string added without its Russian and Chinese translations fails CI. Messages are the
strings marked in the code (Babel, KEYWORDS below) and the names of the shipped maps and their
ticket decks (read from engine/maps/*.json, so a new map file without translations is reported).
The slash commands' names are identifiers of the bot's command tree, checked against the catalogs
by the bot's tests (`TREE_CONTEXTS`), so this layer needs nothing of the bot.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n.translator import DEFAULT_LANGUAGE, LANGUAGES, catalog_files, placeholders

ROOT = Path(__file__).resolve().parent.parent
#: Folders whose Python code shows text to players.
SOURCE_DIRS = ("bot", "texts", "rendering", "i18n", "engine", "storage", "cli")
#: Functions whose string arguments are messages: Babel keyword specs (argument positions).
KEYWORDS = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "N_": None,
    "NC_": ((1, "c"), 2),
    "locale_str": None,  # discord.py's translatable command texts
    "locale_pstr": ((1, "c"), 2),  # command texts with a context (bot/command_translator.py)
    "locale_format": None,  # a command text's template (bot/command_translator.py)
    # engine errors: their first argument is a message template (engine/errors.py)
    "InvalidActionError": None,
    "IllegalActionError": None,
    "CardsShortError": None,
    "AmbiguousActionError": None,
    "GameOptionsError": None,
    "UnknownMapError": None,
    "SeatCountError": None,
    "UnknownDeckError": None,
    "VariantError": None,
    "OptionValueError": None,
    "plural": (1, 2),  # a counted piece of an engine error (engine.errors.plural)
    "_illegal": None,
    "UserError": None,  # the bot's own refusals (bot/service.py)
    # league refusals (storage/errors.py, raised in storage/leagues/) and why a league game is
    # not rated (storage/ratings.py)
    "LeagueError": None,
    "LeagueNotFoundError": None,
    "LeagueNameTakenError": None,
    "InvalidSeasonError": None,
    "SeasonNotOpenError": None,
    "NotEligibleError": None,
    "AlreadyInSeasonError": None,
    "VoidStateError": None,
    "Unrated": None,
}

Key = tuple[str | None, str]  # (context, msgid)

#: Contexts of slash command and option names: identifiers in the bot's command tree, not strings
#: Babel sees; tests/bot/test_command_localization.py checks them against the tree itself.
TREE_CONTEXTS = ("command", "option")


@dataclass
class Message:
    context: str | None
    ids: tuple[str, ...]  # msgid, or (singular, plural)
    where: list[str] = field(default_factory=list)

    @property
    def key(self) -> Key:
        return self.context, self.ids[0]


def extract() -> dict[Key, Message]:
    """Every message the code marks, by (context, msgid), with where it is used."""
    return _extract()[0]


def fstring_warnings() -> list[str]:
    """Places that pass an f-string to a translation function (Babel cannot extract those)."""
    return _extract()[1]


def _extract() -> tuple[dict[Key, Message], list[str]]:
    found: dict[Key, Message] = {}
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        _collect(found)
    return found, [line for line in stderr.getvalue().splitlines() if "f-string" in line]


def _collect(found: dict[Key, Message]) -> None:
    for folder in SOURCE_DIRS:
        method_map = [("**/locales/**", "ignore"), ("**.py", "python")]
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / folder, method_map=method_map, keywords=KEYWORDS
        ):
            ids = message if isinstance(message, tuple) else (message,)
            if not ids or not ids[0]:
                continue
            entry = found.setdefault((context, ids[0]), Message(context, tuple(ids)))
            entry.where.append(f"{folder}/{filename}:{lineno}")
    # Map and ticket deck names are data (engine/maps/*.json): a map file dropped in needs its
    # names translated like any string of the code.
    for context, name, where in map_names():
        found.setdefault((context, name), Message(context, (name,))).where.append(where)


def map_names() -> list[tuple[str, str, str]]:
    """(context, name, where) of every shipped map's name ("map") and ticket decks' names ("deck"),
    translated with t.pgettext("map", m.name) and t.pgettext("deck", deck.name)."""
    from engine.mapdata import available_maps, load_map

    out = []
    for map_id in available_maps():
        m = load_map(map_id)
        where = f"engine/maps/{map_id}.json"
        out.append(("map", m.name, where))
        out.extend(("deck", deck.name, where) for deck in m.rules.decks.values())
    return out


def load(language: str) -> dict[Key, tuple[str, object, str]]:
    """A language's entries, by (context, msgid): (plural msgid or '', translation(s), file name)."""
    entries: dict[Key, tuple[str, object, str]] = {}
    for file in catalog_files(language):
        with file.open("rb") as fp:
            catalog = read_po(fp)
        for m in catalog:
            if not m.id:
                continue
            msgid = m.id[0] if isinstance(m.id, tuple) else m.id
            plural = m.id[1] if isinstance(m.id, tuple) else ""
            entries[(m.context, msgid)] = (plural, m.string, file.name) if not m.fuzzy else (plural, "", file.name)
    return entries


def problems(language: str, messages: dict[Key, Message] | None = None) -> list[str]:
    """What is wrong with one language: missing, empty, stale entries and placeholder mismatches."""
    messages = extract() if messages is None else messages
    entries = load(language)
    out = []
    for key, message in sorted(messages.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        if key not in entries:
            out.append(f"missing: {_show(key)} (used at {message.where[0]})")
            continue
        _plural, string, file = entries[key]
        forms = list(string) if isinstance(string, (tuple, list)) else [string]
        if not all(forms):
            out.append(f"untranslated: {_show(key)} in {file}")
            continue
        expected = placeholders(message.ids[-1]) | placeholders(message.ids[0])
        for form in forms:
            if placeholders(form) != expected:
                out.append(
                    f"placeholders differ: {_show(key)} in {file}: {sorted(placeholders(form))} != {sorted(expected)}"
                )
    for key, (_plural, _string, file) in sorted(entries.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        if key not in messages and key[0] not in TREE_CONTEXTS:
            out.append(f"stale (no longer in the code): {_show(key)} in {file}")
    return out


def _show(key: Key) -> str:
    context, msgid = key
    return f"[{context}] {msgid!r}" if context else repr(msgid)


def template() -> bytes:
    """The messages.pot text: every message with its source locations."""
    catalog = Catalog(project="ttr-discord", fuzzy=False)
    for (context, _), message in extract().items():
        msgid = message.ids if len(message.ids) > 1 else message.ids[0]
        catalog.add(
            msgid,
            locations=[
                (path, int(line)) for path, _, line in (w.rpartition(":") for w in message.where) if line.isdigit()
            ],
            context=context,
            flags=("python-brace-format",) if placeholders(message.ids[0]) else (),
        )
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, sort_output=True)
    return buf.getvalue()


def languages_to_check() -> list[str]:
    return [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]
