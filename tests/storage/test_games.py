"""Creating games, appending actions under optimistic concurrency, loading by replay."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select, text

from engine import format_action
from storage.errors import (
    ChannelBusyError,
    GameNotActiveError,
    GameNotFoundError,
    GameReadOnlyError,
    StaleVersionError,
)
from storage.games import (
    abandon_game,
    action_log,
    active_game_in_channel,
    append_action,
    create_game,
    get_game,
    load_game,
    mark_read_only,
    save_action,
)
from storage.models import ActionRecord, GameRecord, SeatRecord
from tests.storage.helpers import advance, new_game

GUILD, CHANNEL = 10**18 + 1, 10**18 + 2
USERS = [2**62 + 1, 2**62 + 2, 2**62 + 3]


async def store_new(db, game=None, channel=CHANNEL):  # type: ignore[no-untyped-def]
    game = game or new_game()
    async with db.sessions() as s:
        record = await create_game(
            session=s, guild_id=GUILD, channel_id=channel, game=game, players=USERS[: game.seats]
        )
    return record, game


async def test_create_and_load(db) -> None:
    record, game = await store_new(db)
    assert record.id is not None and record.version == 0 and record.status == "active"
    async with db.sessions() as s:
        loaded = await load_game(session=s, game_id=record.id)
    assert loaded.version == 0
    assert [seat.user_id for seat in loaded.seats] == USERS  # 64-bit Discord ids survive
    assert loaded.game.to_json() == game.to_json()


async def test_append_then_load_replays_the_same_state(db) -> None:
    record, game = await store_new(db)
    version = 0
    async with db.sessions() as s:
        for _ in range(40):
            advance(game, 1)
            version = await save_action(session=s, game_id=record.id, expected_version=version, game=game)
    assert version == 40
    async with db.sessions() as s:
        loaded = await load_game(session=s, game_id=record.id)
        log = await action_log(session=s, game_id=record.id)
    assert loaded.version == 40
    assert loaded.game.to_json() == game.to_json()
    assert loaded.game.log == game.log
    assert [t for _, t in log] == [format_action(game, a) for _, a in game.log]


async def test_stale_writer_fails_cleanly_and_changes_nothing(db) -> None:
    record, game = await store_new(db)
    advance(game, 1)
    async with db.sessions() as s:
        await save_action(session=s, game_id=record.id, expected_version=0, game=game)
    before = json.loads(json.dumps(game.to_json()))
    advance(game, 1)
    async with db.sessions() as s:
        with pytest.raises(StaleVersionError) as info:
            await append_action(
                session=s,
                game_id=record.id,
                expected_version=0,
                seat=0,
                action_text="draw deck",
                state=game.to_json() | {"plies": 1},
            )
        assert info.value.current == 1
        stored = await get_game(session=s, game_id=record.id)
        assert stored.version == 1 and stored.state == before
        assert len(await action_log(session=s, game_id=record.id)) == 1
        # The same session can go on with the right version.
        assert await save_action(session=s, game_id=record.id, expected_version=1, game=game) == 2


async def test_state_must_match_the_version(db) -> None:
    record, game = await store_new(db)
    async with db.sessions() as s:
        with pytest.raises(ValueError):
            await append_action(
                session=s, game_id=record.id, expected_version=0, seat=0, action_text="draw deck", state=game.to_json()
            )


async def test_one_active_game_per_channel(db) -> None:
    first, _ = await store_new(db)
    with pytest.raises(ChannelBusyError) as info:
        await store_new(db)
    assert info.value.game_id == first.id
    other, _ = await store_new(db, channel=CHANNEL + 1)
    async with db.sessions() as s:
        assert (await active_game_in_channel(session=s, channel_id=CHANNEL)).id == first.id
        await abandon_game(session=s, game_id=first.id)
        assert await active_game_in_channel(session=s, channel_id=CHANNEL) is None
    again, _ = await store_new(db)  # the channel is free again
    assert again.id not in (first.id, other.id)


async def test_the_constraint_is_in_the_database(db) -> None:
    """Not only a check in Python: a raw insert of a second active game fails too."""
    record, _ = await store_new(db)
    async with db.engine.connect() as conn:
        row = (await conn.execute(select(GameRecord.__table__).where(GameRecord.id == record.id))).mappings().one()
        values = dict(row)
        del values["id"]
        with pytest.raises(Exception) as info:
            await conn.execute(GameRecord.__table__.insert().values(**values))
        assert "unique" in str(info.value).lower()
        await conn.rollback()


async def test_finishing_a_game_records_results(db) -> None:
    record, game = await store_new(db, new_game(seats=3, seed=5))
    version = 0
    async with db.sessions() as s:
        while not game.is_over():
            advance(game, 1)
            version = await save_action(session=s, game_id=record.id, expected_version=version, game=game)
        stored = await get_game(session=s, game_id=record.id)
        seats = (
            (await s.execute(select(SeatRecord).where(SeatRecord.game_id == record.id).order_by(SeatRecord.seat)))
            .scalars()
            .all()
        )
        assert stored.status == "finished" and stored.finished_at is not None and stored.end_reason == game.end_reason
        for seat, score in zip(seats, game.final, strict=True):
            assert (seat.final_score, seat.rank, seat.tickets_completed) == (score.total, score.rank, score.completed)
            assert seat.longest_bonus == bool(score.bonuses.get("longest_path"))
        with pytest.raises(GameNotActiveError):
            await append_action(
                session=s,
                game_id=record.id,
                expected_version=version,
                seat=0,
                action_text="pass",
                state={"plies": version + 1},
            )


async def test_read_only_and_missing_games_refuse_actions(db) -> None:
    record, game = await store_new(db)
    advance(game, 1)
    async with db.sessions() as s:
        await mark_read_only(session=s, game_id=record.id, reason="test")
        with pytest.raises(GameReadOnlyError):
            await save_action(session=s, game_id=record.id, expected_version=0, game=game)
        with pytest.raises(GameNotFoundError):
            await save_action(session=s, game_id=record.id + 99, expected_version=0, game=game)
        assert (await get_game(session=s, game_id=record.id)).version == 0


async def test_the_log_is_append_only(db) -> None:
    record, game = await store_new(db)
    advance(game, 1)
    async with db.sessions() as s:
        await save_action(session=s, game_id=record.id, expected_version=0, game=game)
    async with db.engine.connect() as conn:
        with pytest.raises(Exception, match="append-only"):
            await conn.execute(text("UPDATE actions SET action = 'pass' WHERE game_id = :g"), {"g": record.id})
        await conn.rollback()
    async with db.sessions() as s:
        rows = (await s.execute(select(ActionRecord).where(ActionRecord.game_id == record.id))).scalars().all()
        assert [r.action for r in rows] == [format_action(game, game.log[0][1])]


async def test_ai_games_written_since_a_time_are_read_from_an_index(db) -> None:
    """The AI seats' sweep: the active games with an AI seat, all of them or those written since a
    time; the latter is a range of `ix_games_status_updated` (its cost follows the recent writes)."""
    from datetime import timedelta

    from storage.games import ai_games
    from storage.models import utcnow

    async with db.sessions() as s:
        people = await create_game(session=s, guild_id=GUILD, channel_id=1, game=new_game(), players=USERS)
        quiet = await create_game(
            session=s, guild_id=GUILD, channel_id=2, game=new_game(), players=USERS[:2] + [None], ai=[None, None, "x"]
        )
        await s.execute(
            GameRecord.__table__.update()
            .where(GameRecord.id == quiet.id)
            .values(updated_at=utcnow() - timedelta(hours=1))
        )
        await s.commit()
        moved_game = new_game()
        moved = await create_game(
            session=s, guild_id=GUILD, channel_id=3, game=moved_game, players=[None] + USERS[:2], ai=["x", None, None]
        )
        since = utcnow()
        advance(moved_game, 1)
        await save_action(session=s, game_id=moved.id, expected_version=0, game=moved_game)
        versions = lambda found: {game_id: version for game_id, (version, _) in found.items()}  # noqa: E731
        assert versions(await ai_games(session=s)) == {quiet.id: 0, moved.id: 1}
        assert versions(await ai_games(session=s, changed_since=since)) == {moved.id: 1}
        assert people.id not in await ai_games(session=s, changed_since=since - timedelta(days=1))
        if (
            db.backend == "sqlite"
        ):  # (PostgreSQL's planner scans a table this small: benchmarks/storage_bench.py --sweep)
            query = select(GameRecord.id).where(GameRecord.status == "active", GameRecord.updated_at >= since)
            sql = str(query.compile(s.bind, compile_kwargs={"literal_binds": True}))
            plan = " ".join(str(r[-1]) for r in await s.execute(text(f"EXPLAIN QUERY PLAN {sql}")))
            assert "ix_games_status_updated" in plan, plan
