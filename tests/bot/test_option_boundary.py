"""Every slash command's options at the boundary (issue 38): whatever a hostile client sends for
any option of any command, `check_options` either refuses it with a worded refusal or passes a
value within what the command declares — a choice, its range, its length — cleaned of invisible
characters. Property-based over the bot's real command tree."""

from __future__ import annotations

import asyncio
import math
import unicodedata
from types import SimpleNamespace

import pytest
import regex
from discord import AppCommandOptionType, app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.client import TTRBot
from bot.errors import UserError, reason
from bot.settings import Settings
from bot.transformers import INTEGER_OPTION, TEXT_OPTION, OptionRefused, check_options, clean_text
from i18n import translator
from storage import Storage

#: Control and format characters, by the Unicode database of the Python the bot runs on (newer
#: databases, like the `regex` package's, know format characters this one does not).
HIDDEN = ("Cc", "Cf")


def hidden(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) in HIDDEN)


def _leaf_commands() -> list[app_commands.Command]:
    async def load() -> list[app_commands.Command]:
        bot = TTRBot(
            Settings(discord_token="x", database_url="sqlite+aiosqlite://"), storage=Storage("sqlite+aiosqlite://")
        )
        await bot.load_controllers()
        leaves = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
        return leaves

    return asyncio.run(load())


COMMANDS = _leaf_commands()
HOSTILE_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from(["\x00", "\x07", "\r", "\n", "\u200b", "\u202e", "\ufeff", "\u2066", " ", "é", "\u0301"]),
    ),
    max_size=300,
)


def _value(param) -> st.SearchStrategy:
    """What a hostile client may send for `param`: its choices, anything of its type, extremes."""
    declared = [c.value for c in param.choices]
    if param.type is AppCommandOptionType.string:
        anything = st.one_of(HOSTILE_TEXT, st.builds(lambda c, n: c * n, st.characters(), st.integers(60, 6000)))
    elif param.type is AppCommandOptionType.integer:
        anything = st.one_of(st.integers(), st.sampled_from([-(2**64), 2**63, 10**30, -1, 0]))
    elif param.type is AppCommandOptionType.number:
        anything = st.one_of(st.floats(), st.sampled_from([-1e308, 1e308, math.inf, -math.inf, math.nan]))
    elif param.type is AppCommandOptionType.boolean:
        anything = st.booleans()
    else:
        anything = st.none()  # users, roles, channels: resolved by Discord, not typed
    return st.one_of(st.sampled_from(declared), anything) if declared else anything


def test_every_command_is_covered():
    names = {c.qualified_name for c in COMMANDS}
    assert {"ttr-host new", "ttr-tournament create", "ttr-league create", "ttr-settings notify"} <= names
    assert sum(len(c.parameters) for c in COMMANDS) > 100


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.qualified_name)
@given(data=st.data())
def test_an_option_is_refused_or_within_what_its_command_declares(command, data):
    params = [p for p in command.parameters if p.type is not None]
    values = {p.display_name: data.draw(_value(p), label=p.name) for p in params}
    values = {k: v for k, v in values.items() if v is not None}
    interaction = SimpleNamespace(command=command, namespace=SimpleNamespace(**values))
    try:
        check_options(interaction)
    except OptionRefused as refused:
        assert isinstance(refused.original, UserError)
        text = reason(translator("en"), refused.original)
        assert text and not regex.search(r"\{(value|option|low|high)\}", text) and len(text) < 400
        return
    checked = interaction.namespace.__dict__
    for param in params:
        if param.display_name not in checked:
            continue
        value = checked[param.display_name]
        if param.choices:
            assert value in [c.value for c in param.choices]
        if param.type is AppCommandOptionType.string:
            high = param.max_value if param.max_value is not None else TEXT_OPTION
            assert len(value) <= high and value == clean_text(value)
            assert not hidden(value)
            if param.required:
                assert value
        if param.type in (AppCommandOptionType.integer, AppCommandOptionType.number):
            low = param.min_value if param.min_value is not None else -INTEGER_OPTION
            high = param.max_value if param.max_value is not None else INTEGER_OPTION
            assert math.isfinite(value) and low <= value <= high


@given(HOSTILE_TEXT)
def test_clean_text_keeps_what_is_visible_and_is_stable(text):
    cleaned = clean_text(text)
    assert clean_text(cleaned) == cleaned
    assert not hidden(cleaned) and cleaned == cleaned.strip()
    visible = "".join(c for c in text if not c.isspace() and unicodedata.category(c) not in HIDDEN + ("Co", "Cs"))
    assert len(regex.sub(r"\s", "", cleaned)) <= len(visible) + 2  # NFC may compose, never adds much


def test_clean_text_examples():
    assert clean_text("  Club\u200b \u202eEvil\x00\r\n Cup ") == "Club Evil Cup"
    assert clean_text("Cafe\u0301") == "Café"
    assert clean_text("\ufeff\u2066") == ""
