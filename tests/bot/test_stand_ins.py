"""Issue 36, a seat the AI keeps warm: a missed deadline (absence "ai") or the host's kick hands a
person's seat to the AI chosen at start, said on the table; the AI plays it like its own until the
player taps **Take my seat back**; the game records which moves the AI made."""

from engine import DrawDeck
from storage import stand_ins as stored_stand_ins
from tests.bot.test_admin import ask_to_kick, three_player_game
from tests.bot.test_clocks import Clock, timed_game


async def spans(bot, game_id):
    async with bot.storage.sessions() as session:
        return await stored_stand_ins.spans(session=session, game_id=game_id)


async def wait_for_turn_message(fake, driver, seat):
    """Until the table message of `seat`'s turn is posted (the AI's outcome is announced after it moved)."""

    def posted():
        game = driver.game
        if game.current != seat:
            return False
        custom_id = f"ttr:{driver.game_id}:{game.turn_token(seat)}:draw:deck"
        return any(cid.startswith(custom_id) for m in fake.channel_messages(fake.general) for cid in m.custom_ids)

    await fake.wait_until(posted, timeout=20, what=f"seat {seat}'s turn message")


def back_message(fake, channel, game_id, seat):
    custom_id = f"ttr:{game_id}:back:{seat}"
    return next(m for m in reversed(fake.channel_messages(channel)) if custom_id in m.custom_ids)


async def test_a_missed_deadline_hands_the_seat_to_the_ai_until_its_player_takes_it_back(fake_discord, make_bot):
    fake, clock = fake_discord, Clock()
    bot, driver = await timed_game(fake, make_bot, clock, absence="ai")
    bot.get_cog("AISeats").delay = 0
    table = await bot.service.table(driver.game_id)
    assert (await bot.timers.clock(driver.game_id)).ai_level == "baseline"  # the level chosen at start
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    plies = len(driver.game.log)
    clock.advance(minutes=61)
    await bot.get_cog("Clocks").tick()
    assert table.stand_ins() == {0: "baseline"}
    said = back_message(fake, fake.general, driver.game_id, 0)
    assert f"The baseline AI plays <@{fake.alice.id}>'s seat until they are back." in said.text
    assert said.custom_ids == [f"ttr:{driver.game_id}:back:0"]
    # bob plays his turn; the AI plays alice's next turn by itself (no deadline needed).
    assert driver.game.current == 1 and any(seat == 0 for seat, _ in driver.game.log[plies:])  # the timed-out turn
    await driver.act(1, DrawDeck())
    await driver.act(1, DrawDeck())
    bobs = len(driver.game.log)
    await wait_for_turn_message(fake, driver, 1)
    assert any(seat == 0 for seat, _ in driver.game.log[bobs:])
    # Only alice may take her seat back.
    refused = await fake.click(fake.bob, said, f"ttr:{driver.game_id}:back:0")
    assert refused.ephemeral and f"Only <@{fake.alice.id}> can take that seat back." in refused.text
    assert table.stand_ins() == {0: "baseline"}
    back = await fake.click(fake.alice, said, f"ttr:{driver.game_id}:back:0")
    await fake.wait_until(lambda: not table.stand_ins(), what="the seat to be given back")
    assert back.kind == "update" and not back.message.buttons
    await fake.wait_until(
        lambda: any("is back in their seat" in m.text for m in fake.channel_messages(fake.general)),
        what="the table told",
    )
    # The next turn of alice waits for her; the span of AI moves is recorded.
    await driver.act(1, DrawDeck())
    await driver.act(1, DrawDeck())
    assert driver.game.current == 0
    version = driver.game.version
    assert not await bot.service.take_back(table, 0)  # nothing to give back twice
    [span] = await spans(bot, driver.game_id)
    assert (span.seat, span.user_id, span.level, span.reason) == (0, fake.alice.id, "baseline", "timeout")
    assert plies <= span.began < span.ended <= version


async def test_the_host_can_hand_a_seat_to_the_ai_instead_of_removing_its_player(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await three_player_game(fake, make_bot)
    bot.get_cog("AISeats").delay = 0
    seat = (await bot.service.table(driver.game_id)).seat_of(fake.dirk.id)
    question = await ask_to_kick(fake, fake.alice, fake.dirk)
    assert f"ttr:{driver.game_id}:kick:{seat}:{fake.dirk.id}:ai" in question.custom_ids
    handed = await fake.click(fake.alice, question, label="An AI plays the seat")
    assert handed.kind == "update" and "An AI plays **dirk**'s seat now" in handed.message.text
    assert driver.game.left[seat] is None  # not removed: the seat plays on
    said = await fake.wait_until(
        lambda: any(f"ttr:{driver.game_id}:back:{seat}" in m.custom_ids for m in fake.channel_messages(fake.general)),
        what="the table told",
    )
    assert said and "The baseline AI plays" in back_message(fake, fake.general, driver.game_id, seat).text
    while driver.game.current != seat:
        await driver.act(driver.game.current, driver.game.default_action(driver.game.current))
    await bot.get_cog("AISeats").sweep()  # the sweep finds the seat handed over (the AI's turn now)
    await wait_for_turn_message(fake, driver, (seat + 1) % 3)
    [span] = await spans(bot, driver.game_id)
    assert (span.user_id, span.reason, span.ended) == (fake.dirk.id, "kick", None)
    # dirk comes back and plays on his turn without the button: his own move takes the seat back.
    bot.get_cog("AISeats").delay = 3600
    while driver.game.current != seat:
        await driver.act(driver.game.current, DrawDeck())
        await driver.act(driver.game.current, DrawDeck())
    plies = len(driver.game.log)
    menu = await fake.slash(fake.dirk, fake.general, "ttr draw")  # no turn message offered his turn
    await menu.wait_resolved()
    deck = next(c for c in menu.message.custom_ids if ":draw:deck" in c)
    await fake.click(fake.dirk, menu.message, deck)
    await fake.wait_until(lambda: len(driver.game.log) > plies, what="dirk's card")
    table = await bot.service.table(driver.game_id)
    assert not table.stand_ins() and driver.game.current == seat  # his second card is his to draw
    [span] = await spans(bot, driver.game_id)
    assert span.ended is not None


async def test_taking_the_seat_back_on_ones_own_turn_posts_that_turn(fake_discord, make_bot):
    """The AI's turn was told with no controls (an AI moves by itself): a player who takes the seat
    back while the game waits on it gets the turn message with the table's buttons."""
    fake = fake_discord
    bot, driver = await three_player_game(fake, make_bot)
    bot.get_cog("AISeats").delay = 3600  # the AI would wait an hour: dirk is back before it moves
    seat = (await bot.service.table(driver.game_id)).seat_of(fake.dirk.id)
    while driver.game.current != seat:
        await driver.act(driver.game.current, DrawDeck())
        await driver.act(driver.game.current, DrawDeck())
    question = await ask_to_kick(fake, fake.alice, fake.dirk)
    await fake.click(fake.alice, question, label="An AI plays the seat")
    said = await fake.wait_until(
        lambda: next(
            (m for m in fake.channel_messages(fake.general) if f"ttr:{driver.game_id}:back:{seat}" in m.custom_ids),
            None,
        ),
        what="the table told",
    )
    await fake.click(fake.dirk, said, f"ttr:{driver.game_id}:back:{seat}")
    turn = await fake.wait_until(
        lambda: next((m for m in fake.channel_messages(fake.general) if "is back in their seat" in m.text), None),
        what="the turn posted",
    )
    assert f"<@{fake.dirk.id}>, your turn" in turn.text and f"ttr:{driver.game_id}:hand" in turn.custom_ids
    await driver.act(seat, DrawDeck())  # from that message's buttons
    await driver.act(seat, DrawDeck())
    assert driver.game.current != seat and not (await bot.service.table(driver.game_id)).stand_ins()
