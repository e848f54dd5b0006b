"""Each controller is an extension that loads by name on its own: built against any bot that
offers the core services (bot/cog.py `Bot`), it puts its commands under that bot's top-level
commands (and its context menus beside them) and registers its buttons, and unloading takes them
away again — no other cog, no client module."""

from __future__ import annotations

import importlib
import sys

import discord
import pytest
from discord.ext import commands

from bot.client import EXTENSIONS
from bot.cog import ROOTS, TTRCog, root_groups
from bot.service import GameService
from bot.settings import Settings
from storage import Storage


class BareBot(commands.Bot):
    """Only what a cog may use at load time: the settings, the top-level command groups and the game service."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())
        self.settings = Settings(discord_token="bare", database_url="sqlite+aiosqlite:///:memory:")
        self.roots = root_groups()
        self.service = GameService(Storage("sqlite+aiosqlite:///:memory:"))


@pytest.mark.parametrize("name", EXTENSIONS)
async def test_each_controller_loads_and_unloads_alone(name):
    bot = BareBot()
    others = [other for other in EXTENSIONS if other != name]
    await bot.load_extension(name)
    [cog] = bot.cogs.values()
    top = bot.tree.get_commands(type=discord.AppCommandType.chat_input)
    assert {c.name for c in top} <= set(ROOTS)  # nothing at the top level but the bot's own groups
    assert all(bot.roots[c.name] is c and c.commands for c in top)  # each one there holds a command of this cog
    assert {c.extras.get("under", cog.under) for root in top for c in root.commands} == {c.name for c in top}
    works = type(cog).start_work is not TTRCog.start_work  # background work (a loop) is something too
    assert top or cog.items or bot.service._listeners or works, f"{name} adds nothing"
    assert not any(other in sys.modules and other in bot.extensions for other in others)
    await bot.unload_extension(name)
    assert not bot.tree.get_commands() and not any(root.commands for root in bot.roots.values())
    assert not bot._connection._view_store._dynamic_items and not bot.service._listeners
    assert importlib.import_module(name)  # still importable: unloading is not deleting


async def test_the_controllers_together_fill_the_roots_without_clashes():
    bot = BareBot()
    for name in EXTENSIONS:
        await bot.load_extension(name)
    assert {c.name for c in bot.tree.get_commands(type=discord.AppCommandType.chat_input)} == set(ROOTS)
    for root in bot.roots.values():
        names = [c.name for c in root.commands]
        assert len(names) == len(set(names)), root.name
    menus = bot.tree.get_commands(type=discord.AppCommandType.user)
    assert [m.name for m in menus] == ["Ticket to Ride profile"]
    await bot.unload_extension("bot.cogs.league_standings")
    assert not bot.tree.get_commands(type=discord.AppCommandType.user)  # the menu goes with its cog
    for name in ("bot.cogs.leagues", "bot.cogs.league_divisions", "bot.cogs.league_audit"):
        await bot.unload_extension(name)
    assert [c.name for c in bot.tree.get_command("ttr-league").commands] == ["queue"]  # bot.cogs.queue's
    await bot.unload_extension("bot.cogs.queue")
    assert bot.tree.get_command("ttr-league") is None and bot.tree.get_command("ttr") is not None
