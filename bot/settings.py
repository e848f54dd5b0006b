"""The bot's configuration: `storage.settings.StorageSettings` (the one source, from the
environment and `.env`) plus what only the bot reads."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator

from storage.settings import StorageSettings

INVITE_DOCS = "docs/bot.md#inviting-the-bot"


def how_to_get_a_token(env_file: Path = Path(".env")) -> str:
    """What to do when DISCORD_TOKEN is missing; a `.env` that already exists is to be edited."""
    if env_file.exists():
        first = f"  1. Edit {env_file} (in the folder you run the bot from)."
    else:
        first = "  1. Copy .env.example to .env (in the folder you run the bot from)."
    return f"""\
DISCORD_TOKEN is not set, so the bot cannot log in.
{first}
  2. Create an application at https://discord.com/developers/applications, open Bot,
     press Reset Token and paste the token after DISCORD_TOKEN= in .env.
  3. Invite the bot with the link described in {INVITE_DOCS}, then run
     the same command again."""


class SettingRefused(Exception):
    """A setting of the right form that Discord refuses once the bot is logged in (exit status 2,
    like every other setting that stops the start)."""


def dev_guild_refused(guild_id: int) -> SettingRefused:
    return SettingRefused(
        f"DEV_GUILD_ID={guild_id} is a server this bot is not in (Discord refused its commands: 403 Missing Access). "
        f"Invite the bot to that server ({INVITE_DOCS}) or remove DEV_GUILD_ID from .env, then start again."
    )


class Settings(StorageSettings):
    discord_token: SecretStr | None = None
    dev_guild_id: int | None = None  # sync commands to this guild only (instant, for development)
    sync_commands: bool = True  # sync the command tree when it changed since the last sync
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    #: text: one readable line per record, for a terminal; auto: text when stderr is a terminal, else json
    log_format: Literal["auto", "json", "text"] = "auto"
    health_port: int | None = None  # serve /healthz and /metrics on this port (off when unset)
    health_host: str = "127.0.0.1"
    shard_count: int | None = None  # several processes: each runs some shards of this many
    shard_ids: list[int] | None = None  # e.g. SHARD_IDS=[0,1]
    #: Discord's global rate limit for this bot, all processes together (bot/global_limit.py): 50
    #: requests a second unless Discord raised it. Each process keeps to its shards' share.
    discord_global_limit: int = Field(default=50, ge=1)
    lobby_idle_minutes: int = 60  # an open lobby nobody touched for this long is closed
    force_language: Literal["en", "ru", "zh", "qps"] | None = None  # every text in this language (qps: pseudo-locale)
    #: Seconds an outbox claim (and a due timer's claim) holds (docs/storage.md): a process that
    #: died while announcing or firing is taken over after this long. At most 120: a re-post must come while Discord still checks the
    #: nonces (a few minutes); not below what posting one turn takes, or a slow post is repeated.
    outbox_lease: float = Field(default=60.0, ge=1.0, le=120.0)
    ai_delay: float = Field(default=1.5, ge=0.0, le=60.0)  # seconds before an AI seat moves, so people can follow
    #: Processes drawing the images (bot/render_pool.py): none set = one per core; 0 = threads of the bot.
    render_workers: int | None = Field(default=None, ge=0)
    #: The web table (docs/web.md): the key its links are signed with, the address players open
    #: (the reverse proxy's, in front of HEALTH_PORT), and how long a link works. Off unless both are set.
    web_secret: SecretStr | None = None
    web_public_url: str | None = None
    web_link_hours: float = Field(default=24.0, gt=0, le=24 * 30)
    #: The application's OAuth2 client secret (Developer Portal, OAuth2): with the web table on, the
    #: table is also a Discord Activity (docs/web.md, "The Activity"). Off when unset.
    discord_client_secret: SecretStr | None = None

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("health_port")
    @classmethod
    def _port(cls, value: int | None) -> int | None:
        if value is not None and not 0 <= value <= 65535:
            raise ValueError("a TCP port is 1-65535 (0: any free port)")
        return value

    @field_validator("web_secret")
    @classmethod
    def _secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().strip()) < 16:
            raise ValueError(
                "at least 16 random characters: python -c 'import secrets; print(secrets.token_urlsafe(32))'"
            )
        return value

    @field_validator("web_public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value and not value.startswith(("https://", "http://")):
            raise ValueError("the address players open, starting with https:// (e.g. https://ttr.example.org)")
        return value or None

    def token(self) -> str | None:
        value = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        return value or None
