"""Migrations: from an empty database, up from the previous revision with data in it, and back."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlmodel import SQLModel

import storage.clocks  # noqa: F401
import storage.leagues  # noqa: F401
import storage.models  # noqa: F401
from storage.database import make_engine, session_factory
from storage.games import create_game, load_game, save_action
from storage.migrate import current_revision, downgrade, head_revisions, migrate, revisions
from tests.storage.helpers import advance, new_game


def _diff(sync_connection):  # type: ignore[no-untyped-def]
    context = MigrationContext.configure(sync_connection, opts={"compare_type": True})
    return compare_metadata(context, SQLModel.metadata)


async def test_from_empty_to_head_matches_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        assert await current_revision(engine=engine) == ()
        assert set(await migrate(engine=engine)) == set(head_revisions())
        async with engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
        assert set(await migrate(engine=engine)) == set(head_revisions())  # twice: nothing to do
    finally:
        await engine.dispose()


async def test_every_revision_upgrades_from_its_predecessor_and_back(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        for revision in revisions():
            await migrate(engine=engine, revision=revision)
            assert await current_revision(engine=engine) == (revision,)
        await downgrade(engine=engine, revision="base")
        assert await current_revision(engine=engine) == ()
        await migrate(engine=engine)
        assert set(await current_revision(engine=engine)) == set(head_revisions())
    finally:
        await engine.dispose()


async def test_up_from_the_previous_revision_keeps_games(db_url: str) -> None:
    """Games stored under the previous revision load unchanged after upgrading to the head.

    Written by today's code at the head, taken down to the previous revision (data kept, the
    newest columns dropped), then upgraded again: the upgrade a deployment runs."""
    engine = make_engine(db_url)
    try:
        await migrate(engine=engine)
        sessions = session_factory(engine)
        game = new_game(seed=3)
        async with sessions() as s:
            record = await create_game(session=s, guild_id=1, channel_id=2, game=game, players=[5, 6, 7])
            advance(game, 5)
            for v in range(5):
                # save the first five actions one by one, as the bot would
                partial = new_game(seed=3)
                for seat, action in game.log[: v + 1]:
                    partial.apply(seat, action)
                await save_action(session=s, game_id=record.id, expected_version=v, game=partial)
        await downgrade(engine=engine, revision=revisions()[-2])
        assert await current_revision(engine=engine) == (revisions()[-2],)
        await migrate(engine=engine)
        async with sessions() as s:
            loaded = await load_game(session=s, game_id=record.id)
        assert loaded.version == 5 and loaded.game.to_json() == game.to_json()
    finally:
        await engine.dispose()


async def test_processes_migrating_at_once_do_not_race(db_url: str) -> None:
    """Several bot processes starting together: each applies or waits, none fails."""
    engines = [make_engine(db_url) for _ in range(4)]
    try:
        results = await asyncio.gather(*(migrate(engine=e) for e in engines))
        assert all(set(r) == set(head_revisions()) for r in results)
    finally:
        for e in engines:
            await e.dispose()
