"""Discord's documented limits: the fake refuses what Discord would, with Discord's error shape."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, InteractionFailed, limits
from tests.fakediscord.tinybot import TinyBot


@pytest.fixture
async def bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    return await run_bot(TinyBot())


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None, *, auth: bool = True) -> tuple[int, Any]:
    """A raw API request, as a bot would send it, returning (status, JSON body)."""
    headers = {"Authorization": f"Bot {fake.token}"} if auth else {}
    async with aiohttp.ClientSession() as session:
        async with session.request(method, fake.api_url + path, json=body, headers=headers) as response:
            return response.status, (await response.json() if response.content_length else None)


def first_error(body: dict[str, Any], *path: str | int) -> dict[str, str]:
    node = body["errors"]
    for key in path:
        node = node[str(key)]
    return node["_errors"][0]


# --- message content, embeds, files -------------------------------------------------------------


async def test_content_over_2000_characters_is_refused_to_the_bot(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    ok = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr say", length=2000)
    assert len(ok.content) == 2000
    refused = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr say", length=2001, wait=False)
    await fake_discord.wait_until(lambda: bot.errors)
    [exc] = bot.errors
    assert isinstance(exc, discord.HTTPException) and (exc.status, exc.code) == (400, 50035)
    assert (
        str(exc)
        == "400 Bad Request (error code: 50035): Invalid Form Body\nIn data.content: Must be 2000 or fewer in length."
    )
    assert refused.kind is None and refused.rejected[0].code == 50035
    with pytest.raises(InteractionFailed, match=r"refused its response: 400 Invalid Form Body \(error code: 50035\)"):
        await refused.wait_acknowledged(timeout=0.05)


async def test_content_limit_on_channel_messages(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("y" * 2001)
    assert caught.value.code == 50035
    assert "In content: Must be 2000 or fewer in length." in str(caught.value)
    assert fake_discord.channel_messages(fake_discord.general) == []


async def test_empty_message_is_refused(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    status, body = await call(fake_discord, "POST", f"/channels/{fake_discord.general.id}/messages", {"content": ""})
    assert (status, body) == (400, {"message": "Cannot send an empty message", "code": 50006})


async def test_embed_limits(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    with pytest.raises(discord.HTTPException, match=r"In embeds\.0\.title: Must be 256 or fewer"):
        await channel.send(embed=discord.Embed(title="t" * 257))
    too_many_fields = discord.Embed(title="scores")
    for index in range(26):
        too_many_fields.add_field(name=f"p{index}", value="1")
    with pytest.raises(discord.HTTPException, match=r"embeds\.0\.fields"):
        await channel.send(embed=too_many_fields)
    big = [discord.Embed(description="d" * 4096), discord.Embed(description="d" * 2000)]
    with pytest.raises(discord.HTTPException, match="Embed size exceeds maximum size of 6000"):
        await channel.send(embeds=big)
    status, body = await call(
        fake_discord,
        "POST",
        f"/channels/{fake_discord.general.id}/messages",
        {"embeds": [{"description": "d" * 4097, "footer": {"text": "f" * 2049}}]},
    )
    assert status == 400 and body["code"] == 50035
    assert first_error(body, "embeds", 0, "description")["code"] == "BASE_TYPE_MAX_LENGTH"
    assert first_error(body, "embeds", 0, "footer", "text")["message"] == "Must be 2048 or fewer in length."
    await channel.send(embed=discord.Embed(title="t" * 256, description="d" * 4096))


async def test_attachment_over_10_mib_is_refused_with_413(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(file=discord.File(io.BytesIO(b"\0" * (limits.ATTACHMENT_BYTES + 1)), filename="huge.png"))
    assert (caught.value.status, caught.value.code) == (413, 40005)
    await channel.send(file=discord.File(io.BytesIO(b"\0" * limits.ATTACHMENT_BYTES), filename="max.bin"))
    assert fake_discord.channel_messages(fake_discord.general)[0].attachments[0].size == limits.ATTACHMENT_BYTES


# --- components ---------------------------------------------------------------------------------


def button(custom_id: str, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


async def post_components(fake: FakeDiscord, components: list[dict[str, Any]]) -> tuple[int, Any]:
    return await call(fake, "POST", f"/channels/{fake.general.id}/messages", {"content": "c", "components": components})


async def test_component_limits(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    rows = [{"type": 1, "components": [button(f"r{r}b{b}") for b in range(5)]} for r in range(5)]
    status, _ = await post_components(fake_discord, rows)
    assert status == 200  # 5 rows of 5 buttons is the maximum

    status, body = await post_components(fake_discord, rows + [{"type": 1, "components": [button("extra")]}])
    assert status == 400 and first_error(body, "components")["message"] == "Must be 5 or fewer in length."

    status, body = await post_components(fake_discord, [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}])
    assert status == 400 and first_error(body, "components", 0, "components")["code"] == "BASE_TYPE_MAX_LENGTH"

    status, body = await post_components(fake_discord, [{"type": 1, "components": [button("x" * 101)]}])
    assert status == 400
    assert (
        first_error(body, "components", 0, "components", 0, "custom_id")["message"] == "Must be 100 or fewer in length."
    )

    status, body = await post_components(fake_discord, [{"type": 1, "components": [button("same"), button("same")]}])
    assert first_error(body, "components", 0, "components", 1, "custom_id")["code"] == "COMPONENT_CUSTOM_ID_DUPLICATED"

    status, body = await post_components(fake_discord, [{"type": 1, "components": [button("l", "x" * 81)]}])
    assert first_error(body, "components", 0, "components", 0, "label")["message"] == "Must be 80 or fewer in length."

    status, body = await post_components(fake_discord, [button("not-in-a-row")])
    assert status == 400 and body["code"] == 50035


async def test_select_limits(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    def select(count: int, **extra: Any) -> list[dict[str, Any]]:
        options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]
        return [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options, **extra}]}]

    assert (await post_components(fake_discord, select(25)))[0] == 200
    status, body = await post_components(fake_discord, select(26))
    assert (
        status == 400
        and first_error(body, "components", 0, "components", 0, "options")["message"]
        == "Must be 25 or fewer in length."
    )
    status, body = await post_components(fake_discord, select(3, max_values=4))
    assert (
        first_error(body, "components", 0, "components", 0, "max_values")["code"]
        == "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE"
    )
    status, body = await post_components(fake_discord, select(3, placeholder="p" * 151))
    assert first_error(body, "components", 0, "components", 0, "placeholder")["code"] == "BASE_TYPE_MAX_LENGTH"
    mixed = select(2)
    mixed[0]["components"].append(button("b"))
    status, body = await post_components(fake_discord, mixed)
    assert first_error(body, "components", 0, "components")["code"] == "COMPONENT_LAYOUT_WIDTH_EXCEEDED"


# --- interaction callbacks, deadlines and tokens ------------------------------------------------


async def test_three_second_acknowledgement_deadline(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    slow = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr slow", wait=False)
    fake_discord.advance(3.1)  # the bot is still thinking when Discord's 3 seconds run out
    bot.gate.set()
    await fake_discord.wait_until(lambda: bot.errors)
    [exc] = bot.errors
    assert isinstance(exc, discord.NotFound) and exc.code == 10062
    assert slow.kind is None
    with pytest.raises(InteractionFailed):
        await slow.wait_acknowledged(timeout=0.05)


async def test_interaction_token_expires_after_15_minutes(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr think")
    await reply.wait_resolved()
    fake_discord.advance(15 * 60 + 1)
    bot.gate.set()
    await fake_discord.wait_until(lambda: bot.errors)
    [exc] = bot.errors
    assert isinstance(exc, discord.HTTPException) and (exc.status, exc.code) == (401, 50027)
    assert reply.followups == []


async def callback(fake: FakeDiscord, interaction: Any, body: dict[str, Any]) -> tuple[int, Any]:
    return await call(
        fake,
        "POST",
        f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=true",
        body,
        auth=False,
    )


async def test_callback_rules(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    # The test answers the interaction itself while the bot waits, then lets the bot answer too late.
    held = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr slow", wait=False)
    status, body = await callback(fake_discord, held, {"type": 8, "data": {"choices": []}})
    assert status == 400 and first_error(body, "type")["code"] == "INTERACTION_RESPONSE_TYPE_INVALID"
    status, body = await callback(
        fake_discord, held, {"type": 9, "data": {"title": "t" * 46, "custom_id": "m", "components": []}}
    )
    assert status == 400
    assert first_error(body, "data", "title")["message"] == "Must be between 1 and 45 in length."
    assert first_error(body, "data", "components")["code"] == "BASE_TYPE_MIN_LENGTH"
    text_input = {"type": 4, "custom_id": "f", "style": 1, "label": "l" * 46, "max_length": 4001}
    status, body = await callback(
        fake_discord,
        held,
        {"type": 9, "data": {"title": "ok", "custom_id": "m", "components": [{"type": 1, "components": [text_input]}]}},
    )
    assert first_error(body, "data", "components", 0, "components", 0, "label")["code"] == "BASE_TYPE_BAD_LENGTH"
    assert first_error(body, "data", "components", 0, "components", 0, "max_length")["code"] == "NUMBER_TYPE_MAX"
    status, body = await callback(fake_discord, held, {"type": 4, "data": {"content": "answered by the test"}})
    assert status == 200 and body["resource"]["message"]["content"] == "answered by the test"
    status, body = await callback(fake_discord, held, {"type": 4, "data": {"content": "again"}})
    assert (status, body) == (400, {"message": "Interaction has already been acknowledged.", "code": 40060})
    bot.gate.set()
    await fake_discord.wait_until(lambda: bot.errors)
    assert isinstance(bot.errors[0], discord.HTTPException) and bot.errors[0].code == 40060


async def test_unknown_interaction_and_webhook(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    status, body = await call(fake_discord, "POST", "/interactions/1/nope/callback", {"type": 1}, auth=False)
    assert (status, body) == (404, {"message": "Unknown interaction", "code": 10062})
    status, body = await call(
        fake_discord, "POST", f"/webhooks/{fake_discord.application_id}/nope", {"content": "x"}, auth=False
    )
    assert (status, body["code"]) == (401, 50027)


# --- application commands -----------------------------------------------------------------------


def command(**overrides: Any) -> dict[str, Any]:
    return {"name": "ttr", "description": "Ticket to Ride", "type": 1, **overrides}


async def put_commands(fake: FakeDiscord, commands: list[dict[str, Any]]) -> tuple[int, Any]:
    return await call(fake, "PUT", f"/applications/{fake.application_id}/commands", commands)


async def test_command_name_and_description_rules(fake_discord: FakeDiscord) -> None:
    status, body = await put_commands(fake_discord, [command(name="Ticket")])
    assert status == 400 and first_error(body, 0, "name")["code"] == "APPLICATION_COMMAND_INVALID_NAME"
    status, body = await put_commands(fake_discord, [command(name="ticket to ride")])
    assert status == 400
    status, body = await put_commands(fake_discord, [command(name="x" * 33)])
    assert status == 400
    status, body = await put_commands(fake_discord, [command(description="d" * 101)])
    assert first_error(body, 0, "description")["message"] == "Must be between 1 and 100 in length."
    status, body = await put_commands(fake_discord, [command(description="")])
    assert status == 400
    status, body = await put_commands(fake_discord, [command(name="zug-fahrt_2"), command(name="trénò")])
    assert status == 200 and [c["name"] for c in body] == ["zug-fahrt_2", "trénò"]
    status, body = await put_commands(fake_discord, [{"name": "Show Hand", "type": 2, "description": ""}])
    assert status == 200  # context menus take spaces and capitals


async def test_command_option_rules(fake_discord: FakeDiscord) -> None:
    def option(name: str, **extra: Any) -> dict[str, Any]:
        return {"name": name, "description": "an option", "type": 3, **extra}

    status, body = await put_commands(fake_discord, [command(options=[option(f"o{i}") for i in range(26)])])
    assert first_error(body, 0, "options")["message"] == "Must be 25 or fewer in length."
    status, body = await put_commands(fake_discord, [command(options=[option("a"), option("b", required=True)])])
    assert first_error(body, 0, "options", 1, "required")["code"] == "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    status, body = await put_commands(fake_discord, [command(options=[option("map", choices=choices)])])
    assert first_error(body, 0, "options", 0, "choices")["code"] == "BASE_TYPE_MAX_LENGTH"
    status, body = await put_commands(fake_discord, [command(options=[option("Map")])])
    assert first_error(body, 0, "options", 0, "name")["code"] == "APPLICATION_COMMAND_INVALID_NAME"
    status, body = await put_commands(fake_discord, [command(options=[option("x", description="d" * 101)])])
    assert first_error(body, 0, "options", 0, "description")["code"] == "BASE_TYPE_BAD_LENGTH"
    status, body = await put_commands(fake_discord, [command(), command()])
    assert first_error(body, 1, "name")["code"] == "APPLICATION_COMMANDS_DUPLICATE_NAME"
    huge = [
        option(f"o{i}", description="d" * 100, choices=[{"name": "n" * 100, "value": "v" * 100}] * 25) for i in range(3)
    ]
    status, body = await put_commands(fake_discord, [command(options=huge)])
    assert first_error(body, 0)["code"] == "APPLICATION_COMMAND_TOO_LARGE"


async def test_guild_command_sync(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot(guild_id=fake_discord.guild.id))
    assert fake_discord.command_names(fake_discord.guild) == ["ttr"]
    assert fake_discord.commands(fake_discord.guild)[0]["guild_id"] == str(fake_discord.guild.id)
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
    assert reply.content.startswith("Hello alice")
    other = fake_discord.add_guild("Elsewhere")
    other.members.pop(fake_discord.bot_user.id)
    with pytest.raises(discord.Forbidden) as caught:
        await bot.tree.sync(guild=discord.Object(other.id))
    assert caught.value.code == 50001


# --- rate limits --------------------------------------------------------------------------------


async def test_rate_limit_is_answered_with_429_and_retried(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake_discord.rate_limit("POST /channels/{channel_id}/messages", retry_after=0.02, times=2)
    channel = bot.get_channel(fake_discord.general.id)
    await channel.send("after the wait")
    assert fake_discord.rate_limited == ["POST /channels/{channel_id}/messages"] * 2
    assert [m.content for m in fake_discord.channel_messages(fake_discord.general)] == ["after the wait"]
    status, body = await call(fake_discord, "GET", f"/channels/{fake_discord.general.id}")
    assert status == 200


async def test_rate_limit_response_shape(fake_discord: FakeDiscord) -> None:
    fake_discord.rate_limit("GET /users/@me", retry_after=1.5)
    async with aiohttp.ClientSession() as session:
        async with session.get(
            fake_discord.api_url + "/users/@me", headers={"Authorization": f"Bot {fake_discord.token}"}
        ) as response:
            assert response.status == 429
            assert response.headers["Retry-After"] == "2"
            assert response.headers["X-RateLimit-Scope"] == "user"
            assert await response.json() == {
                "message": "You are being rate limited.",
                "retry_after": 1.5,
                "global": False,
            }


async def test_follow_up_rate_limit(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake_discord.rate_limit("POST /webhooks/{application_id}/{token}", retry_after=0.02)
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr board")
    followup = await reply.wait_followup()
    assert followup.attachments[0].is_image
    assert fake_discord.rate_limited == ["POST /webhooks/{application_id}/{token}"]


async def test_bot_whose_command_sync_is_refused_fails_to_start(fake_discord: FakeDiscord) -> None:
    bot = TinyBot()
    too_many = [discord.app_commands.Choice(name=f"map {i}", value=f"m{i}") for i in range(26)]

    @bot.tree.command(name="maps", description="Too many choices for Discord")
    @discord.app_commands.choices(name=too_many)
    async def maps(interaction: discord.Interaction, name: discord.app_commands.Choice[str]) -> None:
        raise AssertionError("never synced")

    with pytest.raises(discord.app_commands.CommandSyncFailure) as caught:
        await fake_discord.start_client(bot, timeout=5)
    assert caught.value.code == 50035
    # discord.py maps Discord's error path (1.options.0.choices) back to the offending parameter
    assert "In command 'maps'" in str(caught.value)
    assert "In parameter 'name'\n    choices: Must be 25 or fewer in length." in str(caught.value)
    await fake_discord.stop_client(bot)


async def test_an_edit_counts_the_attachments_it_keeps(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    sent = await channel.send(files=[discord.File(io.BytesIO(b"x"), filename=f"{n}.txt") for n in range(6)])
    with pytest.raises(discord.HTTPException) as caught:
        await sent.add_files(*[discord.File(io.BytesIO(b"y"), filename=f"more{n}.txt") for n in range(5)])
    assert caught.value.code == 50035 and "attachments" in str(caught.value)
    edited = await sent.add_files(*[discord.File(io.BytesIO(b"y"), filename=f"more{n}.txt") for n in range(4)])
    assert len(edited.attachments) == 10 == len(fake_discord.messages[sent.id].attachments)


async def test_a_message_sent_again_with_its_enforced_nonce_is_not_sent_twice(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    """Create Message with `nonce` (discord.py adds `enforce_nonce`): the same author's message with
    that nonce in the past few minutes comes back instead of a new one."""
    channel = bot.get_channel(fake_discord.general.id)
    first = await channel.send("turn 12", nonce="ttr7.0")
    again = await channel.send("turn 12", nonce="ttr7.0")
    other = await channel.send("turn 13", nonce="ttr8.0")
    assert again.id == first.id and other.id != first.id and first.nonce == "ttr7.0"
    assert [m.content for m in fake_discord.channel_messages(fake_discord.general)] == ["turn 12", "turn 13"]
    fake_discord.advance(limits.NONCE_WINDOW_SECONDS + 1)
    later = await channel.send("turn 12", nonce="ttr7.0")  # long after: a new message
    assert later.id != first.id
    status, body = await call(
        fake_discord,
        "POST",
        f"/channels/{fake_discord.general.id}/messages",
        {"content": "x", "nonce": "n" * 26, "enforce_nonce": True},
    )
    assert status == 400 and first_error(body, "nonce")["code"] == "BASE_TYPE_BAD_LENGTH"
