"""Who a message pings: mentions in its text (content and Components V2 text displays) filtered by
``allowed_mentions`` and the sender's permissions, as Discord's "Allowed Mentions Object" says.

- No ``allowed_mentions``: every mention in the text is parsed, except in interaction responses,
  follow-ups and their edits, where only user mentions are parsed by default.
- ``parse``: the kinds parsed from the text ("users", "roles", "everyone"); ``users`` / ``roles``:
  ids allowed to ping (at most 100 each; a kind cannot be both in ``parse`` and listed). Listed ids
  ping only when their mention is in the text (no "phantom" pings).
- ``replied_user``: whether a reply pings the author of the message it answers (default false
  inside the object; with no object at all a reply pings the author, as Discord does by default).
- ``@everyone`` / ``@here`` need the sender's MENTION_EVERYONE; a role pings when it is mentionable
  or the sender has MENTION_EVERYONE. Only users who can see the channel are pinged.

Markdown is not a mention: ``**bold**`` or `` `tick` `` in a display name is text, recorded as is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.limits import FormErrors

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
MENTION_KINDS = ("users", "roles", "everyone")
ALLOWED_IDS = 100
TEXT_DISPLAY = 10


@dataclass
class Pings:
    """Who one version of a message notified: user ids, role ids, ``@everyone`` / ``@here``.

    ``silent``: sent with SUPPRESS_NOTIFICATIONS (Discord shows a badge but sends no push).
    """

    users: list[int] = field(default_factory=list)
    roles: list[int] = field(default_factory=list)
    everyone: bool = False
    here: bool = False
    silent: bool = False

    @property
    def nobody(self) -> bool:
        return not (self.users or self.roles or self.everyone or self.here)


def message_text(content: str | None, components: Any) -> str:
    """The text Discord looks for mentions in: the content and every (nested) text display."""
    parts = [content or ""]

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            if node.get("type") == TEXT_DISPLAY and isinstance(node.get("content"), str):
                parts.append(node["content"])
            for key in ("components", "component", "accessory"):
                if key in node:
                    visit(node[key])

    visit(components)
    return "\n".join(parts)


def validate_allowed_mentions(allowed: Any, errors: FormErrors) -> None:
    """Discord's 50035 checks on the object: known kinds, at most 100 ids, no kind both parsed and listed."""
    if allowed is None:
        return
    path = ("allowed_mentions",)
    if not isinstance(allowed, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in MENTION_KINDS:
            errors.add(path + ("parse", index), "BASE_TYPE_CHOICES", f"Value must be one of {set(MENTION_KINDS)}.")
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        errors.max_items(path + (kind,), listed, ALLOWED_IDS)
        if listed and kind in parse:
            errors.add(
                path + ("parse",),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )


def compute_pings(
    text: str,
    allowed: dict[str, Any] | None,
    *,
    interaction: bool,
    can_mention_everyone: bool,
    visible_user_ids: Iterable[int],
    mentionable_role_ids: Iterable[int],
    role_ids: Iterable[int],
    author_id: int,
    replied_author_id: int | None = None,
    silent: bool = False,
) -> Pings:
    """Who a message with ``text`` pings, sent with ``allowed`` (None: the field was absent)."""
    if allowed is None:
        parse = {"users"} if interaction else set(MENTION_KINDS)
        listed_users: set[int] | None = None
        listed_roles: set[int] | None = None
        replied = True
    else:
        parse = set(allowed.get("parse") or [])
        listed_users = {int(i) for i in allowed.get("users") or []}
        listed_roles = {int(i) for i in allowed.get("roles") or []}
        replied = bool(allowed.get("replied_user", False))
    visible = set(visible_user_ids)
    users: list[int] = []
    for raw in USER_MENTION.findall(text):
        user_id = int(raw)
        allowed_user = "users" in parse or (listed_users is not None and user_id in listed_users)
        if allowed_user and user_id in visible and user_id != author_id and user_id not in users:
            users.append(user_id)
    if (
        replied
        and replied_author_id is not None
        and replied_author_id != author_id
        and replied_author_id in visible
        and replied_author_id not in users
    ):
        users.append(replied_author_id)
    known_roles, mentionable = set(role_ids), set(mentionable_role_ids)
    roles: list[int] = []
    for raw in ROLE_MENTION.findall(text):
        role_id = int(raw)
        allowed_role = "roles" in parse or (listed_roles is not None and role_id in listed_roles)
        may = role_id in mentionable or can_mention_everyone
        if allowed_role and may and role_id in known_roles and role_id not in roles:
            roles.append(role_id)
    mass = "everyone" in parse and can_mention_everyone
    return Pings(
        users=users, roles=roles, everyone=mass and "@everyone" in text, here=mass and "@here" in text, silent=silent
    )
