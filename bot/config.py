"""Settings read from the environment (and `.env`), in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv


class MissingTokenError(RuntimeError):
    """The bot cannot start without a Discord token."""


@dataclass(frozen=True)
class Settings:
    discord_token: str
    database_url: str | None

    @classmethod
    def from_env(cls) -> "Settings":
        load_dotenv()
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingTokenError(
                "DISCORD_TOKEN is not set.\n"
                "  1. Copy .env.example to .env\n"
                "  2. Create a bot at https://discord.com/developers/applications "
                "(Bot > Reset Token) and paste its token after DISCORD_TOKEN= in .env\n"
                "  3. Run the same command again."
            )
        return cls(discord_token=token, database_url=os.environ.get("DATABASE_URL") or None)
