"""How a table speaks: the turn message and the board in the channel, DMs and private images for
each player, reminders and the final results — each in its reader's language, and nothing private
in the channel. What to say after a change is the announcer's choice (bot/announcer.py); this is
how it is said.

Every message here is a Components V2 card (bot/layouts.py lays them out). Why one module of
about 900 lines: every message a table sends shares its readers' names, languages, colors and
the live table's state kept here.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import discord
from discord import Interaction

from bot import components, layouts
from bot.language import Languages
from bot.panels import Panel, PanelMessages
from bot.posting import channel_mention, pings, row_nonce
from bot.service import Table
from bot.table_message import LiveTable, TableMessages
from bot.timers import Timers, timestamp
from i18n import N_, Translator, translator
from rendering import PlayerStyle
from rendering.style import DEFAULT_PLAYER_COLORS
from storage import Storage
from storage import players as stored_players
from storage.models import Announcement
from texts.present import private_summary

log = logging.getLogger(__name__)

#: Player colors offered at join, in the renderer's palette order (distinct from route colors).
PLAYER_COLORS: dict[str, tuple[int, int, int]] = dict(
    zip(("violet", "teal", "brown", "sky", "lime"), DEFAULT_PLAYER_COLORS)
)
AI_LEVELS = ("random", "gentle", "baseline", "strong", "expert")
#: An AI seat's name by level ({n}: the seat's number), translated where it is shown.
AI_NAMES = {
    "random": N_("random AI {n}"),
    "gentle": N_("gentle AI {n}"),
    "baseline": N_("baseline AI {n}"),
    "strong": N_("strong AI {n}"),
    "expert": N_("expert AI {n}"),
}


#: Users kept to DM (a user object is a few hundred bytes).
USERS_KEPT = 10_000

#: Seconds a player's ping preferences are trusted before `ping` reads them again.
PING_CHOICE_SECONDS = 60.0


def escaped(name: str) -> str:
    """A name as message text: no markdown, no mention (it reads as typed, and pings nobody)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


class TableMessenger(TableMessages, PanelMessages):
    """Everything a table says, to its channel and to each player (the panel and the table
    message are its parts, bot/panels.py and bot/table_message.py)."""

    def __init__(self, client: discord.Client, storage: Storage, languages: Languages, timers: Timers) -> None:
        self.client = client
        self.storage = storage
        self.languages = languages
        self.timers = timers
        self._names: dict[int, str] = {}  # user id -> display name ("" when storage has none)
        self._colorblind: dict[int, bool] = {}
        self._dm_closed: set[int] = set()
        self._ping_choices: dict[int, tuple[float, dict]] = {}  # user id -> (read at, preferences)
        #: the users this bot writes to (without the members intent `get_user` knows few of them,
        #: and each miss would be a GET /users/{id} before the DM)
        self._users: OrderedDict[int, discord.abc.User] = OrderedDict()
        self._posted_plies: dict[int, int] = {}  # game -> the ply of the board last posted in its channel
        self._posted_boards: dict[int, tuple[tuple[int, ...], int]] = {}  # game -> (its map_state, round)
        self._tables: dict[int, LiveTable] = {}  # game -> its table message with the live controls
        #: (game, user) -> that player's panel, the turn it served, and when its interaction came
        #: (this process's monotonic clock)
        self._panels: dict[tuple[int, int], tuple[Panel, int, float]] = {}

    # ------------------------------------------------------------------ languages

    async def channel_t(self, table: Table) -> Translator:
        """The language of the game's channel (turn messages, boards, results)."""
        return await self.languages.for_channel(table.record.guild_id)

    async def seat_t(self, table: Table, seat: int) -> Translator:
        """The language of a seat's player, for their DMs and private images."""
        return await self.languages.for_user(table.user_of(seat), table.record.guild_id)

    # ------------------------------------------------------------------ names and styles

    async def remember_name(self, user: discord.abc.User) -> None:
        self.remember_user(user)
        if self._names.get(user.id) != user.display_name:
            self._names[user.id] = user.display_name
            async with self.storage.sessions() as session:
                await stored_players.update_player(session=session, user_id=user.id, display_name=user.display_name)

    def remember_user(self, user: discord.abc.User) -> None:
        self._users[user.id] = user
        self._users.move_to_end(user.id)
        while len(self._users) > USERS_KEPT:
            self._users.popitem(last=False)

    async def user(self, user_id: int) -> discord.abc.User:
        """A user to DM: known from their interactions or an earlier DM, else fetched once."""
        user = self._users.get(user_id) or self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        self.remember_user(user)
        return user

    async def load_names(self, table: Table) -> None:
        missing = [s.user_id for s in table.seats if s.user_id is not None and s.user_id not in self._names]
        if missing:
            async with self.storage.sessions() as session:
                for user_id in missing:
                    player = await stored_players.get_player(session=session, user_id=user_id)
                    self._names[user_id] = (player.display_name or "") if player else ""
                    self._colorblind[user_id] = bool(player and player.color_blind)

    def colorblind(self, table: Table, seat: int | None = None) -> bool:
        """Color-blind images: a seat's private ones if it asked; public ones if anyone at the table did."""
        users = [table.user_of(seat)] if seat is not None else [s.user_id for s in table.seats]
        return any(self._colorblind.get(u, False) for u in users if u is not None)

    def set_colorblind(self, user_id: int, on: bool) -> None:
        self._colorblind[user_id] = on

    def name(self, table: Table, seat: int, t: Translator | None = None) -> str:
        """A seat's player as message text: the display name (escaped), or the AI's (in `t`'s language)."""
        return escaped(self.display_name(table, seat, t))

    def display_name(self, table: Table, seat: int, t: Translator | None = None) -> str:
        """A seat's player as drawn in images: the display name as it is, or the AI's."""
        t = t or translator()
        level = next((s.ai for s in table.seats if s.seat == seat and s.ai), None)
        user_id = table.user_of(seat)
        if level in AI_NAMES and user_id is None:
            return "🤖 " + t.gettext(AI_NAMES[level], n=seat + 1)
        name = (self._names.get(user_id) if user_id is not None else None) or t.gettext("Seat {n}", n=seat + 1)
        return f"{name} (🤖)" if level else name  # an AI keeps the person's seat warm

    def styles(self, table: Table, t: Translator | None = None) -> list[PlayerStyle]:
        styles = []
        for seat in range(table.game.seats):
            color = PLAYER_COLORS.get(
                table.color_of(seat) or "", DEFAULT_PLAYER_COLORS[seat % len(DEFAULT_PLAYER_COLORS)]
            )
            styles.append(PlayerStyle(self.display_name(table, seat, t), color))
        return styles

    def accent(self, table: Table, seat: int) -> int:
        """A seat's player color as a card's accent (the table's: whose turn it is)."""
        red, green, blue = self.styles(table)[seat].color[:3]
        return red << 16 | green << 8 | blue

    def mention(self, table: Table, seat: int, t: Translator | None = None) -> str:
        user_id = table.user_of(seat)
        return f"<@{user_id}>" if user_id else self.name(table, seat, t)

    # ------------------------------------------------------------------ the channel
    async def channel(self, table: Table) -> discord.abc.Messageable | None:
        """The game's channel to post in. An archived game thread (a long pause) is reopened first:
        Discord refuses answers and edits in it, and a tap can come before the lobby cog has
        reopened it on the archive event."""
        channel = self.client.get_channel(table.record.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.record.channel_id)
            except discord.HTTPException:
                return None
        if isinstance(channel, discord.Thread):
            channel = await reopened(channel)
        return channel  # type: ignore[return-value]

    async def ping(self, table: Table, seat: int, write: Callable[[Translator], str]) -> None:
        """A DM nudge for players who asked for them (`/ttr-settings notify`), outside their quiet hours;
        `write` words it in the player's language."""
        user_id = table.user_of(seat)
        if user_id is None:
            return
        prefs = await self.ping_choice(user_id)
        if not prefs.get("notify_dm") or in_quiet_hours(prefs, self.timers.now()):
            return
        t = await self.seat_t(table, seat)
        await self.dm(table, seat, write(t), t=t)

    async def ping_choice(self, user_id: int) -> dict:
        """A player's stored preferences as `ping` reads them, once a turn: kept, changed by
        `set_ping_choice` when they choose here, read again after PING_CHOICE_SECONDS (a choice
        made through another shard's process)."""
        kept = self._ping_choices.get(user_id)
        if kept is None or time.monotonic() - kept[0] > PING_CHOICE_SECONDS:
            async with self.storage.sessions() as session:
                player = await stored_players.get_player(session=session, user_id=user_id)
            kept = self._ping_choices[user_id] = (time.monotonic(), (player.preferences if player else {}) or {})
        return kept[1]

    def set_ping_choice(self, user_id: int, preferences: dict) -> None:
        self._ping_choices[user_id] = (time.monotonic(), preferences)

    async def remind(self, table: Table, seat: int, due) -> None:
        if due is None:
            return
        channel = await self.channel(table)
        if channel is not None:
            t = await self.channel_t(table)
            text = t.gettext(
                "{player}, your turn ends {when}.", player=self.mention(table, seat, t), when=timestamp(due)
            )
            await channel.send(f"⏳ {text}", allowed_mentions=pings(table.user_of(seat)))
        await self.ping(
            table,
            seat,
            lambda mine: (
                "⏳ "
                + mine.gettext(
                    "Your turn in the {map} game in {channel} ends {when}.",
                    map=mine.map_name(table.game.map),
                    channel=channel_mention(table),
                    when=timestamp(due),
                )
            ),
        )

    async def announce_stand_in(self, table: Table, seat: int, level: str) -> None:
        """Tell the table an AI plays `seat` for its player now, with the button that gives it back."""
        channel = await self.channel(table)
        if channel is None:
            return
        t = await self.channel_t(table)
        text = t.gettext(
            "🤖 The {level} AI plays {player}'s seat until they are back. {player}: tap **{button}** when you are.",
            level=t.pgettext("AI level", level),
            player=self.mention(table, seat, t),
            button=t.pgettext("button", "Take my seat back"),
        )
        await channel.send(
            text,
            view=components.seat_back_view(table.id, seat, t=t),
            allowed_mentions=pings(table.user_of(seat)),
        )

    async def permission_problem(self, interaction: Interaction | None, channel, exc: discord.Forbidden) -> None:
        if interaction is not None:
            t = await self.languages.for_interaction(interaction)
            perms = interaction.app_permissions
            labels = {
                "send_messages": t.pgettext("permission", "Send Messages"),
                "attach_files": t.pgettext("permission", "Attach Files"),
            }
            missing = [label for flag, label in labels.items() if not getattr(perms, flag)] or list(labels.values())
            await interaction.followup.send(
                "⚠️ "
                + t.gettext(
                    "Your move is saved, but I can't post the board in {channel}: I need the **{permissions}** permission "
                    "there. Ask a server admin to grant it.",
                    channel=channel.mention,
                    permissions=t.join(missing),
                ),
                ephemeral=True,
            )
        log.warning("cannot post in channel", extra={"channel_id": getattr(channel, "id", None), "error": str(exc)})

    # ------------------------------------------------------------------ private information

    async def dm(
        self,
        table: Table,
        seat: int,
        content: str,
        *,
        t: Translator,
        view: discord.ui.View | None = None,
        files: list[discord.File] | None = None,
        row: Announcement | None = None,
    ) -> bool:
        """Send a DM to the seat's player (`content` and `view` in their language `t`); if DMs are
        closed, say so once in the channel (nothing private)."""
        user_id = table.user_of(seat)
        if user_id is None or user_id in self._dm_closed:
            return False
        header = t.gettext(
            "**{map} game in {channel}**", map=t.map_name(table.game.map), channel=channel_mention(table)
        )
        try:
            user = await self.user(user_id)
            await user.send(
                view=layouts.card([f"{header}\n{content}"], images=files or (), controls=view),
                files=files or discord.utils.MISSING,
                nonce=row_nonce(row, 1 + seat),
            )
            return True
        except discord.Forbidden:
            self._dm_closed.add(user_id)
            channel = await self.channel(table)
            if channel is not None:
                ct = await self.channel_t(table)
                await channel.send(
                    ct.gettext(
                        "{player}, I can't send you direct messages. Your cards and tickets stay private: press "
                        "**{button}** on the newest turn message to see them and choose.",
                        player=self.mention(table, seat, ct),
                        button=ct.pgettext("button", "My hand"),
                    ),
                    allowed_mentions=pings(user_id),
                )
            return False
        except discord.HTTPException:
            log.exception("DM failed", extra={"game_id": table.id, "user_id": user_id})
            return False

    async def game_started(self, table: Table, *, row: Announcement | None = None) -> None:
        """A new game: the channel gets the board, every player their hand and ticket choice."""
        await self.load_names(table)
        channel = await self.channel(table)
        game = table.game
        if channel is not None:
            t = await self.channel_t(table)
            text = t.gettext(
                "**{map}** game started! Seats: {players}.\nEveryone: choose your starting tickets (I've sent them by "
                "DM; or press **{button}**).",
                map=t.map_name(game.map),
                players=t.join(self.name(table, s, t) for s in range(game.seats)),
                button=t.pgettext("button", "My hand"),
            )
            board = await self.board_file(table, t, posted=True)
            controls = components.table_view(table.id, game, t=t)
            message = await channel.send(
                file=board,
                view=layouts.card([f"🚂 {text}"], images=[board], controls=controls),
                nonce=row_nonce(row, 0),
            )
            await self.new_table(table, message)
        for seat in range(game.seats):
            if table.user_of(seat) is None:  # an AI: nobody to write to
                continue
            mine = await self.seat_t(table, seat)
            await self.dm(
                table,
                seat,
                f"{private_summary(mine, game, seat)}\n\n{self.tickets_text(mine, table, seat)}",
                t=mine,
                view=components.tickets_view(table.id, game, seat, t=mine),
                files=await self.private_files(table, seat, offer=True, t=mine),
                row=row,
            )


async def reopened(thread: discord.Thread) -> discord.Thread:
    """A game thread, unarchived if it was archived (and not locked) so its players can go on."""
    if thread.archived and not thread.locked:
        try:
            return await thread.edit(archived=False)
        except discord.HTTPException:
            log.warning("could not unarchive a game thread", extra={"channel_id": thread.id})
    return thread


def in_quiet_hours(prefs: dict, now) -> bool:
    """Quiet hours [start, end) in the player's own UTC offset; they may wrap past midnight."""
    quiet = prefs.get("quiet")
    if not quiet:
        return False
    start, end = quiet
    hour = (now.hour + int(prefs.get("utc_offset", 0))) % 24
    return start <= hour < end if start <= end else hour >= start or hour < end
