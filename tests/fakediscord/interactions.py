"""The fake's interaction routes: the callback that acknowledges or answers an interaction, and the
webhook routes of its original response and follow-ups (within the token's 15 minutes), as
Discord's "Receiving and Responding" describes them. Mixed into `RestApi` (server.py)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakediscord import layout, limits
from tests.fakediscord.gateway import DIRECT_MESSAGES, GUILD_MESSAGES
from tests.fakediscord.limits import DiscordError, FormErrors, error
from tests.fakediscord.responses import json_response, no_content, read_body
from tests.fakediscord.state import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DM,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    Message,
    Modal,
)


class InteractionRoutes:
    """Mixed into `RestApi`, whose helpers (`_message`, `_check_edit`, ...) these routes use."""

    # --- interactions ---------------------------------------------------------------------------

    ALLOWED_CALLBACKS = {
        APPLICATION_COMMAND: {4, 5, 9, 12},
        MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
        AUTOCOMPLETE: {8},
        MODAL_SUBMIT: {4, 5, 6, 7, 12},
    }

    async def interaction_callback(self, request: web.Request) -> web.Response:
        fake = self.fake
        record = fake.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            raise error(404, limits.UNKNOWN_INTERACTION)
        try:
            return await self._interaction_callback(request, record)
        except DiscordError as exc:
            record.rejected.append(exc)
            fake._changed()
            raise

    async def _interaction_callback(self, request: web.Request, record: Interaction) -> web.Response:
        fake = self.fake
        payload, files = await read_body(request)
        if record.response_type is not None:
            raise error(400, limits.ALREADY_ACKNOWLEDGED)
        if fake.now() - record.created > limits.ACK_DEADLINE:
            raise error(404, limits.UNKNOWN_INTERACTION)
        kind = payload.get("type")
        data = payload.get("data") or {}
        allowed = set(self.ALLOWED_CALLBACKS.get(record.type, set()))
        if record.type == MODAL_SUBMIT and record.source_message is None:
            allowed -= {6, 7}
        if kind not in allowed:
            errors = FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Interaction response type is invalid for this interaction",
            )
            errors.raise_if_any()
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 7):
            self.check_can_attach(record.channel, files, initial_response=True)
        if kind == 4:
            self.validate_new(data, files, interaction=True, prefix=("data",))
            message = self.new_message(
                record.channel,
                data,
                files,
                webhook_id=fake.application_id,
                interaction=record,
                type=20 if record.type == APPLICATION_COMMAND else 0,
            )
            message.flags &= limits.FLAG_EPHEMERAL | limits.SENDABLE_FLAGS
            self.drop_embeds_without_permission(message, initial_response=True)
            record.message = message
            await self.store(message, owner=record.user)
            resource["message"] = message.payload()
        elif kind == 5:
            flags = int(data.get("flags") or 0) & limits.FLAG_EPHEMERAL
            message = Message(
                id=fake.ids.next(),
                channel=record.channel,
                author=fake.bot_user,
                flags=flags | limits.FLAG_LOADING,
                webhook_id=fake.application_id,
                interaction=record,
                type=20 if record.type == APPLICATION_COMMAND else 0,
                created=fake.now(),
            )
            record.message = message
            await self.store(message, owner=record.user)
            resource["message"] = message.payload()
        elif kind == 6:
            record.message = record.source_message
        elif kind == 7:
            assert record.source_message is not None
            record.message = record.source_message
            await self.apply_edit(record.source_message, data, files, prefix=("data",), initial_response=True)
            resource["message"] = record.source_message.payload()
        elif kind == 8:
            limits.validate_choices(data, record.focused_type)
            record.choices = list(data["choices"])
        elif kind == 9:
            layout.validate_modal(data)
            components = list(data["components"])
            layout.assign_ids(components)
            record.modal = Modal(custom_id=data["custom_id"], title=data["title"], components=components)
        elif kind == 12:  # LAUNCH_ACTIVITY: the user is in the channel's Activity instance (oauth2.py)
            record.activity = fake.join_activity(record.user, record.channel)
            resource["activity_instance"] = {"id": record.activity.id}
        record.response_type = kind
        record.acknowledged.set()
        fake._changed()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(record.message and record.message.ephemeral),
            }
        }
        if record.message is not None and kind in (4, 5, 7):
            body["interaction"]["response_message_id"] = str(record.message.id)
        if record.activity is not None:
            body["interaction"]["activity_instance_id"] = record.activity.id
        if kind in (4, 5, 7, 12):
            body["resource"] = resource
        return json_response(body)

    def webhook_record(self, request: web.Request) -> Interaction:
        fake = self.fake
        if int(request.match_info["application_id"]) != fake.application_id:
            raise error(404, limits.UNKNOWN_WEBHOOK)
        record = fake._by_token.get(request.match_info["token"])
        if record is None:
            raise error(401, limits.INVALID_WEBHOOK_TOKEN)
        if fake.now() - record.created > limits.TOKEN_LIFETIME:
            raise error(401, limits.INVALID_WEBHOOK_TOKEN)
        if record.response_type is None:
            raise error(404, limits.UNKNOWN_WEBHOOK)
        return record

    def webhook_message(self, record: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            if record.message is None or record.message.deleted:
                raise error(404, limits.UNKNOWN_MESSAGE)
            return record.message
        message = self.fake.messages.get(int(message_id))
        if message is None or message.deleted or message not in record.followups and message is not record.message:
            raise error(404, limits.UNKNOWN_MESSAGE)
        return message

    async def followup(self, request: web.Request) -> web.Response:
        record = self.webhook_record(request)
        try:
            payload, files = await read_body(request)
            self.check_can_attach(record.channel, files)
            self.validate_new(payload, files, interaction=True)
            original = record.message
            if record.response_type == 5 and original is not None and original.loading:
                # The first follow-up after a deferred response resolves the "thinking" message:
                # ephemeral as the deferral said, a Components V2 message if the follow-up is one.
                v2 = int(payload.get("flags") or 0) & limits.FLAG_IS_COMPONENTS_V2
                payload = {**payload, "flags": original.flags & limits.FLAG_EPHEMERAL | v2}
                await self.apply_edit(original, payload, files)
                message = original
            else:
                message = self.new_message(
                    record.channel, payload, files, webhook_id=self.fake.application_id, interaction=record
                )
                message.flags &= limits.FLAG_EPHEMERAL | limits.SENDABLE_FLAGS
                self.drop_embeds_without_permission(message)
                await self.store(message, owner=record.user)
            record.followups.append(message)
            self.fake._changed()
        except DiscordError as exc:
            record.rejected.append(exc)
            raise
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(message.payload())
        return no_content()

    async def webhook_message_get(self, request: web.Request) -> web.Response:
        record = self.webhook_record(request)
        return json_response(self.webhook_message(record, request.match_info["message_id"]).payload())

    async def webhook_message_edit(self, request: web.Request) -> web.Response:
        record = self.webhook_record(request)
        message = self.webhook_message(record, request.match_info["message_id"])
        payload, files = await read_body(request)
        try:
            self.check_can_attach(message.channel, files)
            await self.apply_edit(message, payload, files)
        except DiscordError as exc:
            record.rejected.append(exc)
            raise
        return json_response(message.payload())

    async def webhook_message_delete(self, request: web.Request) -> web.Response:
        record = self.webhook_record(request)
        message = self.webhook_message(record, request.match_info["message_id"])
        await self.delete(message)
        return no_content()

    async def delete(self, message: Message) -> None:
        message.deleted = True
        if message in message.channel.messages:
            message.channel.messages.remove(message)
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            intent = DIRECT_MESSAGES if message.channel.type == DM else GUILD_MESSAGES
            for session in self.fake.sessions_for(message.channel.guild):
                if session.wants(intent):
                    await session.dispatch("MESSAGE_DELETE", data)
        self.fake._changed()
