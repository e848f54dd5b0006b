"""Moves acknowledged and not saved (SQLite and PostgreSQL): the move's own transaction deletes
its row, a refused or unsaved one stays until swept; the sweep sees only other processes' rows,
old enough, still within the token's life, of its shard (DMs on shard 0); 0009 runs again over
an existing table and down over a missing one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, text

from storage.announcements import (
    TOKEN_LIFETIME,
    Announce,
    forget_acknowledged,
    note_acknowledged,
    prune_announcements,
    unsaved_moves,
)
from storage.errors import StaleVersionError
from storage.games import create_game, save_action
from storage.migrate import current_revision, downgrade, head_revisions, migrate
from storage.models import AcknowledgedMove, utcnow
from tests.storage.helpers import advance, new_game

LEASE = timedelta(seconds=60)


async def note(db, token: str, *, guild_id: int | None = 1, by: str = "dead", age: timedelta = LEASE * 2):  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        await note_acknowledged(
            session=s,
            interaction_token=token,
            application_id=7,
            guild_id=guild_id,
            user_id=11,
            received_by=by,
            now=utcnow() - age,
        )


async def tokens(db, **kwargs) -> list[str]:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        return [row.interaction_token for row in await unsaved_moves(session=s, older_than=LEASE, **kwargs)]


async def count(db) -> int:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        return (await s.execute(select(func.count()).select_from(AcknowledgedMove))).scalar_one()


async def test_a_saved_move_deletes_its_acknowledgement_in_its_transaction(db) -> None:
    game = new_game(seed=5)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=555, game=game, players=[11, 12, 13])
    await note(db, "saved")
    await note(db, "refused")
    advance(game, 1)
    async with db.sessions() as s:
        await save_action(
            session=s,
            game_id=record.id,
            expected_version=0,
            game=game,
            announce=Announce("player", interaction_token="saved", application_id=7),
        )
        late = Announce("player", interaction_token="refused", application_id=7)
        with pytest.raises(StaleVersionError):  # a write that fails keeps the row: the move was not saved
            await save_action(session=s, game_id=record.id, expected_version=0, game=game, announce=late)
    assert await tokens(db, not_by="me") == ["refused"]


async def test_the_sweep_sees_other_processes_old_live_rows_of_its_shard(db) -> None:
    await note(db, "mine", by="me")
    await note(db, "young", age=LEASE / 2)  # its process may still be saving it
    await note(db, "expired", age=TOKEN_LIFETIME + timedelta(seconds=1))  # nothing can be said any more
    await note(db, "dm", guild_id=None)
    on_shard_1 = 1 << 22  # (guild_id >> 22) % 2 == 1
    await note(db, "shard 1", guild_id=on_shard_1)
    await note(db, "shard 0", guild_id=2 << 22)
    assert await tokens(db, not_by="me") == ["dm", "shard 1", "shard 0"]
    assert await tokens(db, not_by="me", shard=(0, 2)) == ["dm", "shard 0"]
    assert await tokens(db, not_by="me", shard=(1, 2)) == ["shard 1"]
    async with db.sessions() as s:
        dm = [row.id for row in await unsaved_moves(session=s, not_by="me", older_than=LEASE) if row.guild_id is None]
        assert await forget_acknowledged(session=s, ids=dm) == 1
    assert await tokens(db, not_by="me") == ["shard 1", "shard 0"]
    async with db.sessions() as s:
        assert await prune_announcements(session=s) == 1  # the expired one
    assert await count(db) == 4  # mine, young, shard 1, shard 0


async def test_a_dead_processs_young_rows_are_seen_at_once(db) -> None:
    """A restarted process knows its predecessor (the same shards: the same name prefix) is dead:
    its moves are answered without waiting for them to grow older than the lease."""
    await note(db, "predecessor's", by="shard 0/2 host:1:aa", age=LEASE / 10)
    await note(db, "another process's", by="shard 1/2 host:2:bb", age=LEASE / 10)
    await note(db, "mine", by="shard 0/2 host:3:cc", age=LEASE / 10)
    assert await tokens(db, not_by="shard 0/2 host:3:cc") == []
    assert await tokens(db, not_by="shard 0/2 host:3:cc", dead="shard 0/2 ") == ["predecessor's"]


async def test_0009_is_idempotent(db) -> None:
    async with db.engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = '0008'"))
    assert set(await migrate(engine=db.engine)) == set(head_revisions())
    await downgrade(engine=db.engine, revision="0008")
    async with db.engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = '0009'"))
    await downgrade(engine=db.engine, revision="0008")
    assert await current_revision(engine=db.engine) == ("0008",)
    await migrate(engine=db.engine)
    assert await count(db) == 0
