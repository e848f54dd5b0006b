"""Every interaction kind the bot will use, driven through the fake by the tiny test bot."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest

from tests.fakediscord import FakeDiscord, ScriptError
from tests.fakediscord.tinybot import TinyBot, tiny_png


@pytest.fixture
async def bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    return await run_bot(TinyBot())


async def test_locale_of_the_user_reaches_the_bot(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.bob, fake_discord.general, "ttr new", map="europe")
    assert reply.content == "Bonjour bob: new Europe game for 4"
    reply = await fake_discord.slash(fake_discord.dirk, fake_discord.games, "ttr new", map="usa")
    assert reply.content.startswith("Hallo dirk")


async def test_slash_options_are_checked_like_the_discord_client(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    alice, general = fake_discord.alice, fake_discord.general
    with pytest.raises(ScriptError, match="not one of the choices"):
        await fake_discord.slash(alice, general, "ttr new", map="mars")
    with pytest.raises(ScriptError, match="above max_value"):
        await fake_discord.slash(alice, general, "ttr new", map="usa", players=9)
    with pytest.raises(ScriptError, match="missing required"):
        await fake_discord.slash(alice, general, "ttr claim", start="boston")
    with pytest.raises(ScriptError, match="no option 'via'"):
        await fake_discord.slash(alice, general, "ttr claim", start="a", end="b", via="c")
    with pytest.raises(ScriptError, match="needs a subcommand"):
        await fake_discord.slash(alice, general, "ttr")
    with pytest.raises(ScriptError, match="no command /chess"):
        await fake_discord.slash(alice, general, "chess")
    with pytest.raises(ScriptError, match="not a member"):
        await fake_discord.slash(fake_discord.stranger, general, "ttr new", map="usa")


async def test_autocomplete_returns_the_bots_choices(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    result = await fake_discord.autocomplete(fake_discord.alice, fake_discord.general, "ttr claim", "start", "new")
    assert result.kind == "autocomplete"
    assert result.choice_names == ["New Orleans", "New York"]
    assert result.choice_values == ["new orleans", "new york"]
    with pytest.raises(ScriptError, match="no autocomplete"):
        await fake_discord.autocomplete(fake_discord.alice, fake_discord.general, "ttr claim", "end", "x")


async def test_too_many_autocomplete_choices_are_rejected(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    result = await fake_discord.autocomplete(
        fake_discord.alice, fake_discord.general, "ttr everything", "city", "", wait=False
    )
    error = await fake_discord.wait_for_rejection(50035)
    assert error.status == 400
    assert error.errors == {
        "data": {
            "choices": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}
        }
    }
    assert result.rejected == [error] and result.kind is None


async def test_button_click_updates_the_message(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    click = await fake_discord.click(fake_discord.bob, reply.message, "ttr:draw")
    assert click.kind == "update"
    assert click.message is reply.message
    assert reply.message.content == "bob drew a card"
    assert reply.message.components == []
    assert reply.message.history[0]["content"].startswith("Hello alice")


async def test_button_click_with_ephemeral_answer(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    click = await fake_discord.click(fake_discord.bob, reply.message, label="Hand")
    assert click.kind == "message" and click.ephemeral
    assert fake_discord.ephemeral(fake_discord.bob) == [click.message]
    assert fake_discord.ephemeral(fake_discord.alice) == []
    assert click.message not in fake_discord.channel_messages(fake_discord.general)
    with pytest.raises(ScriptError, match="disabled"):
        await fake_discord.click(fake_discord.bob, reply.message, "ttr:gone")
    with pytest.raises(ScriptError, match="no button"):
        await fake_discord.click(fake_discord.bob, reply.message, "ttr:nothing")


async def test_button_deferred_update_then_edit_and_followup(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    click = await fake_discord.click(fake_discord.alice, reply.message, "ttr:pass")
    assert click.kind == "deferred_update" and click.message is reply.message
    await click.wait_edit()
    assert reply.message.content == "alice passed"
    followup = await click.wait_followup()
    assert followup.content == "Turn passed" and followup.ephemeral
    assert fake_discord.ephemeral(fake_discord.alice) == [followup]


async def test_select_menu(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    assert reply.message.selects[0]["placeholder"] == "Pick a colour"
    picked = await fake_discord.select(fake_discord.alice, reply.message, "ttr:colour", ["red", "green"])
    assert picked.content == "You picked red, green" and picked.ephemeral
    with pytest.raises(ScriptError, match="not an option"):
        await fake_discord.select(fake_discord.alice, reply.message, "ttr:colour", ["purple"])
    with pytest.raises(ScriptError, match="takes 1..2 values"):
        await fake_discord.select(fake_discord.alice, reply.message, "ttr:colour", ["red", "blue", "green"])


async def test_modal_open_and_submit(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    opened = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr name")
    assert opened.kind == "modal"
    assert opened.modal is not None and opened.modal.title == "Name your game"
    assert list(opened.modal.fields) == ["game_name", "note"]
    with pytest.raises(ScriptError, match="is required"):
        await fake_discord.submit_modal(fake_discord.alice, opened, note="no name")
    with pytest.raises(ScriptError, match="at most 30"):
        await fake_discord.submit_modal(fake_discord.alice, opened, game_name="x" * 31)
    submitted = await fake_discord.submit_modal(fake_discord.alice, opened, game_name="Friday", note="bring snacks")
    assert submitted.content == "Game 'Friday' created. bring snacks"


async def test_modal_with_labels_text_input_and_select(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    opened = await fake_discord.slash(fake_discord.bob, fake_discord.general, "ttr settings")
    assert opened.modal is not None and list(opened.modal.fields) == ["seats", "rules"]
    submitted = await fake_discord.submit_modal(fake_discord.bob, opened, seats="3", rules=["tunnels", "stations"])
    assert submitted.content == "3 seats, rules: tunnels, stations"
    again = await fake_discord.slash(fake_discord.bob, fake_discord.general, "ttr settings")
    assert (await fake_discord.submit_modal(fake_discord.bob, again)).content == "4 seats, rules: none"


async def test_user_and_channel_options_and_user_select(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(
        fake_discord.alice,
        fake_discord.general,
        "ttr challenge",
        opponent=fake_discord.bob,
        where=fake_discord.games,
        stake=2.5,
    )
    assert reply.content == "alice challenges bob in #games for 2.5"
    with pytest.raises(ScriptError, match="expected a User"):
        await fake_discord.slash(
            fake_discord.alice, fake_discord.general, "ttr challenge", opponent="bob", where=fake_discord.games
        )
    picked = await fake_discord.select(
        fake_discord.alice, reply.message, "ttr:invite", [fake_discord.bob, fake_discord.dirk]
    )
    assert picked.content == "Invited bob, dirk"


async def test_dm_to_a_user_with_open_dms(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr hand")
    assert reply.content == "Check your DMs" and reply.ephemeral
    assert [m.content for m in fake_discord.dms(fake_discord.alice)] == ["Your hand: 2 locomotives"]


async def test_dm_to_a_user_with_closed_dms_fails_with_50007(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.carol, fake_discord.general, "ttr hand")
    assert reply.content == "I cannot DM you (50007)"
    assert fake_discord.dms(fake_discord.carol) == []
    route, error = fake_discord.rejections[-1]
    assert route == "POST /channels/{channel_id}/messages"
    assert (error.status, error.code, error.message) == (403, 50007, "Cannot send messages to this user")


async def test_dm_to_a_user_outside_the_bots_guilds_fails(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    user = await bot.fetch_user(fake_discord.stranger.id)
    with pytest.raises(discord.Forbidden) as caught:
        await user.send("hello")
    assert caught.value.code == 50007
    with pytest.raises(discord.NotFound) as missing:
        await bot.get_guild(fake_discord.guild.id).fetch_member(fake_discord.stranger.id)
    assert missing.value.code == 10007


async def test_deferred_reply_with_png_followup(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr board")
    assert reply.kind == "deferred"
    followup = await reply.wait_followup()
    assert followup is reply.message  # the first follow-up resolves the "thinking" message
    assert not followup.loading and followup.content == "The board"
    [attachment] = followup.attachments
    assert attachment.filename == "board.png" and attachment.is_image
    assert attachment.data == tiny_png()
    assert attachment.content_type == "image/png"
    assert fake_discord.channel_messages(fake_discord.general) == [followup]


async def test_deferred_ephemeral_edit_then_followup(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr think")
    assert reply.kind == "deferred" and reply.ephemeral
    resolved = await reply.wait_resolved()
    assert resolved.content == "Thought about it"
    bot.gate.set()
    second = await reply.wait_followup()
    assert second.ephemeral
    await fake_discord.wait_until(lambda: second.edited)
    assert second.content == "And one more thing!" and second.history[0]["content"] == "And one more thing"
    assert [m.content for m in fake_discord.ephemeral(fake_discord.alice)] == [
        "Thought about it",
        "And one more thing!",
    ]
    assert fake_discord.channel_messages(fake_discord.general) == []


async def test_original_response_read_and_deleted(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr oops")
    notice = await reply.wait_followup()
    assert reply.message.deleted and notice.content == f"deleted {reply.message.id}"
    assert fake_discord.channel_messages(fake_discord.general) == [notice]


async def test_channel_message_edit_and_reaction(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.slash(fake_discord.alice, fake_discord.games, "ttr post", text="route claimed")
    message = await fake_discord.wait_for_message(fake_discord.games, lambda m: m.reactions)
    assert message.content == "ROUTE CLAIMED" and message.edited
    assert message.history[0]["content"] == "route claimed"
    assert message.reactions == ["\N{WHITE HEAVY CHECK MARK}"]


async def test_thread_creation(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr thread", title="Game 7")
    thread = await fake_discord.wait_until(lambda: fake_discord.threads(fake_discord.general), what="a thread")
    [thread] = thread
    assert thread.name == "Game 7" and thread.type == 11
    message = await fake_discord.wait_for_message(thread)
    assert message.content == "Game thread for alice"
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the bot's cache


async def test_thread_from_a_message(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    sent = await bot.get_channel(fake_discord.games.id).send("Game 9 starts")
    thread = await sent.create_thread(name="Game 9")
    [recorded] = fake_discord.threads(fake_discord.games)
    assert recorded.id == thread.id == sent.id and recorded.type == 11
    assert fake_discord.channel_messages(fake_discord.games)[0].thread is recorded
    with pytest.raises(discord.HTTPException, match="Must be between 1 and 100"):
        await bot.get_channel(fake_discord.games.id).create_thread(
            name="t" * 101, type=discord.ChannelType.public_thread
        )


async def test_slash_in_a_thread_and_in_dms(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr thread", title="Game 8")
    [thread] = await fake_discord.wait_until(lambda: fake_discord.threads(fake_discord.general))
    reply = await fake_discord.slash(fake_discord.bob, thread, "ttr new", map="usa")
    assert reply.message in fake_discord.channel_messages(thread)
    dm = fake_discord.dm_channel(fake_discord.bob)
    reply = await fake_discord.slash(fake_discord.bob, dm, "ttr new", map="europe")
    assert reply.content.startswith("Bonjour bob") and fake_discord.dms(fake_discord.bob) == [reply.message]


async def test_attachment_upload_from_the_bot_api(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.games.id)
    sent = await channel.send(
        "two files",
        files=[
            discord.File(io.BytesIO(tiny_png(5, 4)), filename="a.png", description="board"),
            discord.File(io.BytesIO(b"hello"), filename="notes.txt"),
        ],
    )
    [message] = fake_discord.channel_messages(fake_discord.games)
    assert message.files == {"a.png": tiny_png(5, 4), "notes.txt": b"hello"}
    assert message.attachments[0].description == "board"
    assert sent.attachments[0].width == 5 and sent.attachments[0].height == 4
    assert await sent.attachments[1].read() == b"hello"  # served by the fake's CDN
    edited = await sent.edit(attachments=[sent.attachments[0]])
    assert [a.filename for a in edited.attachments] == ["a.png"]
    assert message.files == {"a.png": tiny_png(5, 4)}


async def test_bot_without_send_permission(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    locked = fake_discord.add_channel(fake_discord.guild, "announcements", bot_can_send=False)
    with pytest.raises(discord.Forbidden) as caught:
        await bot.http.send_message(locked.id, params=discord.http.handle_message_parameters(content="hi"))
    assert caught.value.code == 50013


async def test_user_messages_reach_the_bot(fake_discord: FakeDiscord, run_bot) -> None:
    intents = discord.Intents.default()
    intents.message_content = True
    bot = await run_bot(TinyBot(intents=intents))
    waiting = asyncio.ensure_future(bot.wait_for("message", timeout=5))
    await fake_discord.say(fake_discord.alice, fake_discord.general, "claim Boston-Montreal")
    message = await waiting
    assert (message.author.name, message.content) == ("alice", "claim Boston-Montreal")
    assert message.channel.id == fake_discord.general.id


async def test_message_content_is_empty_without_the_intent(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    waiting = asyncio.ensure_future(bot.wait_for("message", timeout=5))
    await fake_discord.say(fake_discord.alice, fake_discord.general, "secret plans")
    assert (await waiting).content == ""
