"""Gateway sharding: each guild's events go to shard ``(guild_id >> 22) % shard_count``, DMs to
shard 0; an IDENTIFY for a shard that cannot exist is closed with 4010, one that would hold more
guilds than a shard may with 4011. Driven with discord.py's AutoShardedClient, in one process or
in two."""

from __future__ import annotations

import json

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, Guild
from tests.fakediscord.gateway import shard_for
from tests.fakediscord.tinybot import ShardedTinyBot


def second_guild_on_the_other_shard(fake: FakeDiscord) -> Guild:
    """A guild (with a #lobby) whose id falls on the other of two shards than the default guild."""
    while shard_for(fake.ids.peek(), 2) == fake.shard_of(fake.guild, 2):
        fake.ids.next()
    other = fake.add_guild("Second Club")
    fake.lobby = fake.add_channel(other, "lobby")
    other.members[fake.alice.id] = fake.alice
    return other


def routed(fake: FakeDiscord, event: str) -> dict[tuple[int, int] | None, list[int | None]]:
    """For each live session's shard, the guild ids of the ``event`` dispatches it was sent."""
    found: dict[tuple[int, int] | None, list[int | None]] = {}
    for session in fake._sessions.values():
        for payload in session.buffer:
            if payload["t"] == event:
                guild_id = payload["d"].get("guild_id") if event != "GUILD_CREATE" else payload["d"]["id"]
                found.setdefault(session.shard, []).append(int(guild_id) if guild_id else None)
    return found


async def test_one_process_with_two_shards(fake_discord: FakeDiscord, run_bot) -> None:
    fake = fake_discord
    other = second_guild_on_the_other_shard(fake)
    home_shard, other_shard = fake.shard_of(fake.guild, 2), fake.shard_of(other, 2)
    assert {home_shard, other_shard} == {0, 1}
    bot = await run_bot(ShardedTinyBot(shard_ids=[0, 1], shard_count=2))
    assert sorted(bot.shards) == [0, 1] and fake.identifies == 2
    assert bot.get_guild(fake.guild.id).shard_id == home_shard and bot.get_guild(other.id).shard_id == other_shard
    assert routed(fake, "GUILD_CREATE") == {(home_shard, 2): [fake.guild.id], (other_shard, 2): [other.id]}

    for channel in (fake.general, fake.lobby, fake.dm_channel(fake.alice)):
        reply = await fake.slash(fake.alice, channel, "ttr new", map="usa")
        assert reply.content == "Hello alice: new USA game for 4"
    assert routed(fake, "INTERACTION_CREATE") == {
        (home_shard, 2): [fake.guild.id] + ([None] if home_shard == 0 else []),
        (other_shard, 2): [other.id] + ([None] if other_shard == 0 else []),
    }


async def test_two_processes_with_one_shard_each(fake_discord: FakeDiscord, run_bot) -> None:
    fake = fake_discord
    other = second_guild_on_the_other_shard(fake)
    bots = {shard: await run_bot(ShardedTinyBot(shard_ids=[shard], shard_count=2)) for shard in (0, 1)}
    handled: dict[int, list[int | None]] = {0: [], 1: []}
    for shard, bot in bots.items():

        async def on_interaction(interaction: discord.Interaction, shard: int = shard) -> None:
            handled[shard].append(interaction.guild_id)

        bot.add_listener(on_interaction)
    home, away = bots[fake.shard_of(fake.guild, 2)], bots[fake.shard_of(other, 2)]
    assert [g.id for g in home.guilds] == [fake.guild.id] and [g.id for g in away.guilds] == [other.id]

    await fake.slash(fake.alice, fake.general, "ttr new", map="usa")
    await fake.slash(fake.alice, fake.lobby, "ttr new", map="europe")
    await fake.slash(fake.bob, fake.dm_channel(fake.bob), "ttr new", map="usa")
    assert handled[fake.shard_of(fake.guild, 2)] == [fake.guild.id] + (
        [None] if fake.shard_of(fake.guild, 2) == 0 else []
    )
    assert handled[fake.shard_of(other, 2)] == [other.id] + ([None] if fake.shard_of(other, 2) == 0 else [])

    sent = await away.get_channel(fake.lobby.id).send("from the other process")  # REST works from either
    assert fake.channel_messages(fake.lobby)[-1].id == sent.id


async def identify(fake: FakeDiscord, shard: list[int] | None) -> int | None:
    """A raw IDENTIFY; returns the close code (None if the fake answered READY)."""
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            data = {"token": fake.token, "intents": 1, "properties": {}}
            if shard is not None:
                data["shard"] = shard
            await ws.send_str(json.dumps({"op": 2, "d": data}))
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.TEXT:
                assert json.loads(message.data)["t"] == "READY"
                return None
            return ws.close_code


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [1]])
async def test_an_invalid_shard_is_closed_with_4010(fake_discord: FakeDiscord, shard: list[int]) -> None:
    assert await identify(fake_discord, shard) == 4010
    assert await identify(fake_discord, [1, 2]) is None


class TestShardingRequired:
    @pytest.fixture
    def fake_discord_options(self) -> dict:
        return {"max_guilds_per_shard": 1}

    async def test_too_many_guilds_on_one_session_is_closed_with_4011(self, fake_discord: FakeDiscord, run_bot) -> None:
        fake = fake_discord
        second_guild_on_the_other_shard(fake)
        assert fake.recommended_shards == 2
        async with aiohttp.ClientSession() as session:
            async with session.get(
                fake.api_url + "/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
            ) as response:
                assert (await response.json())["shards"] == 2
        assert await identify(fake, None) == 4011
        with pytest.raises(discord.ConnectionClosed) as caught:
            await fake.start_client(discord.Client(intents=discord.Intents.default()), timeout=5)
        assert caught.value.code == 4011
        bot = await run_bot(ShardedTinyBot(intents=discord.Intents.default()))  # asks /gateway/bot: 2 shards
        assert bot.shard_count == 2 and len(bot.guilds) == 2
