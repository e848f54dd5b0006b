"""`python -m bot`: run the Discord bot with the settings from the environment / `.env`."""

from __future__ import annotations

import sys

from bot.settings import HOW_TO_GET_A_TOKEN, Settings


def main() -> int:
    settings = Settings()
    if settings.token() is None:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr)
        return 2
    from bot.client import run

    run(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
