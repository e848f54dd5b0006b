"""The aiohttp application: Discord's REST API (the parts a bot uses), the CDN, and the gateway route.

Handlers validate like Discord (see `limits`), mutate the `FakeDiscord` world, dispatch the gateway
events Discord would (MESSAGE_CREATE, MESSAGE_UPDATE, THREAD_CREATE...), and answer with Discord's
payloads. Anything refused is answered with Discord's error body and recorded in `fake.rejections`;
a route the fake does not know is a 404 recorded in `fake.unknown_routes`.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

from tests.fakediscord import layout, limits
from tests.fakediscord.gateway import DIRECT_MESSAGES, GUILD_MEMBERS, GUILD_MESSAGES, GUILDS, gateway_handler
from tests.fakediscord.interactions import InteractionRoutes
from tests.fakediscord.limits import DiscordError, FormErrors, error
from tests.fakediscord.oauth2 import ENTRY_POINT, ENTRY_POINT_REMOVED, OAuth2Routes
from tests.fakediscord.responses import Files, json_response, no_content, read_body, validate_mentions
from tests.fakediscord.state import (
    ADMINISTRATOR,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    MANAGE_ROLES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    TEXT,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Message,
)

if TYPE_CHECKING:
    from tests.fakediscord.api import FakeDiscord

API_PREFIX = "/api/v10"
FAKE_KEY: web.AppKey[FakeDiscord] = web.AppKey("fake")
MAX_REQUEST_BYTES = 64 * 1024 * 1024  # let oversized uploads reach the handler, which answers 413 like Discord


class RestApi(InteractionRoutes, OAuth2Routes):
    def __init__(self, fake: FakeDiscord):
        self.fake = fake

    # --- helpers --------------------------------------------------------------------------------

    def channel(self, request: web.Request, key: str = "channel_id") -> Channel:
        channel = self.fake.channels.get(int(request.match_info[key]))
        if channel is None:
            raise error(404, limits.UNKNOWN_CHANNEL)
        return channel

    def message(self, channel: Channel, message_id: str | int) -> Message:
        message = self.fake.messages.get(int(message_id))
        if message is None or message.deleted or message.channel is not channel or message.ephemeral:
            raise error(404, limits.UNKNOWN_MESSAGE)
        return message

    def check_can_send(self, channel: Channel, files: Files | None = None) -> None:
        """A bot message in ``channel``: DMs need an open DM; guild channels the bot's permissions there."""
        if channel.type == DM:
            user = channel.recipient
            if user is None or not user.dms_open or not self.fake.shares_guild(user):
                raise error(403, limits.CANNOT_DM)
            return
        needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        if channel.bot_permissions & needed != needed:
            raise error(403, limits.MISSING_PERMISSIONS)
        self.check_can_post_in_thread(channel)
        self.check_can_attach(channel, files)

    @staticmethod
    def check_can_attach(channel: Channel, files: Files | None, *, initial_response: bool = False) -> None:
        """Uploads need ATTACH_FILES: the bot's for channel messages, their edits, and (2023-11-01
        changelog) interaction follow-ups and edits of responses; @everyone's for the initial
        interaction response (2022-06-29 changelog: ATTACH_FILES and EMBED_LINKS were left out of the
        switch to the bot's own permissions)."""
        permissions = channel.everyone_permissions if initial_response else channel.bot_permissions
        if files and channel.type != DM and not permissions & ATTACH_FILES:
            raise error(403, limits.MISSING_PERMISSIONS)

    @staticmethod
    def drop_embeds_without_permission(message: Message, *, initial_response: bool = False) -> None:
        """Without EMBED_LINKS (whose permissions: as for `check_can_attach`) the message is sent, its
        embeds are not: Discord shows no embed from a sender lacking the permission."""
        channel = message.channel
        permissions = channel.everyone_permissions if initial_response else channel.bot_permissions
        if channel.type != DM and not permissions & EMBED_LINKS:
            message.embeds = []

    def build_attachments(
        self, payload: dict[str, Any], files: Files, channel: Channel, keep: list[Attachment]
    ) -> list[Attachment]:
        meta_by_index: dict[int, dict[str, Any]] = {}
        for meta in payload.get("attachments") or []:
            raw_id = int(meta.get("id", -1))
            if raw_id < 1000:  # an upload slot, not a snowflake
                meta_by_index[raw_id] = meta
        result = self.kept_attachments(payload, keep)
        for index, filename, data, content_type in files:
            meta = meta_by_index.get(index, {})
            attachment_id = self.fake.ids.next()
            name = meta.get("filename") or filename
            result.append(
                Attachment(
                    id=attachment_id,
                    filename=name,
                    data=data,
                    content_type=_guess_type(name) or content_type,
                    description=meta.get("description"),
                    url=f"{self.fake.base_url}/attachments/{channel.id}/{attachment_id}/{name}",
                )
            )
        return result

    def new_message(self, channel: Channel, payload: dict[str, Any], files: Files, **extra: Any) -> Message:
        message = Message(
            id=self.fake.ids.next(),
            channel=channel,
            author=self.fake.bot_user,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=int(payload.get("flags") or 0),
            created=self.fake.now(),
            **extra,
        )
        layout.assign_ids(message.components)
        message.attachments = self.build_attachments(payload, files, channel, [])
        layout.resolve_media(message.components, message.attachments)
        ref = payload.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            message.reference_id = int(ref["message_id"])
        self.fake.record_pings(message, payload.get("allowed_mentions"), interaction=message.webhook_id is not None)
        return message

    async def store(self, message: Message, *, owner: Any = None) -> None:
        """Record a new message: in its channel, or among ``owner``'s ephemeral messages."""
        fake = self.fake
        fake.messages[message.id] = message
        if message.ephemeral:
            fake._ephemeral.setdefault(owner.id, []).append(message)
        else:
            message.channel.messages.append(message)
            await fake.thread_activity(message.channel)
            await self.dispatch_message("MESSAGE_CREATE", message)
        fake._changed()

    async def dispatch_message(self, event: str, message: Message) -> None:
        intent = DIRECT_MESSAGES if message.channel.type == DM else GUILD_MESSAGES
        for session in self.fake.sessions_for(message.channel.guild):
            if session.wants(intent):
                await session.dispatch(event, message.payload(for_gateway=True))

    @staticmethod
    def check_active(channel: Channel) -> None:
        """Archived threads take no edits, reactions or joins (Discord's threads topic); 50083."""
        if channel.is_thread and channel.archived:
            raise error(400, limits.ARCHIVED_THREAD)

    def check_can_post_in_thread(self, channel: Channel) -> None:
        """Posting unarchives a thread, except a locked one for someone without MANAGE_THREADS."""
        if channel.is_thread and channel.archived and channel.locked and not channel.bot_permissions & MANAGE_THREADS:
            raise error(400, limits.ARCHIVED_THREAD)

    async def apply_edit(
        self,
        message: Message,
        payload: dict[str, Any],
        files: Files,
        *,
        prefix: tuple = (),
        interaction: bool = True,
        initial_response: bool = False,
    ) -> None:
        """Edit ``message``; ``interaction``: through an interaction (response, webhook route), which
        changes the default of ``allowed_mentions``; ``initial_response``: as the interaction's first
        answer (an update), which is judged by @everyone's EMBED_LINKS."""
        self.check_active(message.channel)
        flags = payload.get("flags")
        was_v2 = bool(message.flags & limits.FLAG_IS_COMPONENTS_V2)
        if was_v2 and flags is not None and not int(flags) & limits.FLAG_IS_COMPONENTS_V2:
            errors = FormErrors(prefix)
            errors.add(
                ("flags",),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message once set",
            )
            errors.raise_if_any()
        v2 = was_v2 or bool(int(flags or 0) & limits.FLAG_IS_COMPONENTS_V2)
        limits.validate_message(
            payload,
            [(n, d, t) for _, n, d, t in files],
            creating=False,
            interaction=True,
            prefix=prefix,
            components_v2=v2,
        )
        kept = self.kept_attachments(payload, message.attachments)
        if len(kept) + len(files) > limits.FILES_PER_MESSAGE:  # the attachments it keeps count too
            errors = FormErrors(prefix)
            errors.add(
                ("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {limits.FILES_PER_MESSAGE} or fewer in length."
            )
            errors.raise_if_any()
        if v2 and "components" in payload:
            names = {a.filename for a in kept} | self.upload_names(payload, files)
            layout.validate_message_layout(payload["components"] or [], names, prefix)
        validate_mentions(payload, prefix)
        self.fake.count_edit(message)
        message.history.append(message.payload())
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = list(payload["components"] or [])
            layout.assign_ids(message.components)
        if "flags" in payload and payload["flags"] is not None:
            keep = message.flags & (limits.FLAG_EPHEMERAL | limits.FLAG_IS_COMPONENTS_V2)
            changeable = limits.FLAG_SUPPRESS_EMBEDS | limits.FLAG_IS_COMPONENTS_V2
            message.flags = keep | (int(payload["flags"]) & changeable)
        if "attachments" in payload or files:
            message.attachments = self.build_attachments(payload, files, message.channel, message.attachments)
        layout.resolve_media(message.components, message.attachments)
        message.flags &= ~limits.FLAG_LOADING
        self.drop_embeds_without_permission(message, initial_response=initial_response)
        self.fake.record_pings(message, payload.get("allowed_mentions"), interaction=interaction)
        message.edited = True
        if not message.ephemeral:
            await self.dispatch_message("MESSAGE_UPDATE", message)
        self.fake._changed()

    def validate_new(self, payload: dict[str, Any], files: Files, *, interaction: bool, prefix: tuple = ()) -> None:
        limits.validate_message(
            payload, [(n, d, t) for _, n, d, t in files], creating=True, interaction=interaction, prefix=prefix
        )
        if int(payload.get("flags") or 0) & limits.FLAG_IS_COMPONENTS_V2:
            layout.validate_message_layout(payload.get("components") or [], self.upload_names(payload, files), prefix)
        validate_mentions(payload, prefix)

    @staticmethod
    def upload_names(payload: dict[str, Any], files: Files) -> set[str]:
        """The filenames the uploads will have (``attachments[].filename`` overrides the part's)."""
        meta = {int(m.get("id", -1)): m for m in payload.get("attachments") or [] if isinstance(m, dict)}
        return {meta.get(index, {}).get("filename") or filename for index, filename, _, _ in files}

    @staticmethod
    def kept_attachments(payload: dict[str, Any], current: list[Attachment]) -> list[Attachment]:
        """Which of an edited message's attachments stay (all, unless ``attachments`` lists them)."""
        if not isinstance(payload.get("attachments"), list):
            return list(current)
        ids = {int(m.get("id", -1)) for m in payload["attachments"] if isinstance(m, dict)}
        return [a for a in current if a.id in ids]

    # --- login and gateway discovery ------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        """The bot's user; with a Bearer token (oauth2.py), the user who granted it (`identify`)."""
        if not request.headers.get("Authorization", "").startswith("Bearer "):
            user, locale = self.fake.bot_user, "en-US"
        elif (grant := self.bearer(request)) is not None and "identify" in grant.scopes:
            user, locale = grant.user, grant.user.locale
        else:
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return json_response(
            {**user.payload(), "verified": True, "mfa_enabled": False, "flags": 0, "locale": locale, "email": None}
        )

    async def get_application(self, request: web.Request) -> web.Response:
        fake = self.fake
        return json_response(
            {
                "id": str(fake.application_id),
                "name": fake.bot_user.name,
                "icon": None,
                "description": "A bot under test",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": fake.owner.payload(),
                "verify_key": "0" * 64,
                "team": None,
                "flags": fake.application_flags,
                "summary": "",
                "rpc_origins": [],
                "tags": [],
                "bot": fake.bot_user.payload(),
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        data: dict[str, Any] = {"url": self.fake.gateway_url}
        if request.path.endswith("/bot"):
            data.update(
                shards=self.fake.recommended_shards,
                session_start_limit={"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            )
        return json_response(data)

    # --- application commands -------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["application_id"]) != self.fake.application_id:
            raise error(403, limits.MISSING_ACCESS)
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        guild = self.fake.guilds.get(int(guild_id))
        if guild is None or self.fake.bot_user.id not in guild.members:
            raise error(403, limits.MISSING_ACCESS)
        return guild.id

    def _stored_command(
        self, scope: int | None, command: dict[str, Any], previous: dict[tuple[int, str], dict]
    ) -> dict[str, Any]:
        kind = command.get("type", 1)
        old = previous.get((kind, command.get("name")))
        stored = {
            "id": old["id"] if old else str(self.fake.ids.next()),
            "application_id": str(self.fake.application_id),
            "version": str(self.fake.ids.next()),
            "type": kind,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **command,
        }
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        payload, _ = await read_body(request)
        commands = payload.get("__list__", payload)
        limits.validate_commands(commands)
        previous = {(c["type"], c["name"]): c for c in self.fake.commands(scope)}
        kept = {c.get("id") for c in commands} | {(c.get("type", 1), c.get("name")) for c in commands}
        for key, old in previous.items():  # Activities on (oauth2.py): the Entry Point stays
            if key[0] == ENTRY_POINT and old["id"] not in kept and key not in kept:
                raise error(400, ENTRY_POINT_REMOVED)
        stored = [self._stored_command(scope, c, previous) for c in commands]
        self.fake._commands[scope] = stored
        self.fake._changed()
        return json_response(stored)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.fake.commands(self._command_scope(request)))

    async def post_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        command, _ = await read_body(request)
        current = self.fake.commands(scope)
        replaced = [c for c in current if (c["type"], c["name"]) != (command.get("type", 1), command.get("name"))]
        limits.validate_commands(replaced + [command])
        previous = {(c["type"], c["name"]): c for c in current}
        stored = self._stored_command(scope, command, previous)
        self.fake._commands[scope] = replaced + [stored]
        self.fake._changed()
        return json_response(stored, status=200 if len(replaced) < len(current) else 201)

    async def delete_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        current = self.fake.commands(scope)
        kept = [c for c in current if c["id"] != request.match_info["command_id"]]
        if len(kept) == len(current):
            raise DiscordError(404, 10063, "Unknown application command")
        self.fake._commands[scope] = kept
        return no_content()

    # --- application emojis ---------------------------------------------------------------------

    def _own_application(self, request: web.Request) -> None:
        if int(request.match_info["application_id"]) != self.fake.application_id:
            raise error(403, limits.MISSING_ACCESS)

    async def get_application_emojis(self, request: web.Request) -> web.Response:
        self._own_application(request)
        return json_response({"items": self.fake.application_emojis})

    async def create_application_emoji(self, request: web.Request) -> web.Response:
        self._own_application(request)
        payload, _ = await read_body(request)
        emojis = self.fake.application_emojis
        limits.validate_application_emoji(payload, (e["name"] for e in emojis))
        if len(emojis) >= limits.APPLICATION_EMOJIS:
            raise error(400, limits.MAX_EMOJIS)
        emoji = {
            "id": str(self.fake.ids.next()),
            "name": payload["name"],
            "roles": [],
            "user": self.fake.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        emojis.append(emoji)
        return json_response(emoji, status=201)

    async def delete_application_emoji(self, request: web.Request) -> web.Response:
        self._own_application(request)
        kept = [e for e in self.fake.application_emojis if e["id"] != request.match_info["emoji_id"]]
        if len(kept) == len(self.fake.application_emojis):
            raise error(404, limits.UNKNOWN_EMOJI)
        self.fake.application_emojis[:] = kept
        return no_content()

    # --- channels and messages ------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.channel(request).payload())

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        payload, files = await read_body(request)
        self.check_can_send(channel, files)
        self.validate_new(payload, files, interaction=False)
        earlier = self.same_nonce(channel, payload)
        if earlier is not None:  # Discord returns the first message and creates none
            return json_response(earlier.payload())
        message = self.new_message(channel, payload, files)
        message.nonce = self.nonce_of(payload)
        self.drop_embeds_without_permission(message)
        await self.store(message)
        return json_response(message.payload())

    @staticmethod
    def nonce_of(payload: dict[str, Any]) -> str | None:
        nonce = payload.get("nonce")
        if nonce is None:
            return None
        if len(str(nonce)) > limits.NONCE_LENGTH:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {"nonce": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be 25 or fewer in length."}]}},
            )
        return str(nonce)

    def same_nonce(self, channel: Channel, payload: dict[str, Any]) -> Message | None:
        """Create Message with `enforce_nonce`: a message by the same author with the same nonce in
        the past few minutes is returned instead of creating another (Discord's Message resource)."""
        nonce = self.nonce_of(payload)
        if nonce is None or not payload.get("enforce_nonce"):
            return None
        since = self.fake.now() - limits.NONCE_WINDOW_SECONDS
        return next(
            (
                m
                for m in reversed(channel.messages)
                if m.nonce == nonce and m.author is self.fake.bot_user and not m.deleted and m.created >= since
            ),
            None,
        )

    async def modify_channel(self, request: web.Request) -> web.Response:
        """PATCH a thread: ``archived``, ``locked``, ``auto_archive_duration``, ``name`` (other channels: 50024)."""
        channel = self.channel(request)
        payload, _ = await read_body(request)
        if not channel.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        limits.validate_thread(payload, creating=False)
        manages = bool(channel.bot_permissions & MANAGE_THREADS)
        if payload.get("locked") is not None and not manages:
            raise error(403, limits.MISSING_PERMISSIONS)
        if channel.locked and payload.get("archived") is False and not manages:
            raise error(403, limits.MISSING_PERMISSIONS)
        if channel.archived and payload.get("archived") is not False:
            raise error(400, limits.ARCHIVED_THREAD)  # only unarchiving is allowed on an archived thread
        if "name" in payload:
            channel.name = payload["name"]
        if payload.get("locked") is not None:
            channel.locked = bool(payload["locked"])
        now = self.fake.now()
        if payload.get("auto_archive_duration") is not None:
            channel.auto_archive_duration = int(payload["auto_archive_duration"])
            channel.last_activity = channel.archive_changed = now
        if payload.get("archived") is not None and bool(payload["archived"]) != channel.archived:
            channel.archived = bool(payload["archived"])
            channel.archive_changed = now
            if not channel.archived:
                channel.last_activity = now
        await self.fake.dispatch_thread_update(channel)
        return json_response(channel.payload())

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        return json_response(self.message(channel, request.match_info["message_id"]).payload())

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        found = [m for m in channel.messages if (before is None or m.id < before) and (after is None or m.id > after)]
        found = found[-limit:] if after is None else found[:limit]
        return json_response([m.payload() for m in reversed(found)])

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        message = self.message(channel, request.match_info["message_id"])
        if message.author is not self.fake.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_body(request)
        self.check_can_attach(channel, files)
        await self.apply_edit(message, payload, files, interaction=False)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        await self.delete(self.message(channel, request.match_info["message_id"]))
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self.channel(request)
        return no_content()

    async def reaction(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        message = self.message(channel, request.match_info["message_id"])
        emoji = unquote(request.match_info["emoji"])
        self.check_active(channel)
        if request.method == "PUT":
            if emoji not in message.reactions:
                if len(message.reactions) >= 20:
                    raise DiscordError(400, 30010, "Maximum number of reactions reached (20)")
                message.reactions.append(emoji)
        elif emoji in message.reactions:
            message.reactions.remove(emoji)
        self.fake._changed()
        return no_content()

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self.channel(request)
        payload, _ = await read_body(request)
        message_id = request.match_info.get("message_id")
        if parent.type != TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        source = self.message(parent, message_id) if message_id else None
        thread_type = PUBLIC_THREAD if source is not None else int(payload.get("type") or PRIVATE_THREAD)
        needed = (
            VIEW_CHANNEL
            | SEND_MESSAGES
            | (CREATE_PRIVATE_THREADS if thread_type == PRIVATE_THREAD else CREATE_PUBLIC_THREADS)
        )
        if parent.bot_permissions & needed != needed:
            raise error(403, limits.MISSING_PERMISSIONS)
        limits.validate_thread(payload, creating=True)
        if source is not None and source.thread is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        now = self.fake.now()
        thread = Channel(
            id=source.id if source is not None else self.fake.ids.next(),
            name=payload["name"],
            type=thread_type,
            guild=parent.guild,
            parent=parent,
            owner_id=self.fake.bot_user.id,
            thread_members={self.fake.bot_user.id},
            auto_archive_duration=int(payload.get("auto_archive_duration") or parent.default_auto_archive_duration),
            last_activity=now,
            archive_changed=now,
            created_clock=now,
        )
        self.fake.channels[thread.id] = thread
        assert parent.guild is not None
        parent.guild.channels.append(thread)
        if source is not None:
            source.thread = thread
        for session in self.fake.sessions_for(parent.guild):
            if session.wants(GUILDS):
                await session.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        self.fake._changed()
        return json_response(thread.payload(), status=201)

    async def thread_member(self, request: web.Request) -> web.Response:
        thread = self.channel(request)
        if not thread.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user_id = self.fake.bot_user.id if raw == "@me" else int(raw)
        if request.method == "PUT":
            self.check_active(thread)
            thread.thread_members.add(user_id)
        else:
            thread.thread_members.discard(user_id)
        self.fake._changed()
        return no_content()

    # --- users, DMs, guilds ---------------------------------------------------------------------

    async def create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await read_body(request)
        user = self.fake.users.get(int(payload.get("recipient_id") or 0))
        if user is None:
            raise error(404, limits.UNKNOWN_USER)
        return json_response(self.fake.dm_channel(user).payload())

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise error(404, limits.UNKNOWN_USER)
        return json_response(user.payload())

    def guild(self, request: web.Request):
        guild = self.fake.guilds.get(int(request.match_info["guild_id"]))
        if guild is None or self.fake.bot_user.id not in guild.members:
            raise error(403, limits.MISSING_ACCESS)
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        data = self.guild(request).payload()
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
        ):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response([c.payload() for c in self.guild(request).channels if not c.is_thread])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        user = guild.members.get(int(request.match_info["user_id"]))
        if user is None:
            raise error(404, limits.UNKNOWN_MEMBER)
        return json_response(guild.member_payload(user))

    async def member_role(self, request: web.Request) -> web.Response:
        """Add / Remove Guild Member Role (PUT / DELETE, 204): needs MANAGE_ROLES and a role below
        the bot's highest (Discord's role hierarchy), else 403 Missing Permissions; dispatches
        GUILD_MEMBER_UPDATE to sessions with the members intent."""
        guild = self.guild(request)
        user = guild.members.get(int(request.match_info["user_id"]))
        if user is None:
            raise error(404, limits.UNKNOWN_MEMBER)
        role = next((r for r in guild.extra_roles if r.id == int(request.match_info["role_id"])), None)
        if role is None:
            raise error(404, limits.UNKNOWN_ROLE)
        if not guild.bot_base_permissions & (MANAGE_ROLES | ADMINISTRATOR) or role.position >= guild.bot_role_position:
            raise error(403, limits.MISSING_PERMISSIONS)
        held = guild.member_roles.setdefault(user.id, set())
        (held.add if request.method == "PUT" else held.discard)(role.id)
        for session in self.fake.sessions_for(guild):
            if session.wants(GUILD_MEMBERS):
                await session.dispatch("GUILD_MEMBER_UPDATE", {**guild.member_payload(user), "guild_id": str(guild.id)})
        self.fake._changed()
        return no_content()

    # --- CDN ------------------------------------------------------------------------------------

    async def attachment(self, request: web.Request) -> web.Response:
        for message in self.fake.messages.values():
            for attachment in message.attachments:
                if attachment.id == int(request.match_info["attachment_id"]):
                    return web.Response(
                        body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                    )
        for attachment in self.fake._user_attachments.values():
            if attachment.id == int(request.match_info["attachment_id"]):
                return web.Response(
                    body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                )
        raise web.HTTPNotFound()


def _guess_type(filename: str) -> str | None:
    import mimetypes

    return mimetypes.guess_type(filename)[0]


def _route_template(request: web.Request) -> str:
    resource = request.match_info.route.resource
    canonical = resource.canonical if resource is not None else request.path
    return canonical[len(API_PREFIX) :] if canonical.startswith(API_PREFIX) else canonical


WEBHOOK_ROUTES = ("/interactions/", "/webhooks/")
#: Routes a user's Bearer token may call (oauth2.py), and the token exchange (the client's own credentials).
BEARER_ROUTES = ("/users/@me",)
OAUTH_TOKEN = "/oauth2/token"


@web.middleware
async def discord_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    fake: FakeDiscord = request.app[FAKE_KEY]
    if not request.path.startswith(API_PREFIX):
        return await handler(request)
    template = _route_template(request)
    route = f"{request.method} {template}"
    fake.requests.append(route)
    unknown = getattr(request.match_info, "http_exception", None) is not None
    if unknown:
        fake.unknown_routes.append(f"{request.method} {request.path[len(API_PREFIX) :]}")
        return json_response({"message": "404: Not Found", "code": 0}, status=404)
    auth = request.headers.get("Authorization", "")
    bearer = auth.startswith("Bearer ") and template in BEARER_ROUTES
    if not template.startswith(WEBHOOK_ROUTES) and template != OAUTH_TOKEN and not bearer:
        if auth != f"Bot {fake.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
    failure = fake._take_failure(request.method, template)
    if failure is not None:
        fake.failed.append((route, failure))
        fake._changed()
        reason = {
            500: "Internal Server Error",
            502: "Bad Gateway",
            503: "Service Unavailable",
            504: "Gateway Timeout",
        }.get(failure, "Server Error")
        return json_response({"message": f"{failure}: {reason}", "code": 0}, status=failure)
    limited = fake._take_rate_limit(request.method, template)
    if limited is not None:
        retry_after, is_global = limited
        fake.rate_limited.append(route)
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": "fake-" + re.sub(r"\W+", "-", template).strip("-"),
            "X-RateLimit-Scope": "global" if is_global else "user",
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return json_response(body, status=429, headers=headers)
    verdict = fake.rate_limits.check(route, dict(request.match_info)) if fake.rate_limits.enabled else None
    if verdict is not None and verdict.retry_after is not None:
        fake.rate_limited.append(route)
        fake._changed()
        return json_response(verdict.body(), status=429, headers=verdict.headers)
    try:
        response = await handler(request)
    except DiscordError as exc:
        fake.rejections.append((route, exc))
        fake._changed()
        response = json_response(exc.body(), status=exc.status)
    if verdict is not None:
        response.headers.update(verdict.headers)
    return response


def build_app(fake: FakeDiscord) -> web.Application:
    app = web.Application(middlewares=[discord_middleware], client_max_size=MAX_REQUEST_BYTES)
    app[FAKE_KEY] = fake
    api = RestApi(fake)
    p = API_PREFIX
    app.router.add_get("/gateway/", gateway_handler)
    app.router.add_get(p + "/users/@me", api.get_me)
    app.router.add_get(p + "/oauth2/applications/@me", api.get_application)
    app.router.add_post(p + OAUTH_TOKEN, api.oauth2_token)
    app.router.add_get(p + "/applications/{application_id}/activity-instances/{instance_id}", api.get_activity_instance)
    app.router.add_get(p + "/gateway", api.get_gateway)
    app.router.add_get(p + "/gateway/bot", api.get_gateway)
    for scope in (
        "/applications/{application_id}/commands",
        "/applications/{application_id}/guilds/{guild_id}/commands",
    ):
        app.router.add_put(p + scope, api.put_commands)
        app.router.add_get(p + scope, api.get_commands)
        app.router.add_post(p + scope, api.post_command)
        app.router.add_delete(p + scope + "/{command_id}", api.delete_command)
    app.router.add_get(p + "/applications/{application_id}/emojis", api.get_application_emojis)
    app.router.add_post(p + "/applications/{application_id}/emojis", api.create_application_emoji)
    app.router.add_delete(p + "/applications/{application_id}/emojis/{emoji_id}", api.delete_application_emoji)
    app.router.add_post(p + "/interactions/{interaction_id}/{token}/callback", api.interaction_callback)
    app.router.add_post(p + "/webhooks/{application_id}/{token}", api.followup)
    hook_message = p + "/webhooks/{application_id}/{token}/messages/{message_id}"
    app.router.add_get(hook_message, api.webhook_message_get)
    app.router.add_patch(hook_message, api.webhook_message_edit)
    app.router.add_delete(hook_message, api.webhook_message_delete)
    app.router.add_get(p + "/channels/{channel_id}", api.get_channel)
    app.router.add_patch(p + "/channels/{channel_id}", api.modify_channel)
    app.router.add_post(p + "/channels/{channel_id}/messages", api.create_message)
    app.router.add_get(p + "/channels/{channel_id}/messages", api.get_messages)
    message = p + "/channels/{channel_id}/messages/{message_id}"
    app.router.add_get(message, api.get_message)
    app.router.add_patch(message, api.edit_message)
    app.router.add_delete(message, api.delete_message)
    app.router.add_put(message + "/reactions/{emoji}/@me", api.reaction)
    app.router.add_delete(message + "/reactions/{emoji}/@me", api.reaction)
    app.router.add_post(message + "/threads", api.create_thread)
    app.router.add_post(p + "/channels/{channel_id}/threads", api.create_thread)
    app.router.add_put(p + "/channels/{channel_id}/thread-members/{user_id}", api.thread_member)
    app.router.add_delete(p + "/channels/{channel_id}/thread-members/{user_id}", api.thread_member)
    app.router.add_post(p + "/channels/{channel_id}/typing", api.typing)
    app.router.add_post(p + "/users/@me/channels", api.create_dm)
    app.router.add_get(p + "/users/{user_id}", api.get_user)
    app.router.add_get(p + "/guilds/{guild_id}", api.get_guild)
    app.router.add_get(p + "/guilds/{guild_id}/channels", api.get_guild_channels)
    app.router.add_get(p + "/guilds/{guild_id}/members/{user_id}", api.get_member)
    app.router.add_put(p + "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", api.member_role)
    app.router.add_delete(p + "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", api.member_role)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", api.attachment)
    return app
