"""Gathering players: open a lobby in a channel (or a new thread), join with a color, start; the
Rematch button; lobbies nobody touched for a while are closed.

A lobby lives in storage until the host starts it; starting creates the engine game and stores it
in the same transaction that closes the lobby, so two starts at once cannot both succeed.
"""

from __future__ import annotations

import logging

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot import components
from bot.background import Backoff
from bot.choices import DECK_CHOICES, MAP_CHOICES, deck_choice
from bot.cog import TTRCog
from bot.command_translator import locale_pstr, option_name, slash
from bot.errors import Command, Option, UserError, reason
from bot.messenger import AI_LEVELS, PLAYER_COLORS, escaped, reopened
from bot.permissions import is_manager, missing_permissions
from bot.service import Cause, CauseKind
from bot.tables import THREAD_ARCHIVE_MINUTES
from bot.timers import TIMERS
from engine import Game, GameOptions, GameOptionsError, load_map
from i18n import N_, NC_, Translator
from storage import ChannelBusyError, LobbyError
from storage import lobbies as stored_lobbies
from storage import players as stored_settings
from storage.errors import AlreadyInLobbyError, LobbyAlreadyOpenError, LobbyFullError
from storage.models import Lobby, LobbyMember

log = logging.getLogger(__name__)

#: Words of the choices below that come from tables elsewhere, for the catalogs.
TIMER_WORDS = (
    NC_("timer", "none"),
    NC_("timer", "5 minutes"),
    NC_("timer", "10 minutes"),
    NC_("timer", "1 hour"),
    NC_("timer", "12 hours"),
    NC_("timer", "24 hours"),
    NC_("timer", "48 hours"),
)  # bot.timers.TIMERS
AI_LEVEL_WORDS = (  # AI_LEVELS
    NC_("AI level", "random"),
    NC_("AI level", "gentle"),
    NC_("AI level", "baseline"),
    NC_("AI level", "strong"),
    NC_("AI level", "expert"),
)
PLAYER_COLOR_WORDS = (
    NC_("player color", "violet"),
    NC_("player color", "teal"),
    NC_("player color", "brown"),
    NC_("player color", "sky"),
    NC_("player color", "lime"),
)  # PLAYER_COLORS

COLOR_CHOICES = [app_commands.Choice(name=locale_pstr("player color", c), value=c) for c in PLAYER_COLORS]
TIMER_CHOICES = [
    app_commands.Choice(name=locale_pstr("timer", name), value=seconds) for name, seconds in TIMERS.items()
]
ABSENCE_CHOICES = [
    app_commands.Choice(name=locale_str("skip the turn"), value="skip"),
    app_commands.Choice(name=locale_str("an AI plays the seat until they are back"), value="ai"),
    app_commands.Choice(name=locale_str("skip, remove after several misses"), value="remove"),
]
AI_LEVEL_CHOICES = [app_commands.Choice(name=locale_pstr("AI level", level), value=level) for level in AI_LEVELS]


class InThreadAlready(UserError):
    message = N_("This is a thread already: run `{new}` here without `{thread}`, or in a channel to open a new thread.")


def _lobbies(interaction: Interaction) -> Lobbies:
    return interaction.client.get_cog("Lobbies")  # type: ignore[attr-defined,return-value]


class LobbyButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.LOBBY):
    async def run(self, interaction: Interaction) -> None:
        lobbies = _lobbies(interaction)
        await {"join": lobbies.join_lobby, "leave": lobbies.leave_lobby, "start": lobbies.start_game}[
            self.fields["what"]
        ](interaction, lobby_id=self.number("lobby"))


class RematchButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.REMATCH):
    async def run(self, interaction: Interaction) -> None:
        await _lobbies(interaction).rematch(interaction, self.number("game"))


class Lobbies(TTRCog):
    """Gathering players and starting games (and rematches); closing lobbies nobody touches."""

    under = "ttr-host"  # /ttr-host new, start, cancel; the players' /ttr join, leave
    items = (LobbyButton, RematchButton)

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self._expiry = Backoff("lobby expiry", base=60, most=3600)
        self._posted: dict[int, discord.Message] = {}  # lobby -> its message with Join/Leave/Start

    async def start_work(self) -> None:
        self.expire_lobbies.start()

    async def stop_work(self) -> None:
        await self._expiry.stop(self.expire_lobbies)

    # ------------------------------------------------------------------ slash commands

    @app_commands.command(name="new", description=locale_str("Open a new game in this channel (or a new thread)"))
    @app_commands.describe(
        map=locale_str("The board"),
        tickets=locale_str("Ticket deck (default: the map's base deck)"),
        players=locale_str("Most players allowed (default: as many as the map allows)"),
        thread=locale_str("Play in a new thread"),
        tolls=locale_str("Nederland: play with bridge tolls (default yes)"),
        neutral=locale_str("Nederland, 2 players: add the neutral player"),
        most_tickets=locale_str("Switzerland: 10 points for the most tickets, not the longest path"),
        timer=locale_str("Time for each turn (play-by-post: 24 hours)"),
        absence=locale_str("When a turn's time runs out (default: skip it)"),
        remove_after=locale_str("With absence 'remove': missed turns in a row before removal"),
        reminder_minutes=locale_str("Remind this many minutes before the deadline (default: a quarter of it)"),
    )
    @app_commands.choices(map=MAP_CHOICES, tickets=DECK_CHOICES, timer=TIMER_CHOICES, absence=ABSENCE_CHOICES)
    async def new(
        self,
        interaction: Interaction,
        map: app_commands.Choice[str] | None = None,
        tickets: app_commands.Choice[str] | None = None,
        players: app_commands.Range[int, 2, 5] | None = None,
        thread: bool = False,
        tolls: bool | None = None,
        neutral: bool | None = None,
        most_tickets: bool | None = None,
        timer: app_commands.Choice[int] | None = None,
        absence: app_commands.Choice[str] | None = None,
        remove_after: app_commands.Range[int, 1, 20] = 3,
        reminder_minutes: app_commands.Range[int, 0, 2880] | None = None,
    ) -> None:
        deck = None
        map_id = map.value if map else None
        if tickets is not None:
            deck_map, deck = deck_choice(tickets.value)
            map_id = map_id or deck_map
            if deck_map != map_id:
                t = await self.bot.languages.for_interaction(interaction)
                await self._reply(
                    interaction,
                    t.gettext(
                        "That ticket deck belongs to the {deck_map} map, not {map}.",
                        deck_map=t.map_name(load_map(deck_map)),
                        map=t.map_name(load_map(map_id)),
                    ),
                )
                return
        variants = {
            k: v for k, v in (("tolls", tolls), ("neutral", neutral), ("most_tickets", most_tickets)) if v is not None
        }
        clock = {}
        if timer is not None and timer.value:
            clock = {
                "turn_seconds": timer.value,
                "absence": absence.value if absence else "skip",
                "remove_after": remove_after,
            }
            if reminder_minutes is not None:
                clock["reminder_seconds"] = min(reminder_minutes * 60, timer.value)
        await self.open_lobby(
            interaction, map_id=map_id, deck=deck, players=players, thread=thread, variants=variants, clock=clock
        )

    @app_commands.command(
        name="join", description=locale_str("Join the open game in this channel"), extras={"under": "ttr"}
    )
    @app_commands.describe(color=locale_str("Your train color"))
    @app_commands.choices(color=COLOR_CHOICES)
    async def join(self, interaction: Interaction, color: app_commands.Choice[str] | None = None) -> None:
        await self.join_lobby(interaction, color=color.value if color else None)

    @app_commands.command(
        name="leave", description=locale_str("Leave the open lobby in this channel"), extras={"under": "ttr"}
    )
    async def leave(self, interaction: Interaction) -> None:
        await self.leave_lobby(interaction)

    @app_commands.command(name="start", description=locale_str("Start the game (host only)"))
    @app_commands.describe(
        first=locale_str("Who plays first (default: random)"),
        ai_players=locale_str("AI players to add (solo practice, or to fill the table)"),
        ai_level=locale_str("How strong the AI players are"),
    )
    @app_commands.choices(ai_level=AI_LEVEL_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        first: discord.User | None = None,
        ai_players: app_commands.Range[int, 0, 4] = 0,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.start_game(
            interaction, first=first, ai_players=ai_players, ai_level=ai_level.value if ai_level else "baseline"
        )

    @app_commands.command(name="cancel", description=locale_str("Cancel the open lobby (host or server manager)"))
    async def cancel(self, interaction: Interaction) -> None:
        await self.cancel_lobby(interaction)

    # ------------------------------------------------------------------ housekeeping

    @tasks.loop(minutes=5)
    async def expire_lobbies(self) -> None:
        await self._expiry.run(self._expire_idle_lobbies)

    async def _expire_idle_lobbies(self) -> None:
        async with self.bot.storage.sessions() as session:
            expired = await stored_lobbies.expire_idle_lobbies(
                session=session, idle_minutes=self.bot.settings.lobby_idle_minutes
            )
        for lobby in expired:
            channel = self.bot.get_channel(lobby.channel_id)
            if channel is not None:
                t = await self.bot.languages.for_channel(lobby.guild_id)
                try:
                    await channel.send(
                        t.ngettext(
                            "⌛ The lobby here was closed after {n} minute without activity.",
                            "⌛ The lobby here was closed after {n} minutes without activity.",
                            self.bot.settings.lobby_idle_minutes,
                        )
                    )
                except discord.HTTPException:
                    pass

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A game's thread archived (a long pause or vacation): unarchive it, so its players can go on."""
        if after.archived and not before.archived and await self.bot.service.table_in_channel(after.id) is not None:
            await reopened(after)

    async def defaults(self, guild_id: int | None) -> tuple[str, list[int]]:
        """(the server's default map, channels where games are allowed; empty = everywhere)."""
        if guild_id is None:
            return "usa", []
        async with self.bot.storage.sessions() as session:
            settings = await stored_settings.get_guild_settings(session=session, guild_id=guild_id)
        if settings is None:
            return "usa", []
        return settings.default_map or "usa", list(settings.settings.get("channels", []))

    # ------------------------------------------------------------------ the controller

    async def _reply(self, interaction: Interaction, text: str, *, ephemeral: bool = True, **kwargs) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)

    async def _tell(self, interaction: Interaction, template: str, /, **params: object) -> None:
        """A private reply in the user's language."""
        t = await self.bot.languages.for_interaction(interaction)
        await self._reply(interaction, t.gettext(template, **params))

    async def _no_lobby(self, interaction: Interaction) -> None:
        """The private reply when there is no lobby to join or start, naming the command that opens one."""
        t = await self.bot.languages.for_interaction(interaction)
        await self._reply(
            interaction, t.gettext("There is no open lobby here. Start one with `{new}`.", new=slash(t, "ttr-host new"))
        )

    async def _announce(self, interaction: Interaction, template: str, /, **params: object) -> None:
        """A public reply in the server's language."""
        t = await self.bot.languages.for_channel(interaction.guild_id)
        await self._reply(interaction, t.gettext(template, **params), ephemeral=False)

    async def _lobby(self, *, channel_id: int | None = None, lobby_id: int | None = None) -> Lobby | None:
        async with self.bot.storage.sessions() as session:
            if lobby_id is not None:
                lobby = await session.get(Lobby, lobby_id)
                return lobby if lobby is not None and lobby.status == "open" else None
            return await stored_lobbies.open_lobby_in_channel(session=session, channel_id=channel_id)

    async def _members(self, lobby_id: int) -> list[LobbyMember]:
        async with self.bot.storage.sessions() as session:
            return await stored_lobbies.lobby_members(session=session, lobby_id=lobby_id)

    @staticmethod
    def _absence_text(t: Translator, clock: dict) -> str:
        """What a missed deadline does, said before anyone joins (bot/timers.py counts the misses)."""
        absence = clock.get("absence", "skip")
        if absence == "ai":
            return t.gettext(
                "When a turn's time runs out, an AI plays that seat until its player takes it back "
                "(the AI chosen at start)."
            )
        if absence == "remove":
            return t.ngettext(
                "When a turn's time runs out, it is skipped; a player who misses {n} turn in a row "
                "is removed (the starting tickets don't count).",
                "When a turn's time runs out, it is skipped; a player who misses {n} turns in a row "
                "is removed (the starting tickets don't count).",
                int(clock.get("remove_after", 3)),
            )
        return t.gettext("When a turn's time runs out, it is skipped (two cards from the deck).")

    @staticmethod
    def _lobby_text(t: Translator, lobby: Lobby, members: list[LobbyMember]) -> str:
        """The lobby message (posted in the channel, in the server's language)."""
        m = load_map(lobby.map_id)
        words = {
            "map": t.map_name(m),
            "n": lobby.max_seats,
            "deck": t.pgettext("deck", m.rules.decks[lobby.options.get("deck") or m.rules.default_deck].name),
        }
        clock = lobby.options.get("clock") or {}
        seconds = clock.get("turn_seconds")
        if seconds:
            timer = t.pgettext("timer", next(k for k, v in TIMERS.items() if v == seconds))
            title = t.ngettext(
                "🚂 **New {map} game** · tickets: {deck} · up to {n} player · ⏰ {timer} per turn",
                "🚂 **New {map} game** · tickets: {deck} · up to {n} players · ⏰ {timer} per turn",
                lobby.max_seats,
                timer=timer,
                **words,
            )
        else:
            title = t.ngettext(
                "🚂 **New {map} game** · tickets: {deck} · up to {n} player",
                "🚂 **New {map} game** · tickets: {deck} · up to {n} players",
                lobby.max_seats,
                **words,
            )
        seats = []
        for place, mm in enumerate(members, start=1):
            player = f"<@{mm.user_id}>"
            seats.append(
                t.gettext(
                    "{place}. {player} ({color})",
                    place=place,
                    player=player,
                    color=t.pgettext("player color", mm.color),
                )
                if mm.color
                else f"{place}. {player}"
            )
        host = f"<@{lobby.host_id}>"
        return "\n".join(
            [
                title,
                *([Lobbies._absence_text(t, clock)] if seconds else []),
                t.gettext(
                    "Host: {host}. Join with the button or `{join}`; the host starts with `{start}`.",
                    host=host,
                    join=slash(t, "ttr join"),
                    start=slash(t, "ttr-host start"),
                ),
                t.gettext("**Players ({count}/{most}):**", count=len(members), most=lobby.max_seats),
                *seats,
            ]
        )

    # ------------------------------------------------------------------ commands

    async def open_lobby(
        self,
        interaction: Interaction,
        *,
        map_id: str | None,
        deck: str | None,
        players: int | None,
        thread: bool,
        variants: dict,
        clock: dict | None = None,
    ) -> None:
        default_map, allowed = await self.defaults(interaction.guild_id)
        here = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        t = await self.bot.languages.for_interaction(interaction)
        if allowed and here not in allowed and interaction.channel_id not in allowed:
            await self._reply(
                interaction,
                t.gettext(
                    "Games aren't played in this channel on this server. Try {channels}.",
                    channels=t.join((f"<#{c}>" for c in allowed), style="or"),
                ),
            )
            return
        m = load_map(map_id or default_map)
        map_id = m.id
        if players is None:
            players = 2 if variants.get("neutral") else m.rules.max_players
        elif players > m.rules.max_players:
            await self._reply(
                interaction,
                t.ngettext(
                    "The {map} map is for at most {n} player.",
                    "The {map} map is for at most {n} players.",
                    m.rules.max_players,
                    map=t.map_name(m),
                ),
            )
            return
        if deck is not None and deck not in m.rules.decks:
            await self._reply(
                interaction,
                t.gettext(
                    "The {map} map has no ticket deck {deck}. Choose one of: {decks}.",
                    map=t.map_name(m),
                    deck=repr(deck),
                    decks=t.join(m.rules.decks, style="or"),
                ),
            )
            return
        options = GameOptions(deck=deck, variants=variants)
        try:  # let the engine refuse bad combinations (e.g. a neutral player with 3 seats) now
            Game(m, max(players, 2), 0, options)
        except GameOptionsError as exc:
            await self._reply(
                interaction, t.gettext("⚠️ These options don't go together: {reason}", reason=reason(t, exc, name=str))
            )
            return
        channel = interaction.channel
        if thread and isinstance(channel, discord.Thread):
            raise InThreadAlready(new=Command("ttr-host new"), thread=Option("thread"))
        missing = missing_permissions(t, interaction, threads=thread)
        if missing:
            await self._reply(
                interaction,
                t.ngettext(
                    "⚠️ I can't run a game in {channel}: I need the **{permissions}** permission there. Ask a server "
                    "admin to grant it, or use another channel.",
                    "⚠️ I can't run a game in {channel}: I need the **{permissions}** permissions there. Ask a server "
                    "admin to grant them, or use another channel.",
                    len(missing),
                    channel=channel.mention,
                    permissions=t.join(missing),
                ),
            )
            return
        if await self.bot.service.table_in_channel(channel.id) is not None:
            await self._reply(
                interaction,
                t.gettext(
                    "A game is already running in this channel. Finish it, or start "
                    "a new one in another channel or with `{thread}: True`.",
                    thread=option_name(t, "thread"),
                ),
            )
            return
        public = await self.bot.languages.for_channel(interaction.guild_id)
        if thread:  # creating it may outlast Discord's 3 seconds; without one the answer (or refusal) comes at once
            await interaction.response.defer(thinking=True)
            try:
                channel = await channel.create_thread(
                    name=public.gettext("Ticket to Ride · {map}", map=public.map_name(m)),
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.Forbidden:
                await interaction.followup.send(
                    t.gettext(
                        "⚠️ I can't create a thread here: I need the **Create Public "
                        "Threads** permission. Run `{new}` without `{thread}`, or "
                        "ask an admin.",
                        new=slash(t, "ttr-host new"),
                        thread=option_name(t, "thread"),
                    ),
                    ephemeral=True,
                )
                return
        await self.bot.messenger.remember_name(interaction.user)
        try:
            async with self.bot.storage.sessions() as session:
                lobby = await stored_lobbies.open_lobby(
                    session=session,
                    guild_id=interaction.guild_id or 0,
                    channel_id=channel.id,
                    host_id=interaction.user.id,
                    map_id=map_id,
                    options={**options.to_json(), "clock": clock or {}},
                    max_seats=players,
                    host_color=next(iter(PLAYER_COLORS)),  # told in the lobby's list, as joiners are told theirs
                )
        except LobbyAlreadyOpenError:
            await self._reply(
                interaction,
                t.gettext("A lobby is already open in this channel: join it with `{join}`.", join=slash(t, "ttr join")),
            )
            return
        members = await self._members(lobby.id)
        text = self._lobby_text(public, lobby, members)
        if thread:
            self._posted[lobby.id] = await channel.send(text, view=components.lobby_view(lobby.id, t=public))
            await interaction.followup.send(public.gettext("Lobby opened in {channel}.", channel=channel.mention))
        else:
            await interaction.response.send_message(text, view=components.lobby_view(lobby.id, t=public))
            self._posted[lobby.id] = await interaction.original_response()

    async def join_lobby(
        self, interaction: Interaction, *, lobby_id: int | None = None, color: str | None = None
    ) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            await self._no_lobby(interaction)
            return
        members = await self._members(lobby.id)
        taken = {mm.color for mm in members if mm.color}
        t = await self.bot.languages.for_interaction(interaction)
        if color is not None and color in taken:
            await self._reply(
                interaction,
                t.gettext(
                    "{color} is taken. Free colors: {free}.",
                    color=t.pgettext("player color", color),
                    free=t.join(t.pgettext("player color", c) for c in PLAYER_COLORS if c not in taken),
                ),
            )
            return
        color = color or next((c for c in PLAYER_COLORS if c not in taken), None)
        await self.bot.messenger.remember_name(interaction.user)
        try:
            async with self.bot.storage.sessions() as session:
                members = await stored_lobbies.join_lobby(
                    session=session, lobby_id=lobby.id, user_id=interaction.user.id, color=color
                )
        except AlreadyInLobbyError:
            await self._reply(interaction, t.gettext("You can't join this lobby: you are already in it."))
            return
        except LobbyFullError:
            await self._reply(
                interaction,
                t.ngettext(
                    "You can't join this lobby: it is full ({n} player).",
                    "You can't join this lobby: it is full ({n} players).",
                    lobby.max_seats,
                ),
            )
            return
        except LobbyError:
            await self._reply(interaction, t.gettext("You can't join this lobby: it is closed."))
            return
        await interaction.response.defer(thinking=True)
        dms_work = await self._dm_welcome(t, interaction.user)
        public = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.followup.send(
            public.gettext(
                "{player} joined as **{color}**. ({count}/{most})",
                player=interaction.user.mention,
                color=public.pgettext("player color", color),
                count=len(members),
                most=lobby.max_seats,
            )
        )
        if not dms_work:
            await interaction.followup.send(
                t.gettext(
                    "I can't send you direct messages, so I'll show your cards and tickets privately in the channel: "
                    "press **{button}** on the turn message. (To get DMs: Server → Privacy Settings → Direct Messages.)",
                    button=t.pgettext("button", "My hand"),
                ),
                ephemeral=True,
            )

    @staticmethod
    async def _dm_welcome(t: Translator, user: discord.abc.User) -> bool:
        """Tell a joining player their starting tickets come by DM; False if DMs don't reach them."""
        try:
            await user.send(
                t.gettext(
                    "👋 You joined a game. Your starting tickets will come here; during the game your cards "
                    "and choices are in your private panel (**My hand** on the table)."
                )
            )
            return True
        except discord.Forbidden:
            return False

    async def leave_lobby(self, interaction: Interaction, *, lobby_id: int | None = None) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            if await self.bot.service.table_in_channel(interaction.channel_id):
                t = await self.bot.languages.for_interaction(interaction)
                await self._reply(
                    interaction,
                    t.gettext(
                        "There is no open lobby here. The game has started: use `{resign}` to leave it.",
                        resign=slash(t, "ttr resign"),
                    ),
                )
            else:
                await self._tell(interaction, N_("There is no open lobby here."))
            return
        async with self.bot.storage.sessions() as session:
            left = await stored_lobbies.leave_lobby(session=session, lobby_id=lobby.id, user_id=interaction.user.id)
        if not left:
            await self._tell(interaction, N_("You are not in this lobby."))
            return
        members = await self._members(lobby.id)
        if not members:
            async with self.bot.storage.sessions() as session:
                await stored_lobbies.cancel_lobby(session=session, lobby_id=lobby.id)
            await self._announce(
                interaction, N_("{player} left; the lobby is empty and closed."), player=f"<@{interaction.user.id}>"
            )
            return
        await self._announce(
            interaction,
            N_("{player} left the lobby. ({count}/{most})"),
            player=f"<@{interaction.user.id}>",
            count=len(members),
            most=lobby.max_seats,
        )

    async def cancel_lobby(self, interaction: Interaction) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id)
        if lobby is None:
            await self._tell(interaction, N_("There is no open lobby here."))
            return
        if interaction.user.id != lobby.host_id and not is_manager(interaction):
            await self._tell(
                interaction, N_("Only the host ({host}) or a server manager can cancel it."), host=f"<@{lobby.host_id}>"
            )
            return
        async with self.bot.storage.sessions() as session:
            await stored_lobbies.cancel_lobby(session=session, lobby_id=lobby.id)
        await self._announce(interaction, N_("Lobby cancelled."))

    async def start_game(
        self,
        interaction: Interaction,
        *,
        lobby_id: int | None = None,
        first: discord.abc.User | None = None,
        ai_players: int = 0,
        ai_level: str = "baseline",
    ) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            await self._no_lobby(interaction)
            return
        if interaction.user.id != lobby.host_id:
            await self._tell(interaction, N_("Only the host ({host}) can start the game."), host=f"<@{lobby.host_id}>")
            return
        members = await self._members(lobby.id)
        if len(members) + ai_players < 2:
            t = await self.bot.languages.for_interaction(interaction)
            await self._reply(
                interaction,
                t.gettext(
                    "At least 2 players are needed: others join with `{join}`, or add "
                    "AI players with `{start} {ai_players}:`.",
                    join=slash(t, "ttr join"),
                    start=slash(t, "ttr-host start"),
                    ai_players=option_name(t, "ai_players"),
                ),
            )
            return
        if len(members) + ai_players > 5:
            await self._tell(
                interaction,
                N_("A game has at most 5 seats: {players} players + {ais} AIs is too many."),
                players=len(members),
                ais=ai_players,
            )
            return
        user_ids: list[int | None] = [mm.user_id for mm in members] + [None] * ai_players
        if first is not None and first.id not in user_ids:
            await self._tell(interaction, N_("{name} is not in this lobby."), name=escaped(first.display_name))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        options = GameOptions.from_json(lobby.options)
        options = GameOptions(
            deck=options.deck,
            returned_tickets=options.returned_tickets,
            first_seat=user_ids.index(first.id) if first else None,
            variants=options.variants,
        )
        taken = {mm.color for mm in members if mm.color}
        free = iter(c for c in PLAYER_COLORS if c not in taken)
        colors = [mm.color or next(free) for mm in members] + [next(free) for _ in range(ai_players)]
        ai = [None] * len(members) + [ai_level] * ai_players
        try:
            await self.bot.service.start(
                guild_id=lobby.guild_id,
                channel_id=lobby.channel_id,
                map_id=lobby.map_id,
                options=options,
                user_ids=user_ids,
                colors=colors,
                host_id=lobby.host_id,
                lobby_id=lobby.id,
                ai=ai,
                cause=Cause(CauseKind.START, user_id=interaction.user.id, clock=self._clock(lobby, ai_level)),
            )
        except (LobbyError, ChannelBusyError):
            await self._tell(interaction, N_("This lobby has already started (or a game is running here)."))
            return
        await self._retire(lobby.id)
        await self._tell(interaction, N_("Game started!"))

    @staticmethod
    def _clock(lobby, ai_level: str) -> dict:
        """The lobby's turn timer, with the AI level the host chose at start: the AI that keeps a
        timed-out player's seat warm (absence "ai") or takes a seat the host hands over."""
        clock = lobby.options.get("clock") or {}
        return {**clock, "ai_level": ai_level} if clock else {}

    async def _retire(self, lobby_id: int) -> None:
        """A started lobby's message loses Join/Leave/Start: the game's table has the controls now."""
        message = self._posted.pop(lobby_id, None)
        if message is not None:
            try:
                await message.edit(view=None)
            except discord.HTTPException:
                pass  # gone or past its edit cap: its buttons refuse with the reason anyway

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """Same seats, same map and options, a new seed, in the same channel."""
        old = await self.bot.service.table(game_id)
        if old.seat_of(interaction.user.id) is None:
            await self._tell(interaction, N_("Only the players of this game can start a rematch."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        options = GameOptions.from_json(old.record.options)
        options = GameOptions(deck=options.deck, returned_tickets=options.returned_tickets, variants=options.variants)
        try:
            await self.bot.service.start(
                guild_id=old.record.guild_id,
                channel_id=old.record.channel_id,
                map_id=old.record.map_id,
                options=options,
                user_ids=[s.user_id for s in old.seats],
                colors=[s.color for s in old.seats],
                host_id=interaction.user.id,
                ai=[s.ai if s.user_id is None else None for s in old.seats],  # not the AIs keeping seats warm
                cause=Cause(
                    CauseKind.START, user_id=interaction.user.id, clock=await self.bot.timers.settings_of(game_id)
                ),
            )
        except ChannelBusyError:
            await self._tell(interaction, N_("A game is already running in this channel."))
            return
        await self._tell(interaction, N_("Rematch started!"))


async def setup(bot) -> None:
    await bot.add_cog(Lobbies(bot))
