"""`FakeDiscord`: the fake server's world, its lifecycle, and the scripting API tests use.

    fake = FakeDiscord()
    fake.add_default_world()            # fake.guild, fake.general, fake.alice, fake.bob, ...
    await fake.start()
    with fake.patch_discord():          # point discord.py's REST and gateway URLs at the fake
        async with fake.running(bot):   # bot.start(...) until ready; closed cleanly on exit
            reply = await fake.slash(fake.alice, fake.general, "ttr new", map="usa")
            assert reply.kind == "message" and "USA" in reply.content
    await fake.close()

The pytest fixtures in `tests.fakediscord.fixtures` do the start/patch/close for you.
"""

from __future__ import annotations

import asyncio
import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

from aiohttp import web

from tests.fakediscord import limits
from tests.fakediscord.gateway import (
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    GUILDS,
    INVALID_SESSION,
    MESSAGE_CONTENT,
    PRIVILEGED,
    RECONNECT,
    GatewayConnection,
    GatewaySession,
    shard_for,
)
from tests.fakediscord.mentions import Pings, compute_pings, message_text
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.server import API_PREFIX, build_app
from tests.fakediscord.state import (
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BOT_ROLE_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    MENTION_EVERYONE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    TEXT,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Message,
    Role,
    ScriptError,
    Snowflakes,
    User,
    snowflake_time,
)

# Application flags that grant the privileged intents (presence, members, message content).
APP_FLAGS_PRIVILEGED = (1 << 12) | (1 << 14) | (1 << 18)

OPTION_TYPES = {
    1: "SUB_COMMAND",
    2: "SUB_COMMAND_GROUP",
    3: "STRING",
    4: "INTEGER",
    5: "BOOLEAN",
    6: "USER",
    7: "CHANNEL",
    8: "ROLE",
    9: "MENTIONABLE",
    10: "NUMBER",
    11: "ATTACHMENT",
}


class FakeDiscord:
    """A Discord server on 127.0.0.1 that a real, unmodified discord.py client connects to."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        privileged_intents: bool = True,
        bot_name: str = "TTR Bot",
        rate_limits: dict[str, tuple[int, float]] | None = None,
        global_rate_limit: tuple[int, float] | None = None,
        max_guilds_per_shard: int = 2500,
        recommended_shards: int | None = None,
        old_message_edits: tuple[int, float] | None = (3, 3600.0),
    ):
        """``rate_limits``: per-route buckets, {"METHOD /template": (limit, per_seconds)} (off by default;
        `tests.fakediscord.ratelimits.DISCORD_LIKE` is a Discord-like table); ``global_rate_limit``:
        (limit, per_seconds) over all routes but interaction callbacks. ``max_guilds_per_shard``: more
        guilds than this on one session and IDENTIFY is closed with 4011 Sharding required (Discord:
        2500); ``recommended_shards``: the ``shards`` of `GET /gateway/bot` (default: just enough).
        ``old_message_edits``: (limit, per_seconds) edits per channel to messages older than an hour before
        Discord's 429 30046 (its count is unpublished: the default is deliberately strict; None: no cap)."""
        self.ids = Snowflakes()
        self.rate_limits = RateLimits(rate_limits, global_limit=global_rate_limit, clock=self.now)
        self.max_guilds_per_shard = max_guilds_per_shard
        self.old_message_edits = old_message_edits
        self._old_edits: dict[int, list[float]] = {}  # channel id -> when its old messages were edited
        self._recommended_shards = recommended_shards
        self.token = token
        self.owner = User(id=self.ids.next(), name="owner")
        self.bot_user = User(id=self.ids.next(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.privileged_intents = PRIVILEGED if privileged_intents else 0
        self.application_flags = APP_FLAGS_PRIVILEGED if privileged_intents else 0
        self.users: dict[int, User] = {self.owner.id: self.owner, self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self._dm_channels: dict[int, Channel] = {}
        self._ephemeral: dict[int, list[Message]] = {}
        self._user_attachments: dict[int, Attachment] = {}
        self._commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self._rate_limits: list[dict[str, Any]] = []
        self._clock_offset = 0.0
        self._background: list[asyncio.Future] = []
        self._changed_event = asyncio.Event()
        self._sessions: dict[str, GatewaySession] = {}  # live or resumable gateway sessions, by id
        self._gateway_connections: set[GatewayConnection] = set()
        self._gateway_open = asyncio.Event()  # cleared while `disconnected()` keeps the bot away
        self._gateway_open.set()
        self._failures: list[dict[str, Any]] = []
        self._all_sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._client_tasks: dict[int, asyncio.Task] = {}
        self.port: int | None = None
        #: every API request as "METHOD /route/{template}", in order
        self.requests: list[str] = []
        #: requests the fake refused: ("METHOD /route", DiscordError) with Discord's status and code
        self.rejections: list[tuple[str, limits.DiscordError]] = []
        #: API calls to routes the fake does not implement (answered 404)
        self.unknown_routes: list[str] = []
        #: every message version created or edited, with who it pinged, in order
        self.pings: list[tuple[Message, Pings]] = []
        #: requests answered 429 (scripted with `rate_limit`, or by a bucket of ``rate_limits``)
        self.rate_limited: list[str] = []
        #: requests answered with a scripted 5xx: ("METHOD /route/{template}", status)
        self.failed: list[tuple[str, int]] = []
        #: gateway IDENTIFYs and successful RESUMEs so far; events replayed by resumes; refused resumes
        self.identifies = 0
        self.resumes = 0
        self.replayed = 0
        self.invalid_resumes = 0
        #: discord.py's backoff before retrying a 5xx (1, 3, 5, 7, 9 s) and its 5 s wait before
        #: identifying again after an invalid session are multiplied by this while `patch_discord()`
        #: is active, so five failed tries or a re-identify take milliseconds
        self.backoff_scale = 0.01
        self._backoffs_owed = 0
        self._identify_waits_owed = 0

    # --- building the world ---------------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        locale: str = "en-US",
        owner: User | None = None,
        bot_permissions: int = BOT_ROLE_PERMISSIONS,
    ) -> Guild:
        """A guild the bot is in, with @everyone and the bot's managed role (``bot_permissions``)."""
        guild = Guild(
            id=self.ids.next(),
            name=name,
            owner_id=(owner or self.owner).id,
            preferred_locale=locale,
            bot_id=self.bot_user.id,
            bot_role_id=self.ids.next(),
            bot_role_permissions=bot_permissions,
            bot_role_name=self.bot_user.name,
        )
        guild.joined_at = snowflake_time(guild.id)
        guild.members[self.bot_user.id] = self.bot_user
        guild.members[guild.owner_id] = owner or self.owner
        self.guilds[guild.id] = guild
        return guild

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        bot_can_send: bool = True,
        bot_can_attach: bool = True,
        bot_can_create_threads: bool = True,
        bot_deny: int = 0,
        everyone_deny: int = 0,
    ) -> Channel:
        """A text channel. ``bot_can_...=False`` adds a member overwrite denying the bot SEND_MESSAGES,
        ATTACH_FILES or CREATE_PUBLIC/PRIVATE_THREADS there (seen by discord.py in GUILD_CREATE, enforced
        by the REST routes with 403 Missing Permissions); ``bot_deny`` denies any further bits (e.g.
        EMBED_LINKS, MENTION_EVERYONE), ``everyone_deny`` adds an @everyone overwrite denying those bits.
        Add channels before the bot connects."""
        channel = Channel(
            id=self.ids.next(),
            name=name,
            type=TEXT,
            guild=guild,
            bot_can_send=bot_can_send,
            bot_can_attach=bot_can_attach,
            bot_can_create_threads=bot_can_create_threads,
            bot_deny=bot_deny,
            everyone_deny=everyone_deny,
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_role(self, guild: Guild, name: str, *, mentionable: bool = False) -> Role:
        """A role in ``guild`` (in GUILD_CREATE: add it before the bot connects); ``role.mention`` pings it
        when it is mentionable or the sender may mention everyone."""
        role = Role(id=self.ids.next(), name=name, mentionable=mentionable, position=2 + len(guild.extra_roles))
        guild.extra_roles.append(role)
        return role

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        dms_open: bool = True,
        guild: Guild | None = None,
        member: bool = True,
    ) -> User:
        """A user; a member of ``guild`` (default: the first guild) unless ``member=False``."""
        user = User(id=self.ids.next(), name=name, locale=locale, dms_open=dms_open)
        self.users[user.id] = user
        target = guild or next(iter(self.guilds.values()), None)
        if member and target is not None:
            target.members[user.id] = user
        return user

    def add_default_world(self) -> FakeDiscord:
        """One guild with #general and #games, and users in several locales.

        ``alice`` (en-US), ``bob`` (fr), ``carol`` (de, DMs closed), ``dirk`` (nl), and ``stranger``
        (sv-SE) who is not a member of the guild.
        """
        self.guild = self.add_guild("Ticket to Ride Club")
        self.general = self.add_channel(self.guild, "general")
        self.games = self.add_channel(self.guild, "games")
        self.alice = self.add_user("alice", locale="en-US")
        self.bob = self.add_user("bob", locale="fr")
        self.carol = self.add_user("carol", locale="de", dms_open=False)
        self.dirk = self.add_user("dirk", locale="nl")
        self.stranger = self.add_user("stranger", locale="sv-SE", member=False)
        return self

    def bot_guilds(self) -> list[Guild]:
        return [g for g in self.guilds.values() if self.bot_user.id in g.members]

    def shares_guild(self, user: User) -> bool:
        return any(user.id in g.members for g in self.bot_guilds())

    def dm_channel(self, user: User) -> Channel:
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.ids.next(), name=f"dm-{user.name}", type=DM, recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def accepts_token(self, token: str) -> bool:
        return token.removeprefix("Bot ") == self.token

    # --- lifecycle ------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> FakeDiscord:
        self._runner = web.AppRunner(build_app(self), access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        self._gateway_open.set()
        for ws in list(self._all_sockets):
            await ws.close(code=1001, message=b"fake server shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py at the fake: `Route.BASE` (REST, webhooks) and the default gateway URL; and
        shorten the retry waits the fake causes (5xx backoff, re-identify), see `backoff_scale`."""
        import discord.client
        import discord.gateway
        import discord.http
        import discord.webhook.async_
        import yarl

        saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        modules = (discord.http, discord.webhook.async_, discord.client)
        saved_asyncio = [m.asyncio for m in modules]  # type: ignore[attr-defined]
        discord.http.Route.BASE = self.api_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        # discord.py sleeps 1, 3, 5, 7, 9 s before retrying a 5xx, and 5 s before identifying again
        # after an invalid session (`Client.before_identify_hook`); the fake shortens those sleeps, and
        # only those it caused, by `backoff_scale`.
        retry = _BackoffAsyncio(self, "_backoffs_owed", (1, 3, 5, 7, 9))
        discord.http.asyncio = discord.webhook.async_.asyncio = retry  # type: ignore[attr-defined]
        discord.client.asyncio = _BackoffAsyncio(self, "_identify_waits_owed", (5.0,))  # type: ignore[attr-defined]
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
            for module, original in zip(modules, saved_asyncio):
                module.asyncio = original  # type: ignore[attr-defined]

    @contextlib.asynccontextmanager
    async def running(self, client: Any, *, timeout: float = 10.0, guild_ready_timeout: float | None = 0.05):
        """Start ``client`` (any `discord.Client`) against the fake, wait until ready, close it on exit.

        discord.py waits ``guild_ready_timeout`` (2 s by default) after the last GUILD_CREATE before
        it fires on_ready; tests lower it to keep start-up fast (pass None to keep the client's own).
        """
        await self.start_client(client, timeout=timeout, guild_ready_timeout=guild_ready_timeout)
        try:
            yield client
        finally:
            await self.stop_client(client)

    async def start_client(
        self, client: Any, *, timeout: float = 10.0, guild_ready_timeout: float | None = 0.05
    ) -> Any:
        if guild_ready_timeout is not None:
            client._connection.guild_ready_timeout = guild_ready_timeout
        task = asyncio.create_task(client.start(self.token), name="fakediscord-client")
        self._client_tasks[id(client)] = task
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise the client's start-up error
                raise RuntimeError("the client stopped before it was ready")
            await self.stop_client(client)
            raise TimeoutError(f"the client was not ready after {timeout} s")
        return client

    async def stop_client(self, client: Any) -> None:
        await client.close()
        task = self._client_tasks.pop(id(client), None)
        if task is not None:
            try:
                await asyncio.wait_for(task, 5.0)
            except (asyncio.CancelledError, Exception):
                pass

    def record_pings(self, message: Message, allowed: dict[str, Any] | None, *, interaction: bool) -> Pings:
        """Work out and keep who this version of ``message`` pings (see `tests.fakediscord.mentions`)."""
        channel = message.channel
        guild = channel.guild
        if guild is not None:
            visible = set(guild.members)
            sender_permissions = (
                channel.bot_permissions
                if message.author is self.bot_user
                else ALL_PERMISSIONS
                if message.author.id == guild.owner_id
                else EVERYONE_PERMISSIONS
            )
            can_mention_everyone = bool(sender_permissions & MENTION_EVERYONE)
            roles = guild.extra_roles
        else:
            visible = {channel.recipient.id} if channel.recipient is not None else set()
            can_mention_everyone, roles = False, []
        replied = self.messages.get(message.reference_id) if message.reference_id else None
        pings = compute_pings(
            message_text(message.content, message.components),
            allowed,
            interaction=interaction,
            can_mention_everyone=can_mention_everyone,
            visible_user_ids=visible,
            mentionable_role_ids=[r.id for r in roles if r.mentionable],
            role_ids=[r.id for r in roles],
            author_id=message.author.id,
            replied_author_id=replied.author.id if replied is not None else None,
            silent=bool(message.flags & limits.FLAG_SUPPRESS_NOTIFICATIONS),
        )
        message.pings = pings
        message.mentioned = [self.users[i] for i in pings.users]
        self.pings.append((message, pings))
        return pings

    def count_edit(self, message: Message) -> None:
        """An edit of ``message`` is about to be applied: refused with 429 30046 when the message is older
        than an hour and its channel had `old_message_edits` such edits in the window before."""
        now = self.now()
        if self.old_message_edits is None or now - message.created <= limits.OLD_MESSAGE_AGE:
            return
        limit, per = self.old_message_edits
        recent = [t for t in self._old_edits.get(message.channel.id, []) if now - t < per]
        if len(recent) >= limit:
            raise limits.error(429, limits.OLD_MESSAGE_EDITS)
        self._old_edits[message.channel.id] = recent + [now]

    # --- reading what the bot did ---------------------------------------------------------------

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Messages everyone in ``channel`` sees (not ephemeral, not deleted), oldest first."""
        return list(channel.messages)

    def dms(self, user: User) -> list[Message]:
        """Messages in the bot's DM channel with ``user``, oldest first."""
        channel = self._dm_channels.get(user.id)
        return list(channel.messages) if channel else []

    def ephemeral(self, user: User) -> list[Message]:
        """Ephemeral interaction replies only ``user`` saw, oldest first."""
        return [m for m in self._ephemeral.get(user.id, []) if not m.deleted]

    def threads(self, channel: Channel) -> list[Channel]:
        assert channel.guild is not None
        return [c for c in channel.guild.channels if c.is_thread and c.parent is channel]

    def commands(self, guild: Guild | int | None = None) -> list[dict[str, Any]]:
        """The synced application commands, global (``guild=None``) or for one guild."""
        key = guild.id if isinstance(guild, Guild) else guild
        return list(self._commands.get(key, []))

    def command_names(self, guild: Guild | int | None = None) -> list[str]:
        return [c["name"] for c in self.commands(guild)]

    @property
    def connected(self) -> bool:
        """Whether a bot's gateway session has a live websocket (False while `disconnected()`)."""
        return any(s.connection is not None for s in self._sessions.values())

    @property
    def session_ids(self) -> list[str]:
        """The gateway sessions the fake would accept a RESUME for (live or disconnected)."""
        return list(self._sessions)

    @property
    def recommended_shards(self) -> int:
        """What `GET /gateway/bot` answers: the configured count, or just enough shards for the guilds."""
        if self._recommended_shards is not None:
            return self._recommended_shards
        return max(1, -(-len(self.bot_guilds()) // self.max_guilds_per_shard))

    def sessions_for(self, guild: Guild | None) -> list[GatewaySession]:
        """The gateway sessions that receive ``guild``'s events (``None``: DMs, shard 0)."""
        guild_id = guild.id if guild is not None else None
        return [s for s in list(self._sessions.values()) if s.covers(guild_id)]

    @staticmethod
    def shard_of(guild: Guild, shard_count: int) -> int:
        return shard_for(guild.id, shard_count)

    def _end_session(self, session: GatewaySession) -> None:
        self._sessions.pop(session.id, None)
        self._changed()

    # --- waiting --------------------------------------------------------------------------------

    def _changed(self) -> None:
        self._changed_event.set()
        self._changed_event = asyncio.Event()

    poll_interval = 0.02

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy; re-checked on every change in the fake (and every 20 ms,
        for predicates on the bot's own state). Returns the predicate's value; TimeoutError if never."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            event = self._changed_event
            try:
                # Woken by any change in the fake; the short cap also re-checks predicates on bot state.
                await asyncio.wait_for(event.wait(), min(remaining, self.poll_interval))
            except TimeoutError:
                pass

    async def wait_for_message(
        self,
        where: Channel | User,
        check: Callable[[Message], bool] | None = None,
        *,
        count: int = 1,
        timeout: float = 5.0,
    ) -> Message:
        """Wait until ``where`` (a channel, or a user's DMs) holds ``count`` messages passing ``check``."""

        def found() -> list[Message]:
            messages = self.dms(where) if isinstance(where, User) else self.channel_messages(where)
            return [m for m in messages if check is None or check(m)]

        await self.wait_until(lambda: len(found()) >= count, timeout, f"{count} message(s) in {where!r}")
        return found()[count - 1]

    async def wait_for_rejection(self, code: int | None = None, timeout: float = 5.0) -> limits.DiscordError:
        """Wait until the fake refused a request (with Discord error ``code``, if given)."""

        def match() -> limits.DiscordError | None:
            return next((e for _, e in reversed(self.rejections) if code is None or e.code == code), None)

        return await self.wait_until(match, timeout, f"a rejection with code {code}")

    # --- clock and rate limits ------------------------------------------------------------------

    def now(self) -> float:
        return asyncio.get_running_loop().time() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock (interaction deadlines, token expiry, thread auto-archive) forward
        without sleeping. Threads idle for their ``auto_archive_duration`` are archived; their
        THREAD_UPDATE is dispatched in the background (see `settled`)."""
        self._clock_offset += seconds
        now = self.now()
        for thread in [c for c in self.channels.values() if c.is_thread and not c.archived]:
            if thread.idle_until() <= now:
                thread.archived = True
                thread.archive_changed = thread.idle_until()
                self._background.append(asyncio.ensure_future(self.dispatch_thread_update(thread)))
        self._changed()

    async def settled(self) -> None:
        """Wait until the events `advance` dispatched in the background were sent."""
        while self._background:
            await self._background.pop(0)

    async def thread_activity(self, channel: Channel) -> None:
        """A message was posted in ``channel``: a thread's inactivity timer restarts, and an archived
        thread is unarchived (Discord's threads topic: "Sending a message will automatically unarchive
        the thread")."""
        if not channel.is_thread:
            return
        channel.last_activity = self.now()
        if channel.archived:
            channel.archived = False
            channel.archive_changed = channel.last_activity
            await self.dispatch_thread_update(channel)

    async def dispatch_thread_update(self, thread: Channel) -> None:
        for session in self.sessions_for(thread.guild):
            if session.wants(GUILDS):
                await session.dispatch("THREAD_UPDATE", thread.payload())
        self._changed()

    def rate_limit(self, route: str, *, retry_after: float = 0.05, times: int = 1, is_global: bool = False) -> None:
        """Answer the next ``times`` requests to ``route`` with 429 and Retry-After, like Discord.

        ``route`` is "METHOD /template", e.g. "POST /channels/{channel_id}/messages" or
        "POST /webhooks/{application_id}/{token}"; "*" matches every route.
        """
        method, _, template = route.partition(" ")
        self._rate_limits.append(
            {
                "method": method.upper(),
                "template": template,
                "left": times,
                "retry_after": retry_after,
                "global": is_global,
            }
        )

    def _take_rate_limit(self, method: str, template: str) -> tuple[float, bool] | None:
        for limit in self._rate_limits:
            if (
                limit["left"] > 0
                and (limit["method"] == "*" or limit["method"] == method)
                and (limit["template"] in ("*", "") or limit["template"] == template)
            ):
                limit["left"] -= 1
                return limit["retry_after"], limit["global"]
        return None

    def fail(self, route: str, *, status: int = 500, times: int = 1) -> None:
        """Answer the next ``times`` requests to ``route`` with HTTP ``status`` (a 5xx), like a Discord outage.

        ``route`` as for `rate_limit`. The body is Discord's (``{"message": "500: Internal Server
        Error", "code": 0}``). discord.py retries 500, 502 and 504 on REST routes, and every 5xx on
        interaction callbacks and webhooks, up to 5 tries in all, then raises `discord.DiscordServerError`;
        a 503 on a REST route is raised at once. Failed requests are listed in `failed`.
        """
        if not 500 <= status <= 599:
            raise ValueError(f"fail() scripts server errors (5xx), not {status}")
        method, _, template = route.partition(" ")
        self._failures.append({"method": method.upper(), "template": template, "left": times, "status": status})

    def _take_failure(self, method: str, template: str) -> int | None:
        for failure in self._failures:
            if (
                failure["left"] > 0
                and failure["method"] in ("*", method)
                and failure["template"] in ("*", "", template)
            ):
                failure["left"] -= 1
                status = failure["status"]
                webhook = template.startswith(("/webhooks/", "/interactions/"))
                if status in (500, 502, 504, 524) or webhook:
                    self._backoffs_owed += 1  # discord.py will sleep before retrying this one
                return status
        return None

    # --- gateway disconnects --------------------------------------------------------------------

    async def disconnect(self, *, resume: bool = True, via: str = "close", timeout: float = 5.0) -> None:
        """Drop the bot's gateway websocket and wait until it is back.

        ``resume=True``: closed with code 4000 (``via="close"``) or asked with op 7 RECONNECT
        (``via="reconnect"``); discord.py reconnects and RESUMEs, and the fake replays what it missed.
        ``resume=False``: op 9 INVALID_SESSION (d=false); the session ends, discord.py IDENTIFYs again
        and gets READY and GUILD_CREATE. See `identifies`, `resumes`, `replayed`.
        """
        async with self.disconnected(resume=resume, via=via, timeout=timeout):
            pass

    @contextlib.asynccontextmanager
    async def disconnected(self, *, resume: bool = True, via: str = "close", timeout: float = 5.0):
        """`disconnect`, holding the bot's reconnection until the block ends (then waiting until it is back).

        With ``resume=True``, events inside the block (``slash(..., wait=False)``, ``say``, REST
        side effects) are buffered in the session and replayed on RESUME, as Discord does.
        """
        if via not in ("close", "reconnect"):
            raise ValueError(f"via must be 'close' or 'reconnect', not {via!r}")
        sessions = [s for s in self._sessions.values() if s.connection is not None]
        if not sessions:
            raise ScriptError("no bot is connected to the fake gateway")
        back = self.identifies + self.resumes + len(sessions)
        self._gateway_open.clear()
        try:
            for session in sessions:
                connection = session.connection
                assert connection is not None
                if not resume:
                    self._end_session(session)
                    connection.detach()
                    self._identify_waits_owed += 1
                    await connection.send(INVALID_SESSION, False)
                elif via == "reconnect":
                    session.expect_resume = True
                    connection.detach()
                    await connection.send(RECONNECT, None)
                else:
                    session.expect_resume = True
                    await connection.close(4000, b"Disconnected by the test.")
            yield
        finally:
            self._gateway_open.set()
        await self.wait_until(
            lambda: self.identifies + self.resumes >= back and self.connected, timeout, "the bot to reconnect"
        )

    # --- scripting users ------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        *,
        options: dict[str, Any] | None = None,
        wait: bool = True,
        timeout: float = limits.ACK_DEADLINE,
        **kwargs: Any,
    ) -> Interaction:
        """``user`` runs ``/command`` (e.g. "ttr claim") in ``channel`` with typed options.

        Returns the interaction once the bot acknowledged it (``wait=False``: right after dispatch).
        Options are checked like the Discord client does: unknown names, missing required ones,
        wrong types, values outside choices or min/max raise `ScriptError`.
        """
        values = {**(options or {}), **kwargs}
        self._check_commands_usable(channel)
        data, leaf, resolved = self._command_data(user, channel, command)
        target = leaf["_target"]
        for name, value in values.items():
            option = self._option(leaf, name, command)
            target.append(self._option_value(option, value, resolved, channel, command))
        given = {o["name"] for o in target}
        missing = [o["name"] for o in leaf.get("options") or [] if o.get("required") and o["name"] not in given]
        if missing:
            raise ScriptError(f"/{command}: missing required option(s) {missing}")
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(
            APPLICATION_COMMAND, user, channel, data, command_name=command, wait=wait, timeout=timeout
        )

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        focused: str,
        typed: str = "",
        *,
        options: dict[str, Any] | None = None,
        wait: bool = True,
        **kwargs: Any,
    ) -> Interaction:
        """``user`` types ``typed`` into option ``focused`` of ``/command``; read `.choices` on the result."""
        self._check_commands_usable(channel)
        data, leaf, resolved = self._command_data(user, channel, command)
        target = leaf["_target"]
        for name, value in {**(options or {}), **kwargs}.items():
            option = self._option(leaf, name, command)
            target.append(self._option_value(option, value, resolved, channel, command, check_choices=False))
        option = self._option(leaf, focused, command)
        if not option.get("autocomplete"):
            raise ScriptError(f"/{command}: option {focused!r} has no autocomplete")
        target.append({"name": option["name"], "type": option["type"], "value": typed, "focused": True})
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(
            AUTOCOMPLETE, user, channel, data, command_name=command, wait=wait, focused_type=option["type"]
        )

    async def user_command(
        self,
        user: User,
        channel: Channel,
        name: str,
        target: User,
        *,
        wait: bool = True,
        timeout: float = limits.ACK_DEADLINE,
    ) -> Interaction:
        """``user`` picks the user context-menu command ``name`` (its English name) on ``target``
        (right-click, or a long press on a phone) in ``channel``: an APPLICATION_COMMAND of type 2
        whose ``target_id`` is the user, resolved as a member where they are one."""
        self._check_commands_usable(channel)
        found = self._find_command(channel, name, kind=2)
        data: dict[str, Any] = {
            "id": found["id"],
            "name": found["name"],
            "type": 2,
            "target_id": str(target.id),
            "resolved": {},
        }
        if found.get("guild_id"):
            data["guild_id"] = found["guild_id"]
        self._resolve_user(target, channel, data["resolved"])
        return await self._dispatch(
            APPLICATION_COMMAND, user, channel, data, command_name=name, wait=wait, timeout=timeout
        )

    async def click(
        self, user: User, message: Message, custom_id: str | None = None, *, label: str | None = None, wait: bool = True
    ) -> Interaction:
        """``user`` clicks a button of ``message``, found by ``custom_id`` or by ``label``."""
        button = message.button(label) if label is not None else message.component(custom_id or "")
        if button is None or button.get("type") != 2:
            raise ScriptError(f"no button {custom_id!r} on {message!r}; custom ids: {message.custom_ids}")
        if button.get("style") in (5, 6):
            raise ScriptError("link and premium buttons do not send interactions")
        if button.get("disabled"):
            raise ScriptError(f"button {button.get('label') or button['custom_id']!r} is disabled")
        self._check_visible(user, message)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._dispatch(MESSAGE_COMPONENT, user, message.channel, data, source=message, wait=wait)

    async def select(
        self, user: User, message: Message, custom_id: str, values: Any, *, wait: bool = True
    ) -> Interaction:
        """``user`` picks ``values`` (option values; users/channels for those selects) in a select menu."""
        select = message.component(custom_id)
        if select is None or select.get("type") not in limits.SELECT_TYPES:
            raise ScriptError(f"no select {custom_id!r} on {message!r}; custom ids: {message.custom_ids}")
        if select.get("disabled"):
            raise ScriptError(f"select {custom_id!r} is disabled")
        self._check_visible(user, message)
        picked = values if isinstance(values, (list, tuple)) else [values]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": select["type"]}
        data["values"], resolved = self._select_values(select, picked, message.channel)
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(MESSAGE_COMPONENT, user, message.channel, data, source=message, wait=wait)

    # --- a hostile client -------------------------------------------------------------------------
    # What the Discord client never sends but a modified client (a self-bot) or a command definition
    # older than the bot's own can: option values outside their declared choices, ranges and
    # lengths. Discord validates a component interaction's custom id against the clicked message
    # ("Component validation failed"), yet its docs ask apps to validate component data themselves;
    # `forge_component` models a click Discord let through. The bot must treat every such value as
    # untrusted (issue 38).

    async def forge_slash(
        self, user: User, channel: Channel, command: str, *, options: dict[str, Any] | None = None, **kwargs: Any
    ) -> Interaction:
        """Like `slash`, with the options' choices, min/max values and lengths not checked (their
        types still are: Discord parses them) and integers of any size."""
        values = {**(options or {}), **kwargs}
        self._check_commands_usable(channel)
        data, leaf, resolved = self._command_data(user, channel, command)
        target = leaf["_target"]
        for name, value in values.items():
            option = self._option(leaf, name, command)
            if option["type"] == 3 and isinstance(value, str):
                target.append({"name": option["name"], "type": 3, "value": value})
                continue
            target.append(self._option_value(option, value, resolved, channel, command, check_choices=False))
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(APPLICATION_COMMAND, user, channel, data, command_name=command)

    async def forge_component(
        self,
        user: User,
        channel: Channel,
        custom_id: str,
        values: list[str] | None = None,
        *,
        component_type: int | None = None,
        ephemeral: bool = False,
        on: Message | None = None,
        wait: bool = True,
    ) -> Interaction:
        """A click on a component with any custom id (a button's, or with ``values`` a string
        select's picking them), on a message of the bot's in ``channel`` that carries just that
        component (not listed in the channel: as if Discord had not checked the id); ``on``: on
        that message instead, seen or not (someone else's ephemeral panel, by its id)."""
        kind = component_type or (2 if values is None else 3)
        if on is not None:
            data = {"custom_id": custom_id, "component_type": kind, **({"values": values} if values else {})}
            return await self._dispatch(MESSAGE_COMPONENT, user, channel, data, source=on, wait=wait)
        if kind == 2:
            component: dict[str, Any] = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
        else:
            options = [{"label": str(v)[:100] or "-", "value": str(v)} for v in dict.fromkeys(values or ["-"])]
            component = {"type": kind, "custom_id": custom_id, "options": options, "max_values": len(options)}
        source = Message(
            id=self.ids.next(),
            channel=channel,
            author=self.bot_user,
            components=[{"type": 1, "components": [component]}],
            flags=limits.FLAG_EPHEMERAL if ephemeral else 0,
            created=self.now(),
        )
        self.messages[source.id] = source
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        return await self._dispatch(MESSAGE_COMPONENT, user, channel, data, source=source, wait=wait)

    async def submit_modal(
        self, user: User, opened: Interaction, values: dict[str, Any] | None = None, *, wait: bool = True, **kwargs: Any
    ) -> Interaction:
        """``user`` fills in and submits the modal the bot opened in answer to ``opened``."""
        modal = opened.modal
        if modal is None:
            raise ScriptError(f"{opened!r} did not open a modal")
        if user is not opened.user:
            raise ScriptError("only the user who opened a modal can submit it")
        given = {**(values or {}), **kwargs}
        unknown = set(given) - set(modal.fields)
        if unknown:
            raise ScriptError(
                f"modal {modal.custom_id!r} has no field(s) {sorted(unknown)}; fields: {list(modal.fields)}"
            )
        rows: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for row in modal.components:
            if row.get("type") == 1:
                field = row["components"][0]
                rows.append({"type": 1, "id": row.get("id"), "components": [self._modal_value(field, given)]})
            elif row.get("type") == 18:
                submitted = self._modal_submission(row["component"], given, opened.channel, resolved)
                rows.append({"type": 18, "id": row.get("id"), "component": submitted})
            elif row.get("type") == 10:
                rows.append({"type": 10, "id": row.get("id")})
        data: dict[str, Any] = {"custom_id": modal.custom_id, "components": rows}
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(MODAL_SUBMIT, user, opened.channel, data, source=opened.source_message, wait=wait)

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts ``content`` in ``channel`` (or, for a DM channel, to the bot): MESSAGE_CREATE."""
        if channel.guild is not None and user.id not in channel.guild.members:
            raise ScriptError(f"{user!r} is not a member of {channel.guild!r}")
        if channel.type == DM and channel.recipient is not user:
            raise ScriptError(f"{user!r} is not in {channel!r}")
        if channel.is_thread and channel.archived and channel.locked:
            raise ScriptError(f"{channel!r} is archived and locked: members cannot post there")
        message = Message(id=self.ids.next(), channel=channel, author=user, content=content, created=self.now())
        self.record_pings(message, None, interaction=False)
        self.messages[message.id] = message
        channel.messages.append(message)
        await self.thread_activity(channel)
        intent = DIRECT_MESSAGES if channel.type == DM else GUILD_MESSAGES
        for session in self.sessions_for(channel.guild):
            if session.wants(intent):
                payload = message.payload(for_gateway=True)
                mentioned = f"<@{self.bot_user.id}>" in content
                if not session.wants(MESSAGE_CONTENT) and channel.type != DM and not mentioned:
                    payload.update(content="", embeds=[], attachments=[], components=[])
                await session.dispatch("MESSAGE_CREATE", payload)
        self._changed()
        return message

    # --- building interaction payloads ----------------------------------------------------------

    def _check_visible(self, user: User, message: Message) -> None:
        if message.deleted:
            raise ScriptError(f"{message!r} was deleted")
        if message.ephemeral and (message.interaction is None or message.interaction.user is not user):
            raise ScriptError(f"{user!r} cannot see ephemeral {message!r}")
        if message.channel.type == DM and message.channel.recipient is not user:
            raise ScriptError(f"{user!r} cannot see a DM to {message.channel.recipient!r}")

    @staticmethod
    def _check_commands_usable(channel: Channel) -> None:
        """Discord's threads topic: users cannot use application commands in archived threads."""
        if channel.is_thread and channel.archived:
            raise ScriptError(
                f"{channel!r} is archived: Discord does not let users run commands there "
                "(a message in it unarchives it)"
            )

    def _find_command(self, channel: Channel, name: str, *, kind: int = 1) -> dict[str, Any]:
        """The synced command of that name and type (1 chat input, 2 user menu, 3 message menu) usable in `channel`."""
        scopes: list[list[dict[str, Any]]] = []
        if channel.guild is not None:
            scopes.append(self._commands.get(channel.guild.id, []))
        scopes.append(self._commands.get(None, []))
        context = 1 if channel.type == DM else 0
        for commands in scopes:
            for command in commands:
                if command.get("type", 1) != kind or command["name"] != name:
                    continue
                contexts = command.get("contexts")
                if contexts is not None and context not in contexts:
                    continue
                if context == 1 and command.get("dm_permission") is False:
                    continue
                return command
        known = sorted({c["name"] for s in scopes for c in s})
        what = f"/{name}" if kind == 1 else repr(name)
        raise ScriptError(f"no command {what} available in {channel!r}; synced: {known}")

    def _command_data(self, user: User, channel: Channel, command: str) -> tuple[dict[str, Any], dict[str, Any], dict]:
        parts = command.strip().lstrip("/").split()
        found = self._find_command(channel, parts[0])
        data: dict[str, Any] = {"id": found["id"], "name": found["name"], "type": 1, "options": []}
        if found.get("guild_id"):
            data["guild_id"] = found["guild_id"]
        node, target = found, data["options"]
        for part in parts[1:]:
            sub = next((o for o in node.get("options") or [] if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
                raise ScriptError(f"/{command}: no subcommand {part!r}; choose from {subs}")
            entry: dict[str, Any] = {"name": sub["name"], "type": sub["type"], "options": []}
            target.append(entry)
            node, target = sub, entry["options"]
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            subs = [o["name"] for o in node.get("options") or []]
            raise ScriptError(f"/{command} needs a subcommand: {subs}")
        leaf = {**node, "_target": target}
        return data, leaf, {}

    def _option(self, leaf: dict[str, Any], name: str, command: str) -> dict[str, Any]:
        options = leaf.get("options") or []
        for candidate in (name, name.replace("_", "-")):
            for option in options:
                if option["name"] == candidate:
                    return option
        raise ScriptError(f"/{command}: no option {name!r}; options: {[o['name'] for o in options]}")

    def _option_value(
        self,
        option: dict[str, Any],
        value: Any,
        resolved: dict,
        channel: Channel,
        command: str,
        *,
        check_choices: bool = True,
    ) -> dict[str, Any]:
        kind, name = option["type"], option["name"]
        where = f"/{command} {name}"

        def bad(expected: str) -> ScriptError:
            return ScriptError(f"{where}: expected {expected} for a {OPTION_TYPES.get(kind)} option, got {value!r}")

        if kind == 3:
            if not isinstance(value, str):
                raise bad("a string")
            if check_choices and len(value) < option.get("min_length", 0):
                raise ScriptError(f"{where}: shorter than min_length {option['min_length']}")
            if len(value) > option.get("max_length", limits.STRING_OPTION_LENGTH):
                raise ScriptError(f"{where}: longer than max_length")
            raw: Any = value
        elif kind in (4, 10):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or kind == 4
                and not float(value).is_integer()
            ):
                raise bad("an integer" if kind == 4 else "a number")
            if check_choices and "min_value" in option and value < option["min_value"]:
                raise ScriptError(f"{where}: below min_value {option['min_value']}")
            if check_choices and "max_value" in option and value > option["max_value"]:
                raise ScriptError(f"{where}: above max_value {option['max_value']}")
            raw = int(value) if kind == 4 else value
        elif kind == 5:
            if not isinstance(value, bool):
                raise bad("a bool")
            raw = value
        elif kind in (6, 9) and isinstance(value, User):
            raw = str(value.id)
            self._resolve_user(value, channel, resolved)
        elif kind == 7 and isinstance(value, Channel):
            types = option.get("channel_types")
            if types and value.type not in types:
                raise ScriptError(f"{where}: channel type {value.type} not in {types}")
            raw = str(value.id)
            resolved.setdefault("channels", {})[raw] = self._resolved_channel(value)
        elif kind in (8, 9) and isinstance(value, Role):
            raw = str(value.id)
            resolved.setdefault("roles", {})[raw] = value.payload()
        elif kind == 11 and isinstance(value, tuple) and len(value) == 2:
            raw = self._upload(value[0], value[1], channel, resolved)
        else:
            raise bad(
                {6: "a User", 7: "a Channel", 8: "a Role", 9: "a User or a Role", 11: "a (filename, bytes) tuple"}.get(
                    kind, "a value"
                )
            )
        choices = option.get("choices")
        if check_choices and choices and raw not in [c["value"] for c in choices]:
            raise ScriptError(f"{where}: {raw!r} is not one of the choices {[c['value'] for c in choices]}")
        return {"name": name, "type": kind, "value": raw}

    def _resolve_user(self, user: User, channel: Channel, resolved: dict) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        guild = channel.guild
        if guild is not None and user.id in guild.members:
            member = {k: v for k, v in guild.member_payload(user).items() if k != "user"}
            member["permissions"] = str(EVERYONE_PERMISSIONS)
            resolved.setdefault("members", {})[str(user.id)] = member

    def _resolved_channel(self, channel: Channel) -> dict[str, Any]:
        data = {
            "id": str(channel.id),
            "name": channel.name,
            "type": channel.type,
            "permissions": str(EVERYONE_PERMISSIONS),
        }
        if channel.parent is not None:
            data["parent_id"] = str(channel.parent.id)
        if channel.is_thread:
            data["thread_metadata"] = channel.payload()["thread_metadata"]
        return data

    def _select_values(
        self, select: dict[str, Any], picked: list[Any], channel: Channel, *, submitting: bool = False
    ) -> tuple[list[str], dict]:
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if submitting and not select.get("required", True):
            low = 0
        if not low <= len(picked) <= high:
            raise ScriptError(f"select {select['custom_id']!r} takes {low}..{high} values, got {len(picked)}")
        resolved: dict = {}
        chosen: list[str] = []
        if select["type"] == 3:
            allowed = [o["value"] for o in select.get("options") or []]
            for value in picked:
                if value not in allowed:
                    raise ScriptError(f"{value!r} is not an option of select {select['custom_id']!r}: {allowed}")
                chosen.append(value)
        else:
            for value in picked:
                if isinstance(value, User) and select["type"] in (5, 7):
                    self._resolve_user(value, channel, resolved)
                elif isinstance(value, Channel) and select["type"] == 8:
                    resolved.setdefault("channels", {})[str(value.id)] = self._resolved_channel(value)
                else:
                    raise ScriptError(f"{value!r} cannot be picked in select {select['custom_id']!r}")
                chosen.append(str(value.id))
        if len(set(chosen)) != len(chosen):
            raise ScriptError("a select value can be picked only once")
        return chosen, resolved

    def _modal_submission(
        self, field: dict[str, Any], given: dict[str, Any], channel: Channel, resolved: dict[str, Any]
    ) -> dict[str, Any]:
        """What the Discord client sends for one labelled component, from the test's ``given`` values:
        text for a text input; option values (or users/channels) for selects; one option value (or
        None) for a radio group; a list of option values for a checkbox group; a bool for a checkbox;
        ``(filename, bytes)`` pairs for a file upload. Unset fields keep their defaults."""
        kind, custom_id = field.get("type"), field["custom_id"]
        base = {"type": kind, "custom_id": custom_id, "id": field.get("id")}
        required = field.get("required", True)
        options = [o["value"] for o in field.get("options") or []]
        defaults = [o["value"] for o in field.get("options") or [] if o.get("default")]
        if kind == 4:
            return {**self._modal_value(field, given), "id": field.get("id")}
        if kind in limits.SELECT_TYPES:
            picked = given.get(custom_id, defaults)
            picked = picked if isinstance(picked, (list, tuple)) else [picked]
            chosen, more = self._select_values(field, picked, channel, submitting=True)
            resolved.update(more)
            return {**base, "values": chosen}
        if kind == 21:  # radio group: exactly one option, or none when not required
            value = given.get(custom_id, defaults[0] if defaults else None)
            if value is None and required:
                raise ScriptError(f"radio group {custom_id!r} is required: pick one of {options}")
            if value is not None and value not in options:
                raise ScriptError(f"{value!r} is not an option of radio group {custom_id!r}: {options}")
            return {**base, "value": value}
        if kind == 22:  # checkbox group
            values = list(given.get(custom_id, defaults))
            low = 0 if not required else (1 if field.get("min_values") is None else field["min_values"])
            high = len(options) if field.get("max_values") is None else field["max_values"]
            if not low <= len(values) <= high or len(set(values)) != len(values):
                raise ScriptError(f"checkbox group {custom_id!r} takes {low}..{high} distinct values, got {values}")
            unknown = [v for v in values if v not in options]
            if unknown:
                raise ScriptError(f"{unknown} are not options of checkbox group {custom_id!r}: {options}")
            return {**base, "values": values}
        if kind == 23:  # checkbox
            value = given.get(custom_id, bool(field.get("default", False)))
            if not isinstance(value, bool):
                raise ScriptError(f"checkbox {custom_id!r} takes True or False, got {value!r}")
            return {**base, "value": value}
        if kind == 19:  # file upload
            uploads = list(given.get(custom_id, []))
            low = 0 if not required else (1 if field.get("min_values") is None else field["min_values"])
            high = 1 if field.get("max_values") is None else field["max_values"]
            if not low <= len(uploads) <= high:
                raise ScriptError(f"file upload {custom_id!r} takes {low}..{high} files, got {len(uploads)}")
            ids = [self._upload(filename, blob, channel, resolved) for filename, blob in uploads]
            return {**base, "values": ids}
        raise ScriptError(f"the fake cannot fill in a component of type {kind}")

    def _upload(self, filename: str, blob: bytes, channel: Channel, resolved: dict[str, Any]) -> str:
        """A file a user attaches (a command option or a modal upload), served by the fake's CDN."""
        attachment = Attachment(
            id=self.ids.next(), filename=filename, data=bytes(blob), content_type=None, description=None, url=""
        )
        attachment.url = f"{self.base_url}/attachments/{channel.id}/{attachment.id}/{filename}"
        self._user_attachments[attachment.id] = attachment
        resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        return str(attachment.id)

    def _modal_value(self, field: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
        custom_id = field["custom_id"]
        value = given.get(custom_id, field.get("value") or "")
        if not isinstance(value, str):
            raise ScriptError(f"modal field {custom_id!r} takes text, got {value!r}")
        if field.get("required", True) and not value:
            raise ScriptError(f"modal field {custom_id!r} is required")
        if value and len(value) < (field.get("min_length") or 0):
            raise ScriptError(f"modal field {custom_id!r} needs at least {field['min_length']} characters")
        if len(value) > (field.get("max_length") or limits.TEXT_INPUT_VALUE):
            raise ScriptError(f"modal field {custom_id!r} takes at most {field.get('max_length')} characters")
        return {"type": 4, "custom_id": custom_id, "value": value}

    async def _dispatch(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        command_name: str | None = None,
        source: Message | None = None,
        wait: bool = True,
        timeout: float = limits.ACK_DEADLINE,
        focused_type: int | None = None,
    ) -> Interaction:
        guild = channel.guild
        if guild is not None and user.id not in guild.members:
            raise ScriptError(f"{user!r} is not a member of {guild!r} and cannot interact in {channel!r}")
        if channel.type == DM and channel.recipient is not user:
            raise ScriptError(f"{user!r} is not in {channel!r}")
        sessions = self.sessions_for(guild)
        if not sessions:
            where = "shard 0 (DMs)" if guild is None else f"the shard of {guild!r}"
            raise ScriptError(
                f"no bot session on the fake gateway receives {where}"
                if self._sessions
                else "no bot is connected to the fake gateway"
            )
        interaction_id = self.ids.next()
        record = Interaction(
            id=interaction_id,
            token=f"fake-interaction-token-{interaction_id}",
            type=kind,
            user=user,
            channel=channel,
            created=self.now(),
            fake=self,
            command_name=command_name,
            source_message=source,
            data=data,
            focused_type=focused_type,
        )
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "locale": user.locale,
            "app_permissions": str(channel.bot_permissions),
            "entitlements": [],
            "authorizing_integration_owners": record.integration_owners(),
            "context": 0 if guild is not None else 1,
            "attachment_size_limit": limits.ATTACHMENT_BYTES,
            "channel": channel.payload(),
            "channel_id": str(channel.id),
        }
        if guild is not None:
            member = guild.member_payload(user)
            member["permissions"] = str(ALL_PERMISSIONS if user.id == guild.owner_id else EVERYONE_PERMISSIONS)
            payload.update(
                guild_id=str(guild.id), guild=guild.partial(), guild_locale=guild.preferred_locale, member=member
            )
        else:
            payload["user"] = user.payload()
        if source is not None:
            payload["message"] = source.payload()
        self.interactions[record.id] = record
        self._by_token[record.token] = record
        for session in sessions:  # buffered for a resume if disconnected
            await session.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await record.wait_acknowledged(timeout)
        return record


class _BackoffAsyncio(types.ModuleType):
    """Stands in for `asyncio` inside a discord.py module (see `patch_discord`): the sleeps discord.py
    owes to something the fake did (a 5xx answer, an invalid session) are scaled by `backoff_scale`;
    every other attribute and sleep is the real asyncio's."""

    def __init__(self, fake: FakeDiscord, owed: str, delays: tuple[float, ...]):
        super().__init__("asyncio")
        self._fake = fake
        self._owed = owed
        self._delays = delays

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        fake = self._fake
        if delay in self._delays and getattr(fake, self._owed) > 0:
            setattr(fake, self._owed, getattr(fake, self._owed) - 1)
            delay *= fake.backoff_scale
        return await asyncio.sleep(delay, result)


__all__ = ["FakeDiscord"]
