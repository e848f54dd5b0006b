"""The gateway websocket: hello, identify, heartbeats, ready, guild create, then dispatches.

Transport compression follows the client's ``compress`` query parameter: ``zlib-stream`` (one zlib
context per connection, every payload ending in a Z_SYNC_FLUSH), ``zstd-stream`` when the
``zstandard`` module is installed (what discord.py prefers then), or none. Only ``encoding=json``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import zlib
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.fakediscord.api import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 4, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41250

# Intent bits the fake honours when dispatching.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRESENCES = 1 << 8
PRIVILEGED = GUILD_MEMBERS | PRESENCES | MESSAGE_CONTENT


class _Compressor:
    def __init__(self, kind: str | None):
        self.kind = kind
        if kind == "zlib-stream":
            self._zlib = zlib.compressobj()
        elif kind == "zstd-stream":
            import zstandard  # only requested by discord.py when it is installed

            self._zstd = zstandard.ZstdCompressor().compressobj()
            self._flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK

    def encode(self, text: str) -> bytes | str:
        if self.kind == "zlib-stream":
            return self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self.kind == "zstd-stream":
            return self._zstd.compress(text.encode()) + self._zstd.flush(self._flush)
        return text


class GatewayConnection:
    """One bot session on the gateway."""

    def __init__(self, fake: "FakeDiscord", ws: web.WebSocketResponse, compress: str | None):
        self.fake = fake
        self.ws = ws
        self.compressor = _Compressor(compress)
        self.sequence = 0
        self.intents = 0
        self.session_id = f"fake-session-{id(self):x}"
        self.ready = asyncio.Event()
        self._lock = asyncio.Lock()

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        async with self._lock:
            payload: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == DISPATCH:
                self.sequence += 1
                payload["s"] = self.sequence
            encoded = self.compressor.encode(json.dumps(payload))
            if self.ws.closed:
                return
            if isinstance(encoded, bytes):
                await self.ws.send_bytes(encoded)
            else:
                await self.ws.send_str(encoded)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        await self.send(DISPATCH, data, event)

    def wants(self, intent: int) -> bool:
        return bool(self.intents & intent)

    async def run(self) -> None:
        await self.send(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        async for msg in self.ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    await self.ws.close(code=4002, message=b"Decode error")
                break
            try:
                payload = json.loads(msg.data)
            except ValueError:
                await self.ws.close(code=4002, message=b"Decode error")
                break
            await self.handle(payload)

    async def handle(self, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            await self.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self.identify(data or {})
        elif op == RESUME:
            if not self.fake.accepts_token(str((data or {}).get("token", ""))):
                await self.ws.close(code=4004, message=b"Authentication failed.")
                return
            self.fake._connections.append(self)
            await self.dispatch("RESUMED", {})
            self.ready.set()
        elif op == REQUEST_MEMBERS:
            await self.member_chunk(data or {})
        elif op in (PRESENCE, VOICE):
            pass
        else:
            await self.ws.close(code=4001, message=b"Unknown opcode.")

    async def identify(self, data: dict[str, Any]) -> None:
        fake = self.fake
        if not fake.accepts_token(str(data.get("token", ""))):
            await self.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.intents = int(data.get("intents", 0))
        if self.intents & PRIVILEGED & ~fake.privileged_intents:
            await self.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        fake._connections.append(self)
        guilds = fake.bot_guilds()
        ready = {
            "v": 10,
            "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": self.session_id,
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready)
        if self.wants(GUILDS):
            for guild in guilds:
                await self.dispatch("GUILD_CREATE", guild.payload())
        self.ready.set()
        fake._changed()

    async def member_chunk(self, data: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            guild.member_payload(user)
            for user in guild.members.values()
            if (not wanted or user.id in wanted) and user.name.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)


async def gateway_handler(request: web.Request) -> web.WebSocketResponse:
    from tests.fakediscord.server import FAKE_KEY

    fake: FakeDiscord = request.app[FAKE_KEY]
    if request.query.get("encoding", "json") != "json":
        raise web.HTTPBadRequest(text="the fake gateway speaks json only")
    compress = request.query.get("compress") or None
    if compress not in (None, "zlib-stream", "zstd-stream"):
        raise web.HTTPBadRequest(text=f"unknown compression {compress}")
    ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
    await ws.prepare(request)
    connection = GatewayConnection(fake, ws, compress)
    fake._all_sockets.add(ws)
    try:
        await connection.run()
    finally:
        fake._all_sockets.discard(ws)
        if connection in fake._connections:
            fake._connections.remove(connection)
        fake._changed()
    return ws
