"""Issue 8, play-by-post: deadlines, reminders, the absence policy, vacations, pauses — with a
clock the test moves, through the fake Discord server, across a restart."""

from datetime import UTC, datetime, timedelta

from bot import metrics
from engine import DrawDeck
from tests.bot.driver import Driver

#: Far ahead of the real clock: a restarted bot's own scheduler loop runs on the real clock until the
#: test hands it this one, and must find nothing due meanwhile (a START in the past let it fire first).
START = datetime(2126, 12, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


async def timed_game(fake, make_bot, clock, **options):
    bot = await make_bot()
    bot.timers.now = clock
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=2, timer=3600, **options)
    await driver.run(fake.bob, "ttr join")
    reply = await fake.slash(fake.alice, fake.general, "ttr-host start", first=fake.alice)
    await reply.wait_resolved()
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    return bot, driver


def fired(kind: str) -> float:
    """The timers of `kind` the metrics counted as fired so far."""
    return sum(
        sample.value
        for family in metrics.TIMERS_FIRED.collect()
        for sample in family.samples
        if sample.name == "ttr_timers_fired_total" and sample.labels == {"kind": kind}
    )


def texts(fake, channel):
    return [m.text for m in fake.channel_messages(channel)]


async def test_reminder_deadline_skip_and_each_timer_fires_once_across_a_restart(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="skip", reminder_minutes=15)
    clock.advance(minutes=46)
    reminded = fired("reminder")
    assert await bot.get_cog("Clocks").tick() == 2  # both players' reminders for their starting tickets
    assert fired("reminder") - reminded == 2
    reminders = [t for t in texts(fake, fake.general) if t.startswith("⏳")]
    assert len(reminders) == 2 and f"<@{fake.bob.id}>" in reminders[1]
    assert await bot.get_cog("Clocks").tick() == 0
    await driver.act(0, driver.game.default_action(0))  # alice chooses; bob lets the time run out
    bot = await make_bot()  # a restart while bob's deadline is pending
    bot.timers.now = clock
    driver.bot = bot
    clock.advance(minutes=15)
    assert await bot.get_cog("Clocks").tick() == 1  # bob's missed deadline fires after the restart
    game = driver.game if driver.game_id in bot.service._tables else (await bot.service.table(driver.game_id)).game
    assert game.phase == "playing" and len(game.tickets[1]) == 2
    turn = fake.channel_messages(fake.general)[-1]
    assert "ran out of time" in turn.text and f"<@{fake.alice.id}>, your turn (USA). ⏰ <t:" in turn.text
    assert await bot.get_cog("Clocks").tick() == 0
    reminders = len([t for t in texts(fake, fake.general) if t.startswith("⏳")])
    clock.advance(minutes=61)  # alice misses her first turn: she draws 2 blind cards, bob is next
    assert await bot.get_cog("Clocks").tick() == 2  # her reminder (now overdue: not posted) and her deadline
    assert len([t for t in texts(fake, fake.general) if t.startswith("⏳")]) == reminders
    game = (await bot.service.table(driver.game_id)).game
    assert game.current == 1 and game.log[-1] == (0, DrawDeck()) and game.log[-2] == (0, DrawDeck())
    assert "**alice** ran out of time." in fake.channel_messages(fake.general)[-1].text
    assert await bot.get_cog("Clocks").tick() == 0


async def test_a_reminder_overdue_when_its_deadline_fires_is_not_posted(fake_discord, make_bot):
    """The bot was down through a turn's reminder and its deadline: only the skip is told, not a
    "your turn ends" for a turn already over; a reminder still ahead of its deadline is posted."""
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="skip", reminder_minutes=15)
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    clock.advance(minutes=50)  # down through alice's reminder (at 45 minutes), back before her deadline
    assert await bot.get_cog("Clocks").tick() == 1
    assert texts(fake, fake.general)[-1].startswith(f"⏳ <@{fake.alice.id}>, your turn ends <t:")
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())
    posted = len(fake.channel_messages(fake.general))
    clock.advance(hours=2)  # down through bob's reminder and his deadline
    assert await bot.get_cog("Clocks").tick() == 2  # both handled, once each
    new = texts(fake, fake.general)[posted:]
    assert len(new) == 1 and "⏰ **bob** ran out of time." in new[0] and "⏳" not in new[0]
    assert driver.game.current == 0


async def test_a_missed_starting_ticket_choice_does_not_count_toward_removal(fake_discord, make_bot):
    """With `remove_after: 2`, missing the starting tickets and then one turn is one missed turn:
    the lobby says so, and the player is removed only after a second missed turn in a row."""
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="remove", remove_after=2)
    lobby = next(t for t in texts(fake, fake.general) if "New USA game" in t)
    assert (
        "When a turn's time runs out, it is skipped; a player who misses 2 turns in a row is removed (the "
        "starting tickets don't count)."
    ) in lobby.splitlines()
    await driver.act(1, driver.game.default_action(1))  # bob chooses, alice lets the time run out
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()
    assert driver.game.phase == "playing" and driver.game.left[0] is None
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()  # her first turn missed: one missed turn, still in
    assert driver.game.left[0] is None and driver.game.current == 1
    assert "⏰ **alice** ran out of time." in texts(fake, fake.general)[-1]
    await driver.act(1, DrawDeck())
    await driver.act(1, DrawDeck())
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()  # her second turn missed in a row: removed
    assert driver.game.left[0] == "removed"
    assert any("missed 2 deadlines in a row and is removed" in t for t in texts(fake, fake.general))


async def test_removal_after_missed_turns_and_acting_resets_the_count(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="remove", remove_after=2)
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()  # alice misses once
    await driver.act(1, DrawDeck())  # bob plays himself
    await driver.act(1, DrawDeck())
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()  # alice misses twice in a row: removed, and the game (2 players) ends
    assert driver.game.left[0] == "removed" and driver.game.is_over()
    assert any("missed 2 deadlines in a row and is removed" in t for t in texts(fake, fake.general))


async def test_vacation_and_pause_move_deadlines(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="skip")
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    table = await bot.service.table(driver.game_id)
    due = await bot.timers.deadline(table, 0)
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings vacation", days=2)
    assert "on vacation until" in reply.text
    assert await bot.timers.deadline(table, 0) == due + timedelta(days=2)
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings vacation", days=6)
    assert "5 vacation days left" in reply.text  # 7 per game, 2 used
    reply = await fake.slash(fake.bob, fake.general, "ttr-host pause")
    assert "Only the host" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-host pause")
    assert "paused" in reply.text
    clock.advance(days=3)
    assert await bot.get_cog("Clocks").tick() == 0  # paused: nothing fires
    reply = await fake.slash(fake.alice, fake.general, "ttr-host resume")
    assert "run again" in reply.text
    assert await bot.timers.deadline(table, 0) == due + timedelta(days=5)


async def test_games_lists_my_games_with_whose_turn_and_deadline(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock)
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    reply = await fake.slash(fake.alice, fake.general, "ttr games")
    await reply.wait_resolved()
    assert f"USA in <#{fake.general.id}>: **your turn**, ⏰ <t:" in reply.message.text
    reply = await fake.slash(fake.bob, fake.general, "ttr games")
    await reply.wait_resolved()
    assert "alice's turn" in reply.message.text


async def test_notify_dm_pings_outside_quiet_hours(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock)
    reply = await fake.slash(
        fake.bob, fake.general, "ttr-settings notify", dm=True, quiet_from=22, quiet_to=7, utc_offset=0
    )
    assert "DM pings on, quiet from 22:00 to 7:00" in reply.text
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())  # 12:00 UTC: bob gets a ping
    assert "It's your turn in the USA game" in fake.dms(fake.bob)[-1].text
    pings = len(fake.dms(fake.bob))
    clock.now = START.replace(hour=23)
    await driver.act(1, DrawDeck())
    await driver.act(1, DrawDeck())
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())  # 23:00: quiet hours, no ping (the channel mention still happens)
    assert len([m for m in fake.dms(fake.bob) if "It's your turn" in m.text]) == len(
        [m for m in fake.dms(fake.bob)[:pings] if "It's your turn" in m.text]
    )
    # Turned off (the choice bot/messenger.py keeps follows): no ping at noon either.
    await fake.slash(fake.bob, fake.general, "ttr-settings notify", dm=False)
    clock.now = START
    before = len(fake.dms(fake.bob))
    for _ in range(2):
        await driver.act(1, DrawDeck())
        await driver.act(1, DrawDeck())
        await driver.act(0, DrawDeck())
        await driver.act(0, DrawDeck())
    assert not [m for m in fake.dms(fake.bob)[before:] if "It's your turn" in m.text]


async def test_absence_policy_ai_plays_the_missed_turn_and_keeps_the_seat(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="ai")
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    plies = len(driver.game.log)
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()
    game = driver.game
    assert game.current == 1 and len(game.log) > plies and all(seat == 0 for seat, _ in game.log[plies:])
    assert "**alice (🤖)** ran out of time: an AI plays this turn." in fake.channel_messages(fake.general)[-1].text


async def test_a_whole_play_by_post_game_every_timer_fires_once(fake_discord, make_bot):
    """Issue 8's scenario in one game: reminders, auto-skips, a vacation, a restart in between,
    removal after 2 missed turns; every timer is handled exactly once."""
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="remove", remove_after=2, reminder_minutes=10)

    async def tick():
        return await driver.bot.get_cog("Clocks").tick()

    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    await fake.slash(fake.bob, fake.general, "ttr-settings vacation", days=1)
    clock.advance(minutes=55)
    assert await tick() == 1  # alice's reminder
    clock.advance(minutes=6)
    assert await tick() == 1  # alice's deadline: her turn is skipped (2 blind cards)
    assert driver.game.current == 1
    bot = await make_bot()  # restart; bob is on vacation: his deadline is a day later
    bot.timers.now = clock
    driver.bot = bot
    clock.advance(hours=2)
    assert await tick() == 0
    clock.advance(days=1)
    assert await tick() == 2  # bob's reminder and deadline, both due by now, once each
    game = (await bot.service.table(driver.game_id)).game
    assert game.current == 0
    clock.advance(minutes=61)
    assert await tick() == 2  # alice misses again: removed; two players left -> game over
    game = (await bot.service.table(driver.game_id)).game
    assert game.is_over() and game.left[0] == "removed"
    clock.advance(days=3)
    assert await tick() == 0
    async with bot.storage.sessions() as session:
        from storage.clocks import pending_timers

        assert await pending_timers(session=session, game_id=driver.game_id) == []


async def test_deadline_notes_in_the_servers_language_and_pings_in_the_players(fake_discord, make_bot):
    """A Chinese server, bob reading Russian: the missed deadline is told in Chinese in the channel,
    his turn ping and reminder come in Russian by DM."""
    from bot.language import Choice

    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="skip", reminder_minutes=15)
    await fake.slash(fake.bob, fake.general, "ttr-settings notify", dm=True)
    await bot.languages.set_guild(fake.guild.id, Choice("zh"))
    await bot.languages.set_player(fake.bob.id, Choice("ru"))
    await driver.act(1, driver.game.default_action(1))
    clock.advance(minutes=61)  # alice misses her starting tickets
    await bot.get_cog("Clocks").tick()
    turn = fake.channel_messages(fake.general)[-1]
    assert turn.text.startswith("⏰ **alice** 超时了。") and f"<@{fake.alice.id}>，轮到你了（美国）。" in turn.text
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())  # bob's turn: a ping in Russian
    assert "Ваш ход в игре «США» в <#" in fake.dms(fake.bob)[-1].text
    clock.advance(minutes=46)
    await bot.get_cog("Clocks").tick()
    assert f"⏳ <@{fake.bob.id}>，你的回合将在<t:" in fake.channel_messages(fake.general)[-1].text
    assert fake.dms(fake.bob)[-1].text.startswith("**Игра «США» в <#")
    assert "закончится <t:" in fake.dms(fake.bob)[-1].text
