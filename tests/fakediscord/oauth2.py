"""Discord's OAuth2 as an Activity uses it, and its Activity instances (docs/fakediscord.md).

Discord's "Building an Activity" and OAuth2 pages: the Discord client answers the Embedded App
SDK's `authorize` command with an authorization code for the user (`fake.authorize`); the app's
server exchanges it, once, with its client id and secret, at `POST /oauth2/token` for a Bearer
access token; `GET /users/@me` with that token is the user (the `identify` scope). An Activity
instance is who joined it where (`fake.join_activity`, or a LAUNCH_ACTIVITY interaction response);
the bot reads it with its own token at `GET /applications/{id}/activity-instances/{instance_id}`
(Discord's "Get Application Activity Instance", the documented way to check a session)."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord.responses import json_response
from tests.fakediscord.state import Channel, ScriptError, User

if TYPE_CHECKING:
    from tests.fakediscord.api import FakeDiscord

#: An access token's life (seconds): Discord's `expires_in` for an authorization code grant.
ACCESS_TOKEN_SECONDS = 604800
#: How long an authorization code may wait to be exchanged (seconds; RFC 6749 says at most 10 minutes).
CODE_SECONDS = 600


@dataclass
class Grant:
    """What an authorization code or an access token stands for."""

    user: User
    scopes: tuple[str, ...]
    expires: float  # on the fake's clock


@dataclass(eq=False)
class ActivityInstance:
    """A running Activity in a channel: its id as Discord makes it (`i-<launch>-gc-<guild>-<channel>`)."""

    launch_id: int
    channel: Channel
    users: list[User] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"i-{self.launch_id}-{self.location_id}"

    @property
    def location_id(self) -> str:
        guild = self.channel.guild
        return f"gc-{guild.id}-{self.channel.id}" if guild else f"pc-{self.channel.id}"

    def payload(self, application_id: int) -> dict[str, Any]:
        guild = self.channel.guild
        return {
            "application_id": str(application_id),
            "instance_id": self.id,
            "launch_id": str(self.launch_id),
            "location": {
                "id": self.location_id,
                "kind": "gc" if guild else "pc",
                "channel_id": str(self.channel.id),
                "guild_id": str(guild.id) if guild else None,
            },
            "users": [str(u.id) for u in self.users],
        }


def oauth_error(status: int, kind: str, description: str | None = None) -> web.Response:
    """OAuth2's own error body (RFC 6749 §5.2), which Discord's token endpoint answers with."""
    body = {"error": kind} if description is None else {"error": kind, "error_description": description}
    return json_response(body, status=status)


#: The command type of an Activity's Entry Point (PRIMARY_ENTRY_POINT).
ENTRY_POINT = 4
#: A bulk overwrite of the global commands that leaves the Entry Point command out.
ENTRY_POINT_REMOVED = (
    50240,
    "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point "
    "command in your update request or delete it separately.",
)


class ActivityUsers:
    """Mixed into `FakeDiscord`: what the Developer Portal and the Discord client do for an Activity."""

    def enable_activities(self: FakeDiscord) -> dict[str, Any]:  # type: ignore[misc]
        """The portal's "Enable Activities": Discord adds the default Entry Point command ("Launch",
        type 4 PRIMARY_ENTRY_POINT, handler 2: Discord launches the Activity itself, no interaction
        reaches the app) to the global commands, and a bulk overwrite may no longer drop it."""
        command = {
            "id": str(self.ids.next()),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "type": ENTRY_POINT,
            "name": "launch",
            "description": "",
            "handler": 2,
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
            "default_member_permissions": None,
            "nsfw": False,
        }
        self._commands[None] = [*self._commands[None], command]
        return command

    def authorize(self: FakeDiscord, user: User, scopes: tuple[str, ...] = ("identify",)) -> str:  # type: ignore[misc]
        """The code the Discord client hands the Activity after the user authorized the app."""
        code = secrets.token_urlsafe(16)
        self.oauth_codes[code] = Grant(user, scopes, self.now() + CODE_SECONDS)
        return code

    def join_activity(self: FakeDiscord, user: User, channel: Channel) -> ActivityInstance:  # type: ignore[misc]
        """The user opens the app's Activity in `channel` (its entry point, or a launch button):
        they join the channel's running instance, or start one."""
        if channel.guild is not None and user.id not in channel.guild.members:
            raise ScriptError(f"{user.name} is not a member of {channel.guild.name}")
        instance = next((i for i in self.activity_instances.values() if i.channel is channel), None)
        if instance is None:
            instance = ActivityInstance(self.ids.next(), channel)
            self.activity_instances[instance.id] = instance
        if user not in instance.users:
            instance.users.append(user)
        return instance


class OAuth2Routes:
    """Mixed into `RestApi` (server.py)."""

    fake: FakeDiscord

    async def oauth2_token(self, request: web.Request) -> web.Response:
        fake = self.fake
        form = await request.post()
        client_id, secret = form.get("client_id"), form.get("client_secret")
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
        if client_id != str(fake.application_id) or secret != fake.client_secret:
            return oauth_error(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return oauth_error(400, "unsupported_grant_type")
        grant = fake.oauth_codes.pop(str(form.get("code", "")), None)  # a code works once
        if grant is None or fake.now() >= grant.expires:
            return oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        token = secrets.token_urlsafe(24)
        fake.access_tokens[token] = Grant(grant.user, grant.scopes, fake.now() + ACCESS_TOKEN_SECONDS)
        return json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": ACCESS_TOKEN_SECONDS,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": " ".join(grant.scopes),
            }
        )

    def bearer(self, request: web.Request) -> Grant | None:
        """The grant of a request's Bearer token, if it is a live one."""
        auth = request.headers.get("Authorization", "")
        grant = self.fake.access_tokens.get(auth.removeprefix("Bearer ")) if auth.startswith("Bearer ") else None
        return grant if grant is not None and self.fake.now() < grant.expires else None

    async def get_activity_instance(self, request: web.Request) -> web.Response:
        fake = self.fake
        instance = fake.activity_instances.get(request.match_info["instance_id"])
        if int(request.match_info["application_id"]) != fake.application_id or instance is None:
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        return json_response(instance.payload(fake.application_id))
