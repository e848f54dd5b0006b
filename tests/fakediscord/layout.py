"""Components V2 message layouts and modal layouts, checked the way Discord's "Component Reference"
describes them, with Discord's 50035 error shape (`limits.FormErrors`).

Messages with the IS_COMPONENTS_V2 flag (1 << 15): top level action rows (1), sections (9), text
displays (10), media galleries (12), files (13), separators (14) and containers (17); at most 40
components counting nested ones; text displays at most 4000 characters together; a section holds
1-3 text displays and a thumbnail or button accessory; a media gallery 1-10 items; a file component
only ``attachment://`` references; every ``attachment://`` must name a file of the message.

Modals: 1-5 top level components — a label (18) wrapping one text input (4), select (3, 5-8), file
upload (19), radio group (21), checkbox group (22) or checkbox (23); a text display (10); or the
legacy action row with one text input. Custom ids are unique in a message or modal, and every
component gets an ``id`` (numbered in order, skipping ids already used) as Discord assigns them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tests.fakediscord import limits
from tests.fakediscord.limits import (
    FormErrors,
    check_custom_id,
    validate_component,
    validate_select,
)

ACTION_ROW, BUTTON, TEXT_INPUT, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 4, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER, LABEL, FILE_UPLOAD = 12, 13, 14, 17, 18, 19
RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 21, 22, 23

TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = {ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE}
LABELLED = {TEXT_INPUT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX} | limits.SELECT_TYPES

MESSAGE_COMPONENTS = 40
TEXT_DISPLAY_TOTAL = 4000
SECTION_TEXTS = 3
GALLERY_ITEMS = 10
MEDIA_DESCRIPTION = 1024
RADIO_OPTIONS = (2, 10)
CHECKBOX_OPTIONS = (1, 10)
UPLOAD_FILES = 10
OPTION_TEXT = 100
ATTACHMENT_SCHEME = "attachment://"


def children(node: dict[str, Any]) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(key, index or None, child) for every component directly inside ``node``."""
    for index, child in enumerate(node.get("components") or []):
        if isinstance(child, dict):
            yield "components", index, child
    for key in ("accessory", "component"):
        if isinstance(node.get(key), dict):
            yield key, None, node[key]


def walk(components: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Every component, nested ones included, in document order."""
    for component in components:
        if isinstance(component, dict):
            yield component
            yield from walk(child for _, _, child in children(component))


def assign_ids(components: list[dict[str, Any]]) -> None:
    """Give every component without an ``id`` the next free number, in document order (Discord's way)."""
    used = {c["id"] for c in walk(components) if isinstance(c.get("id"), int)}
    number = 0
    for component in walk(components):
        if isinstance(component.get("id"), int):
            continue
        number += 1
        while number in used:
            number += 1
        component["id"] = number
        used.add(number)


def resolve_media(components: list[dict[str, Any]], attachments: Iterable[Any]) -> None:
    """Point every ``attachment://name`` media item at that attachment, as Discord's responses do:
    the attachment's URL, its id and, for an image, its size (what a client reads back)."""
    by_name = {a.filename: a for a in attachments}
    for component in walk(components):
        media = [item.get("media") for item in component.get("items") or [] if isinstance(item, dict)]
        media += [component.get(key) for key in ("media", "file")]
        for item in media:
            url = item.get("url") if isinstance(item, dict) else None
            if not isinstance(url, str) or not url.startswith(ATTACHMENT_SCHEME):
                continue
            attachment = by_name.get(url[len(ATTACHMENT_SCHEME) :])
            if attachment is not None:
                described = attachment.payload()
                item.update(url=attachment.url, proxy_url=attachment.url, attachment_id=str(attachment.id))
                item.update({k: described[k] for k in ("content_type", "width", "height") if k in described})


# --- messages ------------------------------------------------------------------------------------


def validate_message_layout(components: Any, attachment_names: set[str], prefix: tuple = ()) -> None:
    """A Components V2 message's ``components`` (the flag's other rules are in `limits.validate_message`)."""
    errors = FormErrors(prefix)
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_LIST", "Must be a list")
        errors.raise_if_any()
    everything = list(walk(components))
    if len(everything) > MESSAGE_COMPONENTS:
        errors.add(
            ("components",),
            "COMPONENT_LAYOUT_TOO_MANY_COMPONENTS",
            f"Messages can have at most {MESSAGE_COMPONENTS} components (nested ones included).",
        )
    text = sum(len(c.get("content") or "") for c in everything if c.get("type") == TEXT_DISPLAY)
    if text > TEXT_DISPLAY_TOTAL:
        errors.add(
            ("components",),
            "COMPONENT_LAYOUT_TEXT_TOO_LONG",
            f"The text displays of a message hold at most {TEXT_DISPLAY_TOTAL} characters together.",
        )
    ids = [c["id"] for c in everything if c.get("id") is not None]
    if len(ids) != len(set(ids)) or any(not isinstance(i, int) or not 0 <= i < 2**31 for i in ids):
        errors.add(("components",), "COMPONENT_ID_INVALID", "Component ids must be unique 32 bit integers.")
    seen: set[str] = set()
    for index, component in enumerate(components):
        _validate_v2(errors, ("components", index), component, TOP_LEVEL, attachment_names, seen)
    errors.raise_if_any()


def _choices(allowed: set[int]) -> str:
    return "Value must be one of {" + ", ".join(str(k) for k in sorted(allowed)) + "}."


def _validate_v2(
    errors: FormErrors, path: tuple, component: Any, allowed: set[int], names: set[str], seen: set[str]
) -> None:
    if not isinstance(component, dict) or component.get("type") not in allowed:
        errors.add(path + ("type",), "BASE_TYPE_CHOICES", _choices(allowed))
        return
    kind = component["type"]
    if kind == ACTION_ROW:
        limits.validate_action_row(errors, path, component, seen)
    elif kind == TEXT_DISPLAY:
        if not isinstance(component.get("content"), str) or not component["content"]:
            errors.add(path + ("content",), "BASE_TYPE_REQUIRED", "This field is required")
    elif kind == SECTION:
        texts = component.get("components") or []
        if not 1 <= len(texts) <= SECTION_TEXTS:
            errors.add(
                path + ("components",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {SECTION_TEXTS} in length."
            )
        for index, text in enumerate(texts):
            _validate_v2(errors, path + ("components", index), text, {TEXT_DISPLAY}, names, seen)
        accessory = component.get("accessory")
        if accessory is None:
            errors.add(path + ("accessory",), "BASE_TYPE_REQUIRED", "This field is required")
        elif isinstance(accessory, dict) and accessory.get("type") == BUTTON:
            validate_component(errors, path + ("accessory",), accessory, seen)
        else:
            _validate_v2(errors, path + ("accessory",), accessory, {THUMBNAIL, BUTTON}, names, seen)
    elif kind == THUMBNAIL:
        _validate_media(errors, path + ("media",), component.get("media"), names, files_only=False)
        errors.max_length(path + ("description",), component.get("description"), MEDIA_DESCRIPTION)
    elif kind == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= GALLERY_ITEMS:
            errors.add(path + ("items",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {GALLERY_ITEMS} in length.")
        for index, item in enumerate(items):
            item = item if isinstance(item, dict) else {}
            _validate_media(errors, path + ("items", index, "media"), item.get("media"), names, files_only=False)
            errors.max_length(path + ("items", index, "description"), item.get("description"), MEDIA_DESCRIPTION)
    elif kind == FILE:
        _validate_media(errors, path + ("file",), component.get("file"), names, files_only=True)
    elif kind == SEPARATOR:
        if component.get("spacing", 1) not in (1, 2):
            errors.add(path + ("spacing",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    elif kind == CONTAINER:
        inner = component.get("components") or []
        if not inner:
            errors.add(path + ("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        for index, child in enumerate(inner):
            _validate_v2(errors, path + ("components", index), child, IN_CONTAINER, names, seen)
        colour = component.get("accent_color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            errors.add(path + ("accent_color",), "NUMBER_TYPE_MAX", "int value should be between 0 and 16777215.")


def _validate_media(errors: FormErrors, path: tuple, media: Any, names: set[str], *, files_only: bool) -> None:
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        errors.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
    elif url.startswith(ATTACHMENT_SCHEME):
        if url[len(ATTACHMENT_SCHEME) :] not in names:
            errors.add(
                path + ("url",),
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"No attachment named {url[len(ATTACHMENT_SCHEME) :]!r} in this message.",
            )
    elif files_only or not url.startswith(("http://", "https://")):
        errors.add(
            path + ("url",),
            "URL_TYPE_INVALID_URL",
            "File components take attachment:// references only." if files_only else "Not a well formed URL.",
        )


# --- modals --------------------------------------------------------------------------------------


def validate_modal(data: dict[str, Any]) -> None:
    """A modal response (callback type 9)."""
    errors = FormErrors()
    errors.length_between(("data", "title"), data.get("title"), 1, limits.MODAL_TITLE)
    seen: set[str] = set()
    check_custom_id(errors, ("data", "custom_id"), data.get("custom_id"), seen)
    rows = data.get("components") or []
    if not rows:
        errors.add(("data", "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    errors.max_items(("data", "components"), rows, limits.MODAL_ROWS)
    for r, row in enumerate(rows):
        path = ("data", "components", r)
        kind = row.get("type") if isinstance(row, dict) else None
        if kind == ACTION_ROW:  # legacy: an action row holding exactly one text input
            inner = row.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != TEXT_INPUT:
                errors.add(path + ("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1 in length.")
                continue
            limits.validate_text_input(errors, path + ("components", 0), inner[0], seen, needs_label=True)
        elif kind == LABEL:
            errors.length_between(path + ("label",), row.get("label"), 1, limits.TEXT_INPUT_LABEL)
            errors.max_length(path + ("description",), row.get("description"), limits.LABEL_DESCRIPTION)
            _validate_labelled(errors, path + ("component",), row.get("component"), seen)
        elif kind == TEXT_DISPLAY:
            if not isinstance(row.get("content"), str) or not row["content"]:
                errors.add(path + ("content",), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            errors.add(path + ("type",), "BASE_TYPE_CHOICES", _choices({ACTION_ROW, TEXT_DISPLAY, LABEL}))
    errors.raise_if_any()


def _validate_labelled(errors: FormErrors, path: tuple, child: Any, seen: set[str]) -> None:
    if not isinstance(child, dict) or child.get("type") not in LABELLED:
        errors.add(path + ("type",), "BASE_TYPE_CHOICES", _choices(LABELLED))
        return
    kind = child["type"]
    if kind == TEXT_INPUT:
        limits.validate_text_input(errors, path, child, seen, needs_label=False)
        return
    check_custom_id(errors, path + ("custom_id",), child.get("custom_id"), seen)
    if kind in limits.SELECT_TYPES:
        validate_select(errors, path, child)
    elif kind == RADIO_GROUP:
        _validate_options(errors, path, child, RADIO_OPTIONS)
        if sum(1 for o in child.get("options") or [] if isinstance(o, dict) and o.get("default")) > 1:
            errors.add(path + ("options",), "RADIO_GROUP_TOO_MANY_DEFAULTS", "Only one option can be the default.")
    elif kind == CHECKBOX_GROUP:
        options = _validate_options(errors, path, child, CHECKBOX_OPTIONS)
        _validate_counts(errors, path, child, high_limit=CHECKBOX_OPTIONS[1], available=options)
    elif kind == FILE_UPLOAD:
        _validate_counts(errors, path, child, high_limit=UPLOAD_FILES, available=UPLOAD_FILES)
    elif kind == CHECKBOX and child.get("default") is not None and not isinstance(child["default"], bool):
        errors.add(path + ("default",), "BASE_TYPE_BOOLEAN", "Must be either true or false.")


def _validate_options(errors: FormErrors, path: tuple, child: dict[str, Any], bounds: tuple[int, int]) -> int:
    options = child.get("options") or []
    low, high = bounds
    if not low <= len(options) <= high:
        errors.add(path + ("options",), "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    values: set[Any] = set()
    for index, option in enumerate(options):
        option = option if isinstance(option, dict) else {}
        errors.length_between(path + ("options", index, "label"), option.get("label"), 1, OPTION_TEXT)
        errors.length_between(path + ("options", index, "value"), option.get("value"), 1, OPTION_TEXT)
        errors.max_length(path + ("options", index, "description"), option.get("description"), OPTION_TEXT)
        if option.get("value") in values:
            errors.add(
                path + ("options", index, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Option values must be unique",
            )
        values.add(option.get("value"))
    return len(options)


def _validate_counts(
    errors: FormErrors, path: tuple, child: dict[str, Any], *, high_limit: int, available: int
) -> None:
    low = child.get("min_values")
    high = child.get("max_values")
    low = 1 if low is None else low
    high = available if high is None else high
    if not 0 <= low <= high_limit:
        errors.add(path + ("min_values",), "NUMBER_TYPE_MAX", f"int value should be between 0 and {high_limit}.")
    if not 1 <= high <= high_limit:
        errors.add(path + ("max_values",), "NUMBER_TYPE_MAX", f"int value should be between 1 and {high_limit}.")
    if low > high:
        errors.add(
            path + ("min_values",),
            "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
            "min_values must be less than or equal to max_values",
        )
    if high > available:
        errors.add(
            path + ("max_values",),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            "max_values must be less than or equal to the number of options",
        )
