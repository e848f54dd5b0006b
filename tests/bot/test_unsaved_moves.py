"""A move acknowledged (a "thinking…", or a tap's deferred update) whose process died before
saving it is answered after the restart, once; a move that was saved or answered leaves nothing to answer (bot/inbox.py).

The "process" that dies is a bot whose service never finishes saving; the next bot on the same
database is the restart (another process id: `bot.inbox.PROCESS`)."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from storage.models import AcknowledgedMove
from tests.bot.test_play import two_player_game

LEASE = 1.0  # OUTBOX_LEASE of the restarted bot: rows older than this were left by a dead process


async def acknowledgements(bot) -> int:  # type: ignore[no-untyped-def]
    async with bot.storage.sessions() as session:
        return (await session.execute(select(func.count()).select_from(AcknowledgedMove))).scalar_one()


def deck_button(fake, driver) -> tuple[object, str]:  # type: ignore[no-untyped-def]
    turn = fake.channel_messages(fake.general)[-1]
    return turn, next(c for c in turn.custom_ids if c.endswith(":draw:deck"))


async def restart(make_bot, monkeypatch):  # type: ignore[no-untyped-def]
    await asyncio.sleep(LEASE)
    monkeypatch.setattr("bot.inbox.PROCESS", "the-restarted-process")
    return await make_bot(outbox_lease=LEASE)


async def test_a_move_acknowledged_and_never_saved_is_answered_after_the_restart(
    fake_discord, make_bot, monkeypatch
) -> None:
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    version = driver.game.version
    dying = asyncio.Event()

    async def never_saves(*args, **kwargs):  # type: ignore[no-untyped-def]
        dying.set()
        await asyncio.Event().wait()  # killed here: acknowledged, not saved

    monkeypatch.setattr(bot.service, "act", never_saves)
    turn, deck = deck_button(fake, driver)
    click = await fake.click(fake.alice, turn, deck)  # a tap on the table: a deferred update, nothing shown
    await asyncio.wait_for(dying.wait(), 5)
    assert click.kind == "deferred_update" and not click.followups and await acknowledgements(bot) == 1

    bot = await restart(make_bot, monkeypatch)
    answer = await click.wait_followup()
    assert "I restarted before your move was saved; please try again." in answer.text and answer.ephemeral
    assert len(click.followups) == 1
    assert (await bot.service.table(driver.game_id)).game.version == version  # nothing was saved
    assert await acknowledgements(bot) == 0
    again = await fake.click(fake.alice, turn, deck)  # and trying again works
    assert "Draw your second card" in (await again.wait_followup()).text


async def test_a_saved_move_leaves_nothing_to_answer(fake_discord, make_bot, monkeypatch) -> None:
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    turn, deck = deck_button(fake, driver)
    click = await fake.click(fake.alice, turn, deck)
    await click.wait_followup()
    assert await acknowledgements(bot) == 0  # deleted by the move's own transaction
    await restart(make_bot, monkeypatch)
    await asyncio.sleep(0.2)
    assert len(click.followups) == 1 and "Draw your second card" in click.followups[0].text


async def test_a_refused_move_is_not_answered_again_after_a_restart(fake_discord, make_bot, monkeypatch) -> None:
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    reply = await fake.slash(fake.bob, fake.general, "ttr pass")  # not bob's turn
    refusal = await reply.wait_resolved()
    assert refusal.text.startswith("⚠️")
    for _ in range(50):  # refused and told, then forgotten
        if await acknowledgements(bot) == 0:
            break
        await asyncio.sleep(0.02)
    assert await acknowledgements(bot) == 0
    bot = await restart(make_bot, monkeypatch)
    assert len(reply.followups) == 1 and reply.message.text == refusal.text


async def test_a_tap_on_the_panel_that_died_unsaved_gets_a_new_private_answer(
    fake_discord, make_bot, monkeypatch
) -> None:
    """A panel shows no "thinking…": the restarted bot tells the player in a new private message."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    turn, deck = deck_button(fake, driver)
    panel = driver._answer(await driver.tap(fake.alice, turn, deck))  # the first card: a new panel
    dying = asyncio.Event()

    async def never_saves(*args, **kwargs):  # type: ignore[no-untyped-def]
        dying.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(bot.service, "act", never_saves)
    second = next(c for c in panel.custom_ids if c.endswith(":draw:deck"))
    click = await fake.click(fake.alice, panel, second)
    await asyncio.wait_for(dying.wait(), 5)
    assert click.kind == "deferred_update" and await acknowledgements(bot) == 1
    bot = await restart(make_bot, monkeypatch)
    answer = await click.wait_followup(0)
    assert "please try again" in answer.text and answer.ephemeral and len(click.followups) == 1
    assert await acknowledgements(bot) == 0


async def test_a_saved_panel_tap_whose_answer_died_is_answered_in_the_panel_after_the_restart(
    fake_discord, make_bot, monkeypatch
) -> None:
    """Saved, then killed before anything was posted: the restarted bot posts the table and
    updates the panel the tap was on (the outbox row says how: `panel`)."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    turn, deck = deck_button(fake, driver)
    panel = driver._answer(await driver.tap(fake.alice, turn, deck))  # the first card: a new panel
    edits = len(panel.history)

    async def dies(outcome):  # type: ignore[no-untyped-def]
        await asyncio.Event().wait()  # killed after the save, before the announcement

    monkeypatch.setattr(bot.announcer, "on_outcome", dies)
    for i, (order, listener) in enumerate(bot.service._listeners):
        if getattr(listener, "__self__", None) is bot.announcer:
            bot.service._listeners[i] = (order, dies)
    second = next(c for c in panel.custom_ids if c.endswith(":draw:deck"))
    click = await fake.click(fake.alice, panel, second)
    await fake.wait_until(lambda: driver.game.current == 1, what="the second card saved")
    assert click.kind == "deferred_update" and len(panel.history) == edits
    await restart(make_bot, monkeypatch)
    await fake.wait_until(lambda: len(panel.history) > edits, timeout=30, what="the panel's answer")
    assert "You drew " in panel.text and "It's bob's turn." in panel.text and not click.followups
    assert f"<@{fake.bob.id}>, your turn" in fake.channel_messages(fake.general)[-1].text


async def test_a_restarted_process_answers_its_predecessors_unsaved_move_at_once(
    fake_discord, make_bot, monkeypatch
) -> None:
    """At the default OUTBOX_LEASE (60 s): the same shards restarted know the process before them
    is dead, so the player is told at the start, not a lease later."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    dying = asyncio.Event()

    async def never_saves(*args, **kwargs):  # type: ignore[no-untyped-def]
        dying.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(bot.service, "act", never_saves)
    turn, deck = deck_button(fake, driver)
    click = await fake.click(fake.alice, turn, deck)
    await asyncio.wait_for(dying.wait(), 5)
    monkeypatch.setattr("bot.inbox.PROCESS", "the-restarted-process")
    bot = await make_bot()  # at once, default lease
    assert bot.settings.outbox_lease == 60
    answer = await click.wait_followup(timeout=5)  # a tap on the table: its answer is a private follow-up
    assert "I restarted before your move was saved; please try again." in answer.text and answer.ephemeral
    assert await acknowledgements(bot) == 0
