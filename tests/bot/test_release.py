"""The release a process stores with its command sync (pyproject.toml's version) changes whenever
the commands do: during a rolling upgrade the "newer release synced them" guard
(storage/command_syncs.py) keeps an older process from putting its commands back over the new
ones, which it can only do if the two releases differ. `COMMANDS` records the commands of this
release; a change of the commands with the same version fails here until the version is raised."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

from bot.client import RELEASE
from storage.command_syncs import release_key

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}

#: "<release> <sha256 of the global command tree as synced, translations included>".
COMMANDS = Path(__file__).with_name("commands.release")


async def test_the_release_changes_when_the_commands_do(fake_discord, make_bot) -> None:
    bot = await make_bot()
    digest = await bot._tree_hash(None)
    recorded_release, recorded_digest = COMMANDS.read_text().split()
    now = f"{RELEASE} {digest}"
    if digest != recorded_digest:
        assert release_key(RELEASE) > release_key(recorded_release), (
            f"the commands changed since release {recorded_release}: raise `version` in pyproject.toml, "
            f"then write '<the new version> {digest}' to {COMMANDS}"
        )
    assert (RELEASE, digest) == (recorded_release, recorded_digest), f"write '{now}' to {COMMANDS}"


def test_a_release_is_ordered_by_its_numbers() -> None:
    assert release_key("0.10.0") > release_key("0.9.3") > release_key("0.2.0") > release_key("0.1.0")
    assert release_key(RELEASE) > release_key("0.1.0")  # the version of every commit before releases counted


async def test_the_docs_name_exactly_the_commands_the_bot_syncs(fake_discord, make_bot) -> None:
    """docs/deployment.md (the ready line's count) and docs/bot.md ("Commands") list the top-level
    commands and menus a host sees in Discord after the sync, no more and no fewer."""
    bot = await make_bot()
    synced = bot.tree.get_commands()
    slash = {c.name for c in synced if isinstance(c, (app_commands.Group, app_commands.Command))}
    everything = {c.name for c in synced}

    def named(text: str) -> set[str]:
        return set(re.findall(r"`/([\w-]+)`", text)) | set(re.findall(r"\*\*(.+?)\*\*", text))

    deployment = (ROOT / "docs" / "deployment.md").read_text()
    count, listed = re.search(r"The (\w+) are (.+?)\(docs/bot\.md\)", deployment, re.S).groups()  # type: ignore[union-attr]
    assert (count, named(listed)) == (NUMBERS[len(everything)], everything)
    assert f"commands synced globally ({len(everything)})" in deployment
    commands = (ROOT / "docs" / "bot.md").read_text().split("## Commands", 1)[1].split("\n\n", 2)[1]
    count, listed = re.fullmatch(r"(\w+) top-level commands(.+)", commands, re.S).groups()  # type: ignore[union-attr]
    assert (count.lower(), named(listed)) == (NUMBERS[len(slash)], everything)
