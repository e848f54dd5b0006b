"""How full each top-level command is, against Discord's limits.

    python benchmarks/command_sizes.py

Builds the bot's command tree as `TTRBot` syncs it (every cog loaded, names and descriptions in
every language the catalogs have) and prints, per top-level command, its subcommands and groups,
its widest level of options (subcommands, or one subcommand's options; Discord allows 25) and its
size as Discord counts it (names, descriptions and choices, each in its longest localization;
Discord allows 8,000), next to the 60% tests/bot/test_command_localization.py holds each to.
Figures go in docs/bot.md.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import TTRBot  # noqa: E402
from bot.command_translator import CommandTranslator  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.bot.test_command_localization import ROOM, widest  # noqa: E402
from tests.fakediscord.limits import COMMAND_OPTIONS, COMMAND_TOTAL_CHARS, _command_size  # noqa: E402


async def payloads() -> list[dict]:
    """Every top-level command as it syncs: slash commands and context menus."""
    bot = TTRBot(Settings(database_url="sqlite+aiosqlite:///:memory:", sync_commands=False))
    translator = CommandTranslator()
    await bot.tree.set_translator(translator)
    await bot.load_controllers()
    found = [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    await bot.storage.close()
    return found


def main() -> None:
    print(
        f"{'command':<24} {'subcommands':>11} {'widest':>7} {'chars':>6}   "
        f"(60%: {COMMAND_OPTIONS * ROOM:.0f} options, {COMMAND_TOTAL_CHARS * ROOM:.0f} characters)"
    )
    for command in asyncio.run(payloads()):
        if command.get("type", 1) != 1:
            print(f"{command['name']:<24} {'(user menu)' if command['type'] == 2 else '(message menu)':>11}")
            continue
        subcommands = sum(1 for o in command.get("options") or [] if o["type"] in (1, 2))
        print(f"/{command['name']:<23} {subcommands:>11} {widest(command):>7} {_command_size(command):>6}")


if __name__ == "__main__":
    main()
