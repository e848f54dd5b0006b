"""Gathering players: open a lobby in a channel (or a new thread), join with a color, start.

A lobby lives in storage until the host starts it; `start` creates the engine game and stores it
in the same transaction that closes the lobby, so two starts at once cannot both succeed.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

import discord
from discord import Interaction

from bot import components
from bot.admin import is_manager
from bot.clocks import TIMERS
from bot.command_translator import option_name, slash
from bot.error_text import describe_error
from bot.service import Table
from bot.turns import PLAYER_COLORS
from engine import Game, GameOptions, GameOptionsError, load_map
from i18n import N_, Translator
from storage import ChannelBusyError, LobbyError
from storage import games as stored_games
from storage import lobbies as stored_lobbies
from storage.models import Lobby, LobbyMember

if TYPE_CHECKING:
    from bot.client import TTRBot

log = logging.getLogger(__name__)


class Lobbies:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot
        #: Where new games get their seed (tests replace it to replay the same games).
        self.new_seed = lambda: secrets.randbits(62)

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
        await self._reply(interaction, t.gettext("There is no open lobby here. Start one with `{new}`.",
                                                 new=slash(t, "ttr new")))

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
    def _lobby_text(t: Translator, lobby: Lobby, members: list[LobbyMember]) -> str:
        """The lobby message (posted in the channel, in the server's language)."""
        m = load_map(lobby.map_id)
        words = {"map": t.map_name(m), "n": lobby.max_seats,
                 "deck": t.pgettext("deck", m.rules.decks[lobby.options.get("deck") or m.rules.default_deck].name)}
        seconds = (lobby.options.get("clock") or {}).get("turn_seconds")
        if seconds:
            timer = t.pgettext("timer", next(k for k, v in TIMERS.items() if v == seconds))
            title = t.ngettext("🚂 **New {map} game** · tickets: {deck} · up to {n} player · ⏰ {timer} per turn",
                               "🚂 **New {map} game** · tickets: {deck} · up to {n} players · ⏰ {timer} per turn",
                               lobby.max_seats, timer=timer, **words)
        else:
            title = t.ngettext("🚂 **New {map} game** · tickets: {deck} · up to {n} player",
                               "🚂 **New {map} game** · tickets: {deck} · up to {n} players", lobby.max_seats, **words)
        seats = []
        for place, mm in enumerate(members, start=1):
            player = f"<@{mm.user_id}>"
            seats.append(t.gettext("{place}. {player} ({color})", place=place, player=player,
                                   color=t.pgettext("player color", mm.color)) if mm.color else f"{place}. {player}")
        host = f"<@{lobby.host_id}>"
        return "\n".join([
            title,
            t.gettext("Host: {host}. Join with the button or `{join}`; the host starts with `{start}`.",
                      host=host, join=slash(t, "ttr join"), start=slash(t, "ttr start")),
            t.gettext("**Players ({count}/{most}):**", count=len(members), most=lobby.max_seats),
            *seats,
        ])

    # ------------------------------------------------------------------ commands

    async def new(self, interaction: Interaction, *, map_id: str | None, deck: str | None, players: int | None,
                  thread: bool, variants: dict, clock: dict | None = None) -> None:
        default_map, allowed = await self.bot.admin.defaults(interaction.guild_id)
        here = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        t = await self.bot.languages.for_interaction(interaction)
        if allowed and here not in allowed and interaction.channel_id not in allowed:
            await self._reply(interaction, t.gettext(
                "Games aren't played in this channel on this server. Try {channels}.",
                channels=t.join((f"<#{c}>" for c in allowed), style="or")))
            return
        m = load_map(map_id or default_map)
        map_id = m.id
        if players is None:
            players = 2 if variants.get("neutral") else m.rules.max_players
        elif players > m.rules.max_players:
            await self._reply(interaction, t.ngettext("The {map} map is for at most {n} player.",
                                                      "The {map} map is for at most {n} players.",
                                                      m.rules.max_players, map=t.map_name(m)))
            return
        if deck is not None and deck not in m.rules.decks:
            await self._reply(interaction, t.gettext("The {map} map has no ticket deck {deck}. Choose one of: {decks}.",
                                                     map=t.map_name(m), deck=repr(deck),
                                                     decks=t.join(m.rules.decks, style="or")))
            return
        options = GameOptions(deck=deck, variants=variants)
        try:  # let the engine refuse bad combinations (e.g. a neutral player with 3 seats) now
            Game(m, max(players, 2), 0, options)
        except GameOptionsError as exc:
            await self._reply(interaction, t.gettext("⚠️ These options don't go together: {reason}",
                                                     reason=describe_error(t, exc, None, str)))
            return
        channel = interaction.channel
        missing = missing_permissions(t, interaction, threads=thread)
        if missing:
            await self._reply(interaction, t.ngettext(
                "⚠️ I can't run a game in {channel}: I need the **{permissions}** permission there. Ask a server "
                "admin to grant it, or use another channel.",
                "⚠️ I can't run a game in {channel}: I need the **{permissions}** permissions there. Ask a server "
                "admin to grant them, or use another channel.", len(missing), channel=channel.mention,
                permissions=t.join(missing)))
            return
        if await self.bot.service.table_in_channel(channel.id) is not None:
            await self._reply(interaction, t.gettext("A game is already running in this channel. Finish it, or start "
                                                     "a new one in another channel or with `{thread}: True`.",
                                                     thread=option_name(t, "thread")))
            return
        await interaction.response.defer(thinking=True)
        public = await self.bot.languages.for_channel(interaction.guild_id)
        if thread:
            try:
                channel = await channel.create_thread(name=public.gettext("Ticket to Ride · {map}",
                                                                          map=public.map_name(m)),
                                                      type=discord.ChannelType.public_thread)
            except discord.Forbidden:
                await interaction.followup.send(t.gettext("⚠️ I can't create a thread here: I need the **Create Public "
                                                          "Threads** permission. Run `{new}` without `{thread}`, or "
                                                          "ask an admin.", new=slash(t, "ttr new"),
                                                          thread=option_name(t, "thread")), ephemeral=True)
                return
        await self.bot.turns.remember_name(interaction.user)
        try:
            async with self.bot.storage.sessions() as session:
                lobby = await stored_lobbies.open_lobby(
                    session=session, guild_id=interaction.guild_id or 0, channel_id=channel.id,
                    host_id=interaction.user.id, map_id=map_id, options={**options.to_json(), "clock": clock or {}},
                    max_seats=players)
        except LobbyError:
            await interaction.followup.send(public.gettext("A lobby is already open in this channel: join it with "
                                                           "`{join}`.", join=slash(public, "ttr join")))
            return
        members = await self._members(lobby.id)
        text = self._lobby_text(public, lobby, members)
        if thread:
            await channel.send(text, view=components.lobby_view(lobby.id, t=public))
            await interaction.followup.send(public.gettext("Lobby opened in {channel}.", channel=channel.mention))
        else:
            await interaction.followup.send(text, view=components.lobby_view(lobby.id, t=public))

    async def join(self, interaction: Interaction, *, lobby_id: int | None = None, color: str | None = None) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            await self._no_lobby(interaction)
            return
        members = await self._members(lobby.id)
        taken = {mm.color for mm in members if mm.color}
        t = await self.bot.languages.for_interaction(interaction)
        if color is not None and color in taken:
            await self._reply(interaction, t.gettext("{color} is taken. Free colors: {free}.",
                                                     color=t.pgettext("player color", color),
                                                     free=t.join(t.pgettext("player color", c) for c in PLAYER_COLORS
                                                                 if c not in taken)))
            return
        color = color or next((c for c in PLAYER_COLORS if c not in taken), None)
        await self.bot.turns.remember_name(interaction.user)
        try:
            async with self.bot.storage.sessions() as session:
                members = await stored_lobbies.join_lobby(session=session, lobby_id=lobby.id,
                                                          user_id=interaction.user.id, color=color)
        except LobbyError as exc:
            if "already" in str(exc):
                reason = t.gettext("You can't join this lobby: you are already in it.")
            elif "full" in str(exc):
                reason = t.ngettext("You can't join this lobby: it is full ({n} player).",
                                    "You can't join this lobby: it is full ({n} players).", lobby.max_seats)
            else:
                reason = t.gettext("You can't join this lobby: it is closed.")
            await self._reply(interaction, reason)
            return
        await interaction.response.defer(thinking=True)
        dms_work = await self._dm_welcome(t, interaction.user)
        public = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.followup.send(public.gettext("{player} joined as **{color}**. ({count}/{most})",
                                                       player=interaction.user.mention,
                                                       color=public.pgettext("player color", color),
                                                       count=len(members), most=lobby.max_seats))
        if not dms_work:
            await interaction.followup.send(t.gettext(
                "I can't send you direct messages, so I'll show your cards and tickets privately in the channel: "
                "press **{button}** on the turn message. (To get DMs: Server → Privacy Settings → Direct Messages.)",
                button=t.pgettext("button", "My hand")), ephemeral=True)

    @staticmethod
    async def _dm_welcome(t: Translator, user: discord.abc.User) -> bool:
        """Tell a joining player their cards and tickets come by DM; False if DMs don't reach them."""
        try:
            await user.send(t.gettext("👋 You joined a game. Your cards and tickets will come here, in private."))
            return True
        except discord.Forbidden:
            return False

    async def leave(self, interaction: Interaction, *, lobby_id: int | None = None) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            if await self.bot.service.table_in_channel(interaction.channel_id):
                t = await self.bot.languages.for_interaction(interaction)
                await self._reply(interaction, t.gettext("There is no open lobby here. The game has started: use "
                                                         "`{resign}` to leave it.", resign=slash(t, "ttr resign")))
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
            await self._announce(interaction, N_("{player} left; the lobby is empty and closed."),
                                 player=f"<@{interaction.user.id}>")
            return
        await self._announce(interaction, N_("{player} left the lobby. ({count}/{most})"),
                             player=f"<@{interaction.user.id}>", count=len(members), most=lobby.max_seats)

    async def cancel(self, interaction: Interaction) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id)
        if lobby is None:
            await self._tell(interaction, N_("There is no open lobby here."))
            return
        if interaction.user.id != lobby.host_id and not is_manager(interaction):
            await self._tell(interaction, N_("Only the host ({host}) or a server manager can cancel it."),
                               host=f"<@{lobby.host_id}>")
            return
        async with self.bot.storage.sessions() as session:
            await stored_lobbies.cancel_lobby(session=session, lobby_id=lobby.id)
        await self._announce(interaction, N_("Lobby cancelled."))

    async def start(self, interaction: Interaction, *, lobby_id: int | None = None,
                    first: discord.abc.User | None = None, ai_players: int = 0, ai_level: str = "baseline") -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            await self._no_lobby(interaction)
            return
        if interaction.user.id != lobby.host_id:
            await self._tell(interaction, N_("Only the host ({host}) can start the game."),
                             host=f"<@{lobby.host_id}>")
            return
        members = await self._members(lobby.id)
        if len(members) + ai_players < 2:
            t = await self.bot.languages.for_interaction(interaction)
            await self._reply(interaction, t.gettext("At least 2 players are needed: others join with `{join}`, or add "
                                                     "AI players with `{start} {ai_players}:`.", join=slash(t, "ttr join"),
                                                     start=slash(t, "ttr start"),
                                                     ai_players=option_name(t, "ai_players")))
            return
        if len(members) + ai_players > 5:
            await self._tell(interaction, N_("A game has at most 5 seats: {players} players + {ais} AIs is too many."),
                             players=len(members), ais=ai_players)
            return
        user_ids: list[int | None] = [mm.user_id for mm in members] + [None] * ai_players
        if first is not None and first.id not in user_ids:
            await self._tell(interaction, N_("{name} is not in this lobby."), name=first.display_name)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        options = GameOptions.from_json(lobby.options)
        options = GameOptions(deck=options.deck, returned_tickets=options.returned_tickets,
                              first_seat=user_ids.index(first.id) if first else None, variants=options.variants)
        taken = {mm.color for mm in members if mm.color}
        free = iter(c for c in PLAYER_COLORS if c not in taken)
        colors = [mm.color or next(free) for mm in members] + [next(free) for _ in range(ai_players)]
        ai = [None] * len(members) + [ai_level] * ai_players
        try:
            table = await self._create(lobby.guild_id, lobby.channel_id, lobby.map_id, options, user_ids, colors,
                                       host_id=lobby.host_id, lobby_id=lobby.id, ai=ai)
        except (LobbyError, ChannelBusyError):
            await self._tell(interaction, N_("This lobby has already started (or a game is running here)."))
            return
        await self.bot.clocks.configure(table, lobby.options.get("clock") or {})
        await self.bot.turns.game_started(table)
        await self._tell(interaction, N_("Game started!"))

    async def _create(self, guild_id: int, channel_id: int, map_id: str, options: GameOptions,
                      user_ids: list[int | None], colors: list[str | None], *, host_id: int,
                      lobby_id: int | None = None, ai: list[str | None] | None = None) -> Table:
        game = Game.new(map_id, len(user_ids), self.new_seed(), options)
        async with self.bot.storage.sessions() as session:
            await stored_games.create_game(session=session, guild_id=guild_id, channel_id=channel_id, game=game,
                                           players=user_ids, colors=colors, lobby_id=lobby_id, host_id=host_id,
                                           ai=ai)
        table = await self.bot.service.table_in_channel(channel_id)
        assert table is not None
        return table

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
            table = await self._create(old.record.guild_id, old.record.channel_id, old.record.map_id, options,
                                       [s.user_id for s in old.seats], [s.color for s in old.seats],
                                       host_id=interaction.user.id, ai=[s.ai for s in old.seats])
        except ChannelBusyError:
            await self._tell(interaction, N_("A game is already running in this channel."))
            return
        old_clock = await self.bot.clocks.clock(game_id)
        if old_clock is not None:
            await self.bot.clocks.configure(table, {
                "turn_seconds": old_clock.turn_seconds, "reminder_seconds": old_clock.reminder_seconds,
                "absence": old_clock.absence, "remove_after": old_clock.remove_after,
                "vacation_days": old_clock.vacation_days})
        await self.bot.turns.game_started(table)
        await self._tell(interaction, N_("Rematch started!"))


def missing_permissions(t: Translator, interaction: Interaction, *, threads: bool = False) -> list[str]:
    """The permissions the bot lacks in this channel to post turns (and open a thread), named as
    Discord's settings name them in `t`'s language."""
    perms = interaction.app_permissions
    needed = [("send_messages", t.pgettext("permission", "Send Messages")),
              ("attach_files", t.pgettext("permission", "Attach Files"))]
    if threads:
        needed.append(("create_public_threads", t.pgettext("permission", "Create Public Threads")))
    return [label for flag, label in needed if not getattr(perms, flag)]


