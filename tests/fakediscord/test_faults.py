"""Fault injection through the real discord.py client: missing channel permissions, gateway
disconnects (resume and re-identify), and 5xx answers on REST calls."""

from __future__ import annotations

import io

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.tinybot import TinyBot, tiny_png

# --- channel permissions ------------------------------------------------------------------------


@pytest.fixture
async def locked_bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    """A bot started after the fake got #no-files, #no-threads and #read-only (GUILD_CREATE carries them)."""
    fake_discord.no_files = fake_discord.add_channel(fake_discord.guild, "no-files", bot_can_attach=False)
    fake_discord.no_threads = fake_discord.add_channel(fake_discord.guild, "no-threads", bot_can_create_threads=False)
    fake_discord.read_only = fake_discord.add_channel(fake_discord.guild, "read-only", bot_can_send=False)
    return await run_bot(TinyBot())


async def test_bot_sees_its_permissions_the_discord_way(fake_discord: FakeDiscord, locked_bot: TinyBot) -> None:
    guild = locked_bot.get_guild(fake_discord.guild.id)
    me = guild.me
    assert [r.name for r in me.roles] == ["@everyone", "TTR Bot"] and me.roles[1].is_bot_managed()
    assert me.guild_permissions.attach_files and me.guild_permissions.manage_threads
    general = guild.get_channel(fake_discord.general.id).permissions_for(me)
    assert general.send_messages and general.attach_files and general.create_public_threads
    no_files = guild.get_channel(fake_discord.no_files.id)
    [(target, overwrite)] = no_files.overwrites.items()
    assert target == me and overwrite.attach_files is False and overwrite.send_messages is None
    assert no_files.permissions_for(me).send_messages and not no_files.permissions_for(me).attach_files
    assert not guild.get_channel(fake_discord.no_threads.id).permissions_for(me).create_public_threads
    assert not guild.get_channel(fake_discord.read_only.id).permissions_for(me).send_messages

    reply = await fake_discord.slash(fake_discord.alice, fake_discord.no_files, "ttr perms")
    assert reply.content == (
        "app: send_messages=1 attach_files=0 create_public_threads=1\n"
        "channel: send_messages=1 attach_files=0 create_public_threads=1"
    )
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.no_threads, "ttr perms")
    assert reply.content.startswith("app: send_messages=1 attach_files=1 create_public_threads=0\n")
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr perms")
    assert reply.content.startswith("app: send_messages=1 attach_files=1 create_public_threads=1\n")
    reply = await fake_discord.slash(fake_discord.bob, fake_discord.dm_channel(fake_discord.bob), "ttr perms")
    assert reply.content == "app: send_messages=1 attach_files=1 create_public_threads=0"


async def test_files_need_attach_files(fake_discord: FakeDiscord, locked_bot: TinyBot) -> None:
    channel = locked_bot.get_channel(fake_discord.no_files.id)
    await channel.send("text is fine")
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("a board", file=discord.File(io.BytesIO(tiny_png()), filename="board.png"))
    assert (caught.value.status, caught.value.code) == (403, 50013)
    assert [m.content for m in fake_discord.channel_messages(fake_discord.no_files)] == ["text is fine"]
    sent = await channel.send("edit in a file later")
    with pytest.raises(discord.Forbidden):
        await sent.edit(attachments=[discord.File(io.BytesIO(tiny_png()), filename="late.png")])


async def test_interaction_responses_judge_files_by_everyone_follow_ups_by_the_bot(
    fake_discord: FakeDiscord, locked_bot: TinyBot
) -> None:
    """2022-06-29 changelog: ATTACH_FILES stays out of the switch to the bot's own permissions for
    interaction responses (so @everyone's count: here they may attach); 2023-11-01: follow-ups and
    edits of responses follow the bot user's permissions (here denied by its member overwrite)."""
    card = await fake_discord.slash(fake_discord.alice, fake_discord.no_files, "ttr card")
    assert card.kind == "message" and card.message.attachments[0].filename == "card.png"

    board = await fake_discord.slash(fake_discord.alice, fake_discord.no_files, "ttr board")  # defer, then a file
    assert board.kind == "deferred"
    await fake_discord.wait_until(lambda: locked_bot.errors)
    assert isinstance(locked_bot.errors[-1], discord.Forbidden) and locked_bot.errors[-1].code == 50013
    assert board.followups == [] and board.message.loading

    card = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr card")
    assert card.message.attachments[0].filename == "card.png"


async def test_interaction_responses_need_everyone_to_attach(fake_discord: FakeDiscord, run_bot) -> None:
    from tests.fakediscord.state import ATTACH_FILES

    closed = fake_discord.add_channel(fake_discord.guild, "closed", everyone_deny=ATTACH_FILES)
    bot = await run_bot(TinyBot())
    assert not bot.get_channel(closed.id).permissions_for(bot.get_guild(fake_discord.guild.id).me).attach_files
    card = await fake_discord.slash(fake_discord.alice, closed, "ttr card", wait=False)
    error = await fake_discord.wait_for_rejection(50013)
    assert card.rejected == [error] and card.kind is None
    text = await fake_discord.slash(fake_discord.alice, closed, "ttr new", map="usa")
    assert text.kind == "message"


async def test_embeds_need_embed_links(fake_discord: FakeDiscord, run_bot) -> None:
    from tests.fakediscord.state import EMBED_LINKS

    plain = fake_discord.add_channel(fake_discord.guild, "plain", bot_deny=EMBED_LINKS)
    bare = fake_discord.add_channel(fake_discord.guild, "bare", everyone_deny=EMBED_LINKS)
    bot = await run_bot(TinyBot())
    sent = await bot.get_channel(plain.id).send("with an embed", embed=discord.Embed(title="t"))
    assert sent.embeds == [] and fake_discord.messages[sent.id].embeds == [] and sent.content == "with an embed"
    await sent.edit(embed=discord.Embed(title="again"))
    assert fake_discord.messages[sent.id].embeds == []
    ok = await bot.get_channel(fake_discord.general.id).send("with an embed", embed=discord.Embed(title="t"))
    assert ok.embeds[0].title == "t"

    reply = await fake_discord.slash(fake_discord.alice, plain, "ttr scores")  # @everyone may embed: kept
    assert reply.message.embeds[0]["title"] == "Scores"
    follow = await reply.wait_followup(0)  # the bot may not: dropped
    assert follow.content == "Again:" and follow.embeds == []
    reply = await fake_discord.slash(fake_discord.alice, bare, "ttr scores")
    assert reply.message.embeds == [] and reply.content == "Scores:"


async def test_threads_need_create_threads(fake_discord: FakeDiscord, locked_bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.no_threads, "ttr thread", title="Game 1")
    assert reply.content == "Opening Game 1"  # the interaction answer works; creating the thread does not
    await fake_discord.wait_until(lambda: locked_bot.errors)
    [exc] = locked_bot.errors
    assert isinstance(exc, discord.Forbidden) and exc.code == 50013
    assert fake_discord.threads(fake_discord.no_threads) == []
    sent = await locked_bot.get_channel(fake_discord.no_threads.id).send("still can post")
    with pytest.raises(discord.Forbidden):
        await sent.create_thread(name="from a message")
    with pytest.raises(discord.Forbidden):
        await locked_bot.get_channel(fake_discord.read_only.id).create_thread(
            name="x", type=discord.ChannelType.private_thread
        )


async def test_guild_wide_bot_permissions(fake_discord: FakeDiscord, run_bot) -> None:
    guild = fake_discord.add_guild("Strict Club", bot_permissions=0)
    channel = fake_discord.add_channel(guild, "lobby")
    bot = await run_bot(TinyBot())
    me = bot.get_guild(guild.id).me
    assert [r.name for r in me.roles] == ["@everyone", "TTR Bot"]
    assert not me.guild_permissions.manage_messages  # only @everyone's permissions
    assert bot.get_channel(channel.id).permissions_for(me).attach_files


# --- gateway disconnects ------------------------------------------------------------------------


@pytest.fixture
async def bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    return await run_bot(TinyBot())


async def test_resume_after_the_socket_closes(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    assert (fake_discord.identifies, fake_discord.resumes, fake_discord.connected) == (1, 0, True)
    [session] = fake_discord.session_ids
    resumed: list[None] = []

    async def on_resumed() -> None:
        resumed.append(None)

    bot.add_listener(on_resumed)
    await fake_discord.disconnect(resume=True)
    assert (fake_discord.identifies, fake_discord.resumes, fake_discord.connected) == (1, 1, True)
    assert fake_discord.session_ids == [session] and bot.ws.session_id == session
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    assert reply.content == "Hello alice: new USA game for 4"
    await fake_discord.wait_until(lambda: resumed, what="on_resumed")


async def test_resume_after_op_7_reconnect(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.disconnect(resume=True, via="reconnect")
    await fake_discord.disconnect(resume=True, via="reconnect")
    assert (fake_discord.identifies, fake_discord.resumes) == (1, 2)
    reply = await fake_discord.slash(fake_discord.bob, fake_discord.games, "ttr new", map="europe")
    assert reply.content.startswith("Bonjour bob")


async def test_invalid_session_makes_the_bot_identify_again(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    [old] = fake_discord.session_ids
    guild_creates: list[discord.Guild] = []

    async def on_guild_available(guild: discord.Guild) -> None:
        guild_creates.append(guild)

    bot.add_listener(on_guild_available)
    await fake_discord.disconnect(resume=False)
    assert (fake_discord.identifies, fake_discord.resumes) == (2, 0)
    [new] = fake_discord.session_ids
    assert new != old
    await fake_discord.wait_until(lambda: bot.ws.session_id == new, what="discord.py to read READY")
    await fake_discord.wait_until(lambda: guild_creates, what="GUILD_CREATE after READY")
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr claim", start="boston", end="miami")
    assert reply.content == "Claimed boston-miami grey"


async def test_events_missed_while_disconnected_are_replayed(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    async with fake_discord.disconnected(resume=True):
        assert not fake_discord.connected
        missed = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa", wait=False)
        await fake_discord.say(fake_discord.bob, fake_discord.general, "anyone there?")
        assert missed.kind is None
    await missed.wait_acknowledged()
    assert missed.content == "Hello alice: new USA game for 4"
    assert fake_discord.replayed == 2 and fake_discord.resumes == 1
    reply = await fake_discord.slash(fake_discord.dirk, fake_discord.general, "ttr new", map="usa")
    assert reply.content.startswith("Hallo dirk")


async def test_resume_of_an_unknown_session_is_refused(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    async with fake_discord.disconnected(resume=True):
        fake_discord._sessions.clear()  # as if Discord forgot the session while the bot was away
    assert fake_discord.invalid_resumes == 1 and fake_discord.identifies == 2
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    assert reply.kind == "message"


async def test_closing_the_bot_ends_its_session(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    await bot.close()
    await fake_discord.wait_until(lambda: not fake_discord.session_ids, what="the session to end")
    assert not fake_discord.connected


# --- 5xx answers --------------------------------------------------------------------------------


async def test_transient_server_error_is_retried(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    route = "POST /channels/{channel_id}/messages"
    fake_discord.fail(route, status=502, times=2)
    channel = bot.get_channel(fake_discord.games.id)
    sent = await channel.send("after two 502s", file=discord.File(io.BytesIO(tiny_png()), filename="b.png"))
    assert fake_discord.failed == [(route, 502), (route, 502)]
    [message] = fake_discord.channel_messages(fake_discord.games)
    assert message.id == sent.id and message.files == {"b.png": tiny_png()}  # the upload was sent again


async def test_persistent_server_error_surfaces_as_discord_server_error(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    route = "POST /channels/{channel_id}/messages"
    fake_discord.fail(route, status=500, times=5)
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.games, "ttr post", text="lost")
    assert reply.content == "posting"
    await fake_discord.wait_until(lambda: bot.errors, what="the bot's error")
    [exc] = bot.errors
    assert isinstance(exc, discord.DiscordServerError) and exc.status == 500
    assert fake_discord.failed == [(route, 500)] * 5 and fake_discord.channel_messages(fake_discord.games) == []
    await bot.get_channel(fake_discord.games.id).send("the outage is over")


async def test_503_is_not_retried_on_rest_routes(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake_discord.fail("GET /channels/{channel_id}", status=503, times=3)
    with pytest.raises(discord.DiscordServerError) as caught:
        await bot.fetch_channel(fake_discord.general.id)
    assert caught.value.status == 503 and "Service Unavailable" in caught.value.text
    assert len(fake_discord.failed) == 1


async def test_server_error_on_an_interaction_callback(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake_discord.fail("POST /interactions/{interaction_id}/{token}/callback", status=503)
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    assert reply.kind == "message"  # discord.py's webhook adapter retries every 5xx
    assert fake_discord.failed == [("POST /interactions/{interaction_id}/{token}/callback", 503)]
    fake_discord.fail("POST /webhooks/{application_id}/{token}", status=500, times=5)
    board = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr board")
    await fake_discord.wait_until(lambda: bot.errors, what="the bot's error")
    assert isinstance(bot.errors[0], discord.DiscordServerError) and board.message.loading


async def test_fail_takes_server_errors_only(fake_discord: FakeDiscord) -> None:
    with pytest.raises(ValueError):
        fake_discord.fail("* *", status=404)
