"""Games as the bot holds them: load from storage, apply one action at a time, save before replying.

The engine decides what is legal, storage decides who wrote first; this module only joins them.
One asyncio lock per game serializes a process's own clicks; the stored state version (optimistic
concurrency) arbitrates between processes (shards) sharing one database.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

from engine import Action, Game, parse_action
from engine.events import Event, GameOver, TurnStarted
from i18n import Translator
from storage import StaleVersionError, Storage, StorageError
from storage import games as stored_games
from storage.models import GameRecord, SeatRecord

log = logging.getLogger(__name__)


class UserError(Exception):
    """Something the user asked for cannot be done; the message says why (shown privately).

    Raised with an English template and its parameters (`UserError("{name} has left", name=...)`);
    `text(t)` words it in the reader's language."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params

    def text(self, t: Translator) -> str:
        return t.gettext(self.template, **self.params)


@dataclass
class Table:
    """One stored game and its live engine state."""

    record: GameRecord
    seats: list[SeatRecord]
    game: Game
    #: Public account of the turn in progress, posted when the turn ends: lines in the channel's
    #: language, and the cards drawn (a face-up card's index, None from the deck) worded at the end.
    turn_notes: list[str] = field(default_factory=list)
    turn_draws: list[int | None] = field(default_factory=list)

    @property
    def id(self) -> int:
        assert self.record.id is not None
        return self.record.id

    @property
    def version(self) -> int:
        return len(self.game.log)

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def user_of(self, seat: int) -> int | None:
        for record in self.seats:
            if record.seat == seat:
                return record.user_id
        return None

    def color_of(self, seat: int) -> str | None:
        return next((s.color for s in self.seats if s.seat == seat), None)


@dataclass
class Outcome:
    """What one accepted action did, for the messages that follow it."""

    table: Table
    seat: int | None
    action: Action
    events: list[Event]
    phase_before: str

    @property
    def turn_ended(self) -> bool:
        return any(isinstance(e, (TurnStarted, GameOver)) for e in self.events)

    @property
    def game_over(self) -> bool:
        return any(isinstance(e, GameOver) for e in self.events)


class GameService:
    #: Games kept in memory (least recently used go first; a game comes back by replay).
    CACHE_SIZE = 2000

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._tables: OrderedDict[int, Table] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def table(self, game_id: int) -> Table:
        table = self._tables.get(game_id)
        if table is not None:
            self._tables.move_to_end(game_id)
        else:
            async with self.storage.sessions() as session:
                loaded = await stored_games.load_game(session=session, game_id=game_id)
            table = Table(record=loaded.record, seats=loaded.seats, game=loaded.game)
            self._tables[game_id] = table
            while len(self._tables) > self.CACHE_SIZE:
                old_id, _ = self._tables.popitem(last=False)
                lock = self._locks.get(old_id)
                if lock is not None and not lock.locked():
                    del self._locks[old_id]
        return table

    async def table_in_channel(self, channel_id: int) -> Table | None:
        async with self.storage.sessions() as session:
            record = await stored_games.active_game_in_channel(session=session, channel_id=channel_id)
        if record is None or record.id is None:
            return None
        table = await self.table(record.id)
        if table.record.version != record.version or table.version != record.version:
            self.forget(record.id)  # another process moved it on
            table = await self.table(record.id)
        return table

    def forget(self, game_id: int) -> None:
        self._tables.pop(game_id, None)

    def remember(self, table: Table) -> None:
        self._tables[table.id] = table

    async def act(
        self, game_id: int, user_id: int | None, action: Action | str | Callable[[Game], Action], *,
        token: int | None = None, as_table: bool = False, seat: int | None = None,
    ) -> Outcome:
        """Apply one action by the player `user_id` (or by the table, `as_table`; or for `seat`
        itself when its deadline passed or an AI plays it), then store it.

        `action` may be a function of the game that decides it (an AI): it runs in a worker
        thread while this game's lock is held, so nobody moves between the choice and the move.

        Raises UserError (not a player, stale button), engine ActionError (illegal: nothing
        changed), or UserError after a lost race with another writer (nothing changed)."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.record.status != "active" or table.record.read_only_reason:
                raise self._inactive_error(table)
            if seat is None:
                seat = None if as_table else table.seat_of(user_id or 0)
            if not as_table and seat is None:
                raise UserError("You are not playing in this game.")
            game = table.game
            if token is not None and seat is not None and game.decision_token(seat) != token:
                raise UserError("That choice is no longer open: the game has moved on. Use the newest message.")
            if isinstance(action, str):
                action = parse_action(game, seat, action)
            elif callable(action):
                action = await asyncio.to_thread(action, game)
            version, phase_before = table.version, game.phase
            events = game.apply(seat, action)
            try:
                async with self.storage.sessions() as session:
                    table.record.version = await stored_games.save_action(
                        session=session, game_id=game_id, expected_version=version, game=game
                    )
            except StaleVersionError:
                self.forget(game_id)
                raise UserError("Someone else moved at the same moment. Look at the newest message and try again.")
            except BaseException:
                self.forget(game_id)  # the in-memory game is ahead of the database: drop it
                raise
            if game.is_over():
                table.record.status = "finished"
            log.info(
                "action applied",
                extra={"game_id": game_id, "guild_id": table.record.guild_id, "user_id": user_id,
                       "seat": seat, "version": table.record.version},
            )
            return Outcome(table=table, seat=seat, action=action, events=events, phase_before=phase_before)

    @staticmethod
    def _inactive_error(table: Table) -> UserError:
        if table.record.read_only_reason:
            return UserError("This game is read-only after a consistency check failed; an admin has been told.")
        return UserError("This game is over.")


__all__ = ["GameService", "Outcome", "Table", "UserError", "StorageError"]
