"""The game's table in its channel: after every turn one card with what happened, the board when
the map changed, whose turn it is and the live controls; only the newest table keeps them. The
final results are the last card."""

from __future__ import annotations

import io
import logging
import time
from dataclasses import dataclass, field

import discord
from discord import Interaction

from bot import components, layouts, metrics
from bot.panels import PANEL_LIFETIME
from bot.posting import as_file, channel_mention, files_allowed, pings, row_nonce
from bot.render_pool import POOL
from bot.service import Table
from bot.timers import timestamp
from i18n import Translator
from rendering.words import decks_text
from storage.models import Announcement
from texts.present import final_fields, passengers_text, seat_figures

log = logging.getLogger(__name__)


#: The final results' accent: the winner's trophy.
GOLD = 0xE0A100


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


class TableMessages:
    """The table's part of `TableMessenger` (bot/messenger.py): posting, editing and retiring the
    table message, and the board picture it carries."""

    def board_due(self, table: Table) -> bool:
        """Whether this turn's table message carries a new board (`board_due` below)."""
        return board_due(table.game.view(None), self._posted_boards.get(table.id))

    async def board_file(self, table: Table, t: Translator | None = None, *, posted: bool = False) -> discord.File:
        """The public board, in the channel's language unless `t` says otherwise (a private copy).
        A `posted` board (the channel's table) is the map alone, lighting every turn since the board
        posted before it (the table's text tells them, and the scores); others have the panel
        under the map, telling the last turn of every seat."""
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
            panel=not posted,
        )
        if posted:
            self._posted_plies[table.id] = seen["plies"]
            self._posted_boards[table.id] = (map_state(seen), seen["round"])
        return as_file(image, "board")

    def standings(self, table: Table, t: Translator) -> str:
        """The seats' figures under the table's board (the picture shows the map alone: text a
        phone reads at any size), one line each, then what is left to draw."""
        seen, m = table.game.view(None), table.game.map
        lines = []
        for p in seen["players"]:
            lines.append(" · ".join([f"**{self.name(table, p['seat'], t)}**", *seat_figures(t, m, p)]))
            if "passengers" in p:  # Märklin
                lines.append("-# " + passengers_text(t, m, p))
        return "\n".join([*lines, "-# " + decks_text(t, seen)])

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
        files = [await self.board_file(table, t, posted=True)] if self.board_due(table) else []
        after = [self.standings(table, t), turn] if files else [turn]  # the figures come with the board
        shown = layouts.card([recap], images=files, after=after, controls=controls, accent=self.accent(table, nxt))
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
                        nonce=row_nonce(row, 0),
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
            and (files_allowed(interaction) or not self.board_due(table))
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
        await channel.send(view=shown, file=file, nonce=row_nonce(row, 0))
        await self.retire_table(table)


def board_due(seen: dict, last: tuple[tuple[int, ...], int] | None) -> bool:
    """Whether the channel gets a new board now (`seen`: the spectator view; `last`: the map
    state and round of its last board): the map changed (a route, a station, Märklin's passengers
    and tokens) since then, and that board is from an earlier round. At most one board a round,
    lighting every turn since the one before, keeps a 4-player game's pictures within 3 MiB
    (issue 34); the turns between are told in words, and each player's own board (**My hand**)
    is always current. A board showing a claim or station since taken back (an undo) is
    replaced at once."""
    if last is None:
        return True
    now = map_state(seen)
    taken_back = now[0] < last[0][0] or now[1] < last[0][1]  # claims and stations only ever grow
    return taken_back or (now != last[0] and seen["round"] > last[1])


def map_state(seen: dict) -> tuple[int, ...]:
    """What a board picture shows that changes: claims, stations, and Märklin's passengers placed
    and tokens left on the cities."""
    placed = sum(len(p.get("passengers_placed", ())) for p in seen["players"])
    tokens = sum(len(s["stack"]) for s in seen.get("merchandise", {}).values())
    return len(seen["claims"]), len(seen["stations"]), placed, tokens
