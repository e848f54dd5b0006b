"""Login, gateway handshake and a slash command round trip through the real discord.py client."""

from __future__ import annotations

from tests.fakediscord import FakeDiscord
from tests.fakediscord.tinybot import TinyBot


async def test_bot_logs_in_connects_and_sees_the_guild(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
    assert bot.application_id == fake_discord.application_id
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.name == "Ticket to Ride Club"
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    assert "GET /users/@me" in fake_discord.requests
    assert "GET /oauth2/applications/@me" in fake_discord.requests
    assert fake_discord.unknown_routes == []


async def test_global_commands_are_synced(fake_discord: FakeDiscord, run_bot) -> None:
    await run_bot(TinyBot())
    assert fake_discord.command_names() == ["ttr"]
    subcommands = [o["name"] for o in fake_discord.commands()[0]["options"]]
    assert "new" in subcommands and "claim" in subcommands


async def test_slash_command_round_trip(fake_discord: FakeDiscord, run_bot) -> None:
    await run_bot(TinyBot())
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa", players=3)
    assert reply.kind == "message"
    assert reply.content == "Hello alice: new USA game for 3"
    assert fake_discord.channel_messages(fake_discord.general) == [reply.message]
    assert [b["label"] for b in reply.message.buttons] == ["Draw", "Hand", "Pass", "Gone"]
