"""The release a process stores with its command sync (pyproject.toml's version) changes whenever
the commands do: during a rolling upgrade the "newer release synced them" guard
(storage/command_syncs.py) keeps an older process from putting its commands back over the new
ones, which it can only do if the two releases differ. `COMMANDS` records the commands of this
release; a change of the commands with the same version fails here until the version is raised."""

from __future__ import annotations

from pathlib import Path

from bot.client import RELEASE
from storage.command_syncs import release_key

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
