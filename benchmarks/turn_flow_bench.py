"""Issue 16's turn-flow figures: what a game costs its players in taps, messages and pings.

    python benchmarks/turn_flow_bench.py                  # a seeded 4-player Europe game
    python benchmarks/turn_flow_bench.py usa nordic       # other maps (players: 4, or the map's maximum)
    python benchmarks/turn_flow_bench.py --seed 1 --players 3 europe

Plays a whole game through the fake Discord with the real bot (TTRBot on SQLite), the players
driven by tests/bot/driver.py as the end-to-end tests do, and counts from the outside: the fake's
scripting methods are wrapped to count taps, and its records give the messages, pings, components
and attachments. Then, in a second game in another channel, the three mis-clicks of issue 16 are
scripted and the reply each got is printed.

Definitions (per *action*: everything from a turn's first tap until the engine's turn is over):
- a tap is one interaction sent (button, select, modal submit, slash command) plus one for every
  option filled into a slash command; *typing* is a slash command with a free-text option (a
  string option without fixed choices) or an autocomplete; taps before an engine log entry belong
  to it, and an action's taps are those of its log entries;
- private messages are DMs and ephemeral messages created (edits not counted), attributed to the
  action during which (or right after which) the bot created them;
- a notification is a DM (to its recipient, unless silent) or the creation of a channel message
  that pings a user (edits notify nobody on Discord, ephemeral messages are not counted); each turn
  should notify the next player exactly once and nobody else;
- live controls: a channel message with at least one enabled button or select.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import TTRBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from engine import load_map  # noqa: E402
from storage import Storage  # noqa: E402
from tests.bot.driver import Driver  # noqa: E402
from tests.fakediscord.api import FakeDiscord  # noqa: E402
from tests.fakediscord.state import DM, Message  # noqa: E402

MiB = 1024 * 1024
SCRIPTING = ("slash", "click", "select", "submit_modal", "autocomplete")
#: the action kind of a turn, by the engine action that starts it
KINDS = {
    "DrawDeck": "draw two cards",
    "DrawMarket": "draw two cards",
    "Claim": "claim a route",
    "DrawTickets": "draw tickets",
    "BuildStation": "build a station",
}
STARTING = "starting tickets"
QUIET = 0.02  # seconds without a new record in the fake before an action counts as finished


@dataclass
class Action:
    """One turn (or starting-ticket choice): what it took and what it caused."""

    kind: str
    seat: int
    taps: int = 0
    typed: bool = False
    private: int = 0
    notified: Counter = field(default_factory=Counter)  # user id -> notifications (DMs and pings)
    pinged: Counter = field(default_factory=Counter)  # user id -> pings by mention only
    expected: int | None = None  # the user to notify (the next player), None: nobody
    final: bool = False  # the game's last action


@dataclass
class Figures:
    map_id: str
    players: list[str]  # by seat
    user_ids: dict[int, str]  # user id -> name
    lobby: Action  # what opening the game took
    actions: list[Action]
    dms: dict[str, int]
    channel_messages: int
    channel_messages_in_play: int
    live_at_end: int
    live_max: int
    channel_bytes: int
    private_bytes: int
    refusals: list[tuple[str, str, bool | None]] = field(default_factory=list)  # (mis-click, reply, applied)


class Recorder:
    """Counts taps by wrapping ``fake``'s scripting methods, and reads the fake's records."""

    def __init__(self, fake: FakeDiscord, channel) -> None:
        self.fake, self.channel = fake, channel
        self.taps, self.typed = 0, False
        self._messages_seen = len(fake.messages)
        self._pings_seen = len(fake.pings)
        self._pinged_before: set[int] = set()
        self.live_max = 0
        for name in SCRIPTING:
            setattr(fake, name, self._counted(name, getattr(fake, name)))

    def _counted(self, name: str, method):
        async def counted(*args: Any, **kwargs: Any):
            self.tap(name, args, kwargs)
            return await method(*args, **kwargs)

        return counted

    def tap(self, name: str, args: tuple, kwargs: dict[str, Any]) -> None:
        if name == "autocomplete":  # typing into an option the slash command then sends (counted there)
            self.typed = True
            return
        self.taps += 1
        if name == "slash":
            _user, channel, command = args[:3]
            given = {
                **(kwargs.get("options") or {}),
                **{k: v for k, v in kwargs.items() if k not in ("options", "wait", "timeout")},
            }
            self.taps += len(given)
            self.typed |= any(
                self._free_text(channel, command, option) for option, value in given.items() if isinstance(value, str)
            )

    def _free_text(self, channel, command: str, option: str) -> bool:
        """Whether ``option`` of ``/command`` is typed (a string option without fixed choices)."""
        parts = command.split()
        scopes = self.fake.commands(channel.guild) + self.fake.commands(None)
        node = next(c for c in scopes if c["name"] == parts[0])
        for part in parts[1:]:
            node = next(o for o in node.get("options") or [] if o["name"] == part)
        names = (option, option.replace("_", "-"))
        found = next(o for o in node.get("options") or [] if o["name"] in names)
        return found["type"] == 3 and not found.get("choices")

    def take_taps(self) -> tuple[int, bool]:
        taps, typed = self.taps, self.typed
        self.taps, self.typed = 0, False
        return taps, typed

    async def settle(self) -> None:
        """Wait until the bot has stopped creating or editing messages."""
        while True:
            mark = (len(self.fake.messages), len(self.fake.pings))
            await asyncio.sleep(QUIET)
            if mark == (len(self.fake.messages), len(self.fake.pings)):
                return

    def new_records(self, action: Action) -> None:
        """Attribute the messages and notifications created since the last call to ``action``."""
        fake = self.fake
        messages = list(fake.messages.values())[self._messages_seen :]
        self._messages_seen += len(messages)
        for message in messages:
            if message.author is not fake.bot_user:
                continue
            if message.channel.type == DM:
                action.private += 1
                if not message.pings.silent:
                    action.notified[message.channel.recipient.id] += 1
            elif message.ephemeral:
                action.private += 1
        pings = fake.pings[self._pings_seen :]
        self._pings_seen += len(pings)
        for message, who in pings:
            created = message.id not in self._pinged_before
            self._pinged_before.add(message.id)
            if not created or message.ephemeral or message.channel.type == DM or who.silent:
                continue
            for user_id in who.users:
                action.notified[user_id] += 1
                action.pinged[user_id] += 1
        self.live_max = max(self.live_max, len(live_controls(fake.channel_messages(self.channel))))


def live_controls(messages: list[Message]) -> list[Message]:
    """The messages that still carry an enabled button or select."""
    return [m for m in messages if any(not c.get("disabled") for c in m.buttons + m.selects if "custom_id" in c)]


def attachment_bytes(messages: list[Message]) -> int:
    """Bytes of every file these messages carried in any of their versions (each file once)."""
    sizes: dict[str, int] = {}
    for message in messages:
        for version in message.history:
            sizes.update((str(a["id"]), a["size"]) for a in version.get("attachments") or [])
        sizes.update((str(a.id), a.size) for a in message.attachments)
    return sum(sizes.values())


async def play(
    fake: FakeDiscord, bot: TTRBot, map_id: str, users: list, seed: int, max_actions: int | None = None
) -> Figures:
    """Play a game in #general to its end (or the end of the turn reaching ``max_actions`` engine
    actions) and count."""
    recorder = Recorder(fake, fake.general)
    driver = Driver(fake, bot, fake.general, users, seed=seed)
    before_game = len(fake.channel_messages(fake.general))
    await driver.start_game(map_id)
    await recorder.settle()
    lobby = Action("lobby", -1)  # /ttr new, join, start: not a turn
    lobby.taps, lobby.typed = recorder.take_taps()
    recorder.new_records(lobby)
    in_play_from = len(fake.channel_messages(fake.general))
    actions: list[Action] = []
    current: list[Action] = []  # the action under way, until the engine's turn is over
    phase = [driver.game.phase]  # the phase before the newest logged action

    class Enough(Exception):
        pass

    async def after_action(driver: Driver) -> None:
        game = driver.game
        seat, engine_action = game.log[-1]
        if not current:
            name = type(engine_action).__name__
            current.append(Action(STARTING if phase[0] == "choosing" else KINDS.get(name, name), seat))
        action = current[0]
        taps, typed = recorder.take_taps()
        action.taps += taps
        action.typed |= typed
        await recorder.settle()
        recorder.new_records(action)
        phase[0] = game.phase
        if game.stage is None or game.is_over():
            action.final = game.is_over()
            if not game.is_over() and game.phase != "choosing":
                action.expected = driver.user_of(game.current).id
            actions.append(current.pop())
        if max_actions is not None and len(game.log) >= max_actions and not current:
            raise Enough

    try:
        await driver.play_to_end(on_turn=after_action)
    except Enough:
        pass
    channel = fake.channel_messages(fake.general)[before_game:]
    private = [m for m in fake.messages.values() if m.author is fake.bot_user and (m.ephemeral or m.channel.type == DM)]
    return Figures(
        map_id=map_id,
        players=[driver.user_of(s).name for s in range(len(users))],
        user_ids={u.id: u.name for u in users},
        lobby=lobby,
        actions=actions,
        dms={u.name: len(fake.dms(u)) for u in users},
        channel_messages=len(channel),
        channel_messages_in_play=len(channel) - (in_play_from - before_game),
        live_at_end=len(live_controls(channel)),
        live_max=recorder.live_max,
        channel_bytes=attachment_bytes(channel),
        private_bytes=attachment_bytes(private),
    )


# --- issue 16's three mis-clicks ----------------------------------------------------------------


def text_of(message: Message | None) -> str:
    if message is None:
        return "(no message)"
    parts = [message.content, *message.text_displays, *(e.get("description") or "" for e in message.embeds)]
    return " / ".join(p for p in parts if p) or "(no text)"


async def answer(reply) -> str:
    """What the player saw in answer to a tap."""
    if reply.kind in ("deferred", "deferred_update"):
        await reply.wait_resolved()
    if reply.kind in ("update", "deferred_update"):
        shown = [text_of(m) for m in reply.followups]
        return "the clicked message was updated" + (": " + " | ".join(shown) if shown else "")
    return text_of(reply.message)


def deck_button(driver: Driver, message: Message) -> str:
    return next(c for c in message.custom_ids if re.fullmatch(rf"ttr:{driver.game_id}:\d+:draw:deck", c))


async def misclicks(
    fake: FakeDiscord, bot: TTRBot, map_id: str, users: list, seed: int
) -> list[tuple[str, str, bool | None]]:
    """In #games: a Deck tap out of turn, two players' taps at once, and the current player's second
    tap on the turn message; returns (what, the reply, whether the move was applied)."""
    driver = Driver(fake, bot, fake.games, users, seed=seed)
    await driver.start_game(map_id)
    while driver.game.phase == "choosing":
        seat = driver.game.to_move()[0]
        await driver.act(seat, driver.game.default_action(seat))
    found: list[tuple[str, str, bool | None]] = []
    table = [m for m in fake.channel_messages(fake.games) if any(":draw:deck" in c for c in m.custom_ids)][-1]
    current = driver.user_of(driver.game.current)
    other = next(u for u in users if u is not current)
    before = len(driver.game.log)
    reply = await fake.click(other, table, deck_button(driver, table))
    found.append(
        (
            f"{other.name} (not to move) taps Deck on the turn message",
            await answer(reply),
            len(driver.game.log) > before,
        )
    )
    before = len(driver.game.log)
    taps = [await fake.click(user, table, deck_button(driver, table), wait=False) for user in (current, other)]
    for user, reply in zip((current, other), taps):
        await reply.wait_acknowledged()
        found.append(
            (
                f"{current.name} (to move) and {other.name} tap Deck at the same moment; {user.name} is told",
                await answer(reply),
                None,
            )
        )
    found.append(("... and exactly one of the two taps applied", "", len(driver.game.log) == before + 1))
    if driver.game.stage is not None:  # the current player drew a first card: the second from the table
        before = len(driver.game.log)
        reply = await fake.click(current, table, deck_button(driver, table))
        found.append(
            (
                f"{current.name} taps the turn message's Deck again for the second card",
                await answer(reply),
                len(driver.game.log) > before,
            )
        )
    return found


# --- running and reporting ----------------------------------------------------------------------


def spread(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{min(values)} / {statistics.median(values):g} / {max(values)}"


def report(f: Figures) -> str:
    lines = [f"map {f.map_id}, players {', '.join(f.players)}: {len(f.actions)} actions"]
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for action in f.actions:
        by_kind[action.kind].append(action)
    lines.append(
        f"{'action':<18} {'count':>5}  {'taps min/median/max':>20}  {'typing':>7}  {'private msgs min/median/max':>28}"
    )
    for kind, group in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        typed = sum(a.typed for a in group)
        lines.append(
            f"{kind:<18} {len(group):>5}  {spread([a.taps for a in group]):>20}  "
            f"{typed / len(group):>6.0%}  {spread([a.private for a in group]):>28}"
        )
    total_private = sum(a.private for a in f.actions)
    lines.append(f"private messages: {total_private} in all, {total_private / max(len(f.actions), 1):.2f} per action")
    lines.append("DMs per player: " + ", ".join(f"{name} {n}" for name, n in f.dms.items()))
    lines.append(
        f"channel messages: {f.channel_messages} ({f.channel_messages_in_play} after the lobby); "
        f"with live controls: {f.live_at_end} at the end, at most {f.live_max} at once"
    )
    lines.append(f"attachments: channel {f.channel_bytes / MiB:.1f} MiB, private {f.private_bytes / MiB:.1f} MiB")
    names = f.user_ids
    turns = [a for a in f.actions if not a.final]
    for label, counts in (("pings by mention", "pinged"), ("pings and DMs", "notified")):
        bad = [a for a in turns if not only_next(getattr(a, counts), a.expected)]
        lines.append(
            f"notifications ({label}): {len(bad)} of {len(turns)} actions break 'the next player once, nobody else'"
        )
        for action in {a.kind: a for a in reversed(bad)}.values():  # the first of each kind
            who = ", ".join(f"{names.get(u, u)} x{n}" for u, n in getattr(action, counts).items()) or "nobody"
            lines.append(
                f"    e.g. {action.kind} by {f.players[action.seat]}: next "
                f"{names.get(action.expected, 'nobody')}, notified {who}"
            )
        final = [a for a in f.actions if a.final]
        if final:
            who = ", ".join(f"{names.get(u, u)} x{n}" for u, n in getattr(final[0], counts).items()) or "nobody"
            lines.append(f"    the last action notified {who}")
    if f.refusals:
        lines.append("mis-clicks (issue 16):")
        for what, reply, applied in f.refusals:
            verdict = "" if applied is None else (" [applied]" if applied else " [refused]")
            lines.append(f"  {what}{verdict}" + (f": {reply!r}" if reply else ""))
    return "\n".join(lines)


def only_next(counts: Counter, expected: int | None) -> bool:
    """Whether exactly ``expected`` (None: nobody) was notified, once."""
    return all(n == (user == expected) for user, n in counts.items()) and (expected is None or counts[expected] == 1)


async def run(
    map_id: str, players: int, seed: int, *, max_actions: int | None = None, with_misclicks: bool = True
) -> Figures:
    """One measured game (and the mis-clicks) against a fresh fake Discord and database."""
    fake = FakeDiscord().add_default_world()
    erin = fake.add_user("erin")  # a fifth player, for five seats
    await fake.start()
    cwd = os.getcwd()
    try:
        with tempfile.TemporaryDirectory() as folder, fake.patch_discord():
            os.chdir(folder)  # the command-sync marker (data/) belongs to this fake Discord only
            url = f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
            settings = Settings(discord_token=fake.token, database_url=url, dev_guild_id=fake.guild.id)
            bot = TTRBot(settings, storage=Storage(url))
            seeds = iter(range(seed * 1000, seed * 1000 + 1000))
            bot.service.new_seed = lambda: next(seeds)  # the same game on every run
            await fake.start_client(bot)
            try:
                users = [fake.alice, fake.bob, fake.dirk, fake.carol, erin][:players]
                figures = await play(fake, bot, map_id, users, seed, max_actions=max_actions)
                if with_misclicks:
                    figures.refusals = await misclicks(fake, bot, map_id, users, seed)
            finally:
                await fake.stop_client(bot)
                os.chdir(cwd)
    finally:
        await fake.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("maps", nargs="*", default=["europe"])
    parser.add_argument("--players", type=int, default=4, help="seats (at most the map's maximum)")
    parser.add_argument("--seed", type=int, default=2, help="2: a Europe game with every kind of action")
    args = parser.parse_args()
    for map_id in args.maps:
        players = min(args.players, load_map(map_id).rules.max_players)
        print(report(asyncio.run(run(map_id, players, args.seed))))
        print()


if __name__ == "__main__":
    main()
