"""The fake server's world: users, guilds, channels, messages, interactions, and their JSON payloads.

Records are plain objects that tests read directly (`message.content`, `message.attachments[0].data`);
`payload()` methods render them the way Discord's API does, which is what discord.py parses.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PIL import Image

from tests.fakediscord import limits
from tests.fakediscord.mentions import Pings

if TYPE_CHECKING:
    from tests.fakediscord.oauth2 import ActivityInstance

DISCORD_EPOCH_MS = 1420070400000
_FIXED_START_MS = 1_735_689_600_000  # 2025-01-01, so ids and timestamps are the same on every run

# The default @everyone permissions of a new guild, without administrator.
EVERYONE_PERMISSIONS = 2248473465835073
ALL_PERMISSIONS = (1 << 53) - 1

# Permission bits the fake looks at (Discord's numbering).
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
MENTION_EVERYONE = 1 << 17
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_ROLES = 1 << 28
ADMINISTRATOR = 1 << 3
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

# The bot's managed role: what a bot invited with the usual "send, embed, attach, threads" scopes gets.
BOT_ROLE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | MANAGE_MESSAGES
    | MANAGE_THREADS
    | USE_APPLICATION_COMMANDS
)
# What an app may do in a DM (the `app_permissions` Discord sends there; discord.py's `_dm_permissions`).
DM_PERMISSIONS = 4011158005075008


class Snowflakes:
    """Deterministic, increasing snowflake ids: one millisecond apart from a fixed date."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        self._last += 1
        return self._make(self._last)

    def peek(self) -> int:
        """The id `next` will give (to place a guild on a chosen shard, say)."""
        return self._make(self._last + 1)

    @staticmethod
    def _make(count: int) -> int:
        return ((_FIXED_START_MS - DISCORD_EPOCH_MS + count) << 22) | 1


def snowflake_time(snowflake: int, later: float = 0.0) -> str:
    """The ISO time a snowflake was made, ``later`` seconds on (for times kept on the fake's clock)."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000 + max(later, 0.0), tz=dt.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord user. ``locale`` goes into every interaction the user makes."""

    id: int
    name: str
    locale: str = "en-US"
    dms_open: bool = True
    bot: bool = False
    global_name: str | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} {self.locale}>"


@dataclass(eq=False)
class Role:
    """A guild role a test added (`FakeDiscord.add_role`); ``mentionable`` lets anyone ping it."""

    id: int
    name: str
    mentionable: bool = False
    permissions: int = 0
    position: int = 2

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": self.mentionable,
            "flags": 0,
        }


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    members: dict[int, User] = field(default_factory=dict)
    channels: list[Channel] = field(default_factory=list)
    joined_at: str = ""
    bot_id: int = 0  # the bot user; it holds the managed role ``bot_role_id``
    bot_role_id: int = 0
    bot_role_permissions: int = BOT_ROLE_PERMISSIONS
    bot_role_name: str = "bot"
    bot_role_position: int = 1  # roles a bot may give or take sit below its highest role
    extra_roles: list[Role] = field(default_factory=list)
    member_roles: dict[int, set[int]] = field(default_factory=dict)  # user -> roles given (add_role_member)

    def everyone_role(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0,
            "permissions": str(EVERYONE_PERMISSIONS),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def bot_role(self) -> dict[str, Any]:
        """The role Discord creates for a bot when it joins (managed, tagged with the bot's id)."""
        return {
            "id": str(self.bot_role_id),
            "name": self.bot_role_name,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.bot_role_position,
            "permissions": str(self.bot_role_permissions),
            "managed": True,
            "mentionable": False,
            "flags": 0,
            "tags": {"bot_id": str(self.bot_id)},
        }

    @property
    def roles(self) -> list[dict[str, Any]]:
        return (
            [self.everyone_role()]
            + ([self.bot_role()] if self.bot_role_id else [])
            + [role.payload() for role in self.extra_roles]
        )

    @property
    def bot_base_permissions(self) -> int:
        """The bot's guild-wide permissions: @everyone plus its role (no channel overwrites)."""
        return EVERYONE_PERMISSIONS | (self.bot_role_permissions if self.bot_role_id else 0)

    def member_payload(self, user: User) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "nick": None,
            "avatar": None,
            "roles": ([str(self.bot_role_id)] if self.bot_role_id and user.id == self.bot_id else [])
            + [str(r) for r in sorted(self.member_roles.get(user.id, ()))],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }

    def partial(self) -> dict[str, Any]:
        return {"id": str(self.id), "locale": self.preferred_locale, "features": []}

    def payload(self) -> dict[str, Any]:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": self.roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [self.member_payload(user) for user in self.members.values()],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name}>"


TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread, or a DM channel. ``messages`` holds what is visible to all."""

    id: int
    name: str
    type: int = TEXT
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None  # DM channels
    owner_id: int | None = None  # threads
    archived: bool = False
    locked: bool = False  # threads: only MANAGE_THREADS may unarchive or post
    auto_archive_duration: int = 1440  # threads: minutes of inactivity before Discord archives them
    last_activity: float = 0.0  # threads, on the fake's clock: last message, unarchive or duration change
    archive_changed: float = 0.0  # threads, on the fake's clock: when `archived` or the duration last changed
    created_clock: float = 0.0  # threads: the fake's clock at creation (for ``archive_timestamp``)
    bot_can_send: bool = True  # False: a member overwrite denies the bot SEND_MESSAGES
    bot_can_attach: bool = True  # False: ... denies ATTACH_FILES
    bot_can_create_threads: bool = True  # False: ... denies CREATE_PUBLIC_THREADS and CREATE_PRIVATE_THREADS
    bot_deny: int = 0  # any further permission bits the bot's member overwrite denies (EMBED_LINKS, ...)
    everyone_deny: int = 0  # permission bits the channel's @everyone overwrite denies
    messages: list[Message] = field(default_factory=list)
    thread_members: set[int] = field(default_factory=set)
    default_auto_archive_duration: int = 1440  # text channels: what clients preselect for new threads

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def idle_until(self) -> float:
        """When (on the fake's clock) an active thread archives itself if nothing happens before."""
        return self.last_activity + self.auto_archive_duration * 60

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def bot_denied(self) -> int:
        """The permission bits the channel's member overwrite for the bot denies."""
        return (
            (0 if self.bot_can_send else SEND_MESSAGES)
            | (0 if self.bot_can_attach else ATTACH_FILES)
            | (0 if self.bot_can_create_threads else CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS)
            | self.bot_deny
        )

    def overwrites(self) -> list[dict[str, Any]]:
        if self.guild is None:
            return []
        found = []
        if self.everyone_deny:
            found.append({"id": str(self.guild.id), "type": 0, "allow": "0", "deny": str(self.everyone_deny)})
        if self.bot_denied:
            found.append({"id": str(self.guild.bot_id), "type": 1, "allow": "0", "deny": str(self.bot_denied)})
        return found

    @property
    def _overwritten(self) -> Channel:
        return self.parent if self.is_thread and self.parent is not None else self

    @property
    def bot_permissions(self) -> int:
        """The bot's permissions here, computed like Discord: base, then the @everyone overwrite, then the
        member overwrite (threads: the parent's)."""
        if self.type == DM or self.guild is None:
            return DM_PERMISSIONS
        source = self._overwritten
        return self.guild.bot_base_permissions & ~source.everyone_deny & ~source.bot_denied

    @property
    def everyone_permissions(self) -> int:
        """What @everyone may do here (threads: in the parent); DMs: Discord's DM set."""
        if self.type == DM or self.guild is None:
            return DM_PERMISSIONS
        return EVERYONE_PERMISSIONS & ~self._overwritten.everyone_deny

    def payload(self) -> dict[str, Any]:
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.payload()] if self.recipient else [],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id) if self.guild else None,
            "name": self.name,
            "position": 0,
            "permission_overwrites": self.overwrites(),
            "nsfw": False,
            "parent_id": str(self.parent.id) if self.parent else None,
            "last_message_id": str(self.messages[-1].id) if self.messages else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type == TEXT:
            data["topic"] = None
            data["default_auto_archive_duration"] = self.default_auto_archive_duration
        if self.is_thread:
            data.pop("position")
            data.pop("permission_overwrites")
            data["owner_id"] = str(self.owner_id)
            data["message_count"] = len(self.messages)
            data["member_count"] = len(self.thread_members)
            data["total_message_sent"] = len(self.messages)
            data["thread_metadata"] = {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": snowflake_time(self.id, self.archive_changed - self.created_clock),
                "locked": self.locked,
                "invitable": True,
                "create_timestamp": snowflake_time(self.id),
            }
        return data

    def __repr__(self) -> str:
        return f"<Channel #{self.name}>" if self.type != DM else f"<DM with {self.recipient}>"


def _image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a picture Discord shows (PNG, WebP, ...), None for other files: Discord
    gives an image attachment its size."""
    try:
        with Image.open(io.BytesIO(data)) as img:
            return img.size
    except (OSError, ValueError):
        return None


@dataclass(eq=False)
class Attachment:
    """A file the bot uploaded; ``data`` is the exact bytes (boards decode with Pillow)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None
    url: str
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_image(self) -> bool:
        return _image_size(self.data) is not None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            data["description"] = self.description
        dims = _image_size(self.data)
        if dims:
            data["width"], data["height"] = dims
        return data

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.size} bytes>"


@dataclass(eq=False)
class Message:
    """A message the bot (or a scripted user) sent. Ephemeral ones live only in `FakeDiscord.ephemeral`."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    interaction: Interaction | None = None  # the interaction whose response or follow-up this is
    reference_id: int | None = None
    edited: bool = False
    deleted: bool = False
    reactions: list[str] = field(default_factory=list)
    thread: Channel | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # earlier versions, oldest first
    pings: Pings = field(default_factory=Pings)  # who this version notified (see `mentions`)
    mentioned: list[User] = field(default_factory=list)  # the users in ``pings``, for the payload
    nonce: str | None = None  # as the sender gave it (Create Message `nonce`)
    created: float = 0.0  # the fake's clock when it was created (`FakeDiscord.now`)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & limits.FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "<bot> is thinking..."."""
        return bool(self.flags & limits.FLAG_LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    def _walk(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []

        def visit(node: Any) -> None:
            if isinstance(node, list):
                for item in node:
                    visit(item)
            elif isinstance(node, dict):
                if node.get("type") not in (1, 9, 17, 18) or "custom_id" in node:
                    found.append(node)
                for key in ("components", "component", "accessory"):
                    if key in node:
                        visit(node[key])

        visit(self.components)
        return found

    @property
    def text(self) -> str:
        """What a reader sees as text: the content, or a Components V2 message's text displays."""
        return "\n".join([self.content, *self.text_displays] if self.content else self.text_displays)

    @property
    def text_displays(self) -> list[str]:
        """The contents of the Components V2 text displays, nested ones included, in order."""
        return [c["content"] for c in self._walk() if c.get("type") == 10]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self._walk() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self._walk() if c.get("type") in limits.SELECT_TYPES]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self._walk() if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self._walk() if c.get("custom_id") == custom_id), None)

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label (handy when custom ids carry generated state)."""
        for button in self.buttons:
            if button.get("label") == label:
                return button
        raise LookupError(f"no button labelled {label!r} on {self!r}; labels: {[b.get('label') for b in self.buttons]}")

    @property
    def files(self) -> dict[str, bytes]:
        return {a.filename: a.data for a in self.attachments}

    def payload(self, *, for_gateway: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": snowflake_time(self.id),
            "edited_timestamp": snowflake_time(self.id) if self.edited else None,
            "tts": False,
            "mention_everyone": self.pings.everyone or self.pings.here,
            "mentions": [u.payload() for u in self.mentioned],
            "mention_roles": [str(r) for r in self.pings.roles],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
            "reactions": [
                {
                    "emoji": {"id": None, "name": r},
                    "count": 1,
                    "me": True,
                    "count_details": {"burst": 0, "normal": 1},
                    "me_burst": False,
                    "burst_colors": [],
                }
                for r in self.reactions
            ],
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            i = self.interaction
            data["interaction_metadata"] = {
                "id": str(i.id),
                "type": i.type,
                "user": i.user.payload(),
                "authorizing_integration_owners": i.integration_owners(),
            }
            if i.type == 2:
                data["interaction_metadata"]["name"] = i.command_name
        if self.reference_id:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel.id),
            }
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if for_gateway and self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
            data["member"] = {k: v for k, v in self.channel.guild.member_payload(self.author).items() if k != "user"}
        return data

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        return f"<Message {self.id}{extra} in {self.channel!r}: {self.content[:40]!r}>"


# Interaction types and callback types, as Discord numbers them.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_NAMES = {
    1: "pong",
    4: "message",
    5: "deferred",
    6: "deferred_update",
    7: "update",
    8: "autocomplete",
    9: "modal",
    12: "launch_activity",
}


@dataclass(eq=False)
class Modal:
    """A modal the bot opened: title, custom id and its input fields (custom_id -> component)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]

    @property
    def fields(self) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for row in self.components:
            children = row.get("components") or ([row["component"]] if "component" in row else [])
            for child in children:
                if "custom_id" in child:
                    found[child["custom_id"]] = child
        return found


@dataclass(eq=False)
class Interaction:
    """One interaction the fake dispatched, and everything the bot did with it.

    ``kind`` is the response type name ("message", "deferred", "update", "deferred_update",
    "modal", "autocomplete") once the bot acknowledged it; ``message`` is the original response
    (or the updated message), ``followups`` the follow-up messages, ``choices`` the autocomplete
    answer, ``modal`` the modal opened.
    """

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    created: float  # on the fake's clock
    fake: Any
    command_name: str | None = None
    source_message: Message | None = None  # for component clicks
    data: dict[str, Any] = field(default_factory=dict)
    focused_type: int | None = None  # autocomplete: the focused option's type, for checking choices
    response_type: int | None = None
    message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: Modal | None = None
    activity: ActivityInstance | None = (
        None  # the ActivityInstance a LAUNCH_ACTIVITY response put the user in (oauth2.py)
    )
    rejected: list[limits.DiscordError] = field(default_factory=list)
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def kind(self) -> str | None:
        return CALLBACK_NAMES.get(self.response_type) if self.response_type else None

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def text(self) -> str:
        """The text of the interaction's response, as its reader sees it (`Message.text`)."""
        return self.message.text if self.message else ""

    @property
    def choice_names(self) -> list[str]:
        return [c["name"] for c in self.choices or []]

    @property
    def choice_values(self) -> list[Any]:
        return [c["value"] for c in self.choices or []]

    def integration_owners(self) -> dict[str, str]:
        if self.channel.guild is not None:
            return {"0": str(self.channel.guild.id)}
        return {"1": str(self.user.id)}

    async def wait_acknowledged(self, timeout: float = limits.ACK_DEADLINE) -> Interaction:
        """Wait for the bot's initial response; fails like Discord after 3 seconds."""
        try:
            await asyncio.wait_for(self.acknowledged.wait(), timeout)
        except TimeoutError:
            reason = f"the bot did not acknowledge within {timeout:g} s"
            if self.rejected:
                reason += "; the fake refused its response: " + "; ".join(
                    f"{e} {e.errors}" if e.errors else str(e) for e in self.rejected
                )
            else:
                reason += " (did its handler raise? see the captured log)"
            raise InteractionFailed(self, reason) from None
        return self

    async def wait_followup(self, index: int = 0, timeout: float = 5.0) -> Message:
        """Wait until follow-up number ``index`` (0-based) exists and return it."""
        await self.fake.wait_until(lambda: len(self.followups) > index, timeout, f"follow-up #{index} of {self!r}")
        return self.followups[index]

    async def wait_resolved(self, timeout: float = 5.0) -> Message:
        """Wait until a deferred response is no longer "thinking" (edited or first follow-up)."""
        await self.fake.wait_until(
            lambda: self.message is not None and not self.message.loading, timeout, f"{self!r} to resolve"
        )
        assert self.message is not None
        return self.message

    async def wait_edit(self, count: int = 1, timeout: float = 5.0) -> Message:
        """Wait until the response message has been edited ``count`` times."""
        await self.fake.wait_until(
            lambda: self.message is not None and len(self.message.history) >= count, timeout, f"edit of {self!r}"
        )
        assert self.message is not None
        return self.message

    def __repr__(self) -> str:
        name = self.command_name or self.data.get("custom_id") or ""
        return f"<Interaction {self.id} type={self.type} {name!r} by {self.user.name} -> {self.kind}>"


class InteractionFailed(AssertionError):
    """What Discord shows as "This interaction failed": no acknowledgement in time."""

    def __init__(self, interaction: Interaction, reason: str):
        super().__init__(f"{interaction!r}: {reason}")
        self.interaction = interaction


class ScriptError(AssertionError):
    """A test asked the fake for something a Discord client could not do (unknown option, hidden button...)."""
