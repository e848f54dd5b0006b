"""AI seats in Discord games: added by the host at `/ttr start`, they move a moment after their
turn starts (and choose their starting tickets at once). The AI sees only its own view.

Nothing is kept in memory that a restart would lose: after any action, and when the bot starts,
every game whose next decision belongs to an AI gets a task that plays it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ai import ask, make_ai
from bot.service import Table, UserError
from i18n import N_
from storage import queries

if TYPE_CHECKING:
    from bot.client import TTRBot

log = logging.getLogger(__name__)

AI_LEVELS = ("random", "baseline", "strong")
#: An AI seat's name by level ({n}: the seat's number), translated where it is shown.
AI_NAMES = {"random": N_("random AI {n}"), "baseline": N_("baseline AI {n}"), "strong": N_("strong AI {n}")}


class AISeats:
    def __init__(self, bot: "TTRBot", delay: float = 1.5) -> None:
        self.bot = bot
        self.delay = delay  # seconds before an AI moves, so people can follow (tests use 0)
        self._tasks: dict[int, asyncio.Task] = {}

    @staticmethod
    def ai_seats(table: Table) -> dict[int, str]:
        return {s.seat: s.ai for s in table.seats if s.ai}

    def waiting_on_ai(self, table: Table) -> list[int]:
        ai = self.ai_seats(table)
        game = table.game
        return [seat for seat in game.to_move() if seat in ai and game.left[seat] is None] if ai else []

    def kick(self, table: Table) -> None:
        """Start playing the AI's pending decisions of this game, unless that is running already."""
        if not self.waiting_on_ai(table):
            return
        task = self._tasks.get(table.id)
        if task is None or task.done():
            self._tasks[table.id] = asyncio.create_task(self._play(table.id), name=f"ai-game-{table.id}")

    async def _play(self, game_id: int) -> None:
        await asyncio.sleep(self.delay)
        for _ in range(50):  # every step of every consecutive AI turn, then stop
            table = await self.bot.service.table(game_id)
            waiting = self.waiting_on_ai(table)
            if not waiting or table.record.status != "active":
                return
            seat = waiting[0]
            player = make_ai(self.ai_seats(table)[seat], seed=f"{table.record.seed}:{seat}:{len(table.game.log)}")
            try:  # decided under the game's lock: a person's move cannot slip in between
                outcome = await self.bot.service.act(game_id, None, lambda game: ask(player, game, seat), seat=seat)
            except (UserError, ValueError):
                continue  # the decision went away meanwhile (someone resigned, a deadline): look again
            except Exception:
                log.exception("AI move failed", extra={"game_id": game_id, "seat": seat})
                return
            await self.bot.turns.publish_automatic(outcome)

    async def resume_all(self) -> None:
        """At start-up: AIs whose turn it was when the bot stopped play on."""
        async with self.bot.storage.sessions() as session:
            game_ids = await queries.active_games_with_ai(session=session)
        for game_id in game_ids:
            try:
                self.kick(await self.bot.service.table(game_id))
            except Exception:
                log.exception("could not resume AI", extra={"game_id": game_id})

    async def close(self) -> None:
        """Stop the AIs and wait until they have (before storage closes under them)."""
        tasks = [task for task in self._tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
