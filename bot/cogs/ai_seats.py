"""AI seats in Discord games: added by the host at `/ttr-host start`, they move a moment after their
turn starts (and choose their starting tickets at once). The AI sees only its own view.

Nothing is kept in memory that a restart would lose: after any outcome, and when the bot starts,
every game whose next decision belongs to an AI gets a task that plays it through the one path.
"""

from __future__ import annotations

import asyncio
import logging

from ai import ask, make_ai
from bot.cog import TTRCog
from bot.service import AI_SEATS, Cause, CauseKind, Outcome, Table, new_error_id
from engine.errors import TemplateError
from storage import queries

log = logging.getLogger(__name__)


def waiting_on_ai(table: Table) -> list[int]:
    """The AI seats whose decision the game waits for."""
    ai = table.ai_seats()
    game = table.game
    return [seat for seat in game.to_move() if seat in ai and game.left[seat] is None] if ai else []


class AISeats(TTRCog):
    #: Tries of a failing AI move (waiting 2, 4, 8 … seconds between) before it waits for the next outcome.
    RETRIES = 4

    def __init__(self, bot, delay: float = 1.5) -> None:
        super().__init__(bot)
        self.delay = delay  # seconds before an AI moves, so people can follow (tests use 0)
        self._tasks: dict[int, asyncio.Task] = {}

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.subscribe(AI_SEATS, self.on_outcome)

    async def cog_unload(self) -> None:
        self.bot.service.unsubscribe(self.on_outcome)
        await super().cog_unload()

    async def on_outcome(self, outcome: Outcome) -> None:
        self.kick(outcome.table)

    def kick(self, table: Table) -> None:
        """Start playing the AI's pending decisions of this game, unless that is running already."""
        if not waiting_on_ai(table):
            return
        task = self._tasks.get(table.id)
        if task is None or task.done():
            self._tasks[table.id] = asyncio.create_task(self._play(table.id), name=f"ai-game-{table.id}")

    async def _play(self, game_id: int) -> None:
        await asyncio.sleep(self.delay)
        failures = 0
        for _ in range(50):  # every step of every consecutive AI turn, then stop
            table = await self.bot.service.table(game_id)
            waiting = waiting_on_ai(table)
            if not waiting or table.record.status != "active":
                return
            seat = waiting[0]
            player = make_ai(table.ai_seats()[seat], seed=f"{table.record.seed}:{seat}:{table.game.version}")
            try:  # decided under the game's lock: a person's move cannot slip in between
                await self.bot.service.act(game_id, lambda game: ask(player, game, seat), seat=seat,
                                           cause=Cause(CauseKind.AI))
            except (TemplateError, ValueError):
                continue  # the decision went away meanwhile (someone resigned, a deadline): look again
            except Exception:
                failures += 1
                log.exception("AI move failed", extra={"game_id": game_id, "seat": seat, "error_id": new_error_id(),
                                                       "failures": failures})
                if failures >= self.RETRIES:
                    return  # the next outcome of the game, or a restart, starts it again
                await asyncio.sleep(self.delay + 2 ** failures)

    async def start_work(self) -> None:
        """At start-up: AIs whose turn it was when the bot stopped play on."""
        async with self.bot.storage.sessions() as session:
            game_ids = await queries.active_games_with_ai(session=session)
        for game_id in game_ids:
            try:
                table = await self.bot.service.table(game_id)
                if self.bot.serves_guild(table.record.guild_id):  # each shard process resumes its own
                    self.kick(table)
            except Exception:
                log.exception("could not resume AI", extra={"game_id": game_id, "error_id": new_error_id()})

    async def stop_work(self) -> None:
        """Stop the AIs and wait until they have (before storage closes under them)."""
        tasks = [task for task in self._tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()


async def setup(bot) -> None:
    await bot.add_cog(AISeats(bot))
