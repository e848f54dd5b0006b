"""Threads archive themselves after ``auto_archive_duration`` minutes of inactivity on the fake's
clock; archived threads take new messages (which unarchive them) but no edits, reactions or
commands, as Discord's threads topic says."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import FakeDiscord, ScriptError
from tests.fakediscord.tinybot import TinyBot


@pytest.fixture
async def bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    return await run_bot(TinyBot())


async def open_thread(fake: FakeDiscord, bot: TinyBot, title: str = "Game 1") -> tuple[discord.Thread, object]:
    await fake.slash(fake.alice, fake.general, "ttr thread", title=title)
    thread = await fake.wait_until(lambda: next(iter(fake.threads(fake.general)), None))
    await fake.wait_for_message(thread)
    return await bot.fetch_channel(thread.id), thread


@pytest.mark.parametrize("minutes", [60, 1440, 4320, 10080])
async def test_a_thread_archives_after_its_inactivity_duration(
    fake_discord: FakeDiscord, bot: TinyBot, minutes: int
) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    thread = await channel.create_thread(
        name="idle", type=discord.ChannelType.public_thread, auto_archive_duration=minutes
    )
    record = fake_discord.channels[thread.id]
    assert thread.auto_archive_duration == record.auto_archive_duration == minutes
    fake_discord.advance(minutes * 60 - 1)
    await thread.send("still here")  # activity restarts the timer
    fake_discord.advance(minutes * 60 - 1)
    await fake_discord.settled()
    assert not record.archived and bot.get_channel(thread.id) is not None
    updates: list[discord.Thread] = []

    async def on_thread_update(before: discord.Thread, after: discord.Thread) -> None:
        updates.append(after)

    bot.add_listener(on_thread_update)
    fake_discord.advance(2)
    await fake_discord.settled()
    assert record.archived
    await fake_discord.wait_until(lambda: updates)
    assert updates[-1].archived and bot.get_channel(thread.id) is None  # discord.py forgets archived threads


async def test_an_unknown_archive_duration_is_refused(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.create_thread(name="odd", type=discord.ChannelType.public_thread, auto_archive_duration=90)
    assert caught.value.code == 50035 and "auto_archive_duration" in str(caught.value)


async def test_archived_thread_refuses_edits_reactions_and_commands(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    thread, record = await open_thread(fake, bot)
    [starter] = fake.channel_messages(record)
    sent = await thread.fetch_message(starter.id)
    fake.advance(24 * 3600)
    await fake.settled()
    assert record.archived
    with pytest.raises(discord.HTTPException) as caught:
        await sent.edit(content="changed")
    assert (caught.value.status, caught.value.code) == (400, 50083)
    assert "Operation cannot be performed on an archived thread" in str(caught.value)
    with pytest.raises(discord.HTTPException, match="50083"):
        await sent.add_reaction("\N{THUMBS UP SIGN}")
    assert starter.content == "Game thread for alice" and starter.reactions == []
    with pytest.raises(ScriptError, match="archived"):
        await fake.slash(fake.alice, record, "ttr new", map="usa")
    with pytest.raises(ScriptError, match="archived"):
        await fake.autocomplete(fake.alice, record, "ttr claim", "start", "bo", end="x")


async def test_a_message_unarchives_the_thread(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    thread, record = await open_thread(fake, bot)
    fake.advance(24 * 3600)
    await fake.settled()
    await thread.send("the bot posts again")  # allowed: posting unarchives
    assert not record.archived
    fake.advance(24 * 3600)
    await fake.settled()
    assert record.archived
    await fake.say(fake.bob, record, "a member posts")  # a member's message unarchives it too
    assert not record.archived
    reply = await fake.slash(fake.alice, record, "ttr new", map="usa")  # commands work again
    assert reply.kind == "message"
    await fake.wait_until(lambda: bot.get_channel(record.id) is not None)  # THREAD_UPDATE re-adds it


async def test_unarchive_and_lock_by_patch(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    thread, record = await open_thread(fake, bot)
    fake.advance(24 * 3600)
    await fake.settled()
    with pytest.raises(discord.HTTPException, match="50083"):
        await thread.edit(name="renamed while archived")
    edited = await thread.edit(archived=False, locked=True, auto_archive_duration=60)
    assert (edited.archived, edited.locked, edited.auto_archive_duration) == (False, True, 60)
    assert (record.archived, record.locked, record.auto_archive_duration) == (False, True, 60)
    fake.advance(3600)
    await fake.settled()
    assert record.archived
    with pytest.raises(ScriptError, match="locked"):
        await fake.say(fake.bob, record, "members cannot unarchive a locked thread")
    await thread.send("the bot manages threads, so it still can")  # MANAGE_THREADS
    assert not record.archived and record.messages[-1].content.startswith("the bot manages")


async def test_locked_archived_thread_refuses_a_bot_without_manage_threads(fake_discord: FakeDiscord, run_bot) -> None:
    from tests.fakediscord.state import BOT_ROLE_PERMISSIONS, MANAGE_THREADS

    fake = fake_discord
    guild = fake.add_guild("No mods", bot_permissions=BOT_ROLE_PERMISSIONS & ~MANAGE_THREADS)
    lobby = fake.add_channel(guild, "lobby")
    bot = await run_bot(TinyBot())
    thread = await bot.get_channel(lobby.id).create_thread(name="t", type=discord.ChannelType.public_thread)
    record = fake.channels[thread.id]
    record.locked = True  # a moderator locked it
    fake.advance(24 * 3600)
    await fake.settled()
    with pytest.raises(discord.HTTPException) as caught:
        await thread.send("let me in")
    assert caught.value.code == 50083 and record.archived and record.messages == []
