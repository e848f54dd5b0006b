"""Fixtures that run the project's real bot (TTRBot) against the fake Discord server."""

from __future__ import annotations

import pytest_asyncio

from bot.client import TTRBot
from bot.settings import Settings
from storage import Storage


@pytest_asyncio.fixture
async def make_bot(fake_discord, run_bot, tmp_path, monkeypatch):
    """`bot = await make_bot()` starts a TTRBot on a fresh SQLite file; call again to 'restart'
    on the same database (the earlier bot is closed first)."""
    monkeypatch.chdir(tmp_path)  # data/ (command-sync marker) lands in the test's folder
    url = f"sqlite+aiosqlite:///{tmp_path / 'ttr.sqlite3'}"
    bots: list[TTRBot] = []

    async def make(**overrides) -> TTRBot:
        for old in bots:
            await fake_discord.stop_client(old)
        settings = Settings(
            discord_token=fake_discord.token if hasattr(fake_discord, "token") else "fake-bot-token",
            database_url=url,
            **{"dev_guild_id": fake_discord.guild.id, **overrides},
        )
        bot = TTRBot(settings, storage=Storage(url))
        seeds = iter(range(1000, 2000))
        bot.service.new_seed = lambda: next(seeds)  # the same games on every run
        bots.append(bot)
        return await run_bot(bot)

    return make
