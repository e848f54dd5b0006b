"""Per-route and global rate limits (off by default; turned on here through ``fake_discord_options``):
Discord's headers and 429 body, and the real discord.py client waiting and retrying through them."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, limits
from tests.fakediscord.tinybot import TinyBot

MESSAGES = "POST /channels/{channel_id}/messages"


async def post(fake: FakeDiscord, channel_id: int, content: str) -> tuple[int, dict, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{fake.api_url}/channels/{channel_id}/messages",
            json={"content": content},
            headers={"Authorization": f"Bot {fake.token}"},
        ) as response:
            return response.status, dict(response.headers), await response.json()


class TestPerRoute:
    @pytest.fixture
    def fake_discord_options(self) -> dict:
        return {"rate_limits": {MESSAGES: (2, 30.0)}}

    async def test_headers_then_429_per_channel(self, fake_discord: FakeDiscord) -> None:
        fake = fake_discord
        first = await post(fake, fake.general.id, "one")
        second = await post(fake, fake.general.id, "two")
        assert [first[0], second[0]] == [200, 200]
        assert (
            first[1]["X-RateLimit-Limit"],
            first[1]["X-RateLimit-Remaining"],
            second[1]["X-RateLimit-Remaining"],
        ) == ("2", "1", "0")
        assert first[1]["X-RateLimit-Bucket"] == second[1]["X-RateLimit-Bucket"]
        assert 29 < float(second[1]["X-RateLimit-Reset-After"]) <= 30 and float(second[1]["X-RateLimit-Reset"]) > 1e9
        status, headers, body = await post(fake, fake.general.id, "three")
        assert status == 429 and body["message"] == "You are being rate limited." and body["global"] is False
        assert 29 < body["retry_after"] <= 30 and headers["Retry-After"] == "30"
        assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
        assert [m.content for m in fake.channel_messages(fake.general)] == ["one", "two"]
        assert fake.rate_limited == [MESSAGES]
        other = await post(fake, fake.games.id, "another channel, another bucket")
        assert other[0] == 200 and other[1]["X-RateLimit-Bucket"] == first[1]["X-RateLimit-Bucket"]
        unlimited = await post_typing(fake)
        assert unlimited == (204, None)

    async def test_the_window_reopens_on_the_fake_clock(self, fake_discord: FakeDiscord) -> None:
        fake = fake_discord
        for text in ("a", "b"):
            assert (await post(fake, fake.general.id, text))[0] == 200
        assert (await post(fake, fake.general.id, "c"))[0] == 429
        fake.advance(30)
        assert (await post(fake, fake.general.id, "c"))[0] == 200


async def post_typing(fake: FakeDiscord) -> tuple[int, str | None]:
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{fake.api_url}/channels/{fake.general.id}/typing", headers={"Authorization": f"Bot {fake.token}"}
        ) as response:
            return response.status, response.headers.get("X-RateLimit-Limit")


class TestDiscordPyWaits:
    @pytest.fixture
    def fake_discord_options(self) -> dict:
        return {"rate_limits": {MESSAGES: (2, 0.25)}, "global_rate_limit": (3, 0.5)}

    async def test_discord_py_spreads_requests_over_windows_and_retries_429s(
        self, fake_discord: FakeDiscord, run_bot
    ) -> None:
        fake = fake_discord
        bot = await run_bot(TinyBot())  # its start-up calls count against the global limit too
        fake.advance(1)  # a fresh global window
        channel = bot.get_channel(fake.general.id)
        loop = asyncio.get_running_loop()
        started = loop.time()
        sent = await asyncio.gather(*(channel.send(f"message {n}") for n in range(6)))
        elapsed = loop.time() - started
        assert sorted(m.content for m in fake.channel_messages(fake.general)) == sorted(m.content for m in sent)
        assert len(sent) == 6
        window = fake.rate_limits.window(MESSAGES, channel_id=fake.general.id)
        assert window is not None and len(window.accepted) == 6  # each let through once, none lost
        assert elapsed >= 0.5  # six messages at two per 0.25 s need at least three windows
        assert fake.rate_limited, "discord.py met at least one 429 (the global limit it cannot know) and retried"

    async def test_interaction_callbacks_are_not_bound_by_the_global_limit(
        self, fake_discord: FakeDiscord, run_bot
    ) -> None:
        fake = fake_discord
        await run_bot(TinyBot())
        for _ in range(6):  # well over 3 per 0.5 s
            reply = await fake.slash(fake.alice, fake.general, "ttr new", map="usa")
            assert reply.kind == "message"
        assert not any(r.startswith("POST /interactions/") for r in fake.rate_limited)


class TestGlobalLimit:
    async def test_a_global_429_names_itself_and_interaction_endpoints_are_not_bound(
        self, fake_discord: FakeDiscord, run_bot
    ) -> None:
        """Discord's "Rate Limits" topic: over the global limit a request gets 429 with
        ``X-RateLimit-Global`` and ``"global": true``; "Receiving and Responding": the callback, the
        original response and the follow-ups are not bound to it."""
        fake = fake_discord
        bot = await run_bot(TinyBot())
        fake.rate_limits.set_global(3, 30.0)  # after the start-up's requests; no new window in this test
        for n in range(3):
            assert (await post(fake, fake.general.id, str(n)))[0] == 200
        status, headers, body = await post(fake, fake.general.id, "one too many")
        assert status == 429 and body["global"] is True and body["message"] == "You are being rate limited."
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
        assert 29 < body["retry_after"] <= 30 and headers["Retry-After"] == "30"
        assert fake.rate_limits.global_refused == [MESSAGES] and fake.rate_limits.busiest_second() == 3
        # Deferred, the original response edited, a follow-up sent and edited: none of them waits.
        bot.gate.set()
        reply = await fake.slash(fake.alice, fake.general, "ttr think")
        await fake.wait_until(lambda: reply.followups and reply.followups[-1].content == "And one more thing!")
        assert reply.content == "Thought about it"
        assert fake.rate_limits.global_refused == [MESSAGES]


async def test_no_rate_limits_by_default(fake_discord: FakeDiscord) -> None:
    for n in range(20):
        status, headers, _ = await post(fake_discord, fake_discord.general.id, str(n))
        assert status == 200 and "X-RateLimit-Limit" not in headers
    assert not fake_discord.rate_limits.enabled and fake_discord.rate_limited == []


async def test_all_files_together_stay_under_25_mib(fake_discord: FakeDiscord, run_bot) -> None:
    bot = await run_bot(TinyBot())
    channel = bot.get_channel(fake_discord.general.id)
    each = limits.ATTACHMENT_BYTES  # every file within its own limit ...
    with pytest.raises(discord.HTTPException) as caught:  # ... but 30 MiB together
        await channel.send(files=[discord.File(io.BytesIO(b"\0" * each), filename=f"{n}.bin") for n in range(3)])
    assert (caught.value.status, caught.value.code) == (413, 40005)
    assert "Request entity too large" in str(caught.value)
    await channel.send(files=[discord.File(io.BytesIO(b"\0" * each), filename=f"{n}.bin") for n in range(2)])
    assert len(fake_discord.channel_messages(fake_discord.general)[-1].attachments) == 2
