"""Turn timers firing: every few seconds, each timer that fell due (missed ones too, after a
restart) reminds the player or applies the game's absence policy through the one path, with a
deadline as its cause ("ai": the host's AI level takes the seat, said on the table, and keeps it
warm until its player takes it back); `/ttr-settings vacation` pushes a player's own deadlines back.

Each process fires only the timers of its own shards' guilds (where the game's channel and AI
seats are, docs/bot.md "Several processes"); claiming one takes a lease in storage (OUTBOX_LEASE),
so two processes or a restart do not fire it twice; it acts on the game as stored now, and a
timer whose turn is over does nothing (the engine's `Game.turn_token`).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from discord import Interaction, app_commands
from discord.app_commands import locale_str
from discord.ext import tasks

from bot import metrics
from bot.background import Backoff
from bot.cog import TTRCog
from bot.errors import NotPlaying
from bot.render_pool import POOL
from bot.service import new_error_id
from bot.timers import timestamp
from bot.transformers import clocked_table
from engine import Game, Remove
from engine.errors import TemplateError
from storage import clocks as stored_clocks

log = logging.getLogger(__name__)


async def _ai_action(game: Game, *, seat: int, level: str):
    """The move an AI makes for `seat` (a timed-out turn with the 'ai' absence policy; the AI keeps
    the seat warm from then on: the AI seats controller plays its later turns), thought in the
    worker pool."""
    return await POOL.think(level, f"{game.seed}:{seat}:{game.version}", game, seat)


class Clocks(TTRCog):
    under = "ttr-settings"  # /ttr-settings vacation

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self._ticks = Backoff("timer scheduler", base=5, most=300)

    async def start_work(self) -> None:
        self.loop.start()

    async def stop_work(self) -> None:
        await self._ticks.stop(self.loop)

    @tasks.loop(seconds=5)
    async def loop(self) -> None:
        await self._ticks.run(self.tick)

    async def tick(self) -> int:
        """Fire every due timer of this process's shards (missed ones too); returns how many were handled."""
        return sum([await self._tick(shard) for shard in self.bot.my_shards()])

    async def _tick(self, shard: tuple[int, int] | None) -> int:
        timers = self.bot.timers
        lease = timedelta(seconds=self.bot.settings.outbox_lease)
        handled = 0
        while True:
            async with self.bot.storage.sessions() as session:
                due = await stored_clocks.claim_due(session=session, now=timers.now(), lease=lease, shard=shard)
            if not due:
                return handled
            for timer in due:
                try:
                    await self._fire(timer)
                except Exception:
                    log.exception(
                        "timer failed",
                        extra={"game_id": timer.game_id, "timer_id": timer.id, "error_id": new_error_id()},
                    )
                    continue  # its lease runs out and it is tried again
                async with self.bot.storage.sessions() as session:
                    await stored_clocks.mark_fired(session=session, timer_id=timer.id, now=timers.now())
                metrics.timer_fired(timer.kind)
                handled += 1

    async def _fire(self, timer: stored_clocks.Timer) -> None:
        service, timers = self.bot.service, self.bot.timers
        try:
            table = await service.table(timer.game_id)  # as stored now: a DM on shard 0 may have moved it on
        except Exception:
            return
        game = table.game
        if (
            table.record.status != "active"
            or game.is_over()
            or timer.seat not in game.to_move()
            or game.turn_token(timer.seat) != timer.decision
        ):
            return  # that turn is over: nothing to do
        if timer.kind == stored_clocks.REMINDER:
            due = await timers.deadline(table, timer.seat)
            if due is not None and due > timers.now():  # overdue too (the bot was down): only the skip
                await self.bot.messenger.remind(table, timer.seat, due)
            return
        clock = await timers.clock(table.id)
        missed = await timers.missed(table, timer.seat)
        cause = timers.timeout_cause(clock, timer.seat, missed, first=True)
        if cause.policy == "remove":
            await service.act(table.id, Remove(timer.seat), cause=cause, as_table=True)
            return
        level = clock.ai_level if clock is not None else "baseline"
        if cause.policy == "ai" and await service.stand_in(table, timer.seat, level, "timeout"):
            await self.bot.messenger.announce_stand_in(table, timer.seat, level)
        key = timer.decision
        for _ in range(10):  # a turn has at most a few steps
            game = table.game
            if game.is_over() or timer.seat not in game.to_move() or game.turn_token(timer.seat) != key:
                break
            if cause.policy != "ai":
                outcome = await service.act(table.id, game.default_action(timer.seat), cause=cause, seat=timer.seat)
            else:
                try:  # decided under the game's lock, like the AI seats' moves
                    outcome = await service.act(
                        table.id, partial(_ai_action, seat=timer.seat, level=level), cause=cause, seat=timer.seat
                    )
                except (TemplateError, ValueError):
                    break  # the AI seats controller played the rest of the turn first
            cause = timers.timeout_cause(clock, timer.seat, missed, first=False)
            table = outcome.table

    @app_commands.command(
        name="vacation", description=locale_str("Pause your own deadlines in this game for some days")
    )
    @app_commands.describe(days=locale_str("How many days"))
    async def vacation(self, interaction: Interaction, days: app_commands.Range[int, 1, 30]) -> None:
        table, clock = await clocked_table(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotPlaying()
        until = await self.bot.timers.vacation(table, clock, seat, days)
        if isinstance(until, float):
            t = await self.bot.languages.for_interaction(interaction)
            days_left = f"{until:g}"
            await self.bot.reply(
                interaction, t.gettext("You have {days} vacation days left in this game.", days=days_left)
            )
            return
        ct = await self.bot.messenger.channel_t(table)  # said in the channel, for everyone
        await interaction.response.send_message(
            "🏖️ "
            + ct.gettext(
                "{player} is on vacation until {when}: their deadlines wait.",
                player=interaction.user.mention,
                when=timestamp(until),
            )
        )


async def setup(bot) -> None:
    await bot.add_cog(Clocks(bot))
