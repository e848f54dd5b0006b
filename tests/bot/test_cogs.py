"""Each controller is an extension that loads by name on its own: built against any bot that
offers the core services (bot/cog.py `Bot`), it puts its commands under that bot's /ttr and
registers its buttons, and unloading takes them away again — no other cog, no client module."""

from __future__ import annotations

import importlib
import sys

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.client import EXTENSIONS
from bot.service import GameService
from storage import Storage


class BareBot(commands.Bot):
    """Only what a cog may use at load time: the /ttr root and the game service."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())
        self.root = app_commands.Group(name="ttr", description="t")
        self.service = GameService(Storage("sqlite+aiosqlite:///:memory:"))


@pytest.mark.parametrize("name", EXTENSIONS)
async def test_each_controller_loads_and_unloads_alone(name):
    bot = BareBot()
    others = [other for other in EXTENSIONS if other != name]
    await bot.load_extension(name)
    [cog] = bot.cogs.values()
    commands_here = {c.name for c in bot.root.commands}
    assert all(c.parent is bot.root for c in bot.root.commands)
    assert not bot.tree.get_commands()  # nothing at the top level: all under /ttr
    assert commands_here or cog.items or bot.service._listeners, f"{name} adds nothing"
    assert not any(other in sys.modules and other in bot.extensions for other in others)
    await bot.unload_extension(name)
    assert not bot.root.commands and not bot._connection._view_store._dynamic_items and not bot.service._listeners
    assert importlib.import_module(name)  # still importable: unloading is not deleting


async def test_the_controllers_together_fill_the_root_without_clashes():
    bot = BareBot()
    for name in EXTENSIONS:
        await bot.load_extension(name)
    names = [c.name for c in bot.root.commands]
    assert len(names) == len(set(names)) <= 25  # Discord's limit of subcommands and groups
