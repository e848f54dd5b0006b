"""The bot's configuration, from the environment and `.env` (pydantic-settings), in one place."""

from __future__ import annotations

from typing import Literal

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

HOW_TO_GET_A_TOKEN = """\
DISCORD_TOKEN is not set, so the bot cannot log in.
  1. Copy .env.example to .env (in the folder you run the bot from).
  2. Create an application at https://discord.com/developers/applications, open Bot,
     press Reset Token and paste the token after DISCORD_TOKEN= in .env.
  3. Invite the bot with the link described in README.md ("Inviting the bot"), then run
     the same command again."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str | None = None  # default: sqlite file data/ttr.sqlite3 (storage.settings)
    dev_guild_id: int | None = None  # sync commands to this guild only (instant, for development)
    sync_commands: bool = True  # sync the command tree when it changed since the last sync
    log_level: str = "INFO"
    shard_count: int | None = None  # several processes: each runs some shards of this many
    shard_ids: list[int] | None = None  # e.g. SHARD_IDS=[0,1]
    auto_migrate: bool = True  # single process: apply pending migrations on start
    lobby_idle_minutes: int = 60  # an open lobby nobody touched for this long is closed
    force_language: Literal["en", "ru", "zh", "qps"] | None = None  # every text in this language (qps: pseudo-locale)

    def token(self) -> str | None:
        value = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        return value or None
