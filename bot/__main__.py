"""`python -m bot`: run the Discord bot with the settings from the environment / `.env`."""

from __future__ import annotations

import sys

from pydantic import ValidationError

from bot.settings import HOW_TO_GET_A_TOKEN, Settings


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:  # a mistyped value in .env: say which, without a traceback
        problems = "\n".join(f"  {'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors())
        print(f"Some settings in .env or the environment are not valid:\n{problems}", file=sys.stderr)
        return 2
    if settings.token() is None:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr)
        return 2
    from bot.client import run

    run(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
