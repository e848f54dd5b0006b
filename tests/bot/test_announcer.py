"""The announcer's storage work (bot/announcer.py): an outcome that reaches it after a later one of
its game (posted by the later one, which found its row first) claims nothing more."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from bot.service import ANNOUNCER, TIMERS
from storage import announcements as outbox
from storage.models import Announcement
from tests.bot.test_play import deck_of, two_player_game


async def test_an_outcome_overtaken_by_the_next_one_is_posted_once_and_claims_nothing(
    fake_discord, make_bot, monkeypatch
):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    plies = len(driver.game.log)
    overtaken, second_heard = asyncio.Event(), asyncio.Event()

    async def slow_for_the_first_card(outcome) -> None:
        """Between the timers and the announcer: the turn's first card waits until the second
        card's outcome went by (as a slow listener would make it)."""
        if outcome.version == plies + 1:
            await second_heard.wait()
            await asyncio.sleep(0.2)  # the second card's outcome holds the announcer by now
            overtaken.set()
        elif outcome.version == plies + 2:
            second_heard.set()

    bot.service.subscribe((TIMERS + ANNOUNCER) // 2, slow_for_the_first_card)
    claims, rebuilt = [], []
    claim_next, announce_stored = outbox.claim_next, bot.announcer._announce_stored

    async def counted_claim(**kwargs):
        row = await claim_next(**kwargs)
        claims.append(row.version if row else None)
        return row

    async def counted_rebuild(row):
        rebuilt.append(row.version)
        await announce_stored(row)

    monkeypatch.setattr(outbox, "claim_next", counted_claim)
    monkeypatch.setattr(bot.announcer, "_announce_stored", counted_rebuild)
    posted = len(fake.channel_messages(fake.general))
    table = driver._newest_with(fake.channel_messages(fake.general), r"ttr:\d+:\d+:draw:deck")
    first = await fake.click(fake.alice, table, deck_of(table))
    second = await fake.click(fake.alice, table, deck_of(table))  # the same turn's button serves the second card
    for reply in (first, second):
        await reply.wait_resolved()
    await fake.wait_until(overtaken.is_set, what="the first card's outcome")
    await fake.wait_until(  # on a loaded machine the second row's claim may come after those 0.2 s
        lambda: len(claims) >= 2 and len(fake.channel_messages(fake.general)) > posted, what="the turn's post"
    )
    assert len(driver.game.log) == plies + 2 and driver.game.current == 1
    assert claims == [plies + 1, plies + 2]  # two rows, two claims: none for the overtaken outcome
    assert rebuilt == [plies + 1]  # posted by the second card's outcome, from the stored log
    turn_messages = fake.channel_messages(fake.general)[posted:]
    assert len(turn_messages) == 1 and "**alice** drew 2 cards from the deck" in turn_messages[0].text
    assert f"<@{fake.bob.id}>, your turn" in turn_messages[0].text
    await bot.announcer.flush_marks()  # the marks are written together, MARK_DELAY after the first
    async with bot.storage.sessions() as session:
        waiting = (await session.execute(select(Announcement).where(Announcement.announced_at.is_(None)))).all()
    assert waiting == []


async def test_the_rows_posted_together_are_marked_in_one_write(fake_discord, make_bot):
    """Posted rows wait MARK_DELAY for the rows posted after them; an error is kept per row."""
    from sqlalchemy import event

    from bot.announcer import MARK_DELAY

    bot, driver = await two_player_game(fake_discord, make_bot)
    await bot.announcer.flush_marks()
    async with bot.storage.sessions() as session:
        rows = list((await session.execute(select(Announcement).order_by(Announcement.id))).scalars())
        for row in rows:  # as if not posted yet
            row.announced_at = None
        await session.commit()
    updates: list[str] = []

    @event.listens_for(bot.storage.engine.sync_engine, "before_cursor_execute")
    def seen(conn, cursor, text, params, context, executemany):  # type: ignore[no-untyped-def]
        if text.lstrip().upper().startswith("UPDATE ANNOUNCEMENTS"):
            updates.append(text)

    await bot.announcer._mark(rows[0])
    await bot.announcer._mark(rows[1], error="Forbidden")
    await bot.announcer._mark(rows[2])
    await asyncio.sleep(MARK_DELAY * 4)
    for _ in range(100):  # a loaded machine may write a little later; never in more statements
        if len(updates) >= 2:
            break
        await asyncio.sleep(MARK_DELAY)
    await asyncio.sleep(MARK_DELAY)
    assert len(updates) == 2  # one write for the three: an UPDATE per distinct error
    async with bot.storage.sessions() as session:
        marked = {
            row.id: (row.announced_at is not None, row.error)
            for row in (await session.execute(select(Announcement).order_by(Announcement.id))).scalars()
        }
    assert [marked[row.id] for row in rows[:3]] == [(True, None), (True, "Forbidden"), (True, None)]
    assert await outbox.mark_all_announced(session=session, marks=[(rows[0].id, None)]) == 0  # marked already


async def test_one_game_is_announced_one_outcome_at_a_time() -> None:
    """A third outcome that comes as the first releases the game to the second (which has not run
    yet) waits for the second: it does not find the game free and post beside it (a table posted
    as a follow-up has no nonce to stop a second copy)."""
    from types import SimpleNamespace

    from bot.announcer import Announcer
    from bot.service import Cause, CauseKind, Outcome

    announcer = Announcer(None, None)  # type: ignore[arg-type]  (only the ordering is exercised)
    outcomes = [
        Outcome(table=SimpleNamespace(id=1), cause=Cause(CauseKind.PLAYER), version=v)  # type: ignore[arg-type]
        for v in (1, 2, 3)
    ]
    running, most, later = 0, 0, []

    async def announce(outcome: Outcome, game_id: int) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)
        if outcome.version == 1:  # the third comes just as the first lets go
            later.append(asyncio.create_task(announcer._in_order(outcomes[2])))
        running -= 1
        announcer._announced[game_id] = outcome.version

    announcer._claim_and_announce = announce  # type: ignore[method-assign]
    first = asyncio.create_task(announcer._in_order(outcomes[0]))
    await asyncio.sleep(0)
    await asyncio.gather(first, announcer._in_order(outcomes[1]))
    await asyncio.gather(*later)
    assert most == 1 and announcer._announced[1] == 3 and not announcer._posting
