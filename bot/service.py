"""Games as the bot holds them, and the one path every change of a game takes.

`GameService` is the only code that changes a game: `act` checks the staleness token, applies
the action in the engine, saves state and log, then publishes one `Outcome` with its `Cause`
(a player, a deadline, an AI, an undo, a kick, an admin) to the listeners in their fixed order —
turn timers, the announcer, AI seats, leagues — as boardgame.io's master checks, applies, stores
and then sends each player their view. `start` and `end` publish the same way.

The engine decides what is legal, storage decides who wrote first; this module only joins them.
One asyncio lock per game serializes a process's own clicks; the stored state version (optimistic
concurrency) arbitrates between processes (shards) sharing one database.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.errors import GameEnded, GameIsOver, GameReadOnly, LostRace, NoSuchGame, NotPlaying, StaleChoice, UserError
from engine import Action, ActionError, Game, GameOptions, parse_action
from engine.events import Event, GameOver, TurnStarted
from storage import GameNotFoundError, ReplayMismatchError, StaleVersionError, Storage, StorageError
from storage import announcements as outbox
from storage import games as stored_games
from storage import stand_ins as stored_stand_ins
from storage.announcements import Announce
from storage.models import Announcement, GameRecord, SeatRecord, utcnow

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

log = logging.getLogger(__name__)


@dataclass
class Table:
    """One stored game, its seats and its live engine state (nothing about how it is shown)."""

    record: GameRecord
    seats: list[SeatRecord]
    game: Game

    @property
    def id(self) -> int:
        assert self.record.id is not None
        return self.record.id

    @property
    def version(self) -> int:
        """The game's staleness token (`Game.version`): what storage calls the game's version."""
        return self.game.version

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def color_of(self, seat: int) -> str | None:
        return next((s.color for s in self.seats if s.seat == seat), None)

    def ai_seats(self) -> dict[int, str]:
        """Seat → AI level, for the seats an AI plays (its own, or a person's it keeps warm)."""
        return {s.seat: s.ai for s in self.seats if s.ai}

    def stand_ins(self) -> dict[int, str]:
        """Seat → AI level, for the people's seats an AI keeps warm while they are away."""
        return {s.seat: s.ai for s in self.seats if s.ai and s.user_id is not None}


class CauseKind(StrEnum):
    PLAYER = "player"  # a person clicked or typed
    TIMEOUT = "timeout"  # a turn's deadline passed (the absence policy acts)
    AI = "ai"  # an AI seat moved
    UNDO = "undo"  # everyone agreed to take the last move back
    KICK = "kick"  # the host removed a player
    ADMIN = "admin"  # the host ended the game
    START = "start"  # a lobby or a rematch started the game


@dataclass(frozen=True)
class Cause:
    """Why a game changed, and what its listeners need to know about that."""

    kind: CauseKind
    #: Who asked (the player, the undo's mover, the admin); None for the table itself.
    user_id: int | None = None
    #: Where the asker's private reply goes (None: nobody is waiting for one).
    interaction: Any = None
    #: TIMEOUT: whose time ran out; the absence policy ("skip", "ai", "remove"), the deadlines missed in a row, and
    #: whether this is the first action of the timed-out turn (the channel is told once).
    seat: int | None = None
    policy: str = ""
    missed: int = 0
    first: bool = True
    #: START: the turn timer chosen for the game (bot/timers.py `configure`).
    clock: dict = field(default_factory=dict)
    #: How the asker is answered (storage.announcements.ANSWERS): ending its "thinking…", by
    #: editing the panel it tapped, or in a follow-up: editing `panel`, else a new private message.
    answer: str = "thinking"
    #: The player's panel to update ("followup": a `bot.messenger.Panel`; None: a new one).
    panel: Any = None

    def announce(self) -> Announce:
        """What the change owes its channel, stored with it (the outbox): the cause, and the
        interaction to answer if the process dies before it has."""
        interaction = self.interaction
        if interaction is None or not getattr(interaction, "token", None):
            return Announce(str(self.kind))
        return Announce(
            str(self.kind),
            interaction_token=interaction.token,
            application_id=interaction.application_id,
            answer=self.answer,
        )


@dataclass
class Outcome:
    """What one change did, for everything that follows it."""

    table: Table
    cause: Cause
    seat: int | None = None
    action: Action | None = None  # None for START and ADMIN (the game was created or ended)
    events: list[Event] = field(default_factory=list)
    phase_before: str = ""
    #: The game's version (logged actions) right after this change: its row in the outbox.
    version: int = 0
    #: Error ids of listeners that failed (the change itself is stored; see `publish`).
    failures: list[str] = field(default_factory=list)
    #: Its outbox row, written claimed by this process (`GameService.claimer`), else None.
    announcement: Announcement | None = None

    @property
    def turn_ended(self) -> bool:
        return any(isinstance(e, (TurnStarted, GameOver)) for e in self.events)

    @property
    def game_over(self) -> bool:
        return any(isinstance(e, GameOver) for e in self.events)


Listener = Callable[[Outcome], Awaitable[None]]

#: The order listeners hear an outcome in: deadlines are set before the turn message shows them,
#: the web table's viewers are told before Discord is (bot/web/server.py: it only wakes their
#: streams), AI seats move after the turn is announced, leagues rate after the final results are posted.
TIMERS, WEB, ANNOUNCER, AI_SEATS, LEAGUES = 10, 15, 20, 30, 40


def new_error_id() -> str:
    return uuid.uuid4().hex[:8]


class GameService:
    #: Games kept in memory (least recently used go first; a game comes back by replay).
    CACHE_SIZE = 2000

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._tables: OrderedDict[int, Table] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        #: channel id -> its active game's id, as last read here (for `peek_channel`).
        self._channels: dict[int, int] = {}
        self._listeners: list[tuple[int, Listener]] = []
        self._publishing = 0  # outcomes being told now
        self._quiet = asyncio.Event()
        self._quiet.set()
        #: Where new games get their seed (tests replace it to replay the same games).
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(62)
        #: Who posts this process's changes (the announcer): their outbox rows are written claimed by it.
        self.claimer: str | None = None

    # ------------------------------------------------------------------ listeners

    def subscribe(self, order: int, listener: Listener) -> None:
        """Hear every outcome, after the listeners with a lower `order` (constants above)."""
        self._listeners.append((order, listener))
        self._listeners.sort(key=lambda entry: entry[0])

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners = [(o, fn) for o, fn in self._listeners if fn != listener]

    async def publish(self, outcome: Outcome) -> Outcome:
        """Tell every listener, in order. The change is already stored: a failing listener is
        logged with an error id (kept in `outcome.failures`) and the others still hear it."""
        self._publishing += 1
        self._quiet.clear()
        try:
            for _, listener in list(self._listeners):
                try:
                    await listener(outcome)
                except Exception:
                    error_id = new_error_id()
                    outcome.failures.append(error_id)
                    log.exception(
                        "a listener failed",
                        extra={
                            "error_id": error_id,
                            "game_id": outcome.table.id,
                            "listener": getattr(listener, "__qualname__", None),
                        },
                    )
        finally:
            self._publishing -= 1
            if not self._publishing:
                self._quiet.set()
        return outcome

    async def settle(self, *, timeout: float) -> bool:
        """Wait, at most `timeout` seconds, until no outcome is being told (at shutdown: the posts
        under way finish before the HTTP session closes under them). False when some still were."""
        if self._quiet.is_set():
            return True
        try:
            await asyncio.wait_for(self._quiet.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # ------------------------------------------------------------------ reading

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def table(self, game_id: int) -> Table:
        """The game as stored now: the cached copy when it is still the stored game (one indexed
        read), else loaded by replay. Shards share the database, so another process may have moved
        the game on (a DM reaches shard 0 whatever the game's shard): a stale copy is never used."""
        table = self._tables.get(game_id)
        if table is not None and self._same(table, await self._stamp(game_id)):
            self._tables.move_to_end(game_id)
            return table
        async with self.lock(game_id):  # not while a move of this process is being saved
            return await self._current(game_id)

    async def peek(self, game_id: int) -> Table:
        """The cached copy as it is, else the stored game: for what only routes or shows a move
        (its answer's panel, the menu of payments), never for deciding one. It may be a move behind
        another process; `act` checks the stored game itself."""
        table = self._tables.get(game_id)
        if table is not None:
            return table
        async with self.lock(game_id):
            return self._tables.get(game_id) or self._keep(await self._load(game_id))

    def cached_version(self, game_id: int) -> int | None:
        """The version of this process's copy of the game, if it holds one (no I/O)."""
        table = self._tables.get(game_id)
        return None if table is None else table.version

    async def _stamp(self, game_id: int) -> tuple[int, datetime] | None:
        async with self.storage.sessions() as session:
            return await stored_games.game_stamp(session=session, game_id=game_id)

    @staticmethod
    def _same(table: Table, stamp: tuple[int, datetime] | None) -> bool:
        """Whether the cached `table` is the stored game (its version and its row's last write)."""
        return stamp is not None and stamp == (table.version, table.record.updated_at)

    async def _load(self, game_id: int) -> Table:
        """The stored game, replayed. Start-up replays none (storage/recovery.py): a game that
        does not replay is found here, the first time it is needed, and made read-only."""
        try:
            async with self.storage.sessions() as session:
                loaded = await stored_games.load_game(session=session, game_id=game_id)
        except GameNotFoundError:
            raise NoSuchGame() from None
        except ReplayMismatchError as exc:
            log.error("stored game kept read-only: %s", exc.reason, extra={"game_id": game_id})
            async with self.storage.sessions() as session:
                await stored_games.mark_read_only(session=session, game_id=game_id, reason=exc.reason)
            raise GameReadOnly() from None
        return Table(record=loaded.record, seats=loaded.seats, game=loaded.game)

    def _keep(self, table: Table) -> Table:
        self._tables[table.id] = table
        self._tables.move_to_end(table.id)
        while len(self._tables) > self.CACHE_SIZE:
            old_id, old = self._tables.popitem(last=False)
            self._forget_channel(old)
            lock = self._locks.get(old_id)
            if lock is not None and not lock.locked():
                del self._locks[old_id]
        return table

    async def _current(self, game_id: int) -> Table:
        """The game as stored now, under its lock: the cached copy, unless another process (a shard
        sharing the database) changed the game since, then a fresh one in its place."""
        table = self._tables.get(game_id)
        if table is None or not self._same(table, await self._stamp(game_id)):
            table = self._keep(await self._load(game_id))
        return table

    async def table_in_channel(self, channel_id: int) -> Table | None:
        async with self.storage.sessions() as session:
            record = await stored_games.active_game_in_channel(session=session, channel_id=channel_id)
        if record is None or record.id is None:
            self._channels.pop(channel_id, None)
            return None
        self._channels[channel_id] = record.id
        table = self._tables.get(record.id)
        if table is not None and self._same(table, (record.version, record.updated_at)):
            self._tables.move_to_end(record.id)
            return table
        async with self.lock(record.id):  # not while a move of this process is being saved
            return await self._current(record.id)

    async def peek_channel(self, channel_id: int) -> Table | None:
        """`peek` for a channel's game: the cached copy of the active game this process last found
        there, without a read (`/ttr claim` looks its typed route up on the channel's map twice a
        claim); else `table_in_channel`. Only for what routes a move, as `peek` is."""
        game_id = self._channels.get(channel_id)
        table = self._tables.get(game_id) if game_id is not None else None
        if table is not None and table.record.status == "active":
            return table
        return await self.table_in_channel(channel_id)

    def _forget_channel(self, table: Table) -> None:
        if self._channels.get(table.record.channel_id) == table.id:
            del self._channels[table.record.channel_id]

    def forget(self, game_id: int) -> None:
        table = self._tables.pop(game_id, None)
        if table is not None:
            self._forget_channel(table)

    def forget_guild(self, guild_id: int) -> None:
        for game_id in [t.id for t in list(self._tables.values()) if t.record.guild_id == guild_id]:
            self.forget(game_id)

    # ------------------------------------------------------------------ changing

    async def act(
        self,
        game_id: int,
        action: Action | str | Callable[[Game], Action],
        *,
        cause: Cause,
        token: int | None = None,
        turn: int | None = None,
        seat: int | None = None,
        as_table: bool = False,
    ) -> Outcome:
        """Apply one action, store it, publish its outcome.

        The action is the player `cause.user_id`'s (their seat), or the table's (`as_table`: a
        kick), or `seat`'s own (a deadline, an AI, an undo). It may be a function of the game that
        decides it (an AI): that runs in a worker thread (a coroutine function: awaited, as the AI
        seats await the worker pool) while this game's lock is held, so nobody moves between the
        choice and the move.

        A button carries either the `token` of the decision it answers (a ticket choice, a tunnel,
        a payment: stale once that decision is resolved) or the `turn` it was offered in (the
        table's draws and menus: good for every step of that turn, so the second card can be
        taken from the same message). A stale one is refused with the real reason when there is
        one (whose turn it is, what must come first), else as stale.

        Raises UserError (not a player, stale button, a lost race: nothing changed) or the
        engine's ActionError (illegal: nothing changed)."""
        async with self.lock(game_id):
            table, verified = self._tables.get(game_id), False
            if table is None:
                table, verified = self._keep(await self._load(game_id)), True
            while True:
                try:
                    outcome = await self._apply(
                        table, action, cause, token=token, turn=turn, seat=seat, as_table=as_table
                    )
                    break
                except (UserError, ActionError):
                    # Refused by the cached copy: the stored game may be ahead of it (another
                    # process moved it); then the move is tried again on the stored game.
                    if verified or self._same(table, await self._stamp(game_id)):
                        raise
                except StaleVersionError:  # another process saved first (`_apply` dropped the copy): try again
                    if verified:
                        raise LostRace() from None
                table, verified = self._keep(await self._load(game_id)), True
        return await self.publish(outcome)

    async def _apply(
        self,
        table: Table,
        action: Action | str | Callable[[Game], Action],
        cause: Cause,
        *,
        token: int | None,
        turn: int | None,
        seat: int | None,
        as_table: bool,
    ) -> Outcome:
        """`act`'s work on one copy of the game, under its lock: check, apply, store. The save is
        version-checked, so a copy behind the stored game fails it (StaleVersionError) and
        changes nothing; the guild's own process makes the game's other writes (a seat's player,
        its host), so the version is the only thing another process moves on."""
        game_id = table.id
        if table.record.status != "active" or table.record.read_only_reason:
            raise GameReadOnly() if table.record.read_only_reason else GameIsOver()
        if seat is None and not as_table:
            seat = table.seat_of(cause.user_id or 0)
            if seat is None:
                raise NotPlaying()
            if seat in table.stand_ins():  # a move of their own takes the seat back from the AI
                await self._end_stand_in(table, seat)
        game = table.game
        stale = seat is not None and (
            (token is not None and game.decision_token(seat) != token)
            or (turn is not None and (game.current != seat or game.turn_token(seat) != turn))
        )
        if isinstance(action, str):
            action = parse_action(game, seat, action)
        elif inspect.iscoroutinefunction(action):  # thought elsewhere (an AI in the worker pool)
            action = await action(game)
        elif callable(action):
            action = await asyncio.to_thread(action, game)
        if stale:
            game.check(seat, action)  # the real reason first: whose turn it is, what comes first
            raise StaleChoice()
        version, phase_before = table.version, game.phase
        events = game.apply(seat, action)
        now = utcnow()
        try:
            async with self.storage.sessions() as session:
                table.record.version = await stored_games.save_action(
                    session=session,
                    game_id=game_id,
                    expected_version=version,
                    game=game,
                    announce=self._announce(cause),
                    now=now,
                )
                announcement = outbox.written(session)
        except BaseException:
            self.forget(game_id)  # the in-memory game is ahead of the database: drop it
            raise
        table.record.updated_at = now  # the copy stays the stored game (`_same`)
        if game.is_over():
            table.record.status = "finished"
        log.info(
            "action applied",
            extra={
                "game_id": game_id,
                "guild_id": table.record.guild_id,
                "user_id": cause.user_id,
                "seat": seat,
                "cause": str(cause.kind),
                "version": table.record.version,
            },
        )
        return Outcome(
            table=table,
            cause=cause,
            seat=seat,
            action=action,
            events=events,
            phase_before=phase_before,
            version=table.record.version,
            announcement=announcement,
        )

    def _announce(self, cause: Cause) -> Announce:
        return replace(cause.announce(), claimer=self.claimer)

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        map_id: str,
        options: GameOptions,
        user_ids: list[int | None],
        colors: list[str | None],
        host_id: int,
        cause: Cause,
        lobby_id: int | None = None,
        ai: list[str | None] | None = None,
        link: Callable[[AsyncSession, int], Awaitable[None]] | None = None,
    ) -> Outcome:
        """Create and store a new game (closing its lobby, and adding `link`'s rows, in the same
        transaction: storage.games.create_game), then publish it.

        Raises storage's LobbyError or ChannelBusyError when the lobby started already or the
        channel has a game."""
        game = Game.new(map_id, len(user_ids), self.new_seed(), options)
        async with self.storage.sessions() as session:
            await stored_games.create_game(
                session=session,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                players=user_ids,
                colors=colors,
                lobby_id=lobby_id,
                host_id=host_id,
                ai=ai,
                announce=self._announce(cause),
                link=link,
            )
            announcement = outbox.written(session)
        table = await self.table_in_channel(channel_id)
        assert table is not None
        return await self.publish(
            Outcome(table=table, cause=cause, phase_before=game.phase, version=table.version, announcement=announcement)
        )

    async def end(self, game_id: int, *, cause: Cause) -> Outcome:
        """End an active game without scores (an admin's decision), then publish it."""
        async with self.lock(game_id):
            table = await self._current(game_id)
            try:
                async with self.storage.sessions() as session:
                    await stored_games.abandon_game(session=session, game_id=game_id)
            except StorageError:
                raise GameEnded() from None
            table.record.status = "abandoned"
            self.forget(game_id)
        return await self.publish(Outcome(table=table, cause=cause, phase_before=table.game.phase))

    async def replace_player(self, table: Table, seat: int, user_id: int) -> None:
        """Give a seat (its cards, tickets and routes) to another member; the game goes on unchanged."""
        async with self.lock(table.id):
            async with self.storage.sessions() as session:
                table.record.updated_at = await stored_games.replace_seat_user(
                    session=session, game_id=table.id, seat=seat, user_id=user_id
                )
            record = next(s for s in table.seats if s.seat == seat)
            record.user_id, record.web_revoked_at = user_id, table.record.updated_at  # (as stored)

    async def revoke_web_links(self, table: Table, seat: int) -> None:
        """The web table's links to `seat` issued until now stop working (bot/web/links.py)."""
        async with self.lock(table.id):
            async with self.storage.sessions() as session:
                when = await stored_games.revoke_web_links(session=session, game_id=table.id, seat=seat)
            table.record.updated_at = when
            next(s for s in table.seats if s.seat == seat).web_revoked_at = when

    async def stand_in(self, table: Table, seat: int, level: str, reason: str) -> bool:
        """An AI of `level` plays `seat` for its player from now on (storage/stand_ins.py); whether
        it took the seat (False: an AI holds it already, or it is an AI's own). The AI seats
        controller plays it after the next outcome or at its next look."""
        async with self.lock(table.id):
            async with self.storage.sessions() as session:
                when = await stored_stand_ins.begin(
                    session=session, game_id=table.id, seat=seat, level=level, reason=reason, version=table.version
                )
            if when is None:
                return False
            table.record.updated_at = when
            next(s for s in table.seats if s.seat == seat).ai = level
            return True

    async def take_back(self, table: Table, seat: int) -> bool:
        """The seat's player plays it again (also when they make a move of their own: `act`);
        whether an AI was keeping it."""
        async with self.lock(table.id):
            return await self._end_stand_in(table, seat)

    async def _end_stand_in(self, table: Table, seat: int) -> bool:
        async with self.storage.sessions() as session:
            when = await stored_stand_ins.end(session=session, game_id=table.id, seat=seat, version=table.version)
        if when is None:
            return False
        table.record.updated_at = when
        next(s for s in table.seats if s.seat == seat).ai = None
        return True

    async def set_host(self, table: Table, user_id: int) -> None:
        async with self.lock(table.id):
            async with self.storage.sessions() as session:
                table.record.updated_at = await stored_games.set_host(
                    session=session, game_id=table.id, user_id=user_id
                )
            table.record.host_id = user_id


__all__ = [
    "ANNOUNCER",
    "AI_SEATS",
    "Cause",
    "CauseKind",
    "GameService",
    "LEAGUES",
    "Outcome",
    "TIMERS",
    "Table",
    "WEB",
    "new_error_id",
]
