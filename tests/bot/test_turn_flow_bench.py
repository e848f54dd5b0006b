"""benchmarks/turn_flow_bench.py's counting, on a short game, so the benchmark cannot rot: its taps,
private messages and notifications agree with the fake's own records of the same game."""

from __future__ import annotations

from collections import Counter

from benchmarks.turn_flow_bench import (
    STARTING,
    attachment_bytes,
    live_controls,
    misclicks,
    only_next,
    play,
    report,
)
from tests.fakediscord.state import APPLICATION_COMMAND, AUTOCOMPLETE, Attachment, Channel, Message


def leaf_options(options: list[dict]) -> list[dict]:
    """The options a user filled in (below the subcommand and group entries)."""
    for option in options:
        if option["type"] in (1, 2):
            return leaf_options(option.get("options") or [])
    return options


async def test_the_bench_counts_what_the_fake_recorded(fake_discord, make_bot) -> None:
    fake = fake_discord
    bot = await make_bot()
    users = [fake.alice, fake.bob]
    figures = await play(fake, bot, "europe", users, seed=3, max_actions=14)
    actions = figures.actions
    assert [a.kind for a in actions[:2]] == [STARTING, STARTING] and len(actions) >= 6
    # Taps: one per interaction sent, plus the slash options filled in; each in the lobby or an action.
    sent = [i for i in fake.interactions.values() if i.type != AUTOCOMPLETE and i.channel.guild in (fake.guild, None)]
    expected_taps = sum(
        1 + (len(leaf_options(i.data.get("options") or [])) if i.type == APPLICATION_COMMAND else 0) for i in sent
    )
    assert figures.lobby.taps + sum(a.taps for a in actions) == expected_taps
    assert figures.lobby.taps == (1 + 2) + 1 + 1  # /ttr new map: players:, /ttr join, /ttr start
    assert all(a.taps >= 1 for a in actions)
    # Typing: none (claims and stations go through menus); the counting of typed options is the
    # taps check above, which counts each slash option filled in.
    assert not any(a.typed for a in actions) and any(a.kind == "claim a route" for a in actions)
    # Private messages: every DM and ephemeral message, each counted once.
    private = sum(len(fake.dms(u)) + len(fake.ephemeral(u)) for u in users)
    assert figures.lobby.private + sum(a.private for a in actions) == private
    assert figures.dms == {"alice": len(fake.dms(fake.alice)), "bob": len(fake.dms(fake.bob))}
    # Pings: those of the channel messages as they were created, each counted once.
    created = Counter(
        int(u["id"])
        for m in fake.channel_messages(fake.general)
        for u in (m.history[0] if m.history else m.payload())["mentions"]
    )
    counted = figures.lobby.pinged + sum((a.pinged for a in actions), Counter())
    assert counted == created and created
    passed = [a for a in actions if a.expected is not None]
    assert len(passed) == len(actions) - 1 and all(a.expected in {u.id for u in users} for a in passed)
    assert figures.channel_messages == len(fake.channel_messages(fake.general))
    assert figures.live_max >= figures.live_at_end >= 1
    text = report(figures)
    assert "draw two cards" in text or "claim a route" in text
    # The mis-clicks, in #games: each got a reply, and of the two taps at once exactly one applied.
    found = await misclicks(fake, bot, "europe", users, seed=3)
    assert len(found) == 5 and all(reply for what, reply, _ in found if not what.startswith("..."))
    assert [applied for _, _, applied in found[:4]] == [False, None, None, True]  # out of turn: refused


def message(fake_id: int, components: list[dict], attachments: tuple[Attachment, ...] = (), history=()) -> Message:
    msg = Message(
        id=fake_id, channel=Channel(id=1, name="c"), author=None, components=components, attachments=list(attachments)
    )
    msg.history = list(history)
    return msg


def test_live_controls_are_enabled_buttons_and_selects() -> None:
    row = {
        "type": 1,
        "components": [
            {"type": 2, "custom_id": "a", "disabled": True},
            {"type": 2, "style": 5, "url": "https://example.org"},
        ],
    }
    dead = message(1, [row])
    live = message(2, [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": []}]}])
    assert live_controls([dead, live, message(3, [])]) == [live]


def test_attachment_bytes_count_each_file_once_over_versions() -> None:
    board = Attachment(id=10, filename="b.png", data=b"x" * 300, content_type=None, description=None, url="")
    replaced = {"attachments": [{"id": "9", "size": 1000}, {"id": "10", "size": 300}]}
    assert attachment_bytes([message(1, [], [board], [replaced, replaced])]) == 1300


def test_only_the_next_player_once() -> None:
    assert only_next(Counter({7: 1}), 7) and only_next(Counter(), None)
    assert not only_next(Counter({7: 2}), 7) and not only_next(Counter({7: 1, 8: 1}), 7)
    assert not only_next(Counter(), 7) and not only_next(Counter({8: 1}), None)
