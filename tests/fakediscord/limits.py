"""Discord's documented limits, and the validators that enforce them with Discord's error shapes.

Every rejection is a `DiscordError`: the HTTP status, Discord's JSON error code and message, and for
invalid form bodies (code 50035) the nested ``errors`` object Discord sends, e.g.
``{"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "..."}]}}``.
discord.py turns these into `discord.HTTPException` (`Forbidden` for 403, `NotFound` for 404) with
`.status`, `.code` and the flattened errors in its text, so a bot sees exactly what Discord would say.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

# --- interactions -------------------------------------------------------------------------------
ACK_DEADLINE = 3.0  # seconds to send the initial interaction response
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token accepts follow-ups and edits
AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100
CHOICE_STRING_VALUE = 100

# --- messages -----------------------------------------------------------------------------------
CONTENT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER_TEXT = 2048
EMBED_AUTHOR_NAME = 256
EMBED_TOTAL = 6000
FILES_PER_MESSAGE = 10
ATTACHMENT_BYTES = 10 * 1024 * 1024  # a server without boosts (and DMs)
REQUEST_BYTES = 25 * 1024 * 1024  # all the files of one message together

# --- components ---------------------------------------------------------------------------------
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
URL = 512
SELECT_OPTIONS = 25
SELECT_PLACEHOLDER = 150
SELECT_OPTION_TEXT = 100  # label, value, description
MODAL_TITLE = 45
MODAL_ROWS = 5
TEXT_INPUT_LABEL = 45
TEXT_INPUT_PLACEHOLDER = 100
TEXT_INPUT_VALUE = 4000
LABEL_DESCRIPTION = 100

# --- application commands -----------------------------------------------------------------------
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_CHOICES = 25
COMMAND_TOTAL_CHARS = 8000  # names, descriptions and choice values of a command, longest localisation
COMMANDS_PER_SCOPE = 100  # chat-input commands, globally or per guild
CONTEXT_MENU_COMMANDS = 5  # per type (user, message) and scope
STRING_OPTION_LENGTH = 6000

# --- application emojis -------------------------------------------------------------------------
APPLICATION_EMOJIS = 2000  # an application's own emojis, usable everywhere
EMOJI_NAME = (2, 32)  # characters, letters, digits and underscores
EMOJI_IMAGE_BYTES = 256 * 1024  # the image, decoded from its data URI
EMOJI_IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/avif")

# --- channels -----------------------------------------------------------------------------------
THREAD_NAME = 100
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes of inactivity before a thread archives
# Edits to messages older than this many seconds are capped (30046); Discord publishes no count, see
# `FakeDiscord(old_message_edits=...)`.
OLD_MESSAGE_AGE = 3600.0

# --- flags --------------------------------------------------------------------------------------
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_VOICE_MESSAGE = 1 << 13
FLAG_IS_COMPONENTS_V2 = 1 << 15
SENDABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_COMPONENTS_V2


class DiscordError(Exception):
    """A request the fake refuses the way Discord does: HTTP status + JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None):
        super().__init__(f"{status} {message} (error code: {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


# Discord's JSON error codes used by the fake, with their messages.
UNKNOWN_CHANNEL = (10003, "Unknown Channel")
UNKNOWN_EMOJI = (10014, "Unknown Emoji")
UNKNOWN_MEMBER = (10007, "Unknown Member")
UNKNOWN_ROLE = (10011, "Unknown Role")
UNKNOWN_MESSAGE = (10008, "Unknown Message")
UNKNOWN_USER = (10013, "Unknown User")
UNKNOWN_WEBHOOK = (10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (10062, "Unknown interaction")
MAX_EMOJIS = (30008, "Maximum number of emojis reached")
OLD_MESSAGE_EDITS = (30046, "Maximum number of edits to messages older than 1 hour reached. Try again later")
ALREADY_ACKNOWLEDGED = (40060, "Interaction has already been acknowledged.")
ENTITY_TOO_LARGE = (40005, "Request entity too large")
MISSING_ACCESS = (50001, "Missing Access")
EMPTY_MESSAGE = (50006, "Cannot send an empty message")
CANNOT_DM = (50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = (50013, "Missing Permissions")
INVALID_WEBHOOK_TOKEN = (50027, "Invalid Webhook Token")
INVALID_FORM_BODY = (50035, "Invalid Form Body")
ARCHIVED_THREAD = (50083, "Operation cannot be performed on an archived thread")


def error(status: int, code_message: tuple[int, str]) -> DiscordError:
    return DiscordError(status, code_message[0], code_message[1])


class FormErrors:
    """Collects field errors into Discord's nested 50035 ``errors`` object."""

    def __init__(self, prefix: tuple = ()) -> None:
        self.tree: dict[str, Any] = {}
        self.prefix = prefix

    def add(self, path: Iterable[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in (*self.prefix, *path):
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: tuple, value: Any, low: int, high: int) -> None:
        if value is None or not isinstance(value, str):
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        elif not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def max_items(self, path: tuple, items: Any, limit: int) -> None:
        if isinstance(items, list) and len(items) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise DiscordError(400, INVALID_FORM_BODY[0], INVALID_FORM_BODY[1], self.tree)


# --- messages -----------------------------------------------------------------------------------


def validate_message(
    payload: dict[str, Any],
    files: list[tuple[str, bytes, str | None]],
    *,
    creating: bool,
    interaction: bool = False,
    keep_attachments: int = 0,
    prefix: tuple = (),
    components_v2: bool | None = None,
) -> None:
    """Check a message body (create, edit, interaction response, follow-up) against Discord's limits.

    ``files`` are the uploaded (filename, bytes, content type); ``keep_attachments`` counts existing
    attachments an edit keeps, so an edit that leaves only attachments is not "empty";
    ``components_v2``: the message is (or becomes) a Components V2 one (default: the payload's flag),
    whose components `layout.validate_message_layout` checks.
    """
    if (
        any(len(data) > ATTACHMENT_BYTES for _name, data, _type in files)
        or sum(len(data) for _name, data, _type in files) > REQUEST_BYTES
    ):
        raise error(413, ENTITY_TOO_LARGE)
    errors = FormErrors(prefix)
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        errors.add(("content",), "STRING_TYPE_CONVERT", "Could not interpret the value as string.")
    errors.max_length(("content",), content, CONTENT)
    embeds = payload.get("embeds") or []
    errors.max_items(("embeds",), embeds, EMBEDS_PER_MESSAGE)
    total = 0
    for index, embed in enumerate(embeds[:EMBEDS_PER_MESSAGE] if isinstance(embeds, list) else []):
        total += _validate_embed(errors, ("embeds", index), embed)
    if total > EMBED_TOTAL:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")
    flags = int(payload.get("flags") or 0)
    allowed = SENDABLE_FLAGS | (FLAG_EPHEMERAL if interaction else 0)
    if flags & ~allowed:
        errors.add(("flags",), "MESSAGE_FLAGS_INVALID", "Invalid message flags")
    components = payload.get("components") or []
    if components_v2 is None:
        components_v2 = bool(flags & FLAG_IS_COMPONENTS_V2)
    if components_v2:
        for field in ("content", "embeds", "poll", "sticker_ids"):
            if payload.get(field):
                errors.add(
                    (field,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
    else:
        validate_message_components(errors, components)
    attachments_meta = payload.get("attachments")
    if isinstance(attachments_meta, list):
        for index, meta in enumerate(attachments_meta):
            if isinstance(meta, dict):
                errors.max_length(("attachments", index, "description"), meta.get("description"), 1024)
    if len(files) > FILES_PER_MESSAGE:
        errors.add(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_PER_MESSAGE} or fewer in length.")
    errors.raise_if_any()
    if creating:
        empty = not content and not embeds and not files and not components and not keep_attachments
        if empty and not payload.get("sticker_ids") and not payload.get("poll"):
            raise error(400, EMPTY_MESSAGE)


def _validate_embed(errors: FormErrors, path: tuple, embed: Any) -> int:
    if not isinstance(embed, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return 0
    size = 0
    for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
        value = embed.get(key)
        errors.max_length(path + (key,), value, limit)
        size += len(value or "")
    footer = embed.get("footer") or {}
    errors.max_length(path + ("footer", "text"), footer.get("text"), EMBED_FOOTER_TEXT)
    size += len(footer.get("text") or "")
    author = embed.get("author") or {}
    errors.max_length(path + ("author", "name"), author.get("name"), EMBED_AUTHOR_NAME)
    size += len(author.get("name") or "")
    fields = embed.get("fields") or []
    errors.max_items(path + ("fields",), fields, EMBED_FIELDS)
    for index, field in enumerate(fields):
        for key, limit in (("name", EMBED_FIELD_NAME), ("value", EMBED_FIELD_VALUE)):
            value = field.get(key)
            if value is None or value == "":
                errors.add(path + ("fields", index, key), "BASE_TYPE_REQUIRED", "This field is required")
            errors.max_length(path + ("fields", index, key), value, limit)
            size += len(value or "")
    for key in ("url",):
        value = embed.get(key)
        if value is not None and not str(value).startswith(("http://", "https://", "attachment://")):
            errors.add(path + (key,), "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    return size


def check_custom_id(errors: FormErrors, path: tuple, custom_id: Any, seen: set[str]) -> None:
    if not isinstance(custom_id, str) or not custom_id:
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    errors.max_length(path, custom_id, CUSTOM_ID)
    if custom_id in seen:
        errors.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(custom_id)


SELECT_TYPES = {3, 5, 6, 7, 8}


def validate_message_components(errors: FormErrors, components: Any) -> None:
    """Classic message components: up to 5 action rows, each 5 buttons or a single select."""
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_LIST", "Must be a list")
        return
    errors.max_items(("components",), components, ACTION_ROWS)
    seen: set[str] = set()
    for r, row in enumerate(components):
        path = ("components", r)
        if not isinstance(row, dict) or row.get("type") != 1:
            errors.add(path + ("type",), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
            continue
        validate_action_row(errors, path, row, seen)


def validate_action_row(errors: FormErrors, path: tuple, row: dict[str, Any], seen: set[str]) -> None:
    """1-5 buttons, or a single select (text inputs belong in modals)."""
    children = row.get("components") or []
    if not children:
        errors.add(path + ("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    kinds = {child.get("type") for child in children}
    if kinds & SELECT_TYPES and len(children) > 1:
        errors.add(
            path + ("components",),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    elif len(children) > BUTTONS_PER_ROW:
        errors.add(path + ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {BUTTONS_PER_ROW} or fewer in length.")
    for c, child in enumerate(children):
        validate_component(errors, path + ("components", c), child, seen)


def validate_component(errors: FormErrors, path: tuple, child: dict[str, Any], seen: set[str]) -> None:
    kind = child.get("type")
    if kind == 2:
        style = child.get("style")
        errors.max_length(path + ("label",), child.get("label"), BUTTON_LABEL)
        if style == 5:
            if not child.get("url"):
                errors.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
            errors.max_length(path + ("url",), child.get("url"), URL)
            if "custom_id" in child:
                errors.add(path + ("custom_id",), "COMPONENT_INVALID_FIELD", "A link button cannot have a custom id")
        elif style == 6:
            if not child.get("sku_id"):
                errors.add(path + ("sku_id",), "BASE_TYPE_REQUIRED", "This field is required")
        elif style in (1, 2, 3, 4):
            check_custom_id(errors, path + ("custom_id",), child.get("custom_id"), seen)
            if not child.get("label") and not child.get("emoji"):
                errors.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")
        else:
            errors.add(path + ("style",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    elif kind in SELECT_TYPES:
        check_custom_id(errors, path + ("custom_id",), child.get("custom_id"), seen)
        validate_select(errors, path, child)
    elif kind == 4:
        errors.add(path + ("type",), "COMPONENT_TYPE_INVALID", "Text inputs can only be used in modals")
    else:
        errors.add(path + ("type",), "BASE_TYPE_CHOICES", "Value must be one of {2, 3, 5, 6, 7, 8}.")


def validate_select(errors: FormErrors, path: tuple, select: dict[str, Any]) -> None:
    errors.max_length(path + ("placeholder",), select.get("placeholder"), SELECT_PLACEHOLDER)
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        errors.add(path + ("min_values",), "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
    if not 1 <= max_values <= 25:
        errors.add(path + ("max_values",), "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
    if min_values > max_values:
        errors.add(
            path + ("min_values",),
            "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
            "min_values must be less than or equal to max_values",
        )
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    if not options:
        errors.add(path + ("options",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    errors.max_items(path + ("options",), options, SELECT_OPTIONS)
    if max_values > len(options) and options:
        errors.add(
            path + ("max_values",),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            "max_values must be less than or equal to the number of options",
        )
    values: set[str] = set()
    for index, option in enumerate(options):
        option_path = path + ("options", index)
        errors.length_between(option_path + ("label",), option.get("label"), 1, SELECT_OPTION_TEXT)
        errors.length_between(option_path + ("value",), option.get("value"), 1, SELECT_OPTION_TEXT)
        errors.max_length(option_path + ("description",), option.get("description"), SELECT_OPTION_TEXT)
        if option.get("value") in values:
            errors.add(
                option_path + ("value",),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select component option values must be unique",
            )
        values.add(option.get("value"))


# --- modals -------------------------------------------------------------------------------------


def validate_text_input(
    errors: FormErrors, path: tuple, text: dict[str, Any], seen: set[str], *, needs_label: bool
) -> None:
    check_custom_id(errors, path + ("custom_id",), text.get("custom_id"), seen)
    if needs_label:
        errors.length_between(path + ("label",), text.get("label"), 1, TEXT_INPUT_LABEL)
    if text.get("style") not in (1, 2):
        errors.add(path + ("style",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    errors.max_length(path + ("placeholder",), text.get("placeholder"), TEXT_INPUT_PLACEHOLDER)
    errors.max_length(path + ("value",), text.get("value"), TEXT_INPUT_VALUE)
    low, high = text.get("min_length"), text.get("max_length")
    if low is not None and not 0 <= low <= TEXT_INPUT_VALUE:
        errors.add(path + ("min_length",), "NUMBER_TYPE_MAX", f"int value should be between 0 and {TEXT_INPUT_VALUE}.")
    if high is not None and not 1 <= high <= TEXT_INPUT_VALUE:
        errors.add(path + ("max_length",), "NUMBER_TYPE_MAX", f"int value should be between 1 and {TEXT_INPUT_VALUE}.")


# --- autocomplete -------------------------------------------------------------------------------


def validate_choices(data: dict[str, Any], option_type: int | None) -> None:
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        errors.raise_if_any()
        return
    errors.max_items(("data", "choices"), choices, AUTOCOMPLETE_CHOICES)
    for index, choice in enumerate(choices):
        _validate_choice(errors, ("data", "choices", index), choice, option_type)
    errors.raise_if_any()


def _validate_choice(errors: FormErrors, path: tuple, choice: dict[str, Any], option_type: int | None) -> None:
    errors.length_between(path + ("name",), choice.get("name"), 1, CHOICE_NAME)
    value = choice.get("value")
    if option_type in (4, 10):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            errors.add(path + ("value",), "NUMBER_TYPE_COERCE", f'Value "{value}" is not a number.')
        elif option_type == 4 and not float(value).is_integer():
            errors.add(path + ("value",), "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
    elif option_type == 3 or option_type is None:
        if not isinstance(value, str):
            errors.add(path + ("value",), "STRING_TYPE_CONVERT", "Could not interpret the value as string.")
        else:
            errors.max_length(path + ("value",), value, CHOICE_STRING_VALUE)
    for locale, name in (choice.get("name_localizations") or {}).items():
        errors.length_between(path + ("name_localizations", locale), name, 1, CHOICE_NAME)


# --- application commands -----------------------------------------------------------------------


def valid_command_name(name: Any, *, chat_input: bool) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME:
        return False
    if not chat_input:
        return True  # context-menu names may hold spaces and capitals
    if name != name.lower():
        return False
    for char in name:
        if char in "-_'" or char.isalnum():
            continue
        uname = unicodedata.name(char, "")
        if uname.startswith(("DEVANAGARI", "THAI")):
            continue
        return False
    return True


def validate_commands(commands: Any) -> None:
    """Validate a bulk overwrite (PUT) of application commands, global or for one guild."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_LIST", "Must be a list")
        errors.raise_if_any()
    chat_inputs = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_inputs) > COMMANDS_PER_SCOPE:
        errors.add(
            (),
            "APPLICATION_COMMANDS_TOO_MANY",
            f"Maximum number of application commands reached ({COMMANDS_PER_SCOPE})",
        )
    for kind in (2, 3):
        if sum(1 for c in commands if c.get("type") == kind) > CONTEXT_MENU_COMMANDS:
            errors.add(
                (),
                "APPLICATION_COMMANDS_TOO_MANY",
                f"Maximum number of context menu commands reached ({CONTEXT_MENU_COMMANDS})",
            )
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type", 1)
        key = (kind, command.get("name"))
        if key in names:
            errors.add(
                (index, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"
            )
        names.add(key)
        validate_command(errors, (index,), command)
    errors.raise_if_any()


def validate_command(errors: FormErrors, path: tuple, command: dict[str, Any]) -> None:
    kind = command.get("type", 1)
    chat_input = kind == 1
    _validate_name(errors, path + ("name",), command.get("name"), chat_input=chat_input)
    for locale, name in (command.get("name_localizations") or {}).items():
        _validate_name(errors, path + ("name_localizations", locale), name, chat_input=chat_input)
    if chat_input:
        _validate_description(errors, path + ("description",), command.get("description"))
        for locale, text in (command.get("description_localizations") or {}).items():
            _validate_description(errors, path + ("description_localizations", locale), text)
        _validate_options(errors, path + ("options",), command.get("options") or [], depth=0)
        if _command_size(command) > COMMAND_TOTAL_CHARS:
            errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_TOTAL_CHARS})")
    elif command.get("description"):
        errors.add(
            path + ("description",),
            "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID",
            "Context menu commands cannot have description",
        )


def _validate_name(errors: FormErrors, path: tuple, name: Any, *, chat_input: bool) -> None:
    if not valid_command_name(name, chat_input=chat_input):
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _validate_description(errors: FormErrors, path: tuple, text: Any) -> None:
    errors.length_between(path, text, 1, COMMAND_DESCRIPTION)


def _validate_options(errors: FormErrors, path: tuple, options: list[dict[str, Any]], *, depth: int) -> None:
    errors.max_items(path, options, COMMAND_OPTIONS)
    seen: set[str] = set()
    optional_seen = False
    kinds = {option.get("type") for option in options}
    if kinds & {1, 2} and kinds - {1, 2}:
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        )
    for index, option in enumerate(options):
        option_path = path + (index,)
        kind = option.get("type")
        name = option.get("name")
        _validate_name(errors, option_path + ("name",), name, chat_input=True)
        for locale, localized in (option.get("name_localizations") or {}).items():
            _validate_name(errors, option_path + ("name_localizations", locale), localized, chat_input=True)
        _validate_description(errors, option_path + ("description",), option.get("description"))
        for locale, text in (option.get("description_localizations") or {}).items():
            _validate_description(errors, option_path + ("description_localizations", locale), text)
        if name in seen:
            errors.add(
                option_path + ("name",), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option name already exists"
            )
        seen.add(name)
        if kind not in range(1, 12):
            errors.add(option_path + ("type",), "BASE_TYPE_CHOICES", "Value must be one of {1..11}.")
        if kind in (1, 2):
            allowed_child = {1} if kind == 2 else None
            if kind == 2 and depth > 0 or kind == 1 and depth > 1:
                errors.add(
                    option_path + ("type",), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-commands nest too deep"
                )
            children = option.get("options") or []
            if allowed_child and any(child.get("type") not in allowed_child for child in children):
                errors.add(
                    option_path + ("options",),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups may only hold sub-commands",
                )
            if kind == 1 and any(child.get("type") in (1, 2) for child in children):
                errors.add(
                    option_path + ("options",),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands cannot hold sub-commands",
                )
            _validate_options(errors, option_path + ("options",), children, depth=depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    option_path + ("required",),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        choices = option.get("choices") or []
        errors.max_items(option_path + ("choices",), choices, COMMAND_CHOICES)
        for c, choice in enumerate(choices):
            _validate_choice(errors, option_path + ("choices", c), choice, kind)
        if choices and option.get("autocomplete"):
            errors.add(
                option_path + ("autocomplete",),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
                "Autocomplete cannot be enabled on options that have choices",
            )
        if option.get("autocomplete") and kind not in (3, 4, 10):
            errors.add(
                option_path + ("autocomplete",),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID_TYPE",
                "Autocomplete is only available for string, integer and number options",
            )
        for key in ("min_length", "max_length"):
            value = option.get(key)
            if value is not None and not 0 <= value <= STRING_OPTION_LENGTH:
                errors.add(
                    option_path + (key,),
                    "NUMBER_TYPE_MAX",
                    f"int value should be between 0 and {STRING_OPTION_LENGTH}.",
                )


def _longest(text: Any, localizations: Any) -> int:
    lengths = [len(text or "")] + [len(v or "") for v in (localizations or {}).values()]
    return max(lengths)


def _command_size(node: dict[str, Any]) -> int:
    size = _longest(node.get("name"), node.get("name_localizations"))
    size += _longest(node.get("description"), node.get("description_localizations"))
    for choice in node.get("choices") or []:
        size += _longest(choice.get("name"), choice.get("name_localizations"))
        size += len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        size += _command_size(option)
    return size


def validate_thread(payload: dict[str, Any], *, creating: bool) -> None:
    """A thread's name (required when creating) and ``auto_archive_duration`` (one of Discord's four)."""
    errors = FormErrors()
    if creating or "name" in payload:
        errors.length_between(("name",), payload.get("name"), 1, THREAD_NAME)
    duration = payload.get("auto_archive_duration")
    if duration is not None and duration not in THREAD_ARCHIVE_DURATIONS:
        errors.add(
            ("auto_archive_duration",), "BASE_TYPE_CHOICES", f"Value must be one of {set(THREAD_ARCHIVE_DURATIONS)}."
        )
    errors.raise_if_any()


#: Create Message `nonce`: at most 25 characters; with `enforce_nonce` it is unique per author for
#: "the past few minutes" (Discord does not say how many: five here).
NONCE_LENGTH = 25
NONCE_WINDOW_SECONDS = 300


# --- application emojis -------------------------------------------------------------------------


def validate_application_emoji(payload: dict[str, Any], taken: Iterable[str]) -> bytes:
    """Create Application Emoji's body: a name of 2-32 letters, digits and underscores no other
    emoji of the application has, and a data URI of an image of at most 256 KiB; the image's bytes."""
    errors = FormErrors()
    name = payload.get("name")
    errors.length_between(("name",), name, *EMOJI_NAME)
    if isinstance(name, str) and not re.fullmatch(r"[A-Za-z0-9_]+", name):
        errors.add(("name",), "STRING_TYPE_REGEX", "String value did not match validation regex.")
    elif name in set(taken):
        errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")
    image, data = payload.get("image"), b""
    found = re.fullmatch(r"data:([a-z/]+);base64,(.*)", image, re.S) if isinstance(image, str) else None
    if found is None or found.group(1) not in EMOJI_IMAGE_TYPES:
        errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
    else:
        try:
            data = base64.b64decode(found.group(2), validate=True)
        except binascii.Error:
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
        if len(data) > EMOJI_IMAGE_BYTES:
            errors.add(("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    errors.raise_if_any()
    return data
