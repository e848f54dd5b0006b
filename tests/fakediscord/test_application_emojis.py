"""Application emojis (Discord's List / Create / Delete Application Emoji) through the real discord.py client,
with Discord's limits: a name of 2-32 letters, digits and underscores, unique in the application; an
image as a data URI of at most 256 KiB."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from tests.fakediscord import FakeDiscord
from tests.fakediscord.tinybot import TinyBot


def png(size: int = 16) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


async def test_created_emojis_are_listed_and_deleted(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    assert await bot.fetch_application_emojis() == []
    made = await bot.create_application_emoji(name="ttr_red", image=png())
    assert made.name == "ttr_red" and str(made) == f"<:ttr_red:{made.id}>"
    assert [(e.id, e.name) for e in await bot.fetch_application_emojis()] == [(made.id, "ttr_red")]
    await made.delete()
    assert await bot.fetch_application_emojis() == [] and fake_discord.unknown_routes == []


@pytest.mark.parametrize(
    "name,code",
    [("x", "BASE_TYPE_BAD_LENGTH"), ("a" * 33, "BASE_TYPE_BAD_LENGTH"), ("ttr-red", "STRING_TYPE_REGEX")],
)
async def test_a_bad_name_is_refused(fake_discord: FakeDiscord, run_bot, name: str, code: str) -> None:
    bot = await run_bot(TinyBot())
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name=name, image=png())
    assert refused.value.code == 50035 and code in str(fake_discord.rejections[-1][1].errors)
    assert fake_discord.application_emojis == []


async def test_a_name_is_taken_once_and_an_image_over_256_kib_is_refused(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    await bot.create_application_emoji(name="ttr_red", image=png())
    with pytest.raises(discord.HTTPException) as taken:
        await bot.create_application_emoji(name="ttr_red", image=png())
    assert "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in str(fake_discord.rejections[-1][1].errors)
    big = png() + bytes(256 * 1024)  # a PNG with trailing bytes: the size alone is wrong
    with pytest.raises(discord.HTTPException) as large:
        await bot.create_application_emoji(name="ttr_big", image=big)
    assert "BINARY_TYPE_MAX_SIZE" in str(fake_discord.rejections[-1][1].errors)
    assert taken.value.code == large.value.code == 50035
    assert [e["name"] for e in fake_discord.application_emojis] == ["ttr_red"]


async def test_the_image_must_be_a_data_uri(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    route = discord.http.Route("POST", "/applications/{application_id}/emojis", application_id=bot.application_id)
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"name": "ttr_red", "image": "https://example.com/red.png"})
    assert "IMAGE_INVALID" in str(fake_discord.rejections[-1][1].errors)
