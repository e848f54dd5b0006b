"""What the scripted users do (`FakeDiscord`'s half that plays Discord's client): run slash
commands, autocomplete and context menus, click buttons, pick in selects, submit modals and post
messages, each checked as the Discord client checks it — and, as a hostile client, what no
client sends (`forge_slash`, `forge_component`). Every call builds the interaction payload
Discord would and dispatches it to the bot's gateway sessions (docs/fakediscord.md)."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import limits
from tests.fakediscord.gateway import (
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    MESSAGE_CONTENT,
)
from tests.fakediscord.state import (
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DM,
    EVERYONE_PERMISSIONS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Attachment,
    Channel,
    Interaction,
    Message,
    Role,
    ScriptError,
    User,
)

# Application flags that grant the privileged intents (presence, members, message content).

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


class ScriptedUsers:
    """Mixed into `FakeDiscord` (api.py), whose world, sessions and clock these calls use."""

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
