"""Turn timers for play-by-post: deadlines, reminders, the absence policy, vacations, pauses.

Timers live in the database (storage.clocks), so they survive restarts and a timer that fell
due while the bot was down fires at the next tick. A timer watches one seat's turn (its "turn
key", below): firing it after that turn is over does nothing, so a timer acts at most once even
if two processes or a restart race for it; claiming with a lease keeps that from being tried
twice in the first place.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from discord import Interaction
from discord.ext import tasks

from bot.admin import is_manager
from bot.command_translator import slash
from bot.service import Table
from engine import Game, Remove
from i18n import Translator
from storage import clocks as stored_clocks
from storage.models import utcnow

if TYPE_CHECKING:
    from bot.client import TTRBot

log = logging.getLogger(__name__)

#: Turn timer choices offered at /ttr new (seconds; 0: no timer), named in English; the names are
#: marked for the catalogs with the context "timer" where they are shown (bot/commands.py).
TIMERS = {"none": 0, "5 minutes": 300, "10 minutes": 600, "1 hour": 3600, "12 hours": 43200,
          "24 hours": 86400, "48 hours": 172800}


def turn_key(game: Game, seat: int) -> int:
    """Identifies `seat`'s current turn: the log length when it began. A multi-step turn keeps
    its key (the steps are the seat's own trailing actions); starting tickets are one 'turn'."""
    if game.phase == "choosing":
        return 0
    n = len(game.log)
    while n and game.log[n - 1][0] == seat:
        n -= 1
    return n


def timestamp(when: datetime) -> str:
    """A Discord timestamp: every reader sees it in their own time zone, relative ("in 3 hours")."""
    return f"<t:{int(when.timestamp())}:R>"


class Clocks:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot
        self.now = utcnow  # tests replace it to move time
        self._clocks: dict[int, stored_clocks.GameClock | None] = {}

    # ------------------------------------------------------------------ settings

    async def clock(self, game_id: int) -> stored_clocks.GameClock | None:
        if game_id not in self._clocks:
            async with self.bot.storage.sessions() as session:
                self._clocks[game_id] = await stored_clocks.get_clock(session=session, game_id=game_id)
        return self._clocks[game_id]

    async def configure(self, table: Table, settings: dict) -> None:
        """At game start: the timer chosen at /ttr new (nothing to do without one)."""
        seconds = int(settings.get("turn_seconds") or 0)
        if not seconds:
            self._clocks[table.id] = None
            return
        clock = stored_clocks.GameClock(
            game_id=table.id, turn_seconds=seconds,
            reminder_seconds=int(settings.get("reminder_seconds", seconds // 4)),
            absence=settings.get("absence", "skip"), remove_after=int(settings.get("remove_after", 3)),
            vacation_days=int(settings.get("vacation_days", 7)),
        )
        async with self.bot.storage.sessions() as session:
            await stored_clocks.set_clock(session=session, clock=clock)
        self._clocks[table.id] = clock
        await self.after_action(table)

    # ------------------------------------------------------------------ scheduling

    async def after_action(self, table: Table) -> None:
        """Give each seat the game waits for a deadline (kept across the steps of one turn)."""
        clock = await self.clock(table.id)
        if clock is None:
            return
        game = table.game
        async with self.bot.storage.sessions() as session:
            if game.is_over():
                await stored_clocks.cancel_timers(session=session, game_id=table.id)
                return
            now = self.now()
            plans = {}
            for seat in game.to_move():
                start = now
                seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=seat)
                if seat_clock.vacation_until and seat_clock.vacation_until > start:
                    start = seat_clock.vacation_until
                due = start + timedelta(seconds=clock.turn_seconds)
                timers = [(stored_clocks.DEADLINE, due)]
                if clock.reminder_seconds and due - timedelta(seconds=clock.reminder_seconds) > now:
                    timers.append((stored_clocks.REMINDER, due - timedelta(seconds=clock.reminder_seconds)))
                plans[seat] = (turn_key(game, seat), timers)
            await stored_clocks.schedule_all(session=session, game_id=table.id, plans=plans)

    async def deadline(self, table: Table, seat: int) -> datetime | None:
        if await self.clock(table.id) is None:
            return None
        async with self.bot.storage.sessions() as session:
            timers = await stored_clocks.pending_timers(session=session, game_id=table.id)
        return next((t.due_at for t in timers if t.seat == seat and t.kind == stored_clocks.DEADLINE), None)

    async def player_acted(self, table: Table, seat: int | None) -> None:
        """A player moved by themself: their run of missed deadlines ends."""
        if seat is None or await self.clock(table.id) is None:
            return
        async with self.bot.storage.sessions() as session:
            seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=seat)
            if seat_clock.missed:
                seat_clock.missed = 0
                await stored_clocks.save_seat_clock(session=session, clock=seat_clock)

    # ------------------------------------------------------------------ firing

    @tasks.loop(seconds=5)
    async def loop(self) -> None:
        try:
            await self.tick()
        except Exception:
            log.exception("scheduler tick failed")

    async def tick(self) -> int:
        """Fire every due timer (missed ones too); returns how many were handled."""
        handled = 0
        while True:
            async with self.bot.storage.sessions() as session:
                due = await stored_clocks.claim_due(session=session, now=self.now())
            if not due:
                return handled
            for timer in due:
                try:
                    await self._fire(timer)
                except Exception:
                    log.exception("timer failed", extra={"game_id": timer.game_id, "timer_id": timer.id})
                    continue  # its lease runs out and it is tried again
                async with self.bot.storage.sessions() as session:
                    await stored_clocks.mark_fired(session=session, timer_id=timer.id, now=self.now())
                handled += 1

    async def _fire(self, timer: stored_clocks.Timer) -> None:
        service, turns = self.bot.service, self.bot.turns
        try:
            table = await service.table(timer.game_id)
        except Exception:
            return
        game = table.game
        if (table.record.status != "active" or game.is_over() or timer.seat not in game.to_move()
                or turn_key(game, timer.seat) != timer.decision):
            return  # that turn is over: nothing to do
        if timer.kind == stored_clocks.REMINDER:
            await turns.remind(table, timer.seat, await self.deadline(table, timer.seat))
            return
        clock = await self.clock(table.id)
        async with self.bot.storage.sessions() as session:
            seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=timer.seat)
            seat_clock.missed += 1
            await stored_clocks.save_seat_clock(session=session, clock=seat_clock)
        t = await turns.channel_t(table)  # the note joins the turn's public account
        name = turns.name(table, timer.seat, t)
        if clock.absence == "remove" and seat_clock.missed >= clock.remove_after:
            table.turn_notes.append("⏰ " + t.ngettext("**{name}** missed {n} deadline in a row and is removed.",
                                                      "**{name}** missed {n} deadlines in a row and is removed.",
                                                      seat_clock.missed, name=name))
            outcome = await service.act(table.id, None, Remove(timer.seat), as_table=True)
            await turns.publish_automatic(outcome)
            return
        table.turn_notes.append("⏰ " + (t.gettext("**{name}** ran out of time: an AI plays this turn.", name=name)
                                        if clock.absence == "ai" else t.gettext("**{name}** ran out of time.", name=name)))
        key = timer.decision
        for _ in range(10):  # a turn has at most a few steps
            game = table.game
            if game.is_over() or timer.seat not in game.to_move() or turn_key(game, timer.seat) != key:
                break
            action = self.bot.ai_action(game, timer.seat) if clock.absence == "ai" else game.default_action(timer.seat)
            outcome = await service.act(table.id, None, action, seat=timer.seat)
            await turns.publish_automatic(outcome)
            table = outcome.table

    # ------------------------------------------------------------------ commands

    async def _clocked_table(self, interaction: Interaction,
                             t: Translator) -> tuple[Table, stored_clocks.GameClock] | None:
        table = await self.bot.service.table_in_channel(interaction.channel_id)
        if table is None:
            await interaction.response.send_message(t.gettext("There is no game running in this channel."),
                                                    ephemeral=True)
            return None
        clock = await self.clock(table.id)
        if clock is None:
            await interaction.response.send_message(t.gettext("This game has no turn timer."), ephemeral=True)
            return None
        return table, clock

    async def pause(self, interaction: Interaction, paused: bool) -> None:
        t = await self.bot.languages.for_interaction(interaction)
        found = await self._clocked_table(interaction, t)
        if found is None:
            return
        table, clock = found
        if interaction.user.id != table.record.host_id and not is_manager(interaction):
            await interaction.response.send_message(t.gettext("Only the host can pause or resume the timers."),
                                                    ephemeral=True)
            return
        if bool(clock.paused_at) == paused:
            await interaction.response.send_message(
                t.gettext("The timers are already paused.") if paused else t.gettext("The timers are already running."),
                ephemeral=True)
            return
        now = self.now()
        async with self.bot.storage.sessions() as session:
            if not paused:
                await stored_clocks.shift_timers(session=session, game_id=table.id, by=now - clock.paused_at)
            clock.paused_at = now if paused else None
            await stored_clocks.set_clock(session=session, clock=clock)
        ct = await self.bot.turns.channel_t(table)  # said in the channel, for everyone
        if paused:
            await interaction.response.send_message(
                "⏸️ " + ct.gettext("The turn timers are paused. `{resume}` starts them again.",
                                   resume=slash(ct, "ttr admin resume")))
        else:
            due = await self.deadline(table, table.game.to_move()[0]) if table.game.to_move() else None
            await interaction.response.send_message("▶️ " + (
                ct.gettext("The turn timers run again. Next deadline {when}.", when=timestamp(due)) if due
                else ct.gettext("The turn timers run again.")))

    async def vacation(self, interaction: Interaction, days: int) -> None:
        t = await self.bot.languages.for_interaction(interaction)
        found = await self._clocked_table(interaction, t)
        if found is None:
            return
        table, clock = found
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await interaction.response.send_message(t.gettext("You are not playing in this game."), ephemeral=True)
            return
        now = self.now()
        async with self.bot.storage.sessions() as session:
            seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=seat)
            left = clock.vacation_days * 86400 - seat_clock.vacation_used
            wanted = days * 86400
            if wanted > left:
                days = f"{left / 86400:g}"
                await interaction.response.send_message(t.gettext(
                    "You have {days} vacation days left in this game.", days=days), ephemeral=True)
                return
            start = max(now, seat_clock.vacation_until or now)
            seat_clock.vacation_until = start + timedelta(seconds=wanted)
            seat_clock.vacation_used += wanted
            await stored_clocks.save_seat_clock(session=session, clock=seat_clock)
            await stored_clocks.shift_timers(session=session, game_id=table.id, by=timedelta(seconds=wanted),
                                             seat=seat)
        ct = await self.bot.turns.channel_t(table)  # said in the channel, for everyone
        await interaction.response.send_message("🏖️ " + ct.gettext(
            "{player} is on vacation until {when}: their deadlines wait.", player=interaction.user.mention,
            when=timestamp(seat_clock.vacation_until)))

