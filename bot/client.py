"""The bot process: a small commands.Bot subclass that holds the core services and loads the
controllers (bot/cogs/) by name in `setup_hook`, as RoboDanny's `initial_extensions` do.

`setup_hook` opens storage (migrating, and checking its shards' stored games without replaying them), sets the command translator,
loads every extension (a failure is logged, the others still load), starts their background work
and syncs the commands when they changed (the process with shard 0 does, see
`sync_commands_if_changed`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import tomllib
from datetime import timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

import discord
from aiohttp import web
from discord import Interaction, app_commands
from discord.ext import commands, tasks

from bot import metrics
from bot.announcer import Announcer
from bot.background import GRACE, Backoff
from bot.cog import TTRCog, root_groups
from bot.command_translator import CommandTranslator
from bot.components import MESSAGE_CONTENT, UnknownComponent, fit
from bot.emojis import ensure_card_emojis
from bot.errors import reason
from bot.global_limit import Pacer, share
from bot.health import HealthServer
from bot.inbox import Inbox
from bot.language import Languages
from bot.messenger import TableMessenger
from bot.moves import Moves
from bot.permissions import check_component
from bot.render_pool import POOL
from bot.service import ANNOUNCER, TIMERS, WEB, GameService, Table, new_error_id
from bot.settings import Settings, dev_guild_refused
from bot.standings import member_name
from bot.timers import Timers
from bot.web import links
from bot.web.activity import Activity
from bot.web.board import css
from bot.web.frames import Seat
from bot.web.pages import Pages
from bot.web.server import WebTable
from engine.errors import TemplateError
from i18n import Translator, translator
from storage import Storage, command_syncs
from storage import announcements as outbox
from texts.present import use_card_emojis

log = logging.getLogger(__name__)
#: The command type of an Activity's Entry Point (PRIMARY_ENTRY_POINT), which discord.py does not model.
ENTRY_POINT = 4

#: The controllers, one concern each, loaded in this order.
EXTENSIONS = (
    "bot.cogs.lobby",  # /ttr join, leave; /ttr-host new, start, cancel; lobby buttons, rematch, idle lobbies
    "bot.cogs.play",  # /ttr draw, claim, tickets, station, pass, resign, hand; the turn's buttons
    "bot.cogs.clocks",  # turn timers firing; /ttr-settings vacation
    "bot.cogs.admin",  # /ttr-host kick, replace, handover, pause, resume, end
    "bot.cogs.preferences",  # /ttr-settings language, colorblind, notify, show, map, channel, forget
    "bot.cogs.info",  # /ttr status, games, rules, help
    "bot.cogs.history",  # /ttr board, log (and a finished game's export and replay)
    "bot.cogs.undo",  # the Undo button and its vote
    "bot.cogs.ai_seats",  # AI seats play their turns
    "bot.cogs.leagues",  # /ttr-league create, role, info, season, rated, void, export, rename, delete; rating
    "bot.cogs.league_audit",  # /ttr-league audit
    "bot.cogs.league_standings",  # /ttr-league leaderboard, profile; the "Ticket to Ride profile" user menu
    "bot.cogs.league_divisions",  # /ttr-league division set, remove, assign, reward
    "bot.cogs.season_closing",  # seasons closed on their date: reward roles, the results post
    "bot.cogs.tournaments",  # /ttr-tournament …; sign-up buttons; rounds of tables opened and recorded
    "bot.cogs.queue",  # /ttr-league queue join, leave, status, rules; the matcher making rated tables
)


def _release() -> str:
    """This code's release: pyproject.toml's version beside the code (a checkout), else the
    installed package's (a container)."""
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    try:
        return tomllib.loads(pyproject.read_text())["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        try:
            return metadata.version("ttr-discord")
        except metadata.PackageNotFoundError:
            return "0"


#: Stored with each command sync: an older release never overwrites a newer one's commands.
RELEASE = _release()

#: How often the outbox is looked at for rows nobody announced (seconds; more often with a short lease).
OUTBOX_EVERY = 15


class TTRBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, storage: Storage | None = None) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands need none
        # Nothing here reads messages as they are posted (interactions bring theirs): without these
        # the gateway does not send the bot every message, its own turn messages included.
        intents.guild_messages = intents.dm_messages = False
        # Nobody is pinged unless a message names whom (bot/messenger.py `pings`): a player named
        # "@everyone" or "<@&role>" pings nobody.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.pacer = Pacer(share(settings.discord_global_limit, settings.shard_count, settings.shard_ids))
        self._pace_requests()
        self._keep_entry_point()
        self.storage = storage or Storage(settings.database_url)
        self.service = GameService(self.storage)
        self.languages = Languages(self.storage, forced=settings.force_language)
        self.timers = Timers(self.storage)
        self.messenger = TableMessenger(self, self.storage, self.languages, self.timers)
        lease = timedelta(seconds=settings.outbox_lease)
        self.announcer = Announcer(self.messenger, self.service, lease=lease, identity=self.identity())
        self.service.claimer = self.announcer.claimer  # its rows are written claimed by the announcer
        self.inbox = Inbox(self, self.storage, self.languages, lease=lease, identity=self.identity())
        self.moves = Moves(self.service, self.messenger, self.inbox)
        self.service.subscribe(TIMERS, self.timers.on_outcome)
        self.service.subscribe(ANNOUNCER, self.announcer.on_outcome)
        #: Every slash command is a subcommand of one of these (bot/cog.py `ROOTS`; the cogs put theirs here).
        self.roots = root_groups()
        self.tree.on_error = self.on_app_command_error
        self._outbox_backoff = Backoff("outbox", base=5, most=300)
        self._pruned = float("-inf")
        self.health: HealthServer | None = None  # HEALTH_PORT's server, started in setup_hook
        self.web: WebTable | None = None  # the web table on it (WEB_SECRET, WEB_PUBLIC_URL; docs/web.md)
        self.discord_activity: Activity | None = None  # and the table as an Activity (DISCORD_CLIENT_SECRET)
        self.resumed_games = 0  # for the ready line
        self.commands_synced = "not synced (SYNC_COMMANDS=false)"  # for the ready line
        self._said_ready = False

    def _pace_requests(self) -> None:
        """Every REST request of discord.py waits for this process's share of Discord's global
        rate limit (interaction answers do not go through here, and Discord does not count them)."""
        request = self.http.request

        async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
            await self.pacer.take()
            return await request(route, **kwargs)

        self.http.request = paced  # type: ignore[method-assign]

    def _keep_entry_point(self) -> None:
        """A global command sync keeps the application's Entry Point command: Discord adds one when
        Activities are enabled (docs/web.md, "The Activity"), refuses a bulk overwrite that leaves it
        out (50240), and discord.py's tree cannot declare it; so it is read back and sent as it is."""
        upsert = self.http.bulk_upsert_global_commands

        async def keeping(application_id: int, payload: list[dict[str, Any]]) -> Any:
            current = await self.http.get_global_commands(application_id)
            entry_points = [c for c in current if c.get("type") == ENTRY_POINT]
            return await upsert(application_id, payload=[*payload, *entry_points])

        self.http.bulk_upsert_global_commands = keeping  # type: ignore[method-assign,assignment]

    async def setup_hook(self) -> None:
        # This process's games are checked, not replayed: each replays when first needed.
        report = await self.storage.start(
            auto_migrate=self.settings.auto_migrate, shards=self.my_shards(), replay=False
        )
        self.resumed_games = len(report.verified)
        if self.settings.health_port is not None:  # /healthz and /metrics, and the web table
            self.web = self.web_table()
            self.discord_activity = self.web_activity()
            self.health = HealthServer(
                self,
                host=self.settings.health_host,
                port=self.settings.health_port,
                routes=self.web_routes if self.web else None,
            )
            await self.health.start()
            if self.web is not None:
                # the players' panels offer the map from now on: a link, or the Activity's launch
                links.configure(self.web.signer, activity=self.discord_activity is not None)
                self.service.subscribe(WEB, self.web.on_outcome)
        elif self.settings.web_secret or self.settings.web_public_url:
            log.warning("WEB_SECRET and WEB_PUBLIC_URL need HEALTH_PORT: the web table is off")
        for problem in getattr(report, "problems", []) or []:
            log.error("stored game kept read-only: %s", problem)
        await self.tree.set_translator(CommandTranslator())  # before any sync: names in every language
        await ensure_card_emojis(self, create=self.serves_guild(0))  # before any game's text is written
        await self.load_controllers()
        self.add_dynamic_items(UnknownComponent)  # refuses what no controller's templates know
        # What this process's predecessor held when it died is free before anything moves a game
        # (an AI resumed below posts its game's older rows first).
        await self.announcer.take_over()
        for cog in self.controllers():
            await cog.start_work()
        await self.drain_outbox()  # turns stored before a crash, announced now
        # A dead claimer's rows are taken over once its lease ran out: look at least that often.
        self.outbox_loop.change_interval(seconds=min(OUTBOX_EVERY, self.settings.outbox_lease))
        self.outbox_loop.start()
        if not self.settings.sync_commands:
            return
        if self.serves_guild(0):  # one process syncs: the one with shard 0
            await self.sync_commands_if_changed()
        else:
            self.commands_synced = "left to the process with shard 0"

    def web_table(self) -> WebTable | None:
        """The web table (docs/web.md) when WEB_SECRET and WEB_PUBLIC_URL are set: names, colours
        and languages as the messenger gives them to the table in Discord."""
        secret, url = self.settings.web_secret, self.settings.web_public_url
        if secret is None or not url:
            if secret is not None or url:
                log.warning("the web table needs both WEB_SECRET and WEB_PUBLIC_URL: it is off")
            return None
        messenger = self.messenger

        async def language(table: Table, seat: int | None) -> Translator:
            return await (messenger.channel_t(table) if seat is None else messenger.seat_t(table, seat))

        async def seats(table: Table) -> list[Seat]:
            await messenger.load_names(table)
            return [Seat(style.name, css(style.color)) for style in messenger.styles(table)]

        signer = links.Signer(secret.get_secret_value(), url, hours=self.settings.web_link_hours)
        return WebTable(self.service, signer, language=language, seats=seats)

    def web_activity(self) -> Activity | None:
        """The web table as a Discord Activity (docs/web.md) when the table is on and
        DISCORD_CLIENT_SECRET is set: the client id is the application's own."""
        secret = self.settings.discord_client_secret
        if self.web is None or secret is None or self.application_id is None:
            if secret is not None:
                log.warning("DISCORD_CLIENT_SECRET needs the web table (docs/web.md): the Activity is off")
            return None
        assert self.http.token is not None  # logged in before setup_hook
        return Activity(
            self.web, client_id=self.application_id, client_secret=secret.get_secret_value(), bot_token=self.http.token
        )

    def web_routes(self, app: web.Application) -> None:
        """The web table's routes, the Activity's when it is on, and the pages' (a finished game's
        replay, a league season's standings, a tournament's tables; docs/web.md), names and
        languages as the commands give them."""
        assert self.web is not None
        self.web.add_routes(app)
        if self.discord_activity is not None:
            self.discord_activity.add_routes(app)
        Pages(
            self.web,
            guild_language=self.languages.for_channel,
            name=lambda t, guild, user, stored: member_name(t, self.get_guild(guild), user, stored),
        ).add_routes(app)

    async def load_controllers(self) -> None:
        """Load every extension by name; one that fails is logged and the others still load."""
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except Exception:
                log.exception("could not load extension %s", name)

    def controllers(self) -> list[TTRCog]:
        return [cog for cog in self.cogs.values() if isinstance(cog, TTRCog)]

    async def on_ready(self) -> None:  # the one line that says the bot is up
        if not self._said_ready:
            self._said_ready = True
            # The image workers (a forkserver) once the bot is up: a start refused before then
            # (database, health port) leaves no processes behind. Until they are ready, threads draw.
            POOL.start(self.settings.render_workers)
            log.info(
                "ready as %s in %d servers, %d games resumed, commands %s",
                self.user,
                len(self.guilds),
                self.resumed_games,
                self.commands_synced,
            )

    async def close(self) -> None:
        if self.health is not None:
            await self.health.stop()
            links.configure(None)
        await self._outbox_backoff.stop(self.outbox_loop)
        for cog in self.controllers():
            await cog.stop_work()
        if not await self.service.settle(timeout=GRACE):
            log.warning("closing with changes still being announced (the next start announces them)")
        await super().close()
        use_card_emojis({})  # this process's texts are no longer the bot's
        await self.announcer.close()  # the marks of what was posted
        await self.storage.close()

    # ------------------------------------------------------------------ the outbox

    def my_shards(self) -> list[tuple[int, int] | None]:
        """The shards this process runs, as (shard id, shard count); [None] when it runs them all."""
        if not self.settings.shard_count:
            return [None]
        ids = self.settings.shard_ids if self.settings.shard_ids is not None else range(self.settings.shard_count)
        return [(shard_id, self.settings.shard_count) for shard_id in ids]

    def identity(self) -> str:
        """This process among the bot's processes, the same after a restart: its first shard (no two
        processes run the same shard), "all" when it runs every shard."""
        shards = [shard for shard in self.my_shards() if shard is not None]
        return f"shard {min(shards)[0]}/{shards[0][1]}" if shards else "all"

    def serves_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of `guild_id` (Discord's rule: (id >> 22) % count)."""
        return any(shard is None or (guild_id >> 22) % shard[1] == shard[0] for shard in self.my_shards())

    async def drain_outbox(self) -> int:
        """Announce the stored changes nobody announced (a crash between saving and telling), then
        answer the moves a dead process acknowledged and never saved (a crash before saving)."""
        done = told = 0
        for shard in self.my_shards():
            done += await self.announcer.drain(shard=shard)
            told += await self.inbox.answer_unsaved(shard=shard)
        if done:
            log.info("announced %d stored changes left from before", done)
        if told:
            log.info("told %d players their move was not saved before a restart", told)
        return done

    @tasks.loop(seconds=OUTBOX_EVERY)
    async def outbox_loop(self) -> None:
        """Rows whose claimer died mid-post (its lease ran out) are announced by whoever is alive;
        once an hour, rows announced more than a day ago go (the outbox keeps no history)."""
        await self._outbox_backoff.run(self.drain_outbox)
        if time.monotonic() - self._pruned >= 3600:
            self._pruned = time.monotonic()
            await self._outbox_backoff.run(self._prune_outbox)

    async def _prune_outbox(self) -> None:
        async with self.storage.sessions() as session:
            await outbox.prune_announcements(session=session)

    # ------------------------------------------------------------------ command sync

    async def _tree_hash(self, guild: discord.Object | None) -> str:
        """The commands as they would sync, translations included (a catalog change syncs again)."""
        translator = self.tree.translator
        payload = [
            await c.get_translated_payload(self.tree, translator) if translator else c.to_dict(self.tree)
            for c in self.tree.get_commands(guild=guild)
        ]
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync_commands_if_changed(self) -> None:
        """Sync to the dev guild (instant) or globally, only when the commands differ from the last
        sync of this application recorded in the database (global syncs are rate-limited by
        Discord); never over the commands of a newer release (storage/command_syncs.py)."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = await self._tree_hash(guild)
        where = f"to guild {guild.id}" if guild else "globally"
        assert self.application_id is not None
        key = {"application_id": self.application_id, "guild_id": guild.id if guild else 0}
        async with self.storage.sessions() as session:
            verdict = await command_syncs.claim_sync(session=session, digest=digest, release=RELEASE, **key)
        if verdict == command_syncs.UNCHANGED:
            log.info("commands unchanged since the last sync")
            self.commands_synced = f"unchanged since the last sync {where}"
            return
        if verdict == command_syncs.NEWER:
            log.warning("commands left as a newer release synced them", extra={"release": RELEASE})
            self.commands_synced = f"left as a newer release synced them {where}"
            return
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden as exc:  # 50001 Missing Access: the bot is not in DEV_GUILD_ID's server
            if guild is None:
                raise
            raise dev_guild_refused(guild.id) from exc
        async with self.storage.sessions() as session:
            await command_syncs.confirm_sync(session=session, digest=digest, **key)
        log.info("synced %d commands %s", len(synced), where)
        self.commands_synced = f"synced {where} ({len(synced)})"

    # ------------------------------------------------------------------ servers

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (or was removed): its games, lobbies, leagues and settings go."""
        await self.forget_guild(guild.id)

    async def forget_guild(self, guild_id: int) -> None:
        from storage.guilds import delete_guild_data

        async with self.storage.sessions() as session:
            counts = await delete_guild_data(session=session, guild_id=guild_id)
        self.service.forget_guild(guild_id)
        self.languages.forget_guild(guild_id)
        log.info("deleted a server's data", extra={"guild_id": guild_id, "games": counts.games})

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        """Every command's failure: a refusal (any TemplateError) worded for the caller by the one
        function that words them; a failed check; anything else is an apology with an error id."""
        metrics.interaction_finished(interaction, "error")
        original = (
            error.__cause__ if isinstance(error, app_commands.TransformerError) else getattr(error, "original", error)
        )
        if isinstance(original, TemplateError):
            await self.refuse(interaction, original)
            return
        if isinstance(error, app_commands.CheckFailure):
            t = await self._translator(interaction)
            await self.reply(interaction, t.gettext("You can't use that command here."))
            return
        await self.apologize(
            interaction, error, what=interaction.command.qualified_name if interaction.command else None
        )

    async def authorize(self, interaction: Interaction, fields: dict[str, str]) -> None:
        """A component's custom id names something of this server and channel (raises why not)."""
        await check_component(self, interaction, fields)

    async def refuse(self, interaction: Interaction, error: TemplateError) -> None:
        """A refusal, privately, in the caller's words (nothing was changed)."""
        t = await self._translator(interaction)
        await self.reply(interaction, "⚠️ " + reason(t, error))

    async def apologize(self, interaction: Interaction, error: BaseException, *, what: str | None) -> None:
        """Every unexpected error: a short apology with an error id for the user, the traceback in the log."""
        error_id = new_error_id()
        log.error(
            "interaction failed",
            exc_info=error,
            extra={
                "error_id": error_id,
                "guild_id": interaction.guild_id,
                "user_id": interaction.user.id,
                "what": what,
            },
        )
        t = await self._translator(interaction)
        try:
            await self.reply(
                interaction,
                t.gettext(
                    "😓 Sorry, something went wrong on my side (error id `{error_id}`). Please try again.",
                    error_id=error_id,
                ),
            )
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
    async def reply(interaction: Interaction, text: str, **kwargs) -> None:
        """A private reply, whether or not the interaction was answered (deferred) already."""
        text = fit(text, MESSAGE_CONTENT)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)

    async def on_error(self, event_method: str, /, *args, **kwargs) -> None:
        log.exception("unhandled error in %s", event_method, extra={"error_id": new_error_id()})
