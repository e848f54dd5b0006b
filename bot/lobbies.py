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
from bot.service import Table
from bot.turns import PLAYER_COLORS
from engine import Game, GameOptions, load_map
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

    async def _lobby(self, *, channel_id: int | None = None, lobby_id: int | None = None) -> Lobby | None:
        async with self.bot.storage.sessions() as session:
            if lobby_id is not None:
                lobby = await session.get(Lobby, lobby_id)
                return lobby if lobby is not None and lobby.status == "open" else None
            return await stored_lobbies.open_lobby_in_channel(session=session, channel_id=channel_id)

    async def _members(self, lobby_id: int) -> list[LobbyMember]:
        async with self.bot.storage.sessions() as session:
            return await stored_lobbies.lobby_members(session=session, lobby_id=lobby_id)

    def _lobby_text(self, lobby: Lobby, members: list[LobbyMember]) -> str:
        m = load_map(lobby.map_id)
        deck = lobby.options.get("deck") or m.rules.default_deck
        seats = "\n".join(f"{i + 1}. <@{mm.user_id}>" + (f" ({mm.color})" if mm.color else "")
                          for i, mm in enumerate(members))
        seconds = (lobby.options.get("clock") or {}).get("turn_seconds")
        timer = f" · ⏰ {next(k for k, v in TIMERS.items() if v == seconds)} per turn" if seconds else ""
        return (f"🚂 **New {m.name} game** · tickets: {m.rules.decks[deck].name} · up to {lobby.max_seats} players"
                f"{timer}\n"
                f"Host: <@{lobby.host_id}>. Join with the button or `/ttr join`; the host starts with `/ttr start`.\n"
                f"**Players ({len(members)}/{lobby.max_seats}):**\n{seats}")

    # ------------------------------------------------------------------ commands

    async def new(self, interaction: Interaction, *, map_id: str | None, deck: str | None, players: int | None,
                  thread: bool, variants: dict, clock: dict | None = None) -> None:
        default_map, allowed = await self.bot.admin.defaults(interaction.guild_id)
        here = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        if allowed and here not in allowed and interaction.channel_id not in allowed:
            await self._reply(interaction, "Games aren't played in this channel on this server. Try "
                              + ", ".join(f"<#{c}>" for c in allowed) + ".")
            return
        m = load_map(map_id or default_map)
        map_id = m.id
        if players is None:
            players = 2 if variants.get("neutral") else m.rules.max_players
        elif players > m.rules.max_players:
            await self._reply(interaction, f"The {m.name} map is for at most {m.rules.max_players} players.")
            return
        if deck is not None and deck not in m.rules.decks:
            await self._reply(interaction, f"The {m.name} map has no ticket deck {deck!r}. Choose one of: "
                              + ", ".join(m.rules.decks) + ".")
            return
        options = GameOptions(deck=deck, variants=variants)
        try:  # let the engine refuse bad combinations (e.g. a neutral player with 3 seats) now
            Game(m, max(players, 2), 0, options)
        except ValueError as exc:
            await self._reply(interaction, f"⚠️ {exc}")
            return
        channel = interaction.channel
        missing = missing_permissions(interaction, threads=thread)
        if missing:
            await self._reply(interaction, f"⚠️ I can't run a game in {channel.mention}: I need the "
                              f"**{' and '.join(missing)}** permission{'s' if len(missing) > 1 else ''} there. "
                              "Ask a server admin to grant it, or use another channel.")
            return
        if await self.bot.service.table_in_channel(channel.id) is not None:
            await self._reply(interaction, "A game is already running in this channel. Finish it, or start a new one "
                              "in another channel or with `thread: True`.")
            return
        await interaction.response.defer(thinking=True)
        if thread:
            try:
                channel = await channel.create_thread(name=f"Ticket to Ride · {m.name}",
                                                      type=discord.ChannelType.public_thread)
            except discord.Forbidden:
                await interaction.followup.send("⚠️ I can't create a thread here: I need the **Create Public Threads** "
                                                "permission. Run `/ttr new` without `thread`, or ask an admin.",
                                                ephemeral=True)
                return
        await self.bot.turns.remember_name(interaction.user)
        try:
            async with self.bot.storage.sessions() as session:
                lobby = await stored_lobbies.open_lobby(
                    session=session, guild_id=interaction.guild_id or 0, channel_id=channel.id,
                    host_id=interaction.user.id, map_id=map_id, options={**options.to_json(), "clock": clock or {}},
                    max_seats=players)
        except LobbyError:
            await interaction.followup.send("A lobby is already open in this channel: join it with `/ttr join`.")
            return
        members = await self._members(lobby.id)
        text = self._lobby_text(lobby, members)
        if thread:
            await channel.send(text, view=components.lobby_view(lobby.id))
            await interaction.followup.send(f"Lobby opened in {channel.mention}.")
        else:
            await interaction.followup.send(text, view=components.lobby_view(lobby.id))

    async def join(self, interaction: Interaction, *, lobby_id: int | None = None, color: str | None = None) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            await self._reply(interaction, "There is no open lobby here. Start one with `/ttr new`.")
            return
        members = await self._members(lobby.id)
        taken = {mm.color for mm in members if mm.color}
        if color is not None and color in taken:
            await self._reply(interaction, f"{color} is taken. Free colors: "
                              + ", ".join(c for c in PLAYER_COLORS if c not in taken) + ".")
            return
        color = color or next((c for c in PLAYER_COLORS if c not in taken), None)
        await self.bot.turns.remember_name(interaction.user)
        try:
            async with self.bot.storage.sessions() as session:
                members = await stored_lobbies.join_lobby(session=session, lobby_id=lobby.id,
                                                          user_id=interaction.user.id, color=color)
        except LobbyError as exc:
            reason = "you are already in it" if "already" in str(exc) else (
                f"it is full ({lobby.max_seats} players)" if "full" in str(exc) else "it is closed")
            await self._reply(interaction, f"You can't join this lobby: {reason}.")
            return
        await interaction.response.defer(thinking=True)
        dms_work = await self._dm_welcome(interaction.user)
        await interaction.followup.send(f"<@{interaction.user.id}> joined as **{color}**. "
                                        f"({len(members)}/{lobby.max_seats})")
        if not dms_work:
            await interaction.followup.send(
                "I can't send you direct messages, so I'll show your cards and tickets privately in the channel: "
                "press **My hand** on the turn message. (To get DMs: Server → Privacy Settings → Direct Messages.)",
                ephemeral=True)

    @staticmethod
    async def _dm_welcome(user: discord.abc.User) -> bool:
        """Tell a joining player their cards and tickets come by DM; False if DMs don't reach them."""
        try:
            await user.send("👋 You joined a Ticket to Ride game. Your cards and tickets will come here, in private.")
            return True
        except discord.Forbidden:
            return False

    async def leave(self, interaction: Interaction, *, lobby_id: int | None = None) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            table = await self.bot.service.table_in_channel(interaction.channel_id)
            hint = " The game has started: use `/ttr resign` to leave it." if table else ""
            await self._reply(interaction, "There is no open lobby here." + hint)
            return
        async with self.bot.storage.sessions() as session:
            left = await stored_lobbies.leave_lobby(session=session, lobby_id=lobby.id, user_id=interaction.user.id)
        if not left:
            await self._reply(interaction, "You are not in this lobby.")
            return
        members = await self._members(lobby.id)
        if not members:
            async with self.bot.storage.sessions() as session:
                await stored_lobbies.cancel_lobby(session=session, lobby_id=lobby.id)
            await self._reply(interaction, "You left; the lobby is empty and closed.", ephemeral=False)
            return
        await self._reply(interaction, f"<@{interaction.user.id}> left the lobby. ({len(members)}/{lobby.max_seats})",
                          ephemeral=False)

    async def cancel(self, interaction: Interaction) -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id)
        if lobby is None:
            await self._reply(interaction, "There is no open lobby here.")
            return
        if interaction.user.id != lobby.host_id and not is_manager(interaction):
            await self._reply(interaction, f"Only the host (<@{lobby.host_id}>) or a server manager can cancel it.")
            return
        async with self.bot.storage.sessions() as session:
            await stored_lobbies.cancel_lobby(session=session, lobby_id=lobby.id)
        await self._reply(interaction, "Lobby cancelled.", ephemeral=False)

    async def start(self, interaction: Interaction, *, lobby_id: int | None = None,
                    first: discord.abc.User | None = None, ai_players: int = 0, ai_level: str = "baseline") -> None:
        lobby = await self._lobby(channel_id=interaction.channel_id, lobby_id=lobby_id)
        if lobby is None:
            await self._reply(interaction, "There is no open lobby here. Start one with `/ttr new`.")
            return
        if interaction.user.id != lobby.host_id:
            await self._reply(interaction, f"Only the host (<@{lobby.host_id}>) can start the game.")
            return
        members = await self._members(lobby.id)
        if len(members) + ai_players < 2:
            await self._reply(interaction, "At least 2 players are needed: others join with `/ttr join`, or add "
                              "AI players with `/ttr start ai_players:`.")
            return
        if len(members) + ai_players > 5:
            await self._reply(interaction, f"A game has at most 5 seats: {len(members)} players + {ai_players} AIs "
                              "is too many.")
            return
        user_ids: list[int | None] = [mm.user_id for mm in members] + [None] * ai_players
        if first is not None and first.id not in user_ids:
            await self._reply(interaction, f"{first.display_name} is not in this lobby.")
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
            await interaction.followup.send("This lobby has already started (or a game is running here).",
                                            ephemeral=True)
            return
        await self.bot.clocks.configure(table, lobby.options.get("clock") or {})
        await self.bot.turns.game_started(table)
        await interaction.followup.send("Game started!", ephemeral=True)

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
            await self._reply(interaction, "Only the players of this game can start a rematch.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        options = GameOptions.from_json(old.record.options)
        options = GameOptions(deck=options.deck, returned_tickets=options.returned_tickets, variants=options.variants)
        try:
            table = await self._create(old.record.guild_id, old.record.channel_id, old.record.map_id, options,
                                       [s.user_id for s in old.seats], [s.color for s in old.seats],
                                       host_id=interaction.user.id, ai=[s.ai for s in old.seats])
        except ChannelBusyError:
            await interaction.followup.send("A game is already running in this channel.", ephemeral=True)
            return
        old_clock = await self.bot.clocks.clock(game_id)
        if old_clock is not None:
            await self.bot.clocks.configure(table, {
                "turn_seconds": old_clock.turn_seconds, "reminder_seconds": old_clock.reminder_seconds,
                "absence": old_clock.absence, "remove_after": old_clock.remove_after,
                "vacation_days": old_clock.vacation_days})
        await self.bot.turns.game_started(table)
        await interaction.followup.send("Rematch started!", ephemeral=True)


def missing_permissions(interaction: Interaction, *, threads: bool = False) -> list[str]:
    """The permissions the bot lacks in this channel to post turns (and open a thread)."""
    perms = interaction.app_permissions
    needed = [("send_messages", "Send Messages"), ("attach_files", "Attach Files")]
    if threads:
        needed.append(("create_public_threads", "Create Public Threads"))
    return [label for flag, label in needed if not getattr(perms, flag)]


