"""Who may edit a message, and how often: the cap on edits to messages older than an hour (30046),
and ephemeral messages, editable only through the interaction that made them or a click on them."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.tinybot import TinyBot

HOUR = 3600


@pytest.fixture
async def bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    return await run_bot(TinyBot())


async def post(bot: TinyBot, channel, text: str) -> discord.Message:
    return await bot.get_channel(channel.id).send(text)


# --- edits to messages older than an hour -------------------------------------------------------


async def test_old_messages_take_few_edits_per_channel(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    table = await post(bot, fake.general, "table")
    other = await post(bot, fake.games, "elsewhere")
    for n in range(5):  # a young message is not capped
        await table.edit(content=f"young {n}")
    fake.advance(HOUR + 1)
    for n in range(3):
        await table.edit(content=f"old {n}")
    with pytest.raises(discord.HTTPException) as refused:
        await table.edit(content="one too many")
    assert (refused.value.status, refused.value.code) == (429, 30046)
    assert refused.value.text == "Maximum number of edits to messages older than 1 hour reached. Try again later"
    assert fake.messages[table.id].content == "old 2"
    assert fake.rejections[-1][0] == "PATCH /channels/{channel_id}/messages/{message_id}"
    fresh = await post(bot, fake.general, "a new table")  # reposting is the way out
    await fresh.edit(content="a new table, edited")
    await other.edit(content="another channel has its own count")
    fake.advance(HOUR)
    await table.edit(content="an hour later")
    assert fake.messages[table.id].content == "an hour later"


async def test_old_message_cap_is_configurable(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    fake.old_message_edits = (1, 6.0)
    table = await post(bot, fake.general, "table")
    fake.advance(HOUR + 1)
    await table.edit(content="first")
    with pytest.raises(discord.HTTPException, match="30046"):
        await table.edit(content="second")
    fake.advance(6)
    await table.edit(content="after the window")
    fake.old_message_edits = None
    for n in range(10):
        await table.edit(content=f"uncapped {n}")


async def test_clicks_on_an_old_message_count_as_edits(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    """A component update edits the clicked message: capped like any edit, so the click fails."""
    fake = fake_discord
    fake.old_message_edits = (1, HOUR)
    first = await fake.slash(fake.alice, fake.general, "ttr turn")
    second = await fake.slash(fake.bob, fake.general, "ttr turn")
    fake.advance(HOUR + 1)
    await fake.click(fake.alice, first.message, "ttr:v2:draw")
    assert "Cards drawn: 1" in first.message.text_displays
    click = await fake.click(fake.bob, second.message, "ttr:v2:draw", wait=False)
    error = await fake.wait_for_rejection(30046)
    assert error.status == 429 and click.rejected == [error] and click.kind is None


# --- ephemeral messages: only their interaction (or a click on them) edits them -----------------


async def test_ephemeral_messages_are_edited_only_through_their_interactions(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    fake = fake_discord
    peek = await fake.slash(fake.alice, fake.general, "ttr peek")
    secret = peek.message
    assert secret.ephemeral and secret.custom_ids
    other = await fake.slash(fake.alice, fake.general, "ttr card")

    def hook(interaction) -> discord.Webhook:
        return discord.Webhook.partial(fake.application_id, interaction.token, client=bot)

    # Not through the channel (ephemeral messages are no channel messages) ...
    with pytest.raises(discord.NotFound) as refused:
        await bot.get_channel(fake.general.id).get_partial_message(secret.id).edit(content="hijacked")
    assert refused.value.code == 10008
    # ... nor through another interaction's token, even the same user's in the same channel.
    with pytest.raises(discord.NotFound) as refused:
        await hook(other).edit_message(secret.id, content="hijacked")
    assert refused.value.code == 10008
    assert secret.content == "Your private table" and not secret.edited
    # Through the interaction that created it: yes.
    await hook(peek).edit_message(secret.id, content="Your private table, again")
    assert secret.content == "Your private table, again"
    # A click on it brings a fresh token that edits it: deferred, then edited as the original response.
    click = await fake.click(fake.alice, secret, "ttr:pass")
    followup = await click.wait_followup(0)
    assert secret.content == "alice passed" and click.message is secret and followup.ephemeral
    # Fifteen minutes on, the creating token is spent, and a click is again the only way in.
    fake.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as refused:
        await hook(peek).edit_message(secret.id, content="too late")
    assert refused.value.code == 50027
    await fake.click(fake.alice, secret, "ttr:draw")
    assert secret.content == "alice drew a card" and secret.components == []
