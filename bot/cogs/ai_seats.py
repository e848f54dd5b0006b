"""AI seats in Discord games: added by the host at `/ttr-host start`, they move a moment after their
turn starts (and choose their starting tickets at once). The AI sees only its own view.

An AI also keeps a person's seat warm (a missed deadline with the "ai" absence policy, or the host
handing the seat over): it plays that seat like its own until the player taps **Take my seat back**
(`components.SEAT_BACK`), which only they may do.

Nothing is kept in memory that a restart would lose: after any outcome, and when the bot starts,
every game whose next decision belongs to an AI gets a task that plays it through the one path.

With several shard processes, a game's AI seats are played by the process serving its guild, and
only there: an outcome in another process (a DM's interaction reaches shard 0, whatever the
game's shard) starts nothing; the serving process finds the game waiting on its AI at its next
look (`sweep`, every few seconds: one query for the versions of its shards' AI games written
since the look before, an index range whose cost follows the moves made, not the games there are;
the first look at start reads them all).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

import discord
from discord import Interaction
from discord.ext import tasks

from bot import components
from bot.background import Backoff
from bot.cog import TTRCog
from bot.errors import UserError
from bot.render_pool import POOL
from bot.service import AI_SEATS, Cause, CauseKind, Outcome, Table, new_error_id
from engine.errors import TemplateError
from i18n import N_
from storage import games as stored_games
from storage.models import utcnow

log = logging.getLogger(__name__)


def waiting_on_ai(table: Table) -> list[int]:
    """The AI seats whose decision the game waits for."""
    ai = table.ai_seats()
    game = table.game
    return [seat for seat in game.to_move() if seat in ai and game.left[seat] is None] if ai else []


class NotYourSeat(UserError):
    message = N_("Only {player} can take that seat back.")


class SeatNotHeld(UserError):
    message = N_("That seat is yours already: no AI is playing it.")


class SeatBackButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.SEAT_BACK):
    async def run(self, interaction: Interaction) -> None:
        cog: AISeats = interaction.client.get_cog("AISeats")  # type: ignore[attr-defined,assignment]
        await cog.take_back(interaction, self.number("game"), self.number("seat"))


class AISeats(TTRCog):
    items = (SeatBackButton,)

    #: Tries of a failing AI move (waiting 2, 4, 8 … seconds between) before it waits for the next outcome.
    RETRIES = 4

    #: Seconds between looks for games of this process waiting on an AI that no task plays.
    SWEEP = 3.0
    #: A look reads the games written since the look before less this much: a write that took long
    #: to commit, or another machine's clock a little behind, is still seen.
    OVERLAP = timedelta(seconds=30)

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self.delay = bot.settings.ai_delay  # seconds before an AI moves, so people can follow (tests use 0)
        self._tasks: dict[int, asyncio.Task] = {}
        self._seen: dict[int, tuple] = {}  # game -> the (version, last write) `sweep` last looked at
        self._looked: datetime | None = None  # when the last sweep began (None: none yet, read every game)
        self._sweeps = Backoff("AI seats", base=5, most=300)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.subscribe(AI_SEATS, self.on_outcome)

    async def cog_unload(self) -> None:
        self.bot.service.unsubscribe(self.on_outcome)
        await super().cog_unload()

    async def on_outcome(self, outcome: Outcome) -> None:
        if self.bot.serves_guild(outcome.table.record.guild_id):  # else the serving process's sweep does
            self.kick(outcome.table)

    def kick(self, table: Table) -> bool:
        """Start playing the AI's pending decisions of this game, unless that is running already;
        whether a task was started."""
        if not waiting_on_ai(table) or self._busy(table.id):
            return False
        self._tasks[table.id] = asyncio.create_task(self._play(table.id), name=f"ai-game-{table.id}")
        return True

    def _busy(self, game_id: int) -> bool:
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    async def _play(self, game_id: int) -> None:
        await asyncio.sleep(self.delay)
        failures = 0
        for _ in range(50):  # every step of every consecutive AI turn, then stop
            table = await self.bot.service.table(game_id)
            waiting = waiting_on_ai(table)
            if not waiting or table.record.status != "active":
                return
            seat = waiting[0]
            level, seed = table.ai_seats()[seat], f"{table.record.seed}:{seat}:{table.game.version}"

            async def decide(game, level=level, seed=seed, seat=seat):  # thought in the worker pool
                return await POOL.think(level, seed, game, seat)

            try:  # decided under the game's lock: a person's move cannot slip in between
                await self.bot.service.act(game_id, decide, seat=seat, cause=Cause(CauseKind.AI))
            except (TemplateError, ValueError):
                continue  # the decision went away meanwhile (someone resigned, a deadline): look again
            except Exception:
                failures += 1
                log.exception(
                    "AI move failed",
                    extra={"game_id": game_id, "seat": seat, "error_id": new_error_id(), "failures": failures},
                )
                if failures >= self.RETRIES:
                    return  # the next outcome of the game, or a restart, starts it again
                await asyncio.sleep(self.delay + 2**failures)

    async def take_back(self, interaction: Interaction, game_id: int, seat: int) -> None:
        """The seat's player takes it back from the AI that kept it warm: said on the table, and the
        message with the button loses it. Anyone else is refused, and so is a seat no AI holds."""
        table = await self.bot.service.table(game_id)
        user_id = table.user_of(seat)
        if user_id != interaction.user.id:
            raise NotYourSeat(player=f"<@{user_id}>" if user_id else "—")
        if not await self.bot.service.take_back(table, seat):
            raise SeatNotHeld()
        ct = await self.bot.messenger.channel_t(table)
        mention = f"<@{user_id}>"
        back = "🪑 " + ct.gettext("{player} is back in their seat: the AI stops playing for them.", player=mention)
        await interaction.response.edit_message(view=None)
        if table.game.phase == "playing" and table.game.current == seat:  # their turn, which no message offered
            await self.bot.messenger.post_turn(table, back)
        else:
            await interaction.followup.send(back, allowed_mentions=discord.AllowedMentions.none())

    async def start_work(self) -> None:
        """At start-up: AIs whose turn it was when the bot stopped play on; then a look every `SWEEP`."""
        await self._sweeps.run(self.sweep)
        self.sweeper.start()

    @tasks.loop(seconds=SWEEP)
    async def sweeper(self) -> None:
        await self._sweeps.run(self.sweep)

    async def sweep(self) -> int:
        """Start a task for each game of this process's shards that waits on an AI and has none
        (after a restart, after another process moved the game, or once a person's seat went to an
        AI); returns how many started. A game is looked at again only once its stored version or
        its last write changed."""
        versions: dict[int, tuple] = {}
        began = utcnow()
        since = None if self._looked is None else self._looked - self.OVERLAP
        async with self.bot.storage.sessions() as session:
            for shard in self.bot.my_shards():
                versions.update(await stored_games.ai_games(session=session, shard=shard, changed_since=since))
        self._looked = began
        # A game seen at its version stays seen while the look reads it again (the overlap).
        self._seen = {game_id: v for game_id, v in self._seen.items() if versions.get(game_id) == v}
        started = 0
        for game_id, version in versions.items():
            if game_id in self._seen or self._busy(game_id):
                continue
            try:
                started += self.kick(await self.bot.service.table(game_id))
                self._seen[game_id] = version
            except Exception:
                log.exception("could not resume AI", extra={"game_id": game_id, "error_id": new_error_id()})
        return started

    async def stop_work(self) -> None:
        """Stop the AIs and wait until they have (before storage closes under them)."""
        await self._sweeps.stop(self.sweeper)
        running = [task for task in self._tasks.values() if not task.done()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self._tasks.clear()


async def setup(bot) -> None:
    await bot.add_cog(AISeats(bot))
