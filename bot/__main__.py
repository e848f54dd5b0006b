"""`python -m bot`: start the Discord bot with the settings from `.env`."""

from __future__ import annotations

import sys

from bot.config import MissingTokenError, Settings


def main() -> int:
    try:
        settings = Settings.from_env()
    except MissingTokenError as exc:
        print(exc, file=sys.stderr)
        return 2
    import discord

    client = discord.Client(intents=discord.Intents.default())
    client.run(settings.discord_token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
