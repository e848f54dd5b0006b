"""The bot process: a small commands.Bot subclass whose setup_hook opens storage (migrating and
verifying stored games), registers the persistent buttons and the /ttr commands, and syncs them
when they changed."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import discord
from discord import Interaction, app_commands
from discord.ext import commands, tasks

from bot import commands as ttr_commands
from bot.admin import Admin
from bot.ai_seats import AISeats
from bot.clocks import Clocks
from bot.command_translator import CommandTranslator
from bot.components import DYNAMIC_ITEMS
from bot.health import HealthServer
from bot.history import History
from bot.language import Languages
from bot.lobbies import Lobbies
from bot.service import GameService
from bot.settings import Settings
from bot.turns import Turns, new_error_id
from bot.undo import Undos
from i18n import Translator, translator
from storage import Storage

log = logging.getLogger(__name__)


class TTRBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, storage: Storage | None = None) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands need none
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         shard_count=settings.shard_count, shard_ids=settings.shard_ids)
        self.settings = settings
        self.storage = storage or Storage(settings.database_url)
        self.service = GameService(self.storage)
        self.languages = Languages(self)
        self.turns = Turns(self)
        self.lobbies = Lobbies(self)
        self.admin = Admin(self)
        self.clocks = Clocks(self)
        self.history = History(self)
        self.ai = AISeats(self)
        self.undos = Undos(self)
        self.tree.on_error = self.on_app_command_error
        self.health: HealthServer | None = None  # host: HEALTH_PORT's server, started in setup_hook
        self.resumed_games = 0  # host: for the ready line
        self.commands_synced = "not synced (SYNC_COMMANDS=false)"  # host: for the ready line
        self._said_ready = False  # host

    async def setup_hook(self) -> None:
        report = await self.storage.start(auto_migrate=self.settings.auto_migrate)
        self.resumed_games = len(report.verified)  # host
        if self.settings.health_port is not None:  # host: /healthz and /metrics
            self.health = HealthServer(self, host=self.settings.health_host, port=self.settings.health_port)
            await self.health.start()
        for problem in getattr(report, "problems", []) or []:
            log.error("stored game kept read-only: %s", problem)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CommandTranslator())  # before any sync: names in every language
        ttr_commands.setup(self)
        __import__("bot.leagues").leagues.register(self)  # rates league games when they end
        if self.settings.sync_commands:
            await self.sync_commands_if_changed()
        self.expire_lobbies.start()
        self.clocks.loop.start()
        await self.ai.resume_all()

    async def on_ready(self) -> None:  # host: the one line that says the bot is up
        if not self._said_ready:
            self._said_ready = True
            log.info("ready as %s in %d servers, %d games resumed, commands %s", self.user, len(self.guilds),
                     self.resumed_games, self.commands_synced)

    async def close(self) -> None:
        if self.health is not None:  # host
            await self.health.stop()
        self.expire_lobbies.cancel()
        self.clocks.loop.cancel()
        await self.ai.close()
        await super().close()
        await self.storage.close()

    # ------------------------------------------------------------------ command sync

    async def _tree_hash(self, guild: discord.Object | None) -> str:
        """The commands as they would sync, translations included (a catalog change syncs again)."""
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator else c.to_dict(self.tree)
                   for c in self.tree.get_commands(guild=guild)]
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync_commands_if_changed(self) -> None:
        """Sync to the dev guild (instant) or globally, only when the commands changed since the
        last sync recorded in data/ (global syncs are rate-limited by Discord)."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = await self._tree_hash(guild)
        where = f"to guild {guild.id}" if guild else "globally"
        # host: one marker per application (and guild): another application's sync is not this one's
        marker = Path("data") / f"commands-{self.application_id}-{guild.id if guild else 'global'}.sha256"
        if marker.exists() and marker.read_text().strip() == digest:
            log.info("commands unchanged since the last sync")
            self.commands_synced = f"unchanged since the last sync {where}"
            return
        synced = await self.tree.sync(guild=guild)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(digest)
        log.info("synced %d commands %s", len(synced), where)
        self.commands_synced = f"synced {where} ({len(synced)})"

    # ------------------------------------------------------------------ housekeeping

    @tasks.loop(minutes=5)
    async def expire_lobbies(self) -> None:
        from storage import lobbies as stored_lobbies

        async with self.storage.sessions() as session:
            expired = await stored_lobbies.expire_idle_lobbies(session=session,
                                                               idle_minutes=self.settings.lobby_idle_minutes)
        for lobby in expired:
            channel = self.get_channel(lobby.channel_id)
            if channel is not None:
                t = await self.languages.for_channel(lobby.guild_id)
                try:
                    await channel.send(t.ngettext("⌛ The lobby here was closed after {n} minute without activity.",
                                                  "⌛ The lobby here was closed after {n} minutes without activity.",
                                                  self.settings.lobby_idle_minutes))
                except discord.HTTPException:
                    pass

    def ai_action(self, game, seat: int):
        """The move an AI makes for `seat` (a timed-out turn with the 'ai' absence policy)."""
        from ai import ask, make_ai

        return ask(make_ai("baseline", seed=f"{game.seed}:{seat}:{len(game.log)}"), game, seat)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (or was removed): its games, lobbies, leagues and settings go."""
        await self.forget_guild(guild.id)

    async def forget_guild(self, guild_id: int) -> None:
        from storage.guilds import delete_guild_data

        async with self.storage.sessions() as session:
            counts = await delete_guild_data(session=session, guild_id=guild_id)
        for game_id in [t.id for t in list(self.service._tables.values()) if t.record.guild_id == guild_id]:
            self.service.forget(game_id)
        self.languages.forget_guild(guild_id)
        log.info("deleted a server's data", extra={"guild_id": guild_id, "games": counts.games})

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure):
            t = await self._translator(interaction)
            await self._reply(interaction, t.gettext("You can't use that command here."))
            return
        await self.apologize(interaction, error, what=interaction.command.qualified_name if interaction.command else None)

    async def apologize(self, interaction: Interaction, error: BaseException, *, what: str | None) -> None:
        """Every unexpected error: a short apology with an error id for the user, the traceback in the log."""
        error_id = new_error_id()
        log.error("interaction failed", exc_info=error,
                  extra={"error_id": error_id, "guild_id": interaction.guild_id, "user_id": interaction.user.id,
                         "what": what})
        t = await self._translator(interaction)
        try:
            await self._reply(interaction, t.gettext("😓 Sorry, something went wrong on my side (error id "
                                                     "`{error_id}`). Please try again.", error_id=error_id))
        except discord.HTTPException:
            pass  # the interaction expired: the log has it

    async def _translator(self, interaction: Interaction) -> Translator:
        """The user's language for an error reply; English when even that lookup fails (storage down)."""
        try:
            return await self.languages.for_interaction(interaction)
        except Exception:
            log.warning("no language for an error reply", exc_info=True)
            return translator()

    @staticmethod
    async def _reply(interaction: Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def on_error(self, event_method: str, /, *args, **kwargs) -> None:
        log.exception("unhandled error in %s", event_method, extra={"error_id": new_error_id()})

