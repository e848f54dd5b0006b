"""Components V2 messages (discord.py's LayoutView) and modals of labelled components (select,
radio group, checkbox group, checkbox), validated like Discord's Component Reference and filled in
by scripted users."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord import FakeDiscord, ScriptError
from tests.fakediscord.layout import walk
from tests.fakediscord.mentions import Pings
from tests.fakediscord.test_limits import call
from tests.fakediscord.tinybot import TinyBot

V2 = 1 << 15


@pytest.fixture
async def bot(fake_discord: FakeDiscord, run_bot) -> TinyBot:
    return await run_bot(TinyBot())


async def test_a_layout_view_is_sent_and_updated(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    reply = await fake.slash(fake.alice, fake.general, "ttr turn")
    card = reply.message
    assert card.flags & V2 and card.content == "" and card.embeds == []
    assert card.text_displays == [f"## Your turn, {fake.alice.mention}", "Cards drawn: 0", "**Draw** or claim"]
    assert [a.filename for a in card.attachments] == ["board.png"] and card.attachments[0].is_image
    assert card.pings == Pings(users=[fake.alice.id])  # the text display's mention pings
    ids = [c["id"] for c in walk(card.components)]
    assert ids == list(range(1, len(ids) + 1))  # Discord numbers components in order
    clicked = await fake.click(fake.alice, card, "ttr:v2:draw")
    assert clicked.kind == "update" and card.text_displays[1] == "Cards drawn: 1"
    assert card.flags & V2 and card.edited


async def test_media_point_at_their_attachments_and_a_card_can_end_a_deferral(
    fake_discord: FakeDiscord, bot: TinyBot
) -> None:
    """Discord's answer names the attachment behind an ``attachment://`` reference (its URL and
    id); and the first follow-up after "thinking…" may be a card: it keeps the flag."""
    fake = fake_discord
    reply = await fake.slash(fake.alice, fake.general, "ttr mycard")
    await reply.wait_resolved()
    card = reply.message
    assert card.ephemeral and card.flags & V2 and card.text_displays[0].startswith("## Your turn")
    (board,) = card.attachments
    media = [c["items"][0]["media"] for c in walk(card.components) if c["type"] == 12]
    assert media == [
        {"url": board.url, "proxy_url": board.url, "attachment_id": str(board.id), "content_type": "image/png"}
        | {"width": media[0]["width"], "height": media[0]["height"]}
    ]


def v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **extra}


def text(content: str = "hello") -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


THUMB = {"type": 11, "media": {"url": "https://example.invalid/t.png"}}

REFUSED = {
    "content with the flag": (
        v2(text(), content="legacy"),
        ("content",),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "embeds with the flag": (
        v2(text(), embeds=[{"title": "x"}]),
        ("embeds",),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "a poll with the flag": (
        v2(text(), poll={"question": {"text": "?"}}),
        ("poll",),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "stickers with the flag": (
        v2(text(), sticker_ids=["1"]),
        ("sticker_ids",),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "41 components": (v2(*[text(str(n)) for n in range(41)]), ("components",), "COMPONENT_LAYOUT_TOO_MANY_COMPONENTS"),
    "nested ones count": (
        v2({"type": 17, "components": [text(str(n)) for n in range(40)]}),
        ("components",),
        "COMPONENT_LAYOUT_TOO_MANY_COMPONENTS",
    ),
    "4001 characters of text": (
        v2(text("a" * 2000), text("b" * 2001)),
        ("components",),
        "COMPONENT_LAYOUT_TEXT_TOO_LONG",
    ),
    "a thumbnail at the top": (v2(THUMB), ("components", 0, "type"), "BASE_TYPE_CHOICES"),
    "a container in a container": (
        v2({"type": 17, "components": [{"type": 17, "components": [text()]}]}),
        ("components", 0, "components", 0, "type"),
        "BASE_TYPE_CHOICES",
    ),
    "a section of four texts": (
        v2({"type": 9, "components": [text()] * 4, "accessory": THUMB}),
        ("components", 0, "components"),
        "BASE_TYPE_BAD_LENGTH",
    ),
    "a section without accessory": (
        v2({"type": 9, "components": [text()]}),
        ("components", 0, "accessory"),
        "BASE_TYPE_REQUIRED",
    ),
    "a select as accessory": (
        v2({"type": 9, "components": [text()], "accessory": {"type": 3, "custom_id": "s"}}),
        ("components", 0, "accessory", "type"),
        "BASE_TYPE_CHOICES",
    ),
    "an empty text display": (v2(text("")), ("components", 0, "content"), "BASE_TYPE_REQUIRED"),
    "eleven gallery items": (
        v2({"type": 12, "items": [{"media": {"url": "https://example.invalid/a.png"}}] * 11}),
        ("components", 0, "items"),
        "BASE_TYPE_BAD_LENGTH",
    ),
    "a file from the web": (
        v2({"type": 13, "file": {"url": "https://example.invalid/a.zip"}}),
        ("components", 0, "file", "url"),
        "URL_TYPE_INVALID_URL",
    ),
    "a file not uploaded": (
        v2({"type": 13, "file": {"url": "attachment://missing.png"}}),
        ("components", 0, "file", "url"),
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
    ),
    "separator spacing 3": (v2({"type": 14, "spacing": 3}), ("components", 0, "spacing"), "BASE_TYPE_CHOICES"),
    "six buttons in a row": (
        v2({"type": 1, "components": [button(str(n)) for n in range(6)]}),
        ("components", 0, "components"),
        "BASE_TYPE_MAX_LENGTH",
    ),
    "a select of 26 options": (
        v2(
            {
                "type": 17,
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": str(n), "value": str(n)} for n in range(26)],
                            }
                        ],
                    }
                ],
            }
        ),
        ("components", 0, "components", 0, "components", 0, "options"),
        "BASE_TYPE_MAX_LENGTH",
    ),
    "a duplicate custom id": (
        v2(
            {"type": 1, "components": [button("same")]},
            {"type": 9, "components": [text()], "accessory": button("same")},
        ),
        ("components", 1, "accessory", "custom_id"),
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    "a custom id of 101 characters": (
        v2({"type": 1, "components": [button("c" * 101)]}),
        ("components", 0, "components", 0, "custom_id"),
        "BASE_TYPE_MAX_LENGTH",
    ),
    "a duplicate component id": (v2({**text(), "id": 7}, {**text(), "id": 7}), ("components",), "COMPONENT_ID_INVALID"),
    "an accent colour out of range": (
        v2({"type": 17, "components": [text()], "accent_color": 0x1000000}),
        ("components", 0, "accent_color"),
        "NUMBER_TYPE_MAX",
    ),
}


def error_at(body: dict[str, Any], path: tuple) -> list[str]:
    node = body.get("errors", {})
    for key in path:
        node = node.get(str(key), {})
    return [e["code"] for e in node.get("_errors", [])]


@pytest.mark.parametrize("name", list(REFUSED))
async def test_components_v2_limits(fake_discord: FakeDiscord, name: str) -> None:
    payload, path, code = REFUSED[name]
    status, body = await call(fake_discord, "POST", f"/channels/{fake_discord.general.id}/messages", payload)
    assert (status, body["code"]) == (400, 50035), body
    assert code in error_at(body, path), body
    assert fake_discord.channel_messages(fake_discord.general) == []


async def test_forty_components_and_4000_characters_are_fine(fake_discord: FakeDiscord) -> None:
    payload = v2({"type": 17, "components": [text("a" * 100) for _ in range(39)]})
    status, body = await call(fake_discord, "POST", f"/channels/{fake_discord.general.id}/messages", payload)
    assert status == 200 and len(list(walk(body["components"]))) == 40
    status, _ = await call(
        fake_discord, "POST", f"/channels/{fake_discord.general.id}/messages", v2(text("a" * 2000), text("b" * 2000))
    )
    assert status == 200


async def test_the_flag_cannot_be_removed(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    status, body = await call(fake, "POST", f"/channels/{fake.general.id}/messages", v2(text()))
    assert status == 200
    path = f"/channels/{fake.general.id}/messages/{body['id']}"
    status, answer = await call(fake, "PATCH", path, {"flags": 0, "content": "legacy again"})
    assert status == 400 and "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG" in error_at(answer, ("flags",))
    status, answer = await call(fake, "PATCH", path, {"content": "still not allowed"})
    assert status == 400 and "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in error_at(answer, ("content",))
    status, answer = await call(fake, "PATCH", path, {"components": [text("edited")]})
    assert status == 200 and answer["flags"] & V2 and answer["components"][0]["content"] == "edited"


# --- modals --------------------------------------------------------------------------------------


async def test_a_modal_of_labels_is_filled_in_and_read_by_discord_py(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    opened = await fake.slash(fake.alice, fake.general, "ttr options")
    assert opened.kind == "modal" and opened.modal.title == "Game options"
    assert list(opened.modal.fields) == ["map", "speed", "rules", "ranked"]
    assert [opened.modal.fields[f]["type"] for f in ("speed", "rules", "ranked")] == [21, 22, 23]
    reply = await fake.submit_modal(
        fake.alice, opened, map="europe", speed="fast", rules=["tunnels", "stations"], ranked=True
    )
    assert reply.content == "map=europe speed=fast rules=tunnels,stations ranked=True"
    submitted = reply.data["components"]
    assert submitted[1]["component"] == {
        "type": 21,
        "custom_id": "speed",
        "id": submitted[1]["component"]["id"],
        "value": "fast",
    }
    assert all(isinstance(row["id"], int) and isinstance(row["component"]["id"], int) for row in submitted)

    again = await fake.slash(fake.bob, fake.general, "ttr options")
    defaults = await fake.submit_modal(fake.bob, again, map="usa")  # the radio's default, nothing ticked
    assert defaults.content == "map=usa speed=slow rules=- ranked=False"


async def test_modal_values_a_client_could_not_send(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    opened = await fake.slash(fake.alice, fake.general, "ttr options")
    for wrong, match in [
        ({"speed": "warp"}, "not an option of radio group"),
        ({"rules": ["trains"]}, "not options of checkbox group"),
        ({"rules": ["tunnels", "tunnels"]}, "distinct"),
        ({"ranked": "yes"}, "True or False"),
        ({"colour": "red"}, "no field"),
    ]:
        with pytest.raises(ScriptError, match=match):
            await fake.submit_modal(fake.alice, opened, map="usa", **wrong)
    with pytest.raises(ScriptError, match="takes 1..1 values"):
        await fake.submit_modal(fake.alice, opened)  # the map select is required


async def test_a_modal_file_upload_reaches_discord_py(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    fake = fake_discord
    opened = await fake.slash(fake.alice, fake.general, "ttr upload")
    with pytest.raises(ScriptError, match="takes 1..2 files"):
        await fake.submit_modal(fake.alice, opened, files=[("a.txt", b"a"), ("b.txt", b"b"), ("c.txt", b"c")])
    reply = await fake.submit_modal(fake.alice, opened, files=[("usa.json", b"{}"), ("europe.json", b"{ }")])
    assert reply.content == "Got usa.json (2 bytes), europe.json (3 bytes)"


def label(component: dict[str, Any], text_: str = "Pick") -> dict[str, Any]:
    return {"type": 18, "label": text_, "component": component}


def radio(*values: str, defaults: int = 0) -> dict[str, Any]:
    return {
        "type": 21,
        "custom_id": "r",
        "options": [{"label": v, "value": v, "default": index < defaults} for index, v in enumerate(values)],
    }


MODAL_REFUSED = {
    "a title of 46 characters": ({"title": "t" * 46, "components": [label(radio("a", "b"))]}, ("data", "title")),
    "six components": ({"components": [{"type": 10, "content": str(n)} for n in range(6)]}, ("data", "components")),
    "a radio group of one option": (
        {"components": [label(radio("a"))]},
        ("data", "components", 0, "component", "options"),
    ),
    "two default radios": (
        {"components": [label(radio("a", "b", defaults=2))]},
        ("data", "components", 0, "component", "options"),
    ),
    "more checkboxes allowed than exist": (
        {
            "components": [
                label(
                    {
                        "type": 22,
                        "custom_id": "g",
                        "max_values": 3,
                        "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}],
                    }
                )
            ]
        },
        ("data", "components", 0, "component", "max_values"),
    ),
    "eleven checkboxes": (
        {
            "components": [
                label(
                    {"type": 22, "custom_id": "g", "options": [{"label": str(n), "value": str(n)} for n in range(11)]}
                )
            ]
        },
        ("data", "components", 0, "component", "options"),
    ),
    "a button in a label": ({"components": [label(button())]}, ("data", "components", 0, "component", "type")),
    "a label of 46 characters": (
        {"components": [label(radio("a", "b"), "l" * 46)]},
        ("data", "components", 0, "label"),
    ),
    "a checkbox default that is no bool": (
        {"components": [label({"type": 23, "custom_id": "c", "default": "yes"})]},
        ("data", "components", 0, "component", "default"),
    ),
    "a duplicate custom id": (
        {"components": [label(radio("a", "b")), label(radio("c", "d"))]},
        ("data", "components", 1, "component", "custom_id"),
    ),
}


@pytest.mark.parametrize("name", list(MODAL_REFUSED))
async def test_modal_limits(fake_discord: FakeDiscord, bot: TinyBot, name: str) -> None:
    fake = fake_discord
    data, path = MODAL_REFUSED[name]
    pending = await fake.slash(fake.alice, fake.general, "ttr slow", wait=False)  # the bot holds back its answer
    modal = {"custom_id": "m", "title": "Options", **data}
    status, body = await call(
        fake, "POST", f"/interactions/{pending.id}/{pending.token}/callback", {"type": 9, "data": modal}, auth=False
    )
    assert (status, body["code"]) == (400, 50035), body
    assert error_at(body, path), body
    assert pending.kind is None
    bot.gate.set()
    await pending.wait_acknowledged()  # the bot's own answer still goes through
