"""The outbox (SQLite and PostgreSQL): written with the action or not at all, claimed by exactly
one of several racing claimers, re-claimed after a lease, in order per game; and a writer killed
at random moments still leaves every stored turn announced exactly once."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from datetime import timedelta

import pytest
from sqlalchemy import func, select, text

from engine import Game
from storage.announcements import (
    LEASE,
    Announce,
    can_answer,
    claim_announcement,
    claim_next,
    mark_announced,
    nonce,
    pending_announcements,
    prune_announcements,
    release_claims,
)
from storage.errors import StaleVersionError
from storage.games import (
    action_log,
    append_action,
    create_game,
    get_game,
    save_action,
    stored_turn,
)
from storage.migrate import current_revision, downgrade, head_revisions, migrate
from storage.models import Announcement, utcnow
from tests.storage.helpers import advance, new_game, sqlite_plans
from tests.storage.test_concurrency import readline, spawn

channels = iter(range(30_000, 40_000))


async def stored(db, guild_id: int = 1, plies: int = 0, cause: str = "player"):  # type: ignore[no-untyped-def]
    """A game with `plies` actions saved, each with its announcement."""
    game = new_game(seed=5)
    async with db.sessions() as s:
        record = await create_game(
            session=s, guild_id=guild_id, channel_id=next(channels), game=game, players=[11, 12, 13]
        )
        for v in range(plies):
            advance(game, 1)
            await save_action(session=s, game_id=record.id, expected_version=v, game=game, announce=Announce(cause))
    return record.id, game


async def rows(db, game_id: int | None = None) -> list[Announcement]:  # type: ignore[no-untyped-def]
    async with db.sessions() as s:
        query = select(Announcement).order_by(Announcement.id)
        if game_id is not None:
            query = query.where(Announcement.game_id == game_id)
        return list((await s.execute(query)).scalars())


async def test_an_action_is_stored_with_its_announcement(db) -> None:
    game_id, game = await stored(db)
    advance(game, 1)
    async with db.sessions() as s:
        await save_action(
            session=s,
            game_id=game_id,
            expected_version=0,
            game=game,
            announce=Announce("player", interaction_token="tok", application_id=99),
        )
        advance(game, 1)
        await save_action(session=s, game_id=game_id, expected_version=1, game=game)  # nothing to tell
    [row] = await rows(db, game_id)
    assert (row.version, row.cause, row.interaction_token, row.application_id) == (1, "player", "tok", 99)
    assert row.claimed_at is None and row.announced_at is None and row.attempts == 0
    assert can_answer(row) and not can_answer(row, row.created_at + timedelta(minutes=15))
    assert nonce(row, 0) != nonce(row, 1) and len(nonce(row, 99)) <= 25


def test_a_nonce_is_new_for_a_new_row_with_an_old_id() -> None:
    """A restored backup gives ids again: the row's random key makes its nonces new; a row written
    before the key existed keeps the nonces it may have been posted with."""
    posted = Announcement(id=10**11, game_id=1, version=7, cause="player", nonce_key="0f3a9b2c")
    again = Announcement(id=10**11, game_id=1, version=7, cause="player", nonce_key="c2b9a3f0")
    assert nonce(posted, 9) != nonce(again, 9) and len(nonce(posted, 9)) <= 25
    assert nonce(Announcement(id=12, game_id=1, version=7, cause="player"), 1) == "ttr12.1"


async def test_a_new_game_can_be_announced_with_its_creation(db) -> None:
    async with db.sessions() as s:
        record = await create_game(
            session=s,
            guild_id=1,
            channel_id=next(channels),
            game=new_game(seed=6),
            players=[1, 2, 3],
            announce=Announce("start"),
        )
    [row] = await rows(db, record.id)
    assert (row.version, row.cause) == (0, "start")


def test_an_announcement_names_a_known_cause_and_a_whole_interaction() -> None:
    for cause in ("player", "timeout", "ai", "undo", "kick", "admin", "start"):
        Announce(cause)
    with pytest.raises(ValueError, match="cause"):
        Announce("because")
    with pytest.raises(ValueError, match="both"):
        Announce("player", interaction_token="tok")


async def test_a_failed_write_stores_neither_the_action_nor_its_announcement(db) -> None:
    game_id, game = await stored(db, plies=2)
    async with db.sessions() as s:
        # Version 3's announcement exists already: the action's own one collides, and the
        # whole transaction (the action too) is rolled back.
        s.add(Announcement(game_id=game_id, version=3, cause="admin"))
        await s.commit()
        at_two = game.to_json()
        advance(game, 1)
        with pytest.raises(StaleVersionError):
            await save_action(session=s, game_id=game_id, expected_version=2, game=game, announce=Announce("player"))
        assert (await get_game(session=s, game_id=game_id)).version == 2
        assert len(await action_log(session=s, game_id=game_id)) == 2
        # A refused action (stale version) queues nothing either.
        with pytest.raises(StaleVersionError):
            await append_action(
                session=s,
                game_id=game_id,
                expected_version=1,
                seat=0,
                action_text="draw deck",
                state=at_two,
                announce=Announce("player"),
            )
    assert [(r.version, r.cause) for r in await rows(db, game_id)] == [(1, "player"), (2, "player"), (3, "admin")]


async def test_racing_claimers_each_row_goes_to_exactly_one(db) -> None:
    ids = [(await stored(db, plies=1))[0] for _ in range(6)]
    claimed: list[tuple[str, int]] = []

    async def claimer(name: str) -> None:
        async with db.sessions() as s:
            while (row := await claim_next(session=s, claimer=name)) is not None:
                claimed.append((name, row.id))
                await asyncio.sleep(0)

    await asyncio.gather(*(claimer(f"p{n}") for n in range(5)))
    assert sorted(i for _, i in claimed) == sorted(r.id for r in await rows(db))
    assert len({r.game_id for r in await rows(db)}) == len(ids)
    assert all(r.attempts == 1 for r in await rows(db))


async def test_two_sessions_claiming_one_row_at_the_same_moment(db) -> None:
    for _ in range(5):
        game_id, _ = await stored(db, plies=1)
        [row] = await rows(db, game_id)
        async with db.sessions() as a, db.sessions() as b:
            won = await asyncio.gather(
                claim_announcement(session=a, announcement_id=row.id, claimer="a"),
                claim_announcement(session=b, announcement_id=row.id, claimer="b"),
            )
        assert sum(w is not None for w in won) == 1
        [after] = await rows(db, game_id)
        assert after.attempts == 1 and after.claimed_by == next(w.claimed_by for w in won if w is not None)


async def test_a_lease_that_runs_out_lets_another_claimer_take_the_row(db) -> None:
    await stored(db, plies=1)
    now = utcnow()
    async with db.sessions() as s:
        first = await claim_next(session=s, claimer="dead", now=now)
        assert first is not None and first.claimed_by == "dead"
        assert await claim_next(session=s, claimer="other", now=now + LEASE / 2) is None
        assert await pending_announcements(session=s, now=now + LEASE / 2) == []
        again = await claim_next(session=s, claimer="other", now=now + LEASE + timedelta(seconds=1))
        assert again is not None and again.id == first.id and again.claimed_by == "other" and again.attempts == 2
        assert await mark_announced(session=s, announcement_id=again.id)
        assert not await mark_announced(session=s, announcement_id=again.id)  # once
        assert await claim_next(session=s, claimer="late", now=now + 10 * LEASE) is None


async def test_a_row_its_claimer_holds_is_taken_again_without_a_new_attempt(db) -> None:
    """The announcer takes the rows its process wrote claimed through `claim_next(mine=True)`:
    that is no second attempt; a claimer that takes over a dead one's row is."""
    game_id, game = await stored(db)
    now = utcnow()
    async with db.sessions() as s:
        advance(game, 1)
        await save_action(
            session=s, game_id=game_id, expected_version=0, game=game, announce=Announce("player", claimer="me")
        )
        mine = await claim_next(session=s, claimer="me", game_id=game_id, mine=True, now=now)
        assert mine is not None and mine.attempts == 1
        taken = await claim_next(session=s, claimer="other", now=now + LEASE + timedelta(seconds=1))
        assert taken is not None and taken.id == mine.id and taken.attempts == 2


async def test_a_restarted_process_frees_its_predecessors_rows_at_once(db) -> None:
    """`release_claims`: the rows held by names with the process's prefix (an earlier run of the
    same shards), not its own, not another identity's (a prefix is a whole word)."""
    ids = []
    for name in ("shard 0/2 dead:1:aa", "shard 0/2 me:2:bb", "shard 0/20 other:3:cc", "shard 1/2 other:4:dd"):
        game_id, _ = await stored(db, plies=1)
        async with db.sessions() as s:
            row = await claim_next(session=s, claimer=name, game_id=game_id)
            ids.append(row.id)
    async with db.sessions() as s:
        assert await release_claims(session=s, prefix="shard 0/2 ", keep="shard 0/2 me:2:bb") == [ids[0]]
        assert [r.id for r in await pending_announcements(session=s)] == [ids[0]]
        again = await claim_announcement(session=s, announcement_id=ids[0], claimer="shard 0/2 me:2:bb")
        assert again is not None and again.attempts == 2  # its claimer died


async def test_oldest_first_and_in_order_within_a_game(db) -> None:
    first_game, _ = await stored(db, plies=2)
    second_game, _ = await stored(db, plies=1)
    async with db.sessions() as s:
        pending = await pending_announcements(session=s)
        assert [(r.game_id, r.version) for r in pending] == [(first_game, 1), (second_game, 1)]  # v2 waits for v1
        a = await claim_next(session=s, claimer="me")
        b = await claim_next(session=s, claimer="me")
        assert (a.game_id, a.version, b.game_id, b.version) == (first_game, 1, second_game, 1)
        assert await claim_next(session=s, claimer="me") is None  # v2 of the first game waits for v1
        later = (await rows(db, first_game))[1]
        assert await claim_announcement(session=s, announcement_id=later.id, claimer="me") is None
        await mark_announced(session=s, announcement_id=a.id)
        c = await claim_next(session=s, claimer="me")
        assert (c.game_id, c.version) == (first_game, 2)


async def test_scoped_to_a_game_guilds_or_a_shard(db) -> None:
    guild_on_shard_1 = (1 << 22) * 7 + 5  # (id >> 22) % 2 == 1
    guild_on_shard_0 = (1 << 22) * 8 + 5
    one, _ = await stored(db, guild_id=guild_on_shard_1, plies=1)
    zero, _ = await stored(db, guild_id=guild_on_shard_0, plies=1)
    async with db.sessions() as s:
        assert [r.game_id for r in await pending_announcements(session=s, shard=(1, 2))] == [one]
        assert [r.game_id for r in await pending_announcements(session=s, shard=(0, 2))] == [zero]
        assert [r.game_id for r in await pending_announcements(session=s, guild_ids=[guild_on_shard_0])] == [zero]
        assert [r.game_id for r in await pending_announcements(session=s, game_id=one)] == [one]
        assert await pending_announcements(session=s, guild_ids=[]) == []
        assert (await claim_next(session=s, claimer="me", shard=(0, 2))).game_id == zero
        assert await claim_next(session=s, claimer="me", shard=(0, 2)) is None
        assert (await claim_next(session=s, claimer="me", guild_ids=[guild_on_shard_1])).game_id == one


async def test_given_up_rows_and_pruning(db) -> None:
    game_id, _ = await stored(db, plies=2)
    now = utcnow()
    async with db.sessions() as s:
        a = await claim_next(session=s, claimer="me")
        await mark_announced(session=s, announcement_id=a.id, error="404 Unknown Channel")
        b = await claim_next(session=s, claimer="me")  # a given-up row no longer holds up the game
        assert b is not None and b.version == 2
        assert await prune_announcements(session=s, now=now + timedelta(days=2)) == 1
        await mark_announced(session=s, announcement_id=b.id)
        assert await prune_announcements(session=s, older_than=timedelta(0), now=utcnow() + timedelta(seconds=1)) == 1
    assert await rows(db, game_id) == []


async def test_a_mark_drops_the_interaction_token(db) -> None:
    game_id, game = await stored(db)
    advance(game, 1)
    async with db.sessions() as s:
        await save_action(
            session=s,
            game_id=game_id,
            expected_version=0,
            game=game,
            announce=Announce("player", interaction_token="secret", application_id=1),
        )
        row = await claim_next(session=s, claimer="me")
        assert row.interaction_token == "secret"
        await mark_announced(session=s, announcement_id=row.id)
    [after] = await rows(db, game_id)
    assert after.interaction_token is None and after.announced_at is not None and after.error is None


@pytest.mark.slow
async def test_killed_writers_leave_every_turn_announced_exactly_once(db) -> None:
    """The writer saves, claims, posts (prints the nonce) and marks, and is killed at random
    moments; then a drain after the lease posts what is left. With Discord's nonce check (a
    message is sent once per nonce), the channel sees every stored turn once."""
    game_id, _ = await stored(db)
    rng = random.Random(3)
    posts: list[str] = []
    for _ in range(3):
        proc = spawn(db, game_id, "outbox")
        try:
            await readline(proc)  # it is writing now
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            posts += [line.split()[1] for line in proc.stdout.read().splitlines() if line.startswith("post ")]
        finally:
            proc.kill()
    later = utcnow() + LEASE + timedelta(seconds=1)
    async with db.sessions() as s:
        while (row := await claim_next(session=s, claimer="restart", game_id=game_id, now=later)) is not None:
            posts.append(nonce(row))
            await mark_announced(session=s, announcement_id=row.id)
        version = (await get_game(session=s, game_id=game_id)).version
    stored_rows = await rows(db, game_id)
    assert version > 0 and [r.version for r in stored_rows] == list(range(1, version + 1))
    assert all(r.announced_at is not None for r in stored_rows)
    assert set(posts) == {nonce(r) for r in stored_rows}  # every turn posted; a repeat has the same nonce
    assert len(posts) - len(set(posts)) <= 3  # at most the row each kill interrupted


async def test_the_new_migrations_are_idempotent(db) -> None:
    """Run again over tables that exist (the revision stamp lost), and down again over none."""
    async with db.engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = '0006'"))
    assert set(await migrate(engine=db.engine)) == set(head_revisions())
    await downgrade(engine=db.engine, revision="0006")
    async with db.engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = '0008'"))
    await downgrade(engine=db.engine, revision="0006")
    assert await current_revision(engine=db.engine) == ("0006",)
    await migrate(engine=db.engine)
    async with db.sessions() as s:
        assert (await s.execute(select(func.count()).select_from(Announcement))).scalar_one() == 0


async def test_a_stored_turn_replays_what_the_action_did(db) -> None:
    """After a restart the bot announces from storage: the same seat, action and events as live."""
    game = new_game(seed=9)
    live = []
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=next(channels), game=game, players=[1, 2, 3])
        for v in range(6):
            seat = game.to_move()[0]
            phase = game.phase
            action = advance_one(game)
            live.append((seat, action, game.apply(seat, action), phase, game.to_json()))
            await save_action(session=s, game_id=record.id, expected_version=v, game=game, announce=Announce("player"))
        start = await stored_turn(session=s, game_id=record.id, version=0)
        assert (start.version, start.action, start.events, start.game.to_json()) == (
            0,
            None,
            [],
            new_game(seed=9).to_json(),
        )
        for version, (seat, action, events, phase, state) in enumerate(live, start=1):
            turn = await stored_turn(session=s, game_id=record.id, version=version)
            assert (turn.version, turn.seat, turn.action, turn.events, turn.phase_before) == (
                version,
                seat,
                action,
                events,
                phase,
            )
            assert turn.game.to_json() == state
        with pytest.raises(ValueError, match="at version 6"):
            await stored_turn(session=s, game_id=record.id, version=7)


def advance_one(game):  # type: ignore[no-untyped-def]
    """The action `advance` would play next (without playing it)."""
    probe = Game.from_json(game.to_json())
    advance(probe, 1, random.Random(len(game.log)))
    return probe.log[-1][1]


async def test_the_drain_look_probes_the_games_of_the_waiting_rows(db) -> None:
    """The drain's look of one shard reads the rows waiting (a partial index) and their games by
    key, not every game of the shard."""
    if db.backend != "sqlite":
        pytest.skip("SQLite's plan (benchmarks/storage_bench.py --sweep times both)")
    await stored(db, plies=1)

    async def look() -> None:
        async with db.sessions() as s:
            await pending_announcements(session=s, shard=(0, 2))

    [plan] = await sqlite_plans(db.engine, look)
    assert "USING INDEX ix_announcements_pending" in plan and "SCAN games" not in plan, plan
    assert "SEARCH games USING INTEGER PRIMARY KEY" in plan, plan
