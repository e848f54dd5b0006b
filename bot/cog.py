"""The base of every controller (bot/cogs/): its slash commands go under the bot's one `/ttr`
command, its buttons and selects are the DynamicItems it names, and it may hear outcomes.

Each cog module is an extension loaded by name (bot/client.py `EXTENSIONS`); cogs never import
each other: what they share lives in the core modules of bot/, and what one needs to know of
another's work arrives as an outcome (bot/service.py).
"""

from __future__ import annotations

from typing import ClassVar, Protocol

import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot.language import Languages
from bot.messenger import TableMessenger
from bot.moves import Moves
from bot.service import GameService
from bot.settings import Settings
from bot.timers import Timers
from engine.errors import TemplateError
from storage import Storage


class Bot(Protocol):
    """What a controller may use of the bot (bot/client.py `TTRBot` is it): the core services,
    the /ttr root, and the private replies every controller shares."""

    settings: Settings
    storage: Storage
    service: GameService
    languages: Languages
    timers: Timers
    messenger: TableMessenger
    moves: Moves
    root: app_commands.Group

    async def reply(self, interaction: Interaction, text: str, **kwargs) -> None: ...
    async def refuse(self, interaction: Interaction, error: TemplateError) -> None: ...
    async def forget_guild(self, guild_id: int) -> None: ...
    def serves_guild(self, guild_id: int) -> bool: ...
    def get_channel(self, channel_id: int, /): ...
    def add_dynamic_items(self, *items) -> None: ...
    def remove_dynamic_items(self, *items) -> None: ...


class TTRCog(commands.Cog):
    #: The DynamicItems (persistent buttons and selects) whose clicks this cog handles.
    items: ClassVar[tuple[type[discord.ui.DynamicItem], ...]] = ()

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._under_root: list = []

    async def cog_load(self) -> None:
        # Subcommands of /ttr rather than top-level commands: move them under the root before the
        # cog is injected (discord.py adds what is left in this list to the tree's top level).
        self._under_root = list(self.__cog_app_commands__)
        for command in self._under_root:
            self.bot.root.add_command(command)
        self.__cog_app_commands__ = []
        if self.items:
            self.bot.add_dynamic_items(*self.items)

    async def start_work(self) -> None:
        """Background work that needs storage (loops, resumed AI seats): started once storage is open."""

    async def stop_work(self) -> None:
        """Stop the background work, and wait for it, before storage closes under it."""

    async def cog_unload(self) -> None:
        for command in self._under_root:
            self.bot.root.remove_command(command.name)
        if self.items:
            self.bot.remove_dynamic_items(*self.items)
