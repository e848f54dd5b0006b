"""Turn timers for play-by-post: deadlines and reminders for each seat the game waits for,
vacations and pauses. Timers live in the database (storage.clocks), so they survive restarts; the
Clocks cog (bot/cogs/clocks.py) fires them when they fall due.

A timer watches one seat's turn (the engine's `Game.turn_token`, the version at which that turn
began): firing it after that turn is over does nothing, so a timer acts at most once even if two
processes or a restart race for it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.service import Cause, CauseKind, Outcome, Table
from storage import Storage
from storage import clocks as stored_clocks
from storage.models import utcnow

#: Turn timer choices offered at /ttr-host new (seconds; 0: no timer), named in English; the names are
#: marked for the catalogs with the context "timer" where they are shown (bot/cogs/lobby.py).
TIMERS = {
    "none": 0,
    "5 minutes": 300,
    "10 minutes": 600,
    "1 hour": 3600,
    "12 hours": 43200,
    "24 hours": 86400,
    "48 hours": 172800,
}


def timestamp(when: datetime) -> str:
    """A Discord timestamp: every reader sees it in their own time zone, relative ("in 3 hours")."""
    return f"<t:{int(when.timestamp())}:R>"


class Timers:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.now = utcnow  # tests replace it to move time
        self._clocks: dict[int, stored_clocks.GameClock | None] = {}

    async def on_outcome(self, outcome: Outcome) -> None:
        """Every change of a game: set the deadlines of the seats it now waits for."""
        table, cause = outcome.table, outcome.cause
        if cause.kind == CauseKind.START:
            await self.configure(table, cause.clock)
            return
        if cause.kind == CauseKind.ADMIN:
            async with self.storage.sessions() as session:
                await stored_clocks.cancel_timers(session=session, game_id=table.id)
            return
        if cause.kind == CauseKind.PLAYER:
            await self.player_acted(table, outcome.seat)
        await self.after_action(table)

    # ------------------------------------------------------------------ settings

    async def clock(self, game_id: int) -> stored_clocks.GameClock | None:
        if game_id not in self._clocks:
            async with self.storage.sessions() as session:
                self._clocks[game_id] = await stored_clocks.get_clock(session=session, game_id=game_id)
        return self._clocks[game_id]

    async def configure(self, table: Table, settings: dict) -> None:
        """At game start: the timer chosen at /ttr-host new (nothing to do without one)."""
        seconds = int(settings.get("turn_seconds") or 0)
        if not seconds:
            self._clocks[table.id] = None
            return
        clock = stored_clocks.GameClock(
            game_id=table.id,
            turn_seconds=seconds,
            reminder_seconds=int(settings.get("reminder_seconds", seconds // 4)),
            absence=settings.get("absence", "skip"),
            ai_level=settings.get("ai_level") or "baseline",
            remove_after=int(settings.get("remove_after", 3)),
            vacation_days=int(settings.get("vacation_days", 7)),
        )
        async with self.storage.sessions() as session:
            await stored_clocks.set_clock(session=session, clock=clock)
        self._clocks[table.id] = clock
        await self.after_action(table)

    async def settings_of(self, game_id: int) -> dict:
        """A game's timer as `configure` takes it (a rematch keeps the timer)."""
        clock = await self.clock(game_id)
        if clock is None:
            return {}
        return {
            "turn_seconds": clock.turn_seconds,
            "reminder_seconds": clock.reminder_seconds,
            "absence": clock.absence,
            "ai_level": clock.ai_level,
            "remove_after": clock.remove_after,
            "vacation_days": clock.vacation_days,
        }

    # ------------------------------------------------------------------ scheduling

    async def after_action(self, table: Table) -> None:
        """Give each seat the game waits for a deadline (kept across the steps of one turn)."""
        clock = await self.clock(table.id)
        if clock is None:
            return
        game = table.game
        async with self.storage.sessions() as session:
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
                plans[seat] = (game.turn_token(seat), timers)
            await stored_clocks.schedule_all(session=session, game_id=table.id, plans=plans)

    async def deadline(self, table: Table, seat: int) -> datetime | None:
        if await self.clock(table.id) is None:
            return None
        async with self.storage.sessions() as session:
            timers = await stored_clocks.pending_timers(session=session, game_id=table.id)
        return next((t.due_at for t in timers if t.seat == seat and t.kind == stored_clocks.DEADLINE), None)

    async def player_acted(self, table: Table, seat: int | None) -> None:
        """A player moved by themself: their run of missed deadlines ends."""
        if seat is None or await self.clock(table.id) is None:
            return
        async with self.storage.sessions() as session:
            seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=seat)
            if seat_clock.missed:
                seat_clock.missed = 0
                await stored_clocks.save_seat_clock(session=session, clock=seat_clock)

    async def missed(self, table: Table, seat: int) -> int:
        """Count one more missed turn for `seat`; returns the run of misses. The starting ticket
        choice is no turn: missing it keeps the dealt tickets and is not counted toward removal
        (docs/bot.md "Play-by-post"; the lobby message says so)."""
        async with self.storage.sessions() as session:
            seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=seat)
            if table.game.phase == "choosing":
                return seat_clock.missed
            seat_clock.missed += 1
            await stored_clocks.save_seat_clock(session=session, clock=seat_clock)
        return seat_clock.missed

    @staticmethod
    def timeout_cause(clock: stored_clocks.GameClock, seat: int, missed: int, *, first: bool) -> Cause:
        """Why the table moves for `seat` after its deadline: its clock's absence policy ("remove"
        only once the misses in a row reach the limit; "skip" until then)."""
        if clock.absence == "remove":
            policy = "remove" if missed >= clock.remove_after else "skip"
        else:
            policy = clock.absence
        return Cause(CauseKind.TIMEOUT, seat=seat, policy=policy, missed=missed, first=first)

    # ------------------------------------------------------------------ pauses and vacations

    async def pause(self, table: Table, clock: stored_clocks.GameClock, paused: bool) -> None:
        """Stop the game's timers, or start them again shifted by the time they stood still."""
        now = self.now()
        async with self.storage.sessions() as session:
            if not paused:
                await stored_clocks.shift_timers(session=session, game_id=table.id, by=now - clock.paused_at)
            clock.paused_at = now if paused else None
            await stored_clocks.set_clock(session=session, clock=clock)

    async def vacation(self, table: Table, clock: stored_clocks.GameClock, seat: int, days: int) -> datetime | float:
        """Push `seat`'s deadlines back by `days`: the vacation's end, or (too many days) the days left."""
        now = self.now()
        async with self.storage.sessions() as session:
            seat_clock = await stored_clocks.seat_clock(session=session, game_id=table.id, seat=seat)
            left = clock.vacation_days * 86400 - seat_clock.vacation_used
            wanted = days * 86400
            if wanted > left:
                return left / 86400
            start = max(now, seat_clock.vacation_until or now)
            seat_clock.vacation_until = start + timedelta(seconds=wanted)
            seat_clock.vacation_used += wanted
            await stored_clocks.save_seat_clock(session=session, clock=seat_clock)
            await stored_clocks.shift_timers(session=session, game_id=table.id, by=timedelta(seconds=wanted), seat=seat)
        return seat_clock.vacation_until
