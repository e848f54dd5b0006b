"""Recovery on start: active games replay from their seed, or are reported and kept read-only."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from storage import GameReadOnlyError, SchemaOutdatedError, Storage
from storage.games import create_game, save_action
from storage.migrate import downgrade, revisions
from storage.models import GameRecord
from tests.storage.helpers import advance, finished_game, new_game


async def store_played(db, channel: int, plies: int, seed: int = 31, guild: int = 1) -> tuple[int, object]:  # type: ignore[no-untyped-def]
    game = new_game(seed=seed)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=guild, channel_id=channel, game=game, players=[1, 2, 3])
        for v in range(plies):
            advance(game, 1)
            await save_action(session=s, game_id=record.id, expected_version=v, game=game)
    return record.id, game


async def tamper(db, game_id: int, **values) -> None:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        await s.execute(update(GameRecord).where(GameRecord.id == game_id).values(**values))
        await s.commit()


async def test_recovery_replays_good_games_and_freezes_bad_ones(db) -> None:
    good, _ = await store_played(db, channel=1, plies=12)
    bad_state, game = await store_played(db, channel=2, plies=6)
    state = game.to_json()
    state["score"] = [s + 100 for s in state["score"]]
    await tamper(db, bad_state, state=state)
    other_rules, _ = await store_played(db, channel=3, plies=2)
    await tamper(db, other_rules, rules_version=0)
    other_map, _ = await store_played(db, channel=4, plies=2)
    await tamper(db, other_map, map_sha256="0" * 64)
    short_log, _ = await store_played(db, channel=5, plies=3)
    await tamper(db, short_log, version=4)

    store = Storage(db.url)
    try:
        report = await store.start()
        assert report.verified == [good]
        reasons = {p.game_id: p.reason for p in report.problems}
        assert set(reasons) == {bad_state, other_rules, other_map, short_log}
        assert "stored state" in reasons[bad_state]
        assert "rules version" in reasons[other_rules]
        assert "other data for map" in reasons[other_map]
        assert "4" in reasons[short_log]
        assert "read-only" in report.summary()

        # Kept read-only: no more actions, even with the right version.
        async with store.sessions() as s:
            advance(game, 1)
            with pytest.raises(GameReadOnlyError):
                await save_action(session=s, game_id=bad_state, expected_version=6, game=game)

        # Reported again on the next start, as read-only since earlier.
        again = await store.start()
        assert all(p.earlier for p in again.problems) and len(again.problems) == 4
    finally:
        await store.close()


async def test_a_shard_checks_only_its_own_guilds_games_and_without_replay_only_what_they_need(db) -> None:
    """The bot's start (storage/recovery.py): its shards' games, their rules and map checked
    without a replay; a game whose log does not replay is found when it is loaded."""
    on_0, on_1 = 0 << 22, 1 << 22  # Discord's shard of a guild: (id >> 22) % count
    mine, _ = await store_played(db, channel=1, plies=4, guild=on_0)
    theirs, _ = await store_played(db, channel=2, plies=4, guild=on_1)
    bad_state, game = await store_played(db, channel=3, plies=4, guild=on_0)
    await tamper(db, bad_state, state={**game.to_json(), "score": [100, 100, 100]})
    other_map, _ = await store_played(db, channel=4, plies=2, guild=on_0)
    await tamper(db, other_map, map_sha256="0" * 64)
    elsewhere, _ = await store_played(db, channel=5, plies=2, guild=on_1)
    await tamper(db, elsewhere, rules_version=0)

    store = Storage(db.url)
    try:
        report = await store.start(shards=[(0, 2)], replay=False)
        assert report.verified == [mine, bad_state]  # not replayed: its state is not compared yet
        assert [(p.game_id, "other data for map" in p.reason) for p in report.problems] == [(other_map, True)]
        assert (await store.start(shards=[(1, 2)], replay=False)).verified == [theirs]
        assert sorted((await store.start(shards=[(0, 2), (1, 2)])).verified) == [mine, theirs]
    finally:
        await store.close()


async def test_finished_games_are_not_replayed_on_start(db) -> None:
    game = finished_game(seed=4)
    async with db.sessions() as s:
        await create_game(session=s, guild_id=1, channel_id=9, game=game, players=[1, 2, 3])
    store = Storage(db.url)
    try:
        report = await store.start()
        assert report.checked == 0
    finally:
        await store.close()


async def test_start_without_auto_migrate_refuses_an_old_schema(db) -> None:
    await downgrade(engine=db.engine, revision=revisions()[-2])
    store = Storage(db.url)
    try:
        with pytest.raises(SchemaOutdatedError):
            await store.start(auto_migrate=False)
        await store.start()  # the single-process default migrates
        await store.start(auto_migrate=False)
    finally:
        await store.close()
