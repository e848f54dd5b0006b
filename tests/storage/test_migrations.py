"""Migrations: from an empty database, up from the previous revision with data in it, from the
oldest revision to the newest with data in every table, and back."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import sqlalchemy as sa
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


# ---------------------------------------------------------------------- the documented upgrade, with data


def _value(column: sa.Column, n: int):  # type: ignore[no-untyped-def]
    """A value for `column` in the n-th filled table (reflected types: no model needed)."""
    kind = column.type
    if isinstance(kind, sa.Boolean):
        return True
    if isinstance(kind, sa.Integer):
        return 1000 + n  # ids, seats, Discord ids, SQLite's integer timestamps
    if isinstance(kind, sa.DateTime):
        return datetime(2026, 1, 1, tzinfo=UTC)
    if isinstance(kind, (sa.Float, sa.Numeric)):
        return 1.5
    if isinstance(kind, sa.JSON):
        return {"filled": n}
    if isinstance(kind, sa.String):
        # The CHECKed columns: status accepts 'active', an announcement's cause 'player'.
        return {"status": "active", "cause": "player"}.get(column.name, "x")
    raise AssertionError(f"no test value for {column.table.name}.{column.name} ({kind!r}): add one here")


def _fill_new_tables(sync_connection, filled: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    """One row, every column set, in each table that has none yet (foreign keys to rows already in)."""
    metadata = sa.MetaData()
    metadata.reflect(sync_connection)
    for table in metadata.sorted_tables:
        if table.name == "alembic_version" or table.name in filled:
            continue
        row = {}
        for column in table.columns:
            target = next((fk.column for fk in column.foreign_keys if fk.column.table is not table), None)
            if target is not None:
                row[column.name] = sync_connection.execute(sa.select(target).limit(1)).scalar_one()
            else:
                row[column.name] = _value(column, len(filled))
        sync_connection.execute(table.insert().values(row))
        filled[table.name] = 1


def _counts(sync_connection) -> dict[str, int]:  # type: ignore[no-untyped-def]
    metadata = sa.MetaData()
    metadata.reflect(sync_connection)
    return {
        name: sync_connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
        for name, table in metadata.tables.items()
        if name != "alembic_version"
    }


async def test_oldest_to_newest_with_data_in_every_table_and_back(db_url: str) -> None:
    """docs/deployment.md's upgrade (`python -m storage migrate`) from the first revision: each
    step keeps every row of every table (each filled as it appears), the head has data in every
    table the models know, and the way down works with all that data in place."""
    engine = make_engine(db_url)
    filled: dict[str, int] = {}
    try:
        for revision in revisions():
            async with engine.connect() as conn:
                before = await conn.run_sync(_counts) if filled else {}
            await migrate(engine=engine, revision=revision)
            async with engine.begin() as conn:
                counts = await conn.run_sync(_counts)
                assert {t: counts[t] for t in before} == before, f"{revision} lost rows"
                await conn.run_sync(_fill_new_tables, filled)
        async with engine.connect() as conn:
            counts = await conn.run_sync(_counts)
        assert set(counts) == set(SQLModel.metadata.tables) and all(counts.values()), counts
        for revision in [*reversed(revisions()[:-1]), "base"]:
            await downgrade(engine=engine, revision=revision)
            async with engine.connect() as conn:
                remaining = await conn.run_sync(_counts)
            assert remaining == {t: counts[t] for t in remaining}, f"down to {revision} lost rows"
        assert remaining == {}
    finally:
        await engine.dispose()
