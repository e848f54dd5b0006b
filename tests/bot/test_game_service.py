"""`GameService.act` on a cached copy: no read before a move, and a copy another process moved on
(shards share the database) is caught by the version-checked save and the move is made on the
stored game instead."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event

from bot.service import ANNOUNCER, Cause, CauseKind, GameService
from engine import DrawDeck, GameOptions
from engine.errors import IllegalActionError
from storage import Storage
from storage import announcements as outbox


async def two_services(tmp_path):  # type: ignore[no-untyped-def]
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'ttr.sqlite3'}")
    await storage.start()
    here, there = GameService(storage), GameService(storage)  # two processes on one database
    here.new_seed = there.new_seed = lambda: 7
    outcome = await here.start(
        guild_id=1,
        channel_id=2,
        map_id="usa",
        options=GameOptions(),
        user_ids=[10, 11],
        colors=[None, None],
        host_id=10,
        cause=Cause(CauseKind.START),
    )
    game_id = outcome.table.id
    for seat in (0, 1):  # both keep their starting tickets, on `here`
        table = await here.table(game_id)
        await here.act(game_id, table.game.legal_actions(seat)[0], cause=Cause(CauseKind.PLAYER, user_id=10 + seat))
    return storage, here, there, game_id


def reads_of_games(storage: Storage) -> list[str]:
    statements: list[str] = []

    @event.listens_for(storage.engine.sync_engine, "before_cursor_execute")
    def seen(conn, cursor, text, params, context, executemany):  # type: ignore[no-untyped-def]
        if text.lstrip().upper().startswith("SELECT") and "games" in text:
            statements.append(text)

    return statements


async def test_a_move_on_a_cached_game_reads_nothing_before_its_save(tmp_path) -> None:
    storage, here, _, game_id = await two_services(tmp_path)
    player = (await here.table(game_id)).game.current
    reads = reads_of_games(storage)
    outcome = await here.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=10 + player))
    assert reads == [], reads  # its copy is the stored game as long as its save succeeds
    assert outcome.version == (await here.table(game_id)).version == 3
    await storage.close()


async def test_a_copy_another_process_moved_on_is_replaced_and_the_move_made_on_the_stored_game(tmp_path) -> None:
    storage, here, there, game_id = await two_services(tmp_path)
    player = (await there.table(game_id)).game.current  # `there` caches the game at version 2
    user = 10 + player
    await here.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=user))  # version 3, elsewhere
    # `there`'s copy still says version 2: its save fails, and the draw is made on version 3.
    outcome = await there.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=user))
    assert outcome.version == 4 and outcome.table.game.version == 4
    assert (await here.table(game_id)).game.log == outcome.table.game.log
    await storage.close()


async def test_a_refusal_by_a_stale_copy_is_checked_against_the_stored_game(tmp_path) -> None:
    storage, here, there, game_id = await two_services(tmp_path)
    first = (await there.table(game_id)).game.current
    for _ in range(2):  # `here` plays the first player's whole turn: it is the other player's now
        await here.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=10 + first))
    other = 10 + (1 - first)
    # `there` still thinks it is the first player's turn; the stored game says the other's.
    outcome = await there.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=other))
    assert outcome.seat == 1 - first and outcome.version == 5
    with pytest.raises(IllegalActionError):  # and a real refusal is still one
        await there.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=10 + first))
    assert (await here.table(game_id)).version == 5
    await storage.close()


async def test_a_saved_change_is_written_claimed_by_its_announcer(tmp_path) -> None:
    storage, here, _, game_id = await two_services(tmp_path)
    async with storage.sessions() as session:  # the changes so far are announced (in order)
        while earlier := await outbox.pending_announcements(session=session, game_id=game_id):
            await outbox.mark_announced(session=session, announcement_id=earlier[0].id)
    here.claimer = "host:1"
    player = (await here.table(game_id)).game.current
    outcome = await here.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=10 + player))
    row = outcome.announcement
    assert row is not None and row.id is not None and row.version == outcome.version
    assert (row.claimed_by, row.attempts) == ("host:1", 1) and row.claimed_at is not None
    async with storage.sessions() as session:  # nobody else may take it while the lease holds
        assert await outbox.claim_next(session=session, claimer="other:2", game_id=game_id) is None
    async with storage.sessions() as session:  # the claimer itself may (its own rows, in order)
        again = await outbox.claim_next(session=session, claimer="host:1", game_id=game_id, mine=True)
    assert again is not None and again.id == row.id
    await storage.close()


async def test_a_channel_s_game_is_found_for_routing_without_a_read_until_it_ends(tmp_path) -> None:
    """`peek_channel` (a typed `/ttr claim`'s game and map) reads nothing while this process holds
    the channel's active game; once the game is over or ended, the channel is read again."""
    storage, here, _, game_id = await two_services(tmp_path)
    reads = reads_of_games(storage)
    table = await here.peek_channel(2)
    assert table is not None and table.id == game_id and reads == []
    assert await here.peek_channel(3) is None and len(reads) == 1  # no game there: read each time
    await here.end(game_id, cause=Cause(CauseKind.ADMIN, user_id=10))
    reads.clear()
    assert await here.peek_channel(2) is None and len(reads) == 1
    await storage.close()


async def test_settling_waits_for_the_outcomes_being_told(tmp_path) -> None:
    """At shutdown the bot waits for the posts under way before its HTTP session closes."""
    storage, here, _, game_id = await two_services(tmp_path)
    heard, release = [], asyncio.Event()

    async def slow_announcer(outcome) -> None:  # type: ignore[no-untyped-def]
        await release.wait()  # a post under way
        heard.append(outcome.version)

    here.subscribe(ANNOUNCER, slow_announcer)
    player = (await here.table(game_id)).game.current
    move = asyncio.create_task(here.act(game_id, DrawDeck(), cause=Cause(CauseKind.PLAYER, user_id=10 + player)))
    while not here._publishing:
        await asyncio.sleep(0.01)
    assert await here.settle(timeout=0.05) is False and heard == []
    settled = asyncio.create_task(here.settle(timeout=5))
    await asyncio.sleep(0.01)
    assert not settled.done()
    release.set()
    assert await settled is True and heard == [3]
    await move
    assert await here.settle(timeout=0) is True  # nothing being told: no wait
    await storage.close()
