"""Whole games played through buttons and selects only, as players on phones would (issues 7 and 16).

Checked after every action: exactly one channel message per finished turn, naming the next
player; the board picture only when the map changed; at most one channel message with live
controls; at most one new private message per action, which shows the actor's own hand; nothing
private in any channel message; and at the end the posted scores equal the engine's scoring.
"""

import re

import pytest

from bot.table_message import map_state
from i18n import translator
from tests.bot.driver import Driver
from texts.present import hand_text, ticket_line

EN = translator("en")

DM_NOTICE = "I can't send you direct messages"


def turn_messages(fake, channel):
    return [m for m in fake.channel_messages(channel) if DM_NOTICE not in m.text]


def private_count(fake, users) -> int:
    return sum(len(fake.dms(u)) + len(fake.ephemeral(u)) for u in users)


class Watcher:
    """Checks the invariants after each action the driver makes."""

    def __init__(self, fake, channel) -> None:
        self.fake, self.channel = fake, channel
        self.turns = 0
        self.boards = 0

    def start(self, driver: Driver) -> None:
        self.seen = len(turn_messages(self.fake, self.channel))
        self.phase = driver.game.phase
        self.map_state = self._map_state(driver)
        self.board_round = driver.game.round  # the round of the channel's last board: the start's
        self.private = {u.id: private_count(self.fake, [u]) for u in driver.users}

    @staticmethod
    def _map_state(driver: Driver) -> tuple[int, ...]:
        return map_state(driver.game.view(None))

    async def __call__(self, driver: Driver) -> None:
        game = driver.game
        seat, _ = game.log[-1]
        phase_before, self.phase = self.phase, game.phase
        turn_ended = phase_before == "playing" and game.stage is None
        play_started = phase_before == "choosing" and game.phase != "choosing"
        messages = turn_messages(self.fake, self.channel)
        assert len(messages) == self.seen + (turn_ended or play_started), [m.text for m in messages[self.seen :]]
        self.seen = len(messages)
        live = [m for m in messages if any(re.fullmatch(rf"ttr:{driver.game_id}:\d+:draw:.*", c) for c in m.custom_ids)]
        assert len(live) <= 1, "more than one channel message carries live controls"
        if turn_ended or play_started:
            self.turns += 1
            message = messages[-1]
            changed = self._map_state(driver) != self.map_state
            if (changed and game.round > self.board_round) or game.is_over():
                assert message.attachments and message.attachments[0].is_image
                self.boards += 1
                self.map_state, self.board_round = self._map_state(driver), game.round
            else:  # at most one board a round, and only when the map changed
                assert not message.attachments, "a board was posted though the map did not change this round"
            if not game.is_over():
                assert f"<@{driver.user_of(game.current).id}>, your turn" in message.text
        secret_lines = [
            ticket_line(EN, game.map, t)
            for s in range(game.seats)
            if not game.is_over()
            for t in game.view(s)["you"]["tickets"] + game.view(s)["you"]["offer"]
        ]
        for message in self.fake.channel_messages(self.channel):
            assert "Your hand" not in message.text and "Your tickets" not in message.text
            assert not any(line in message.text for line in secret_lines), message.text
        private = {u.id: private_count(self.fake, [u]) for u in driver.users}
        if phase_before == "playing":
            actor = driver.user_of(seat)
            assert private[actor.id] - self.private[actor.id] <= 1, "more than one new private message for an action"
            for user in driver.users:  # others hear privately only of a decision now theirs (a DM)
                waits = game.phase == "playing" and driver.user_of(game.current) is user and game.stage
                assert user is actor or waits or private[user.id] == self.private[user.id], user.name
        self.private = private
        user = driver.user_of(seat)
        if game.phase == "playing" and phase_before == "playing":
            panel = self.fake.ephemeral(user)[-1]
            assert hand_text(EN, game.view(seat)) in panel.text


async def play_full_game(fake, make_bot, map_id, users, seed, **options):
    bot = await make_bot()
    driver = Driver(fake, bot, fake.general, users, seed=seed)
    await driver.start_game(map_id, **options)
    watcher = Watcher(fake, fake.general)
    watcher.start(driver)
    await driver.play_to_end(on_turn=watcher)
    game = driver.game
    final = turn_messages(fake, fake.general)[-1]
    assert final.text_displays[0].startswith("## 🏁"), "the final message has the score breakdown"
    posted = {}
    for field in final.text_displays:
        head = re.fullmatch(r"\*\*\S+ (.+) — (−?\d+)\*\*", field.splitlines()[0])  # "**🥇 alice — 128**"
        if head:
            posted[head[1]] = int(head[2].replace("−", "-"))
    expected = {driver.user_of(s.seat).name: s.total for s in game.final}
    assert posted == expected
    assert f"ttr:{driver.game_id}:rematch" in final.custom_ids
    return driver, watcher


@pytest.mark.slow
async def test_full_three_player_europe_game(fake_discord, make_bot):
    fake = fake_discord
    driver, watcher = await play_full_game(fake, make_bot, "europe", [fake.alice, fake.bob, fake.carol], seed=1)
    assert watcher.turns > 20
    # Carol's DMs are closed: she was told so in the channel, once, and played through ephemeral replies.
    notices = [m for m in fake.channel_messages(fake.general) if DM_NOTICE in m.text]
    assert len(notices) == 1 and f"<@{fake.carol.id}>" in notices[0].text
    assert fake.dms(fake.carol) == []
    kinds = {type(action).__name__ for _, action in driver.game.log}
    assert {"PayTunnel", "DeclineTunnel"} & kinds and "BuildStation" in kinds  # all by buttons and selects
    assert watcher.boards < watcher.turns  # turns that only drew cards posted no picture


@pytest.mark.slow
async def test_full_four_player_usa_game(fake_discord, make_bot):
    fake = fake_discord
    driver, watcher = await play_full_game(fake, make_bot, "usa", [fake.alice, fake.bob, fake.dirk, fake.carol], seed=2)
    assert watcher.turns > 20


@pytest.mark.slow
async def test_full_nederland_game_with_the_neutral_player(fake_discord, make_bot):
    """docs/rules.md §4 through Discord: tolls, loans and the neutral player's track choice by button."""
    fake = fake_discord
    driver, watcher = await play_full_game(fake, make_bot, "nederland", [fake.alice, fake.bob], seed=3, neutral=True)
    game = driver.game
    assert game.view(None)["neutral"] and any(o == 2 for o in game.owner)
    assert any(type(action).__name__ == "NeutralClaim" for _, action in game.log), "no track choice came up"
    money_shown = [m for u in (fake.alice, fake.bob) for m in fake.ephemeral(u) if "money:" in m.text]
    assert money_shown and not any("money:" in m.text for m in fake.channel_messages(fake.general))


@pytest.mark.slow
@pytest.mark.parametrize("map_id", ["switzerland", "nordic"])
async def test_full_three_player_games_on_the_newer_maps(fake_discord, make_bot, map_id):
    """docs/rules.md §5–6 maps through Discord: country tickets, free locomotives, ferries, the 4:1 route."""
    fake = fake_discord
    driver, watcher = await play_full_game(fake, make_bot, map_id, [fake.alice, fake.bob, fake.dirk], seed=4)
    assert watcher.turns > 15


@pytest.mark.slow
async def test_full_three_player_marklin_game(fake_discord, make_bot):
    """docs/rules.md §8 through Discord: the ticket mixes named by button, passengers placed after
    the route and moved by two selects, tokens on the board and in the final scores."""
    fake = fake_discord
    driver, watcher = await play_full_game(fake, make_bot, "marklin", [fake.alice, fake.bob, fake.dirk], seed=5)
    game = driver.game
    kinds = [type(action).__name__ for _, action in game.log]
    assert "Move" in kinds and any(getattr(a, "passenger", None) for _, a in game.log)
    assert any(getattr(a, "long", None) for _, a in game.log if type(a).__name__ == "DrawTickets")
    assert any(s.bonuses.get("merchandise") for s in game.final)
    assert watcher.turns > 15
