"""The base of every controller (bot/cogs/): its slash commands go under one of the bot's top-level
commands (`ROOTS`: `/ttr` to play, `/ttr-host`, `/ttr-settings`, `/ttr-league`, `/ttr-tournament`), its context menus
beside them, its buttons and selects are the DynamicItems it names, and it may hear outcomes.

Each cog module is an extension loaded by name (bot/client.py `EXTENSIONS`); cogs never import
each other: what they share lives in the core modules of bot/, and what one needs to know of
another's work arrives as an outcome (bot/service.py).
"""

from __future__ import annotations

from typing import ClassVar, Protocol

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.language import Languages
from bot.messenger import TableMessenger
from bot.moves import Moves
from bot.service import GameService
from bot.settings import Settings
from bot.timers import Timers
from bot.transformers import check_options
from engine.errors import TemplateError
from storage import Storage

#: The top-level slash commands, split by who uses them, and their descriptions. Each stays within
#: 60% of Discord's limits (15 subcommands, 4,800 characters; tests/bot/test_command_localization.py),
#: so new commands have room. Their names read the same in every language: typing "/ttr" lists all five.
ROOTS = {
    "ttr": locale_str("Play Ticket to Ride"),
    "ttr-host": locale_str("Host a game: open, start or cancel it, and run it (kick, pause, end)"),
    "ttr-settings": locale_str("Your settings, and the server's (Manage Server)"),
    "ttr-league": locale_str("Server leagues: seasons, rated games, standings"),
    "ttr-tournament": locale_str("Tournaments: sign-up, rounds of tables, standings"),
}


def root_groups() -> dict[str, app_commands.Group]:
    """One empty group per top-level command; a cog adds it to the tree with its first command."""
    return {
        name: app_commands.Group(name=name, description=description, guild_only=True)
        for name, description in ROOTS.items()
    }


class Bot(Protocol):
    """What a controller may use of the bot (bot/client.py `TTRBot` is it): the core services,
    the top-level command groups and the tree, and the private replies every controller shares."""

    settings: Settings
    storage: Storage
    service: GameService
    languages: Languages
    timers: Timers
    messenger: TableMessenger
    moves: Moves
    roots: dict[str, app_commands.Group]
    tree: app_commands.CommandTree

    async def reply(self, interaction: Interaction, text: str, **kwargs) -> None: ...
    async def refuse(self, interaction: Interaction, error: TemplateError) -> None: ...
    async def authorize(self, interaction: Interaction, fields: dict[str, str]) -> None: ...
    async def forget_guild(self, guild_id: int) -> None: ...
    def serves_guild(self, guild_id: int) -> bool: ...
    def get_channel(self, channel_id: int, /): ...
    async def fetch_channel(self, channel_id: int, /): ...
    def add_dynamic_items(self, *items) -> None: ...
    def remove_dynamic_items(self, *items) -> None: ...


class TTRCog(commands.Cog):
    #: The top-level command (a key of `ROOTS`) this cog's slash commands go under; one command goes
    #: under another with `extras={"under": "ttr"}` in its decorator.
    under: ClassVar[str] = "ttr"
    #: The DynamicItems (persistent buttons and selects) whose clicks this cog handles.
    items: ClassVar[tuple[type[discord.ui.DynamicItem], ...]] = ()

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._placed: list[tuple[app_commands.Group, app_commands.Command | app_commands.Group]] = []
        self._menus: list[app_commands.ContextMenu] = []

    def context_menus(self) -> list[app_commands.ContextMenu]:
        """The context-menu commands (on a user or a message) this cog adds to the tree."""
        return []

    async def cog_load(self) -> None:
        # Subcommands of the top-level commands rather than top-level commands: move each under its
        # root before the cog is injected (discord.py adds what is left in this list to the tree's
        # top level). A root joins the tree with its first command.
        self._placed = [
            (self.bot.roots[command.extras.get("under", self.under)], command) for command in self.__cog_app_commands__
        ]
        for root, command in self._placed:
            root.add_command(command)
            if self.bot.tree.get_command(root.name) is None:
                self.bot.tree.add_command(root)
        self.__cog_app_commands__ = []
        self._menus = self.context_menus()
        for menu in self._menus:
            self.bot.tree.add_command(menu)
        if self.items:
            self.bot.add_dynamic_items(*self.items)

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Every slash command's options are what it declares (raises `OptionRefused`)."""
        check_options(interaction)
        return True

    async def start_work(self) -> None:
        """Background work that needs storage (loops, resumed AI seats): started once storage is open."""

    async def stop_work(self) -> None:
        """Stop the background work, and wait for it, before storage closes under it."""

    async def cog_unload(self) -> None:
        for root, command in self._placed:
            root.remove_command(command.name)
            if not root.commands:  # its last cog went: no empty command left to sync
                self.bot.tree.remove_command(root.name)
        for menu in self._menus:
            self.bot.tree.remove_command(menu.name, type=menu.type)
        if self.items:
            self.bot.remove_dynamic_items(*self.items)
