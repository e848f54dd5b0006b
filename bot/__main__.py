"""`python -m bot`: run the Discord bot with the settings from the environment / `.env`.

Whatever stops the start (a setting, the token, the database) is said in one line on stderr with
what to do, and the process exits non-zero without a traceback: 2 for the configuration, 3 for
Discord or the database."""

from __future__ import annotations

import asyncio
import gc
import signal
import sys

import aiohttp
import discord
from pydantic import ValidationError

from bot.settings import SettingRefused, Settings, how_to_get_a_token


def _settings_problem(exc: ValidationError) -> str:
    problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors())
    return f"Some settings in .env or the environment are not valid: {problems}. Correct them and start again."


async def _run(settings: Settings) -> None:
    """Log in and serve until stopped; SIGTERM (Docker, systemd) closes like Ctrl-C does."""
    from bot.client import TTRBot

    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)  # type: ignore[union-attr]
    async with TTRBot(settings) as bot:

        async def freeze_start_up() -> None:
            """What the start loaded (modules, maps, catalogs, resumed games) lives as long as the
            process: the collector's full passes, which stop the loop, skip it from then on (once:
            what is frozen is never collected)."""
            bot.remove_listener(freeze_start_up, "on_ready")
            gc.collect()
            gc.freeze()

        bot.add_listener(freeze_start_up, "on_ready")
        await bot.start(settings.token())  # type: ignore[arg-type]


def loop_factory():  # type: ignore[no-untyped-def]
    """uvloop's event loop where it is installed (Linux, macOS): the same asyncio, with the
    loop's own work (sockets, timers, callbacks from the database threads) done in C."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:  # a mistyped value in .env: say which, without a traceback
        print(_settings_problem(exc), file=sys.stderr)
        return 2
    if settings.token() is None:
        print(how_to_get_a_token(), file=sys.stderr)
        return 2
    from bot.health import HealthPortError
    from bot.logs import setup_logging
    from storage.database import DatabaseUnusableError
    from storage.errors import SchemaOutdatedError

    setup_logging(settings.log_level, settings.log_format)
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice: no warning about its libraries
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(_run(settings))
    except (KeyboardInterrupt, asyncio.CancelledError):
        return 0
    except SettingRefused as exc:
        print(exc, file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN: copy a fresh token from https://discord.com/developers/applications "
            "(Bot > Reset Token) into .env and start again.",
            file=sys.stderr,
        )
        return 3
    except aiohttp.ClientConnectorError as exc:
        print(
            f"Cannot reach Discord ({exc.os_error.strerror or exc}): check this machine's network, DNS or "
            "proxy, then start again.",
            file=sys.stderr,
        )
        return 3
    except (DatabaseUnusableError, SchemaOutdatedError, HealthPortError) as exc:
        print(f"Cannot start: {exc}.", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
