"""pytest fixtures for the fake Discord server (imported by tests/conftest.py).

- ``fake_discord``: a started `FakeDiscord` with the default world (``fake_discord.guild``,
  ``.general``, ``.games``, ``.alice``, ``.bob``, ``.carol`` (DMs closed), ``.dirk``,
  ``.stranger`` (not a member)), with discord.py pointed at it for the test's duration; built with
  the keyword arguments of ``fake_discord_options`` (``{}``: Discord's defaults, no rate limits).
- ``run_bot``: ``client = await run_bot(client)`` starts any `discord.Client` / `commands.Bot`
  against the fake and returns once it is ready; every client started is closed at teardown.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import pytest_asyncio

from tests.fakediscord.api import FakeDiscord


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    """Keyword arguments for `FakeDiscord` (override in a test module, e.g. to make rate limits tight:
    ``{"rate_limits": {"POST /channels/{channel_id}/messages": (2, 0.5)}}``)."""
    return {}


@pytest_asyncio.fixture
async def fake_discord(fake_discord_options: dict[str, Any]) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(**fake_discord_options).add_default_world()
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.close()


@pytest_asyncio.fixture
async def run_bot(fake_discord: FakeDiscord) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    started: list[Any] = []

    async def start(client: Any, **kwargs: Any) -> Any:
        await fake_discord.start_client(client, **kwargs)
        started.append(client)
        return client

    try:
        yield start
    finally:
        for client in reversed(started):
            await fake_discord.stop_client(client)


__all__ = ["fake_discord", "fake_discord_options", "run_bot"]
