"""What every player hears after a change of a game: the one listener that announces outcomes.

The channel first (one message per finished turn, with the turn's whole account; one when the
first turn starts), then DMs for decisions that wait on someone, then the actor's private reply:
when the reply arrives, everything is posted. Each outcome's cause adds its own line (a deadline
ran out, a move was taken back), so no other module writes to a turn's account.

Every stored change has a row in the outbox, written in the change's transaction
(storage/announcements.py). The announcer claims a game's rows in order, posts each with the
row's nonces (a retry after a crash returns the first message instead of sending a second) and
marks it; `drain` does the same for rows a dead process left behind — rebuilding the change from
the stored log, and answering the interaction that asked for it while its token lives.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord
from discord import Interaction

from bot import components, layouts
from bot.command_translator import slash
from bot.inbox import interaction_webhook, unanswered_webhook
from bot.messenger import TableMessenger
from bot.panels import Panel
from bot.posting import files_allowed
from bot.service import Cause, CauseKind, GameService, Outcome, Table, new_error_id
from engine.events import SeatLeft
from i18n import Translator
from storage import announcements as outbox
from storage import games as stored_games
from storage.models import Announcement, utcnow
from texts.present import describe, drawn, merge_turn
from texts.yours import own_lines

log = logging.getLogger(__name__)


#: Games whose last announced version is remembered (an int each).
GAMES_KEPT = 10_000

#: How old an outbox row must be before `drain` takes it from the process that wrote it.
SETTLE = timedelta(seconds=10)

#: How long a posted row's mark waits for the marks of the rows posted after it (seconds).
MARK_DELAY = 0.05


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)


@dataclass
class TurnAccount:
    """The public account of the turn in progress, posted when the turn ends: lines in the
    channel's language, and the cards drawn (a face-up card's index, None from the deck)."""

    notes: list[str] = field(default_factory=list)
    draws: list[int | None] = field(default_factory=list)
    #: Accounts of finished turns not posted yet: AI seats' turns, posted with the next human's.
    carried: list[str] = field(default_factory=list)


@dataclass
class Reply:
    """Where the actor's private answer goes, in the actor's language: the interaction's follow-up,
    or after a restart the same interaction's webhook (no images then: its permissions are unknown)."""

    send: Callable[..., Awaitable[object]]
    t: Translator
    images: bool = True


class Announcer:
    def __init__(
        self, messenger: TableMessenger, service: GameService, *, lease: timedelta = outbox.LEASE, identity: str = "all"
    ) -> None:
        self.messenger = messenger
        self.service = service
        self.lease = lease  # OUTBOX_LEASE: how long a claim holds
        #: The process's place among the bot's processes (its shards), the same after a restart,
        #: then this run: a restarted process knows its dead predecessor's claims (`take_over`).
        self.identity = identity
        self.claimer = f"{identity} {socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._taken: set[int] = set()  # rows `take_over` freed: posted by the next drain, however young
        self._accounts: dict[int, TurnAccount] = {}
        #: game -> held while its outcomes are announced, and how many outcomes hold or wait for it
        self._posting: dict[int, tuple[asyncio.Lock, int]] = {}
        self._announced: OrderedDict[int, int] = OrderedDict()  # game -> the last version this process marked
        self._unmarked: list[tuple[int, str | None]] = []  # (row id, error): posted, the mark not written yet
        self._marker: asyncio.Task | None = None  # writes them MARK_DELAY after the first
        self._marking = asyncio.Lock()

    # ------------------------------------------------------------------ the listener

    async def on_outcome(self, outcome: Outcome) -> None:
        interaction = outcome.cause.interaction
        try:
            if outcome.cause.kind == CauseKind.ADMIN:
                await self._ended(outcome)
            else:
                await self._in_order(outcome)
        except Exception:
            if interaction is None:
                raise
            error_id = new_error_id()
            log.exception("publishing failed", extra={"error_id": error_id, "game_id": outcome.table.id})
            t = await self.messenger.languages.for_interaction(interaction)
            await interaction.followup.send(
                "😓 "
                + t.gettext(
                    "Your move is saved, but I couldn't post about it (error id `{error_id}`). `{board}` shows the "
                    "game.",
                    error_id=error_id,
                    board=slash(t, "ttr board"),
                ),
                ephemeral=True,
            )

    async def _in_order(self, outcome: Outcome) -> None:
        """Announce the game's rows up to this outcome's, oldest first: rows left by a crash before
        it, then its own. One game's outcomes are announced one at a time (a move saved while the
        one before is still being posted waits for it); a row another process holds is that
        process's to post."""
        game_id = outcome.table.id
        if outcome.cause.kind == CauseKind.START:  # a new game (SQLite may give a deleted game's id again)
            self._announced.pop(game_id, None)
        # The lock goes when no outcome holds or waits for it (one released is not "locked" until
        # its next waiter runs: a new lock then would let two outcomes of the game be announced at once).
        lock, users = self._posting.get(game_id) or (asyncio.Lock(), 0)
        self._posting[game_id] = (lock, users + 1)
        try:
            async with lock:
                # Overtaken (a listener before this one took longer for it than for the next one): the
                # later outcome posted this row already, rebuilt from the log; nothing left to claim.
                if outcome.version > self._announced.get(game_id, -1):
                    await self._claim_and_announce(outcome, game_id)
        finally:
            lock, users = self._posting[game_id]
            if users > 1:
                self._posting[game_id] = (lock, users - 1)
            else:
                del self._posting[game_id]

    async def _claim_and_announce(self, outcome: Outcome, game_id: int) -> None:
        own = outcome.announcement
        if (
            own is not None
            and own.claimed_by == self.claimer[:64]
            and self._announced.get(game_id) == outcome.version - 1
        ):
            # Written claimed by this process, and this process posted the row before it: nothing
            # older waits, so it goes out without another claim.
            await self._announce_own(outcome, own)
            return
        while True:
            await self.flush_marks()  # what this process posted is not claimed again
            async with self.service.storage.sessions() as session:
                # This process's rows count as free: one game's are announced one at a time here.
                row = await outbox.claim_next(
                    session=session, claimer=self.claimer, game_id=game_id, lease=self.lease, mine=True
                )
            if row is None:
                return
            if row.version == outcome.version:
                await self._announce_own(outcome, row)
                return
            await self._announce_stored(row)
            if row.version > outcome.version:
                return

    async def _announce_own(self, outcome: Outcome, row: Announcement) -> None:
        """Post the outcome's own row, claimed by this process, and mark it."""
        try:
            await self._announce(outcome, row, await self._live_reply(outcome))
        except Exception as exc:
            # Marked all the same: a row left claimed would hold back the game's next ones
            # until its lease ran out, and posting it again could repeat what did go out.
            await self._mark(row, error=type(exc).__name__)
            raise
        await self._mark(row)

    async def _live_reply(self, outcome: Outcome) -> Reply | None:
        interaction: Interaction | None = outcome.cause.interaction
        if interaction is None:
            return None
        images = files_allowed(interaction)
        t = await self.messenger.languages.for_interaction(interaction)
        table = outcome.table
        # As the move was acknowledged (bot/moves.py): the game has moved since, the answer has not.
        answer = outcome.cause.answer
        panel = Panel(interaction) if answer == "panel" else outcome.cause.panel if answer == "followup" else None

        async def send(shown: discord.ui.LayoutView, files: list[discord.File]) -> object:
            sent = await interaction.followup.send(view=shown, files=files, ephemeral=True, wait=True)
            if outcome.phase_before == "playing":  # a starting ticket choice's answer is no turn's panel
                # A "thinking…" is answered in its original response; a deferred update in a new message.
                update = interaction.response.type == discord.InteractionResponseType.deferred_message_update
                self.messenger.remember_panel(table, Panel(interaction, sent.id if update else None))
            return sent

        if panel is None:
            return Reply(send, t, images)

        async def edit(shown: discord.ui.LayoutView, files: list[discord.File]) -> object:
            """The player's panel updated in place; a panel that is gone gets a new one."""
            kept = [(f.fp.getvalue(), f.filename, f.description) for f in files]  # type: ignore[attr-defined]
            try:
                edited = await panel.edit(view=shown, attachments=files)
            except discord.HTTPException:  # gone, or its token expired: a new panel
                again = [discord.File(io.BytesIO(png), name, description=alt) for png, name, alt in kept]
                return await send(shown, again)
            self.messenger.remember_panel(table, panel)
            return edited

        return Reply(edit, t, images)

    async def _mark(self, row: Announcement, error: str | None = None) -> None:
        """The row is posted: marked in the database with the rows posted in the next MARK_DELAY
        (one write for them all). A kill before that write leaves them claimed; they are posted
        again when the lease runs out, with the same nonces, so Discord shows each once."""
        self._unmarked.append((row.id, error))
        if self._marker is None:
            self._marker = asyncio.create_task(self._mark_soon())
        # A game's rows go out in order, so every row up to this one is announced.
        self._announced[row.game_id] = max(row.version, self._announced.get(row.game_id, -1))
        self._announced.move_to_end(row.game_id)
        while len(self._announced) > GAMES_KEPT:
            self._announced.popitem(last=False)

    async def _mark_soon(self) -> None:
        try:
            await asyncio.sleep(MARK_DELAY)
        finally:
            self._marker = None
        await self.flush_marks()

    async def flush_marks(self) -> None:
        """Write the marks of every row posted so far (at once: before claiming by the database,
        and when the bot closes)."""
        async with self._marking:  # a write under way is waited for: its rows are marked after this too
            marks, self._unmarked = self._unmarked, []
            if not marks:
                return
            try:
                async with self.service.storage.sessions() as session:
                    await outbox.mark_all_announced(session=session, marks=marks)
            except Exception:
                log.warning("posted rows could not be marked: they are posted again after their lease", exc_info=True)

    async def close(self) -> None:
        if self._marker is not None:
            self._marker.cancel()
        await self.flush_marks()

    # ------------------------------------------------------------------ after a restart

    async def take_over(self) -> int:
        """At start: the rows an earlier run of this identity (the process before a crash or a
        restart: one process per identity) held unposted are this process's at once, not when
        their lease runs out (the next `drain` posts them); returns how many."""
        async with self.service.storage.sessions() as session:
            taken = await outbox.release_claims(session=session, prefix=f"{self.identity} ", keep=self.claimer)
        self._taken.update(taken)
        return len(taken)

    async def drain(self, *, shard: tuple[int, int] | None = None) -> int:
        """Announce every row nobody is posting (left by a process that died, or whose lease ran
        out); returns how many. Rows younger than `SETTLE` (or the lease, if shorter) are left to
        the process that wrote them, which is announcing them right now. Safe in several processes
        at once: each row is claimed before it is posted."""
        done = 0
        while True:
            await self.flush_marks()  # the rows posted so far no longer hold back their games' next ones
            settled = utcnow() - min(SETTLE, self.lease)
            async with self.service.storage.sessions() as session:
                waiting = [
                    row
                    for row in await outbox.pending_announcements(session=session, shard=shard, lease=self.lease)
                    if _aware(row.created_at) <= settled or row.id in self._taken
                ]
            taken = 0
            for candidate in waiting:
                async with self.service.storage.sessions() as session:
                    row = await outbox.claim_announcement(
                        session=session, announcement_id=candidate.id, claimer=self.claimer, lease=self.lease
                    )
                self._taken.discard(candidate.id)
                if row is not None:
                    await self._announce_stored(row)
                    taken += 1
            done += taken
            if not taken:
                return done

    async def _announce_stored(self, row: Announcement) -> None:
        """A row's change rebuilt from the stored log, announced as it would have been."""
        try:
            table = await self.service.table(row.game_id)
            async with self.service.storage.sessions() as session:
                stored = await stored_games.stored_turn(session=session, game_id=row.game_id, version=row.version)
        except Exception as exc:  # the game is gone or does not replay: nothing to post
            log.warning(
                "an announcement cannot be rebuilt",
                extra={"game_id": row.game_id, "version": row.version, "error": str(exc)},
            )
            await self._mark(row, error=type(exc).__name__)
            return
        then = Table(record=table.record, seats=table.seats, game=stored.game)
        outcome = Outcome(
            table=then,
            cause=Cause(CauseKind(row.cause), seat=stored.seat),
            seat=stored.seat,
            action=stored.action,
            events=stored.events,
            phase_before=stored.phase_before or "",
            version=row.version,
        )
        reply = await self._stored_reply(row, table, stored.seat)
        try:
            await self._announce(outcome, row, reply, stored=True)
        except Exception as exc:
            log.warning(
                "a stored announcement could not be posted",
                exc_info=True,
                extra={"game_id": row.game_id, "version": row.version},
            )
            await self._mark(row, error=type(exc).__name__)
            return
        await self._mark(row)

    async def _stored_reply(self, row: Announcement, table: Table, seat: int | None) -> Reply | None:
        """The answer a row's interaction still owes after a restart: a "thinking…" that was not
        ended, or the panel it tapped (edited again: the same panel, whether or not the dead
        process got to it). A tap whose answer went to another panel gets none: the table shows
        the move, and a second message could repeat one that did go out."""
        if not outbox.can_answer(row) or row.answer == "followup":
            return None
        client = self.messenger.client
        if row.answer == "panel":
            webhook = interaction_webhook(client, row.application_id, row.interaction_token)

            async def send(shown: discord.ui.LayoutView, files: list[discord.File]) -> object:
                return await webhook.edit_message("@original", view=shown, attachments=files)
        else:
            found = await unanswered_webhook(client, row.application_id, row.interaction_token)
            if found is None:  # answered before the crash
                return None

            async def send(shown: discord.ui.LayoutView, files: list[discord.File]) -> object:
                return await found.send(view=shown, files=files, ephemeral=True)

        async def answer(shown: discord.ui.LayoutView, files: list[discord.File]) -> object:
            """Best effort: the turn is posted already, and a failed answer must not undo that."""
            try:
                return await send(shown, files)
            except discord.HTTPException as exc:
                log.info("a stored turn's answer could not be sent", extra={"game_id": row.game_id, "error": str(exc)})
                return None

        user_id = table.user_of(seat) if seat is not None else None
        return Reply(answer, await self.messenger.languages.for_user(user_id, table.record.guild_id), images=False)

    # ------------------------------------------------------------------ announcing

    async def _announce(
        self, outcome: Outcome, row: Announcement | None, reply: Reply | None, *, stored: bool = False
    ) -> None:
        """`stored`: rebuilt from the log after a restart (it may have been posted before the crash)."""
        if outcome.cause.kind == CauseKind.START:
            await self.messenger.game_started(outcome.table, row=row)
            return
        m = self.messenger
        table, game, seat, cause = outcome.table, outcome.table.game, outcome.seat, outcome.cause
        interaction: Interaction | None = cause.interaction
        await m.channel(table)  # an archived game thread reopens before anything is said there
        await m.load_names(table)
        t = await m.channel_t(table)
        names = lambda s: m.name(table, s, t)  # noqa: E731
        account = self._accounts.setdefault(table.id, TurnAccount())
        if cause.kind == CauseKind.TIMEOUT and cause.first and cause.seat is not None:
            account.notes.append(self._timeout_note(t, table, cause.seat, cause.policy, cause.missed))
        elif cause.kind == CauseKind.UNDO:
            account.notes, account.draws = (
                ["↩️ " + t.gettext("**{name}**'s last move was taken back.", name=names(outcome.seat))],
                [],
            )
        account.notes.extend(describe(t, game, outcome.events, names))
        account.draws.extend(drawn(outcome.events))
        # The tap's own answers post and edit the table where they can (Discord's global rate
        # limit counts none of them). A "thinking…" is ended by its first follow-up, privately:
        # the actor's answer goes first then, and the table follows as a public follow-up.
        through = interaction if reply is not None else None
        if (
            through is not None
            and outcome.turn_ended
            and cause.answer == "thinking"
            and not _is_ai(table, game.current)  # (an AI's turn comes first: its table is posted then)
            and m.can_post_through(table, through)
        ):
            await self._private_next_step(reply, table, outcome)  # type: ignore[arg-type]
            reply = None
            answered = True
        else:
            answered = False
        if outcome.turn_ended:
            # The rows posted so far are marked before their table loses its controls: a table
            # posted as a follow-up has no nonce, and a row rebuilt after a crash finds its table
            # by the controls that name its turn (bot/messenger.py `post_turn`).
            await self.flush_marks()
            acting = seat if seat is not None else game.current
            if outcome.phase_before == "choosing":  # the first turn: only say who ran out of time
                summary = "\n".join(note for note in account.notes if note.startswith("⏰"))
            else:
                summary = merge_turn(t, account.notes, account.draws, acting, names)
            if not game.is_over() and _is_ai(table, game.current):
                # An AI moves next: its turn is told with this one when a person's turn comes.
                account.carried.append(summary)
                account.notes, account.draws = [], []
            else:
                del self._accounts[table.id]
                await m.post_turn(
                    table,
                    "\n".join(line for line in [*account.carried, summary] if line),
                    interaction=interaction,
                    through=through,
                    row=row,
                    again=stored,
                )
        elif outcome.cause.kind != CauseKind.START and game.phase == "playing" and not _is_ai(table, game.current):
            # mid-turn: the live table's buttons follow (the second card); an AI's are nobody's to
            # tap (a tap is refused with whose turn it is), and its next table comes in a moment
            await m.refresh_table(table, through=through)
        if any(isinstance(e, SeatLeft) for e in outcome.events) and not outcome.turn_ended:  # left out of turn
            channel = await m.channel(table)
            if channel is not None:
                await channel.send("\n".join(account.notes[-1:]), nonce=outbox.nonce(row) if row else None)
                account.notes = account.notes[:-1]
        if (
            game.phase == "playing"
            and game.stage in game.hooks.stages
            and (game.current != seat or (reply is None and not answered))
        ):
            mine = await m.seat_t(table, game.current)
            await m.dm(
                table,
                game.current,
                m.hook_text(mine),
                t=mine,
                view=components.hook_choice_view(table.id, game, game.current, t=mine),
                row=row,
            )
        if reply is not None:
            await self._private_next_step(reply, table, outcome)

    def _timeout_note(self, t: Translator, table: Table, seat: int, policy: str, missed: int) -> str:
        """The line a deadline adds to the turn's account: who ran out of time, and what followed."""
        name = self.messenger.name(table, seat, t)
        if policy == "remove":
            return "⏰ " + t.ngettext(
                "**{name}** missed {n} deadline in a row and is removed.",
                "**{name}** missed {n} deadlines in a row and is removed.",
                missed,
                name=name,
            )
        if policy == "ai":
            return "⏰ " + t.gettext("**{name}** ran out of time: an AI plays this turn.", name=name)
        return "⏰ " + t.gettext("**{name}** ran out of time.", name=name)

    async def _ended(self, outcome: Outcome) -> None:
        """An admin ended the game: said publicly, in the server's language."""
        interaction = outcome.cause.interaction
        self._accounts.pop(outcome.table.id, None)
        await self.messenger.retire_table(outcome.table)
        public = await self.messenger.channel_t(outcome.table)
        user = f"<@{outcome.cause.user_id}>"
        text = public.gettext(
            "🛑 {user} ended the game. No scores were recorded. Start a new one with `{new}`.",
            user=user,
            new=slash(public, "ttr-host new"),
        )
        if interaction is not None:
            await interaction.response.send_message(text)
        else:
            channel = await self.messenger.channel(outcome.table)
            if channel is not None:
                await channel.send(text)

    async def _private_next_step(self, reply: Reply, table: Table, outcome: Outcome) -> None:
        """The actor's one private answer: what their action did, then their panel (hand,
        tickets, what comes next and its controls). No DM: the actor is here."""
        m, t = self.messenger, reply.t
        seat = outcome.seat
        if seat is None:
            await reply.send(layouts.card([t.gettext("Done.")]), [])
            return
        game = table.game
        names = lambda s: m.name(table, s, t)  # noqa: E731
        did = "\n".join(own_lines(t, game, outcome.events, seat, names)) or None
        content, view = m.panel(t, table, seat)
        head = "✅ " + (did or t.gettext("Done."))
        # A ticket offer comes with its map thumbnails, as the starting one does.
        offer = reply.images and bool(game.offers[seat])
        files = await m.private_files(table, seat, hand=False, offer=True, t=t) if offer else []
        shown = layouts.card([head, content], images=files, controls=view, accent=m.accent(table, seat))
        await reply.send(shown, files)


def _is_ai(table: Table, seat: int) -> bool:
    return any(s.seat == seat and s.ai for s in table.seats)
