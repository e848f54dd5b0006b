"""The gateway websocket: hello, identify, heartbeats, ready, guild create, then dispatches; resume.

Dispatches go to sessions (`GatewaySession`), not sockets: a session keeps its sequence numbers and
a buffer of what it was sent, so when its websocket drops (see `FakeDiscord.disconnect`) and the
client sends RESUME with its session id and last sequence, the fake replays the missed events and
says RESUMED; an unknown session or a sequence too old is answered INVALID_SESSION (d=false).

Transport compression follows the client's ``compress`` query parameter: ``zlib-stream`` (one zlib
context per connection, every payload ending in a Z_SYNC_FLUSH), ``zstd-stream`` when the
``zstandard`` module is installed (what discord.py prefers then), or none. Only ``encoding=json``.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
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


_session_numbers = itertools.count(1)


def shard_for(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula: ``shard_id = (guild_id >> 22) % num_shards``."""
    return (guild_id >> 22) % shard_count


class GatewaySession:
    """A bot's gateway session: outlives its websocket, so that a RESUME can replay what it missed.

    Every dispatch gets the session's next sequence number and is kept in ``buffer`` (the last
    `BUFFERED_EVENTS`); while no websocket is attached, events are only buffered.
    """

    BUFFERED_EVENTS = 1000

    def __init__(self, fake: FakeDiscord, intents: int, shard: tuple[int, int] | None = None):
        self.fake = fake
        self.intents = intents
        self.shard = shard  # (shard_id, shard_count) from IDENTIFY; None: unsharded (every guild)
        self.sequence = 0
        self.id = f"fake-session-{next(_session_numbers)}"
        self.buffer: collections.deque[dict[str, Any]] = collections.deque(maxlen=self.BUFFERED_EVENTS)
        self.connection: GatewayConnection | None = None
        self.expect_resume = False  # the fake dropped the socket and keeps the session for a RESUME
        self.lock = asyncio.Lock()

    def wants(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of ``guild_id`` (None: DMs, which go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_for(guild_id, count))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        async with self.lock:
            self.sequence += 1
            payload = {"op": DISPATCH, "d": data, "s": self.sequence, "t": event}
            self.buffer.append(payload)
            if self.connection is not None:
                await self.connection.send_payload(payload)

    def missed_since(self, sequence: int) -> list[dict[str, Any]] | None:
        """The buffered events after ``sequence``, or None when some of them are no longer buffered."""
        if sequence > self.sequence:
            return None
        missed = [p for p in self.buffer if p["s"] > sequence]
        if len(missed) < self.sequence - sequence:
            return None
        return missed


class GatewayConnection:
    """One websocket on the gateway; ``session`` once it identified or resumed."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, compress: str | None):
        self.fake = fake
        self.ws = ws
        self.compressor = _Compressor(compress)
        self.session: GatewaySession | None = None
        self._lock = asyncio.Lock()

    async def send_payload(self, payload: dict[str, Any]) -> None:
        async with self._lock:
            if self.ws.closed:
                return
            encoded = self.compressor.encode(json.dumps(payload))
            try:
                if isinstance(encoded, bytes):
                    await self.ws.send_bytes(encoded)
                else:
                    await self.ws.send_str(encoded)
            except (ConnectionError, RuntimeError) as exc:  # the client is closing the socket right now
                log.debug("gateway send failed (%s); the session keeps the event for a resume", exc)

    async def send(self, op: int, data: Any) -> None:
        await self.send_payload({"op": op, "d": data, "s": None, "t": None})

    async def close(self, code: int, message: bytes = b"") -> None:
        self.detach()
        await self.ws.close(code=code, message=message)

    def detach(self) -> None:
        if self.session is not None and self.session.connection is self:
            self.session.connection = None
            self.fake._changed()

    async def run(self) -> None:
        await self.send(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        async for msg in self.ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    await self.close(4002, b"Decode error")
                break
            try:
                payload = json.loads(msg.data)
            except ValueError:
                await self.close(4002, b"Decode error")
                break
            await self.handle(payload)

    def finished(self) -> None:
        """The websocket is gone. If the fake dropped it (`FakeDiscord.disconnect`), the session stays
        resumable and buffers what happens meanwhile; if the client went away (closing the bot), the
        session ends (discord.py closes with 4000 either way, so the close code cannot tell)."""
        session = self.session
        if session is not None and session.connection in (self, None):
            self.detach()
            if not session.expect_resume:
                self.fake._end_session(session)
        self.fake._changed()

    async def handle(self, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            await self.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self.identify(data or {})
        elif op == RESUME:
            await self.resume(data or {})
        elif op == REQUEST_MEMBERS:
            await self.member_chunk(data or {})
        elif op in (PRESENCE, VOICE):
            pass
        else:
            await self.close(4001, b"Unknown opcode.")

    async def resume(self, data: dict[str, Any]) -> None:
        fake = self.fake
        if not fake.accepts_token(str(data.get("token", ""))):
            await self.close(4004, b"Authentication failed.")
            return
        session = fake._sessions.get(str(data.get("session_id")))
        missed = session.missed_since(int(data.get("seq") or 0)) if session is not None else None
        if session is None or missed is None:
            if session is not None:
                fake._end_session(session)
            fake.invalid_resumes += 1
            fake._identify_waits_owed += 1  # discord.py waits 5 s before identifying (shortened)
            await self.send(INVALID_SESSION, False)  # the client identifies again
            return
        async with session.lock:
            old = session.connection
            self.session = session
            session.connection = self
            session.expect_resume = False
            if old is not None and old is not self:
                await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
            for event in missed:  # Discord replays what the client missed, then says RESUMED
                await self.send_payload(event)
        fake.resumes += 1
        fake.replayed += len(missed)
        await session.dispatch("RESUMED", {})
        fake._changed()

    async def identify(self, data: dict[str, Any]) -> None:
        fake = self.fake
        if not fake.accepts_token(str(data.get("token", ""))):
            await self.close(4004, b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED & ~fake.privileged_intents:
            await self.close(4014, b"Disallowed intent(s).")
            return
        shard = data.get("shard")
        if shard is not None:
            valid = isinstance(shard, list) and len(shard) == 2 and all(isinstance(n, int) for n in shard)
            if not valid or not 0 <= shard[0] < shard[1]:
                await self.close(4010, b"Invalid shard.")
                return
            shard = (shard[0], shard[1])
        guilds = [g for g in fake.bot_guilds() if shard is None or shard_for(g.id, shard[1]) == shard[0]]
        if len(guilds) > fake.max_guilds_per_shard:
            await self.close(4011, b"Sharding required.")
            return
        if shard is not None and shard[0] + 1 < shard[1]:
            # discord.py's AutoShardedClient waits 5 s before identifying its next shard (shortened)
            fake._identify_waits_owed += 1
        session = GatewaySession(fake, intents, shard)
        self.session = session
        session.connection = self
        fake._sessions[session.id] = session
        fake.identifies += 1
        ready = {
            "v": 10,
            "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await session.dispatch("READY", ready)
        if session.wants(GUILDS):
            for guild in guilds:
                await session.dispatch("GUILD_CREATE", guild.payload())
        fake._changed()

    async def member_chunk(self, data: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or self.session is None:
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
        await self.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


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
    fake._gateway_connections.add(connection)
    try:
        await fake._gateway_open.wait()  # held while a test keeps the bot disconnected
        await connection.run()
    finally:
        fake._all_sockets.discard(ws)
        fake._gateway_connections.discard(connection)
        connection.finished()
    return ws
