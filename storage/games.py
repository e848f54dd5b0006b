"""Games: create, append actions (optimistic concurrency), load and replay, finish, freeze.

Every function is keyword-only and takes the session; the write functions commit (one call, one
transaction) and leave nothing behind when they fail.

    record = await create_game(session=s, guild_id=g, channel_id=c, game=game, players=[u1, u2])
    game.apply(seat, action)
    version = await save_action(session=s, game_id=record.id, expected_version=version, game=game)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from engine import RULES_VERSION, Action, Game, GameOptions, format_action, load_map, parse_action
from engine.events import Event
from storage.announcements import Announce, add_announcement, announcement_steps, note_written
from storage.database import Step, begin_write, detached, execute_steps, write_steps, writing
from storage.errors import (
    ChannelBusyError,
    GameNotActiveError,
    GameNotFoundError,
    GameReadOnlyError,
    LobbyNotOpenError,
    ReplayMismatchError,
    StaleVersionError,
)
from storage.models import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    OPEN,
    STARTED,
    ActionRecord,
    GameRecord,
    Lobby,
    SeatRecord,
    on_shard,
    utcnow,
)
from storage.move_feed import notify_step


@dataclass
class LoadedGame:
    """A stored game rebuilt by replaying its log from its seed (and checked against its state)."""

    record: GameRecord
    seats: list[SeatRecord]
    game: Game

    @property
    def id(self) -> int:
        assert self.record.id is not None
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version


# The statements of every action and every cache check, built once and run as Core statements on
# the session's connection: a third less CPU than building ORM-enabled ones per call (issue 23,
# `python benchmarks/storage_bench.py --transactions`).
_GAMES = GameRecord.__table__
#: The version check and the row lock in one statement; the SET columns come with the parameters.
_ADVANCE = update(_GAMES).where(
    _GAMES.c.id == bindparam("b_id"),
    _GAMES.c.version == bindparam("b_version"),
    _GAMES.c.status == ACTIVE,
    _GAMES.c.read_only_reason.is_(None),
)
_LOG = insert(ActionRecord.__table__)
_SEATS = SeatRecord.__table__
_RESULT = update(_SEATS).where(_SEATS.c.game_id == bindparam("b_game"), _SEATS.c.seat == bindparam("b_seat"))
_LEFT = _RESULT.where(_SEATS.c.left.is_(None))
_STAMP = select(_GAMES.c.version, _GAMES.c.updated_at).where(_GAMES.c.id == bindparam("b_id"))


# ---------------------------------------------------------------------------- create


async def create_game(
    *,
    session: AsyncSession,
    guild_id: int,
    channel_id: int,
    game: Game,
    players: Sequence[int | None],
    colors: Sequence[str | None] | None = None,
    parent_id: int | None = None,
    lobby_id: int | None = None,
    host_id: int | None = None,
    ai: Sequence[str | None] | None = None,
    announce: Announce | None = None,
    link: Callable[[AsyncSession, int], Awaitable[None]] | None = None,
) -> GameRecord:
    """Store a new game (usually with an empty log) and its seats; `players[i]` sits at seat i.

    Raises `ChannelBusyError` if the channel already has an active game (the unique index decides,
    so two starts at once in one channel cannot both succeed). With `lobby_id`, that open lobby is
    marked started in the same transaction (`LobbyNotOpenError` if it is not open any more). With
    `announce`, its announcement (storage/announcements.py) is queued in the same transaction. `link`
    adds rows that belong with the new game (its season, the queue match or tournament table that
    made it) in the same transaction too: it gets the session and the game's id, and only adds."""
    if len(players) != game.seats:
        raise ValueError(f"{len(players)} players for a {game.seats}-seat game")
    if colors is not None and len(colors) != game.seats:
        raise ValueError(f"{len(colors)} colors for a {game.seats}-seat game")
    now = utcnow()
    record = GameRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        parent_id=parent_id,
        map_id=game.map.id,
        options=game.options.to_json(),
        seats=game.seats,
        seed=game.seed,
        rules_version=RULES_VERSION,
        map_sha256=game.map.sha256,
        host_id=host_id,
        status=ACTIVE,
        version=len(game.log),
        state=game.to_json(),
        created_at=now,
        updated_at=now,
    )
    try:
        async with writing(session):
            session.add(record)
            await session.flush()
            assert record.id is not None
            for seat, user_id in enumerate(players):
                session.add(
                    SeatRecord(
                        game_id=record.id,
                        seat=seat,
                        user_id=user_id,
                        color=colors[seat] if colors else None,
                        ai=ai[seat] if ai else None,
                    )
                )
            if lobby_id is not None:
                started = await session.execute(
                    update(Lobby)
                    .where(Lobby.id == lobby_id, Lobby.status == OPEN)
                    .values(status=STARTED, game_id=record.id, updated_at=now)
                    .execution_options(synchronize_session=False)
                )
                if started.rowcount != 1:
                    raise LobbyNotOpenError("lobby {lobby} is not open", lobby=lobby_id)
            for seq, (seat, action) in enumerate(game.log, start=1):
                session.add(
                    ActionRecord(
                        game_id=record.id, seq=seq, seat=seat, action=format_action(game, action), created_at=now
                    )
                )
            if announce is not None:
                await add_announcement(session, game_id=record.id, version=record.version, announce=announce, now=now)
            if link is not None:
                await link(session, record.id)
            if game.is_over():
                await session.flush()
                await execute_steps(session, _finish(record.id, game))
                record.status, record.finished_at, record.end_reason = FINISHED, now, game.end_reason
    except IntegrityError:
        existing = await active_game_in_channel(session=session, channel_id=channel_id)
        if existing is not None:
            raise ChannelBusyError(channel_id, existing.id) from None
        raise
    detached(session, record)
    return record


# ---------------------------------------------------------------------------- append


async def append_action(
    *,
    session: AsyncSession,
    game_id: int,
    expected_version: int,
    seat: int | None,
    action_text: str,
    state: dict[str, Any],
    announce: Announce | None = None,
    now: datetime | None = None,
) -> int:
    """Append one action (in notation) and save the state after it, in one transaction; with
    `announce`, queue its announcement in that transaction too (storage/announcements.py), so
    the action is stored with its announcement or not at all.

    Succeeds only if the game is active, writable and still at `expected_version`; returns the
    new version (`expected_version + 1`). Otherwise raises `StaleVersionError`,
    `GameNotActiveError`, `GameReadOnlyError` or `GameNotFoundError` and writes nothing. When the
    state is a finished game, the game is marked finished and the seats get their results in the
    same transaction. `now` is stored as the game's `updated_at` (a caller that caches the game
    keeps it, see `game_stamp`)."""
    new_version = expected_version + 1
    if state.get("plies") != new_version:
        raise ValueError(f"the state is after {state.get('plies')} actions, not {new_version}")
    now = now or utcnow()
    over = state.get("phase") == "over"
    # The version check and the row lock in one statement: of two writers with the same expected
    # version, the second waits for the first and then matches no row. The rest needs no result
    # in between, so the save is one thread hop on SQLite (`write_steps`).
    values: dict[str, Any] = {"version": new_version, "state": state, "updated_at": now}
    if over:
        values.update(status=FINISHED, finished_at=now, end_reason=state.get("end_reason"))
    steps = [
        Step(_ADVANCE, {"b_id": game_id, "b_version": expected_version, **values}, expect=1),
        Step(_LOG, {"game_id": game_id, "seq": new_version, "seat": seat, "action": action_text, "created_at": now}),
    ]
    if over:
        steps += _finish(game_id, Game.from_json(state))
    elif action_text.split(" ", 1)[0] in ("resign", "remove"):
        steps += _note_left(game_id, state)
    if session.bind.dialect.name == "postgresql":  # type: ignore[union-attr]
        steps.append(notify_step(game_id, new_version))  # every process's open web streams wake (storage/move_feed.py)
    row: dict[str, Any] | None = None
    if announce is not None:
        queued, row = announcement_steps(game_id=game_id, version=new_version, announce=announce, now=now)
        row_step = len(steps)  # (its first step inserts the row)
        steps += queued
    try:
        keys = await write_steps(session, steps)
    except IntegrityError:
        # Only a concurrent writer can have taken this sequence number.
        raise StaleVersionError(game_id, expected_version, None) from None
    except DBAPIError as exc:
        # SQLite: a reader's snapshot went stale under a concurrent write ("database is locked").
        if "locked" in str(exc).lower() or "busy" in str(exc).lower():
            current = await _current_version(session, game_id)
            if current != expected_version:
                raise StaleVersionError(game_id, expected_version, current) from None
        raise
    if keys is None:
        raise await _refusal(session, game_id, expected_version)
    if row is not None:
        note_written(session, keys[row_step], row)
    return new_version


async def save_action(
    *,
    session: AsyncSession,
    game_id: int,
    expected_version: int,
    game: Game,
    announce: Announce | None = None,
    now: datetime | None = None,
) -> int:
    """`append_action` for the last action of `game` (just applied): its notation and new state
    (and, with `announce`, its announcement)."""
    if len(game.log) != expected_version + 1:
        raise ValueError(f"the game has {len(game.log)} actions; expected version {expected_version} + 1")
    seat, action = game.log[-1]
    return await append_action(
        session=session,
        game_id=game_id,
        expected_version=expected_version,
        seat=seat,
        action_text=format_action(game, action),
        state=game.to_json(),
        announce=announce,
        now=now,
    )


async def _current_version(session: AsyncSession, game_id: int) -> int | None:
    version = (await session.execute(select(GameRecord.version).where(GameRecord.id == game_id))).scalar_one_or_none()
    await session.rollback()
    return version


async def _refusal(session: AsyncSession, game_id: int, expected_version: int) -> Exception:
    row = (
        await session.execute(
            select(GameRecord.version, GameRecord.status, GameRecord.read_only_reason).where(GameRecord.id == game_id)
        )
    ).one_or_none()
    await session.rollback()
    if row is None:
        return GameNotFoundError(game_id)
    version, status, reason = row
    if status != ACTIVE:
        return GameNotActiveError(game_id, status)
    if reason is not None:
        return GameReadOnlyError(game_id, reason)
    return StaleVersionError(game_id, expected_version, version)


def _note_left(game_id: int, state: dict[str, Any]) -> list[Step]:
    """Who left (resigned, removed), copied from the state to the seats (in the action's transaction)."""
    return [
        Step(_LEFT, {"b_game": game_id, "b_seat": seat, "left": how})
        for seat, how in enumerate(state.get("left") or [])
        if how is not None
    ]


def _finish(game_id: int, game: Game) -> list[Step]:
    """The seats' results of a finished game (in the action's transaction)."""
    assert game.final is not None
    steps = []
    for score in game.final:
        completed = score.completed
        result = {
            "final_score": score.total,
            "rank": score.rank,
            "tickets_completed": completed,
            "tickets_failed": len(score.tickets) - completed,
            "longest_bonus": bool(score.bonuses.get("longest_path", 0)),
            "bonuses": dict(score.bonuses),
            "left": game.left[score.seat],
        }
        steps.append(Step(_RESULT, {"b_game": game_id, "b_seat": score.seat, **result}))
    return steps


# ---------------------------------------------------------------------------- status changes


async def abandon_game(*, session: AsyncSession, game_id: int) -> None:
    """End an active game without a result (an admin's cancel, a game that cannot be recovered)."""
    await begin_write(session)
    result = await session.execute(
        update(GameRecord)
        .where(GameRecord.id == game_id, GameRecord.status == ACTIVE)
        .values(status=ABANDONED, finished_at=utcnow(), updated_at=utcnow(), end_reason="abandoned")
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        await session.rollback()
        raise await _refusal(session, game_id, -1)
    await session.commit()


async def mark_read_only(*, session: AsyncSession, game_id: int, reason: str) -> None:
    """Refuse further actions on a game (recovery found it does not replay)."""
    await begin_write(session)
    await session.execute(
        update(GameRecord)
        .where(GameRecord.id == game_id)
        .values(read_only_reason=reason, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    await session.commit()


# ---------------------------------------------------------------------------- read


async def set_host(*, session: AsyncSession, game_id: int, user_id: int) -> datetime:
    """Hand the game's admin commands to another user; returns the game's new `updated_at`."""
    now = utcnow()
    await _update_game_row(session, game_id, host_id=user_id, updated_at=now)
    return now


async def replace_seat_user(*, session: AsyncSession, game_id: int, seat: int, user_id: int) -> datetime:
    """Give a seat (its cards, tickets and routes) to another user; the game goes on unchanged.
    The game's `updated_at` changes with it (so other processes see their copy is stale); returns it."""
    return await _revoke_seat_links(session, game_id, seat, user_id=user_id)  # the last player's links stop


async def revoke_web_links(*, session: AsyncSession, game_id: int, seat: int) -> datetime:
    """Refuse the web table's links to a seat issued until now (bot/web/links.py). The game's
    `updated_at` changes with it, so every process reloads the seat; returns it."""
    return await _revoke_seat_links(session, game_id, seat)


async def _revoke_seat_links(session: AsyncSession, game_id: int, seat: int, **values: Any) -> datetime:
    """Refuse a seat's web links issued until now, change its row's other `values` and the
    game's `updated_at`, in one write; returns that moment."""
    now = utcnow()
    async with writing(session):
        result = await session.execute(
            update(SeatRecord)
            .where(SeatRecord.game_id == game_id, SeatRecord.seat == seat)
            .values(web_revoked_at=now, **values)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            raise GameNotFoundError(game_id)
        await session.execute(
            update(GameRecord)
            .where(GameRecord.id == game_id)
            .values(updated_at=now)
            .execution_options(synchronize_session=False)
        )
    return now


async def _update_game_row(session: AsyncSession, game_id: int, **values: Any) -> None:
    async with writing(session):
        result = await session.execute(
            update(GameRecord)
            .where(GameRecord.id == game_id)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            raise GameNotFoundError(game_id)


async def get_game(*, session: AsyncSession, game_id: int) -> GameRecord:
    record = await session.get(GameRecord, game_id, populate_existing=True)
    if record is None:
        raise GameNotFoundError(game_id)
    detached(session, record)
    return record


async def game_stamp(*, session: AsyncSession, game_id: int) -> tuple[int, datetime] | None:
    """A game's stored version (its logged actions) and `updated_at` (every write to the game sets
    it: an action, its status, a seat's player, its host), None if there is no such game: one
    indexed read, so a process can tell whether its cached copy is still the game (shards share a
    database)."""
    row = (await (await session.connection()).execute(_STAMP, {"b_id": game_id})).one_or_none()
    return None if row is None else (row[0], row[1])


def ai_games_query(*, shard: tuple[int, int] | None = None, changed_since: datetime | None = None) -> sa.Select:
    """`ai_games`' statement (a benchmark shows its plan)."""
    # EXISTS, not a join: each game found is probed in its seats' primary key (stopping at its
    # first AI), instead of reading every AI seat to join them.
    has_ai = sa.exists().where(SeatRecord.game_id == GameRecord.id, SeatRecord.ai.is_not(None))
    query = select(GameRecord.id, GameRecord.version, GameRecord.updated_at).where(GameRecord.status == ACTIVE, has_ai)
    if shard is not None:
        query = query.where(on_shard(GameRecord.guild_id, shard))
    if changed_since is not None:
        query = query.where(GameRecord.updated_at >= changed_since)
    return query


async def ai_games(
    *, session: AsyncSession, shard: tuple[int, int] | None = None, changed_since: datetime | None = None
) -> dict[int, tuple[int, datetime]]:
    """The active games that have an AI seat (of `shard`'s guilds when given; written at or after
    `changed_since` when given): game id -> (stored version, last write), so a process can tell
    which of them moved, or had a seat handed to an AI, since it last looked. With `changed_since` the read is a range of the index
    `ix_games_status_updated`: its cost follows the games written lately, not the games there are."""
    query = ai_games_query(shard=shard, changed_since=changed_since)
    return {game_id: (version, updated) for game_id, version, updated in await session.execute(query)}


async def game_seats(*, session: AsyncSession, game_id: int) -> list[SeatRecord]:
    rows = await session.execute(select(SeatRecord).where(SeatRecord.game_id == game_id).order_by(SeatRecord.seat))
    seats = list(rows.scalars().all())
    detached(session, *seats)
    return seats


async def action_log(*, session: AsyncSession, game_id: int, upto: int | None = None) -> list[tuple[int | None, str]]:
    """The log in notation, oldest first, as `(seat, text)`; `upto`: only the first `upto` actions."""
    query = select(ActionRecord.seat, ActionRecord.action).where(ActionRecord.game_id == game_id)
    if upto is not None:
        query = query.where(ActionRecord.seq <= upto)
    rows = await session.execute(query.order_by(ActionRecord.seq))
    return [(seat, text) for seat, text in rows.all()]


async def active_game_in_channel(*, session: AsyncSession, channel_id: int) -> GameRecord | None:
    rows = await session.execute(
        select(GameRecord).where(GameRecord.channel_id == channel_id, GameRecord.status == ACTIVE)
    )
    record = rows.scalar_one_or_none()
    detached(session, record)
    return record


async def count_actions(*, session: AsyncSession, game_id: int) -> int:
    return (await session.execute(select(func.count()).where(ActionRecord.game_id == game_id))).scalar_one()


def compatibility_problem(record: GameRecord) -> str | None:
    """Why a stored game cannot be replayed by this engine (other rules or map data), or None."""
    if record.rules_version != RULES_VERSION:
        return f"stored with rules version {record.rules_version}, the engine has {RULES_VERSION}"
    try:
        sha = load_map(record.map_id).sha256
    except (KeyError, ValueError, OSError) as exc:
        return f"map {record.map_id!r} cannot be loaded: {exc}"
    if sha != record.map_sha256:
        return f"stored with other data for map {record.map_id!r} (sha256 {record.map_sha256[:12]}…, now {sha[:12]}…)"
    return None


def _replayed(record: GameRecord, log: Sequence[tuple[int | None, str]], *, whole: bool = False) -> Game:
    """`record`'s game from its seed with `log` applied (`whole`: the log must be all of it);
    raises `ReplayMismatchError`."""
    assert record.id is not None
    problem = compatibility_problem(record)
    if problem is not None:
        raise ReplayMismatchError(record.id, problem)
    if whole and len(log) != record.version:
        raise ReplayMismatchError(record.id, f"the log has {len(log)} actions, the game is at version {record.version}")
    try:
        game = Game.new(record.map_id, record.seats, record.seed, GameOptions.from_json(record.options))
    except (ValueError, KeyError, TypeError) as exc:
        raise ReplayMismatchError(record.id, f"the game cannot be set up again: {exc}") from None
    for n, (seat, text) in enumerate(log, start=1):
        try:
            game.apply(seat, parse_action(game, seat, text))
        except ValueError as exc:  # ActionError is a ValueError
            raise ReplayMismatchError(record.id, f"action {n} ({text!r}) does not replay: {exc}") from None
    return game


def replay(record: GameRecord, log: Sequence[tuple[int | None, str]]) -> Game:
    """Rebuild `record`'s game from its seed and log; raises `ReplayMismatchError` if it diverges."""
    assert record.id is not None
    game = _replayed(record, log, whole=True)
    if _normal(game.to_json()) != _normal(record.state):
        raise ReplayMismatchError(record.id, "replaying the log does not give the stored state")
    return game


@dataclass
class StoredTurn:
    """A stored action replayed, to announce it after a restart (the outbox, storage/announcements.py):
    the game at `version` and what the action did. Version 0 (a new game) has no action."""

    game: Game
    version: int
    seat: int | None
    action: Action | None
    events: list[Event]
    phase_before: str | None


def _turn(record: GameRecord, log: Sequence[tuple[int | None, str]]) -> StoredTurn:
    game = _replayed(record, log[:-1])
    if not log:
        return StoredTurn(game, 0, None, None, [], None)
    seat, text = log[-1]
    phase_before = game.phase
    try:
        action = parse_action(game, seat, text)
        events = game.apply(seat, action)
    except ValueError as exc:
        raise ReplayMismatchError(record.id, f"action {len(log)} ({text!r}) does not replay: {exc}") from None  # type: ignore[arg-type]
    return StoredTurn(game, len(log), seat, action, events, phase_before)


async def stored_turn(*, session: AsyncSession, game_id: int, version: int) -> StoredTurn:
    """The action that took the game to `version`, replayed from the seed (`ValueError` if the
    game has not reached `version`; `ReplayMismatchError` if its log does not replay)."""
    record = await get_game(session=session, game_id=game_id)
    if not 0 <= version <= record.version:
        raise ValueError(f"game {game_id} is at version {record.version}, not {version}")
    log = await action_log(session=session, game_id=game_id, upto=version)
    return await asyncio.to_thread(_turn, record, log)


def _normal(state: dict[str, Any]) -> Any:
    import json

    return json.loads(json.dumps(state, sort_keys=True))


async def load_game(*, session: AsyncSession, game_id: int) -> LoadedGame:
    """A game with its seats, rebuilt from its log (raises `ReplayMismatchError` if that fails)."""
    record = await get_game(session=session, game_id=game_id)
    log = await action_log(session=session, game_id=game_id, upto=record.version)
    seats = await game_seats(session=session, game_id=game_id)
    # Replaying is CPU work (about 10 ms for a long game): keep it off the event loop.
    return LoadedGame(record=record, seats=seats, game=await asyncio.to_thread(replay, record, log))
