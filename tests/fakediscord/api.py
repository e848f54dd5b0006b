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
    GUILDS,
    INVALID_SESSION,
    PRIVILEGED,
    RECONNECT,
    GatewayConnection,
    GatewaySession,
    shard_for,
)
from tests.fakediscord.mentions import Pings, compute_pings, message_text
from tests.fakediscord.oauth2 import ActivityInstance, ActivityUsers, Grant
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.server import API_PREFIX, build_app
from tests.fakediscord.state import (
    ALL_PERMISSIONS,
    BOT_ROLE_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    MENTION_EVERYONE,
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
from tests.fakediscord.users import ScriptedUsers

# Application flags that grant the privileged intents (presence, members, message content).
APP_FLAGS_PRIVILEGED = (1 << 12) | (1 << 14) | (1 << 18)


class FakeDiscord(ScriptedUsers, ActivityUsers):
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
        #: the application's own emojis (Discord's application emojis), as the API returns them
        self.application_emojis: list[dict[str, Any]] = []
        #: OAuth2 (oauth2.py): the application's client secret, codes not yet exchanged, access tokens
        self.client_secret = "fake-client-secret"
        self.oauth_codes: dict[str, Grant] = {}
        self.access_tokens: dict[str, Grant] = {}
        #: the Activity's running instances, by id
        self.activity_instances: dict[str, ActivityInstance] = {}
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
