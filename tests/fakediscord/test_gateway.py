"""The gateway handshake, compression, heartbeats and failures, seen by raw sockets and discord.py."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.tinybot import TinyBot

GUILDS_AND_MESSAGES = (1 << 0) | (1 << 9)


class RawGateway:
    """A hand-written gateway client, to check the wire format without discord.py in between."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compressed: bool):
        self.ws = ws
        self.inflater = zlib.decompressobj() if compressed else None

    async def receive(self) -> dict[str, Any]:
        message = await self.ws.receive(timeout=2)
        if self.inflater is not None:
            assert message.type == aiohttp.WSMsgType.BINARY
            assert message.data.endswith(b"\x00\x00\xff\xff")  # every payload ends in a Z_SYNC_FLUSH
            return json.loads(self.inflater.decompress(message.data))
        assert message.type == aiohttp.WSMsgType.TEXT, message
        return json.loads(message.data)

    async def send(self, op: int, data: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": data}))


@pytest.mark.parametrize("compress", [None, "zlib-stream"])
async def test_handshake_on_the_wire(fake_discord: FakeDiscord, compress: str | None) -> None:
    url = fake_discord.gateway_url + "?v=10&encoding=json" + (f"&compress={compress}" if compress else "")
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        gateway = RawGateway(ws, compressed=compress is not None)
        hello = await gateway.receive()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await gateway.send(1, None)
        assert (await gateway.receive())["op"] == 11
        await gateway.send(2, {"token": fake_discord.token, "intents": GUILDS_AND_MESSAGES, "properties": {}})
        ready = await gateway.receive()
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        assert ready["d"]["user"]["id"] == str(fake_discord.bot_user.id)
        assert ready["d"]["application"]["id"] == str(fake_discord.application_id)
        assert ready["d"]["guilds"] == [{"id": str(fake_discord.guild.id), "unavailable": True}]
        guild = await gateway.receive()
        assert (guild["t"], guild["s"]) == ("GUILD_CREATE", 2)
        assert {c["name"] for c in guild["d"]["channels"]} == {"general", "games"}
        members = {m["user"]["username"] for m in guild["d"]["members"]}
        assert {"alice", "bob", "carol", "dirk"} <= members and "stranger" not in members
        await gateway.send(8, {"guild_id": str(fake_discord.guild.id), "query": "b", "limit": 0})
        chunk = await gateway.receive()
        assert chunk["t"] == "GUILD_MEMBERS_CHUNK"
        assert [m["user"]["username"] for m in chunk["d"]["members"]] == ["bob"]


async def test_wrong_token_closes_with_4004(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake_discord.gateway_url + "?v=10") as ws:
        await ws.receive(timeout=2)
        await ws.send_str(json.dumps({"op": 2, "d": {"token": "stolen", "intents": 1, "properties": {}}}))
        closed = await ws.receive(timeout=2)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4004


async def test_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


async def test_privileged_intents_need_to_be_enabled() -> None:
    fake = FakeDiscord(privileged_intents=False).add_default_world()
    await fake.start()
    try:
        with fake.patch_discord():
            with pytest.raises(discord.PrivilegedIntentsRequired):
                await fake.start_client(TinyBot(intents=discord.Intents.all()), timeout=5)
    finally:
        await fake.close()


async def test_members_intent_bot_sees_members(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot(intents=discord.Intents.all()))
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild.chunked
    assert guild.get_member(fake_discord.carol.id).name == "carol"
    assert guild.get_member(fake_discord.stranger.id) is None


async def test_unknown_routes_are_recorded(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=fake_discord.guild.id))
    assert fake_discord.unknown_routes == [f"GET /guilds/{fake_discord.guild.id}/bans"]


async def test_bot_can_restart_against_the_same_fake(fake_discord: FakeDiscord) -> None:
    for _ in range(2):
        bot = TinyBot()
        async with fake_discord.running(bot):
            reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr new", map="usa")
            assert reply.kind == "message"
        assert bot.is_closed()
        await fake_discord.wait_until(lambda: not fake_discord.connected, what="the bot to disconnect")


async def test_auto_sharded_client_uses_gateway_bot(fake_discord: FakeDiscord, run_bot) -> None:
    client = await run_bot(discord.AutoShardedClient(intents=discord.Intents.default()))
    assert "GET /gateway/bot" in fake_discord.requests
    assert client.shard_count == 1 and client.get_guild(fake_discord.guild.id) is not None


async def test_resume_on_the_wire(fake_discord: FakeDiscord) -> None:
    """RESUME replays the missed dispatches with their original sequence numbers, then RESUMED."""
    url = fake_discord.gateway_url + "?v=10&encoding=json"
    alice, general = fake_discord.alice, fake_discord.general
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url) as ws:
            gateway = RawGateway(ws, compressed=False)
            await gateway.receive()
            intents = GUILDS_AND_MESSAGES | (1 << 15)  # message content
            await gateway.send(2, {"token": fake_discord.token, "intents": intents, "properties": {}})
            ready = await gateway.receive()
            session_id = ready["d"]["session_id"]
            assert (await gateway.receive())["s"] == 2
            await fake_discord.say(alice, general, "seen")
            assert (await gateway.receive())["s"] == 3
            held = fake_discord.disconnected(resume=True)
            entering = asyncio.create_task(held.__aenter__())
            closed = await ws.receive(timeout=2)
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4000
            await entering
            await fake_discord.say(alice, general, "missed 1")
            await fake_discord.say(alice, general, "missed 2")
        leaving = asyncio.create_task(held.__aexit__(None, None, None))
        async with session.ws_connect(url) as ws:
            gateway = RawGateway(ws, compressed=False)
            assert (await gateway.receive())["op"] == 10
            await gateway.send(6, {"token": fake_discord.token, "session_id": session_id, "seq": 3})
            replayed = [await gateway.receive() for _ in range(3)]
            assert [(p["s"], p["t"]) for p in replayed] == [
                (4, "MESSAGE_CREATE"),
                (5, "MESSAGE_CREATE"),
                (6, "RESUMED"),
            ]
            assert [p["d"]["content"] for p in replayed[:2]] == ["missed 1", "missed 2"]
            await leaving
            assert (fake_discord.resumes, fake_discord.replayed) == (1, 2)
        async with session.ws_connect(url) as ws:
            gateway = RawGateway(ws, compressed=False)
            await gateway.receive()
            await gateway.send(6, {"token": fake_discord.token, "session_id": "no-such-session", "seq": 1})
            invalid = await gateway.receive()
            assert (invalid["op"], invalid["d"]) == (9, False)
            assert fake_discord.invalid_resumes == 1
