"""How a table speaks: the turn message and the board in the channel, DMs and private images for
each player, reminders and the final results — each in its reader's language, and nothing private
in the channel. What to say after a change is the announcer's choice (bot/announcer.py); this is
how it is said.

Every message here is a Components V2 card (bot/layouts.py lays them out). Why one module of
about 900 lines: every message a table sends shares its readers' names, languages, colors and
the live table's state kept here.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

import discord
from discord import Interaction

from bot import components, layouts, metrics
from bot.language import Languages
from bot.render_pool import POOL
from bot.service import Table
from bot.timers import Timers, timestamp
from engine import Claim
from engine.cards import CARD_NAMES
from engine.phases import SECOND_CARD, TICKETS, TUNNEL
from i18n import N_, Translator, translator
from rendering import PlayerStyle, RenderedImage
from rendering.style import DEFAULT_PLAYER_COLORS
from rendering.words import recap
from storage import Storage
from storage import players as stored_players
from storage.announcements import nonce
from storage.models import Announcement
from texts.present import card, final_fields, private_summary, route_name, ticket_line

log = logging.getLogger(__name__)

#: Player colors offered at join, in the renderer's palette order (distinct from route colors).
PLAYER_COLORS: dict[str, tuple[int, int, int]] = dict(
    zip(("violet", "teal", "brown", "sky", "lime"), DEFAULT_PLAYER_COLORS)
)
AI_LEVELS = ("random", "gentle", "baseline", "strong")
#: An AI seat's name by level ({n}: the seat's number), translated where it is shown.
AI_NAMES = {
    "random": N_("random AI {n}"),
    "gentle": N_("gentle AI {n}"),
    "baseline": N_("baseline AI {n}"),
    "strong": N_("strong AI {n}"),
}


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Who a message may ping: exactly these users; never everyone, here or a role."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids if u]
    )


def files_allowed(interaction: Interaction) -> bool:
    """Whether the follow-ups of `interaction` may carry files: in a server channel they need the
    bot's own Attach Files (Discord's 2023-11-01 change); in a DM they always may."""
    return not interaction.guild_id or interaction.app_permissions.attach_files


#: The final results' accent: the winner's trophy.
GOLD = 0xE0A100

#: Users kept to DM (a user object is a few hundred bytes).
USERS_KEPT = 10_000

#: Seconds a player's ping preferences are trusted before `ping` reads them again.
PING_CHOICE_SECONDS = 60.0

#: How long a panel stays editable through the interaction that made it (Discord: 15 minutes).
PANEL_LIFETIME = timedelta(minutes=14)


@dataclass(frozen=True)
class Panel:
    """A player's private panel: `interaction`'s original response, or its follow-up
    `message_id` (a tap on the table is answered so: its original response is the table)."""

    interaction: Interaction
    message_id: int | None = None

    async def edit(self, **fields: object) -> object:
        if self.message_id is None:
            return await self.interaction.edit_original_response(**fields)  # type: ignore[arg-type]
        return await self.interaction.followup.edit_message(self.message_id, **fields)  # type: ignore[arg-type]


@dataclass
class LiveTable:
    """A game's table message with the live controls, and the interaction whose public follow-up
    it is (None: the bot posted it): edited through that interaction while its token lives
    (PANEL_LIFETIME from `since`, this process's monotonic clock when it was posted)."""

    message: discord.Message
    posted_by: Interaction | None = None
    since: float = field(default_factory=time.monotonic)

    def editable_by_webhook(self) -> bool:
        return self.posted_by is not None and time.monotonic() - self.since < PANEL_LIFETIME.total_seconds()


def in_place(interaction: Interaction) -> bool:
    """Whether the answer to `interaction` replaces the private message it was tapped on (a
    player's panel or menu) rather than arriving as a new one: one panel, updated as they play."""
    message = interaction.message
    if interaction.type != discord.InteractionType.component or message is None or not message.flags.ephemeral:
        return False
    made_for = message.interaction_metadata.user.id if message.interaction_metadata else None
    return made_for == interaction.user.id  # someone else's panel (its id replayed) is never rewritten


async def show_private(interaction: Interaction, content: str, view: discord.ui.View | None = None) -> None:
    """Answer a tap with a private card: in place of the panel it was tapped on, else new."""
    shown = layouts.card([content], controls=view)
    if in_place(interaction):
        await interaction.response.edit_message(view=shown, attachments=[])
    else:
        await interaction.response.send_message(view=shown, ephemeral=True)


def escaped(name: str) -> str:
    """A name as message text: no markdown, no mention (it reads as typed, and pings nobody)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


class TableMessenger:
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
        self._posted_boards: dict[int, tuple[int, ...]] = {}  # game -> (claims, stations, …) on that board
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

    @staticmethod
    def hook_text(t: Translator) -> str:
        """A map hook's pending decision (Nederland's neutral player is the only one so far)."""
        return "🤖 " + t.gettext(
            "**The neutral player builds a route with two free tracks: you pick which.** (It costs you nothing.)"
        )

    def tickets_text(self, t: Translator, table: Table, seat: int) -> str:
        game = table.game
        if not game.offers[seat] and game.hooks.choosing(game, seat):  # Märklin: the mix comes first
            return components.ticket_mix_text(t, game, seat)
        lines = [t.gettext("**Choose your tickets** (keep at least {n}):", n=game.offer_keep[seat])]
        lines += [ticket_line(t, game.map, ticket) for ticket in game.view(seat)["you"]["offer"]]
        return "\n".join(lines)

    def tunnel_text(self, t: Translator, table: Table, seat: int) -> str:
        """The tunnel's reveal and what it asks; the hand shown is what is left to pay with, and
        the cards already laid down for the route are named apart."""
        from engine.payments import surcharge_options

        game = table.game
        tunnel = game.view(seat)["tunnel"]
        route = route_name(t, game.map, game.map.track_by_id[tunnel["track"]])
        revealed = t.join(card(t, CARD_NAMES.index(c)) for c in tunnel["revealed"])
        committed = [(CARD_NAMES[kind], n) for kind, n in enumerate(game.tunnel["paid"]) if n]
        laid = t.join(f"{card(t, CARD_NAMES.index(name))} ×{n}" for name, n in committed)
        can_pay = bool(surcharge_options(game.hands[seat], tunnel["surcharge"], game.tunnel["color"]))
        ask = (
            t.ngettext(
                "**Tunnel {route}:** revealed {cards} → pay {n} more card or decline.",
                "**Tunnel {route}:** revealed {cards} → pay {n} more cards or decline.",
                tunnel["surcharge"],
                route=route,
                cards=revealed,
            )
            if can_pay
            else t.ngettext(
                "**Tunnel {route}:** revealed {cards} → {n} more card is needed and your hand cannot "
                "pay it: decline (your cards come back).",
                "**Tunnel {route}:** revealed {cards} → {n} more cards are needed and your hand cannot "
                "pay them: decline (your cards come back).",
                tunnel["surcharge"],
                route=route,
                cards=revealed,
            )
        )
        lines = [
            ask,
            t.gettext("Laid down for the tunnel: {cards}", cards=laid) if laid else "",
            private_summary(t, game, seat),
        ]
        return "\n".join(line for line in lines if line)

    def news(self, t: Translator, table: Table, seat: int) -> str:
        """What a player back at their panel wants first: the others' turns since their own last
        one, their score and place, and the last round when it has come."""
        game = table.game
        seen = game.view(seat)
        mine = [entry["ply"] for entry in seen["recent"] if entry["seat"] == seat]
        lines = [
            f"• **{self.name(table, s, t)}** {text}" if s is not None else f"• {text}"
            for s, text in recap(t, seen, self.styles(table, t), game.map, max(mine) if mine else None)
            if s != seat
        ]
        if lines:
            lines.insert(0, t.gettext("**Since your last turn:**"))
        scores = [p["score"] for p in seen["players"]]
        lines.append(
            "🏆 "
            + t.ngettext(
                "You have {n} point: place {place} of {players}.",
                "You have {n} points: place {place} of {players}.",
                scores[seat],
                place=1 + sum(score > scores[seat] for score in scores),
                players=len(scores),
            )
        )
        if game.last_round is not None and game.phase == "playing":
            lines.append(
                "⏳ "
                + (
                    t.gettext("Last round: this is your last turn.")
                    if game.current == seat
                    else t.gettext("Last round: you have one more turn.")
                    if seat in game.last_round
                    else t.gettext("Last round: you have played your last turn.")
                )
            )
        return "\n".join(lines)

    def panel(self, t: Translator, table: Table, seat: int) -> tuple[str, discord.ui.View | None]:
        """A player's private panel: their hand and tickets, what they must or may do now, and
        the controls for it (bot/components.py `panel_view`)."""
        game = table.game
        if game.left[seat] is not None:  # resigned or removed: says so, with the tickets that still score
            return private_summary(t, game, seat), None
        if game.phase == "over":
            return t.gettext("The game is over."), None
        view = components.panel_view(table.id, game, seat, t=t)
        my_turn = game.phase == "playing" and game.current == seat
        if (game.phase == "choosing" and game.offers[seat]) or (my_turn and game.stage == TICKETS):
            return f"{private_summary(t, game, seat)}\n\n{self.tickets_text(t, table, seat)}", view
        if my_turn and game.stage == TUNNEL:
            return self.tunnel_text(t, table, seat), view
        if my_turn and game.stage in game.hooks.stages:
            return f"{self.hook_text(t)}\n{private_summary(t, game, seat)}", view
        summary = private_summary(t, game, seat)
        if game.phase == "choosing":
            waiting = [self.name(table, s, t) for s in game.to_move()]
            if view is not None:  # Märklin: the seat names its ticket mix first
                return f"{summary}\n\n{self.tickets_text(t, table, seat)}", view
            return summary + "\n" + t.gettext("Waiting for {players} to choose.", players=t.join(waiting)), None
        if my_turn and game.stage == SECOND_CARD:
            return summary + "\n\n" + t.gettext("**Draw your second card** (not a face-up locomotive):"), view
        summary = f"{self.news(t, table, seat)}\n\n{summary}"
        if my_turn:
            return summary + "\n\n" + t.gettext("**Your turn:** draw cards, claim a route or draw tickets."), view
        return summary + "\n" + t.gettext("It's {player}'s turn.", player=self.name(table, game.current, t)), view

    async def private_files(
        self,
        table: Table,
        seat: int,
        *,
        hand: bool = True,
        offer: bool = False,
        board: bool = False,
        interaction: Interaction | None = None,
        t: Translator | None = None,
    ) -> list[discord.File]:
        """Images only this seat may see (for its DMs or ephemeral replies), in its player's language
        (`t`, else looked up). None for a reply in a channel where the bot may not attach files: the
        text says the same."""
        if interaction is not None and not files_allowed(interaction):
            return []
        t = t or await self.seat_t(table, seat)
        game, styles = table.game, self.styles(table, t)
        seen = game.view(seat)  # what this seat may see
        jobs: list[tuple[str, str, dict, dict]] = []
        if hand:
            jobs.append(("hand", "render_hand", hand_view(seen), {}))
        if offer and seen["you"]["offer"]:
            jobs.append(("tickets", "render_ticket_offer", seen, {}))
        if board:
            my_turn = game.current == seat and game.stage is None
            claimable = (
                [a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)]
                if my_turn
                else [a.track for a in game.payable_claims(seat)]
            )  # off turn: what could pay
            jobs.append(
                (
                    "my-board",
                    "render_player_board",
                    seen,
                    {"claimable_tracks": sorted(claimable), "my_turn": my_turn},
                )
            )
        colorblind = self.colorblind(table, seat)
        images = await asyncio.gather(
            *(
                POOL.render(render, view, game.map.id, styles, t, colorblind=colorblind, **kwargs)
                for _, render, view, kwargs in jobs
            )
        )
        return [as_file(image, stem) for (stem, *_), image in zip(jobs, images)]

    # ------------------------------------------------------------------ the panel

    def panel_target(self, table: Table, interaction: Interaction) -> Panel | None:
        """The panel this tap's answer goes to: the tap's own message when it was on the panel;
        the player's panel when it served this same turn and its token still lives (the second
        card from the table updates the panel the first made); None for a new panel."""
        if in_place(interaction):
            return Panel(interaction)
        if interaction.type != discord.InteractionType.component:
            return None
        seat = table.seat_of(interaction.user.id)
        known = self._panels.get((table.id, interaction.user.id))
        if seat is None or known is None:
            return None
        panel, turn, since = known
        game = table.game
        fresh = time.monotonic() - since < PANEL_LIFETIME.total_seconds()
        return panel if fresh and game.current == seat and game.turn_token(seat) == turn else None

    def remember_panel(self, table: Table, panel: Panel) -> None:
        """`panel` is now the player's panel, for the turn in progress."""
        seat = table.seat_of(panel.interaction.user.id)
        if seat is None:
            return
        key = (table.id, panel.interaction.user.id)
        known = self._panels.get(key)
        # The token's life runs from its interaction: an edit through it does not renew it.
        since = known[2] if known is not None and known[0].interaction is panel.interaction else time.monotonic()
        self._panels[key] = (panel, table.game.turn_token(seat), since)

    # ------------------------------------------------------------------ the channel

    def board_changed(self, table: Table) -> bool:
        """Whether the map changed (a route, a station) since the board last posted in the channel:
        a turn that only drew cards posts no new picture (its buttons show the new market)."""
        seen = table.game.view(None)
        return self._posted_boards.get(table.id) != map_state(seen)

    async def board_file(self, table: Table, t: Translator | None = None, *, posted: bool = False) -> discord.File:
        """The public board, in the channel's language unless `t` says otherwise (a private copy).
        A `posted` board (the channel's turn message) tells and lights every turn since the board
        posted before it; others, the last turn of every seat."""
        await self.load_names(table)
        t = t or await self.channel_t(table)
        seen = table.game.view(None)
        since = self._posted_plies.get(table.id) if posted else None
        image = await POOL.render(
            "render_board",
            seen,
            table.game.map.id,
            self.styles(table, t),
            t,
            colorblind=self.colorblind(table),
            since=since,
        )
        if posted:
            self._posted_plies[table.id] = seen["plies"]
            self._posted_boards[table.id] = map_state(seen)
        return as_file(image, "board")

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

    async def post_turn(
        self,
        table: Table,
        summary: str,
        *,
        interaction: Interaction | None = None,
        through: Interaction | None = None,
        row: Announcement | None = None,
        again: bool = False,
    ) -> None:
        """The channel message after a turn: what happened, the board, whose turn it is. Posted as
        a public follow-up of `through` (the tap that ended the turn, its own answer already
        given), which Discord's global rate limit does not count, where that can be; else by the
        bot, with the outbox row's nonce (a retry after a crash does not post it twice). `again`:
        a stored row announced after a restart, which may have gone out as a follow-up already
        (a follow-up has no nonce): then the channel's recent history says so."""
        game = table.game
        channel = await self.channel(table)
        if channel is None:
            return
        if game.is_over():
            await self.post_final(table, summary, channel, row=row)
            return
        t = await self.channel_t(table)
        recap = summary or "🎟️ " + t.gettext("Everyone has chosen their tickets.")
        nxt = game.current
        due = await self.timers.deadline(table, nxt)
        params = {"player": self.mention(table, nxt, t), "map": t.map_name(game.map)}
        turn = (
            t.gettext("{player}, your turn ({map}, last round).", **params)
            if game.last_round
            else t.gettext("{player}, your turn ({map}).", **params)
        )
        turn = f"➡️ {turn}" + (f" ⏰ {timestamp(due)}" if due else "")
        controls = components.table_view(table.id, game, t=t)
        posted = await self._posted_before(table, channel, controls) if again else None
        if posted is not None:
            await self.new_table(table, posted)
            return
        through = through if through is not None and self.can_post_through(table, through) else None
        started = metrics.now()
        files = [await self.board_file(table, t, posted=True)] if self.board_changed(table) else []
        shown = layouts.card([recap], images=files, after=[turn], controls=controls, accent=self.accent(table, nxt))
        message: discord.Message | None = None
        try:
            with metrics.turn_message(started):
                if through is not None:
                    kept = [(f.fp.getvalue(), f.filename, f.description) for f in files]  # type: ignore[attr-defined]
                    try:
                        message = await through.followup.send(
                            files=files, view=shown, allowed_mentions=pings(table.user_of(nxt)), wait=True
                        )
                    except discord.HTTPException as exc:  # the token ran out meanwhile: the bot posts it
                        log.info("a turn could not go out as a follow-up", extra={"error": str(exc)})
                        files = [discord.File(io.BytesIO(png), name, description=alt) for png, name, alt in kept]
                if message is None:
                    message = await channel.send(
                        files=files,
                        view=shown,
                        allowed_mentions=pings(table.user_of(nxt)),
                        nonce=_nonce(row, 0),
                    )
        except discord.Forbidden as exc:
            metrics.error("Forbidden")
            await self.permission_problem(interaction, channel, exc)
        else:
            await self.new_table(table, message, through=through)
        where = channel_mention(table)
        await self.ping(
            table,
            nxt,
            lambda mine: (
                "⏰ "
                + (
                    mine.gettext(
                        "It's your turn in the {map} game in {channel} (deadline {when}).",
                        map=mine.map_name(game.map),
                        channel=where,
                        when=timestamp(due),
                    )
                    if due
                    else mine.gettext(
                        "It's your turn in the {map} game in {channel}.", map=mine.map_name(game.map), channel=where
                    )
                )
            ),
        )

    def can_post_through(self, table: Table, interaction: Interaction) -> bool:
        """Whether the turn's table message can be a public follow-up of `interaction` (a live one,
        answered: its token has most of its 15 minutes): not the final results, an interaction from
        the game's channel (a DM's follow-ups go to the DM), whose follow-ups may carry the board."""
        return (
            not table.game.is_over()
            and interaction.channel_id == table.record.channel_id
            and interaction.response.is_done()
            and (files_allowed(interaction) or not self.board_changed(table))
        )

    async def _posted_before(
        self, table: Table, channel: discord.abc.Messageable, view: discord.ui.View
    ) -> discord.Message | None:
        """The turn's table message if it is in the channel already (its deck button names the
        turn), from the recent history; None without Read Message History."""
        deck = next(
            (
                getattr(item, "custom_id", "")
                for item in view.children
                if getattr(item, "custom_id", "").endswith(":deck")
            ),
            None,
        )
        if deck is None:
            return None
        try:
            async for old in channel.history(limit=25):
                if old.author.id == self.client.user.id and deck in layouts.custom_ids(old.components):
                    return old
        except discord.HTTPException:
            return None
        return None

    async def new_table(self, table: Table, message: discord.Message, *, through: Interaction | None = None) -> None:
        """`message` is the game's table now: the one before loses its controls (at most one
        message of a game carries live ones)."""
        before = self._tables.get(table.id)
        self._tables[table.id] = LiveTable(message, through)
        if before is not None and before.message.id != message.id:
            await self._edit_table(before, None, through)
        elif before is None:  # a restart forgot it: the tap's own message, else the channel's recent history
            tapped = self.tapped_table(table, through)
            if tapped is not None and tapped.id != message.id:
                await self._edit_table(LiveTable(tapped), None, through)
                return
            for old in await self._live_tables(table, message):
                await self._edit_table(LiveTable(old), None)

    def tapped_table(self, table: Table, interaction: Interaction | None) -> discord.Message | None:
        """The game's table message `interaction` was a tap on, if it was: a public message in the
        game's channel with the table's controls (its My hand; not a DM, a lobby, the results)."""
        if interaction is None or interaction.type != discord.InteractionType.component:
            return None
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.channel_id != table.record.channel_id:
            return None
        return message if f"ttr:{table.id}:hand" in layouts.custom_ids(message.components) else None

    async def _live_tables(self, table: Table, newest: discord.Message | None) -> list[discord.Message]:
        """The bot's recent messages in the game's channel, other than `newest`, that still carry
        the game's controls, newest first (one GET; nothing without Read Message History)."""
        prefix = f"ttr:{table.id}:"
        found = []
        channel = newest.channel if newest is not None else await self.channel(table)
        if channel is None:
            return []
        try:
            async for old in channel.history(limit=25, before=newest):
                if old.author.id == self.client.user.id and any(
                    c.startswith(prefix) for c in layouts.custom_ids(old.components)
                ):
                    found.append(old)
        except discord.HTTPException:
            return []
        return found

    async def refresh_table(self, table: Table, *, through: Interaction | None = None) -> None:
        """The live table's controls after a step inside a turn (the market after the first card,
        nothing to tap during a ticket choice): an edit, which notifies nobody. A table this
        process does not know (it restarted inside the turn) is the one tapped, else the newest
        in the channel's history."""
        live = self._tables.get(table.id)
        if live is None:
            tapped = self.tapped_table(table, through)
            found = [tapped] if tapped is not None else await self._live_tables(table, None)
            if not found:
                return
            live = self._tables[table.id] = LiveTable(found[0])
        await self._edit_table(
            live, components.table_view(table.id, table.game, t=await self.channel_t(table)), through
        )

    async def retire_table(self, table: Table) -> None:
        """The game ended: its last table message loses its controls."""
        live = self._tables.pop(table.id, None)
        if live is not None:
            await self._edit_table(live, None)
        self._posted_plies.pop(table.id, None)
        self._posted_boards.pop(table.id, None)

    @staticmethod
    async def _edit_table(live: LiveTable, controls: discord.ui.View | None, tap: Interaction | None = None) -> None:
        """A table message's controls changed (its text and board did not), by the first way of
        these that Discord's global rate limit does not count: the tap's own answer when the tap
        was on it (its deferred update), the follow-up that posted it while that interaction's
        token lives; else (or if that fails) the bot's edit in the channel."""
        message = live.message
        view = layouts.without_controls(message, controls)
        # A webhook's edit says whom the message may mention (discord.py sends the bot's default,
        # nobody, otherwise): the same as when it was posted. An edit notifies nobody either way.
        same = pings(*(user.id for user in message.mentions))
        try:
            if (
                tap is not None
                and tap.message is not None
                and tap.message.id == message.id
                and tap.response.type == discord.InteractionResponseType.deferred_message_update
            ):
                await tap.edit_original_response(view=view, allowed_mentions=same)
                return
            if live.posted_by is not None and live.editable_by_webhook():
                await live.posted_by.followup.edit_message(message.id, view=view, allowed_mentions=same)
                return
        except discord.HTTPException as exc:
            log.info("table message not edited through its interaction", extra={"error": str(exc)})
        try:
            await message.channel.get_partial_message(message.id).edit(view=view)  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            # Gone, or an old message's edit cap (30046): its buttons still refuse with the reason.
            log.info("table message not edited", extra={"message_id": message.id, "error": str(exc)})

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

    async def post_final(self, table: Table, summary: str, channel, *, row: Announcement | None = None) -> None:
        game = table.game
        t = await self.channel_t(table)
        title = "## 🏁 " + t.gettext("Game over — {map}", map=t.map_name(game.map))
        fields = [f"**{name}**\n{body}" for name, body in final_fields(t, game, lambda s: self.name(table, s, t))]
        image = await POOL.render(
            "render_final", game.view(None), game.map.id, self.styles(table, t), t, colorblind=self.colorblind(table)
        )
        file = as_file(image, "final")
        shown = layouts.card(
            [title, summary, *fields], images=[file], controls=components.final_view(table.id, t=t), accent=GOLD
        )
        await channel.send(view=shown, file=file, nonce=_nonce(row, 0))
        await self.retire_table(table)

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
                nonce=_nonce(row, 1 + seat),
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
                file=board, view=layouts.card([f"🚂 {text}"], images=[board], controls=controls), nonce=_nonce(row, 0)
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


def as_file(image: RenderedImage, stem: str) -> discord.File:
    """An image as an attachment named `stem` and its format's extension ("board.webp"), its alt
    text as the description (Discord's limit: 1,024)."""
    return discord.File(io.BytesIO(image.data), filename=image.filename(stem), description=image.alt_text[:1024])


def hand_view(seen: dict) -> dict:
    """What a hand image shows of a seat's view (its cards, tickets and their progress by its own
    routes, trains, stations, money): an equal hand is the same image, whatever else changed."""
    seat = seen["you"]["seat"]
    me = seen["players"][seat]
    you = {key: value for key, value in seen["you"].items() if key in ("seat", "hand", "tickets", "money")}
    return {
        "you": you,
        "claims": {track: s for track, s in seen["claims"].items() if s == seat},
        "players": [
            {"trains": me["trains"], "stations_left": me.get("stations_left")} if s == seat else {}
            for s in range(len(seen["players"]))
        ],
    }


def map_state(seen: dict) -> tuple[int, ...]:
    """What a board picture shows that changes: claims, stations, and Märklin's passengers placed
    and tokens left on the cities."""
    placed = sum(len(p.get("passengers_placed", ())) for p in seen["players"])
    tokens = sum(len(s["stack"]) for s in seen.get("merchandise", {}).values())
    return len(seen["claims"]), len(seen["stations"]), placed, tokens


def _nonce(row: Announcement | None, part: int) -> str | None:
    """The Discord nonce of a message posted for an outbox row (None outside the outbox)."""
    return nonce(row, part) if row is not None else None


def channel_mention(table: Table) -> str:
    """The game's channel as Discord markup (shown as a link in DMs)."""
    return f"<#{table.record.channel_id}>"


def in_quiet_hours(prefs: dict, now) -> bool:
    """Quiet hours [start, end) in the player's own UTC offset; they may wrap past midnight."""
    quiet = prefs.get("quiet")
    if not quiet:
        return False
    start, end = quiet
    hour = (now.hour + int(prefs.get("utc_offset", 0))) % 24
    return start <= hour < end if start <= end else hour >= start or hour < end
