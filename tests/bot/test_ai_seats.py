"""Issue 9 in Discord: AI seats added at /ttr-host start play by themselves; a deadline can hand a
missing player's turn to an AI; AIs play on after a restart."""

import pytest

from tests.bot.driver import Driver


async def solo_game(fake, make_bot, ai_players=2, level="baseline"):
    bot = await make_bot()
    bot.get_cog("AISeats").delay = 0
    driver = Driver(fake, bot, fake.general, [fake.alice])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=3)
    reply = await fake.slash(
        fake.alice, fake.general, "ttr-host start", first=fake.alice, ai_players=ai_players, ai_level=level
    )
    await reply.wait_resolved()
    table = await bot.service.table_in_channel(fake.general.id)
    driver.game_id = table.id
    return bot, driver


async def wait_for_people(fake, driver):
    """Until the game waits on alice (or is over): the AIs move by themselves."""

    def ready():
        game = driver.game
        task = driver.bot.get_cog("AISeats")._tasks.get(driver.game_id)
        return (game.is_over() or 0 in game.to_move()) and (task is None or task.done())

    await fake.wait_until(ready, timeout=20, what="the AIs to move")


@pytest.mark.slow
async def test_solo_practice_against_two_ais_to_the_end(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await solo_game(fake, make_bot)
    table = await bot.service.table(driver.game_id)
    assert [s.ai for s in table.seats] == [None, "baseline", "baseline"]
    while not driver.game.is_over():
        await wait_for_people(fake, driver)
        if driver.game.is_over():
            break
        await driver.act(0, driver.choose(0))
    await fake.wait_until(
        lambda: fake.channel_messages(fake.general)[-1].text.startswith("## 🏁"), what="the final message"
    )
    turns = [m for m in fake.channel_messages(fake.general) if "your turn" in m.text]
    assert turns and all(f"<@{fake.alice.id}>, your turn" in m.text for m in turns)  # only a person is asked
    together = [m for m in turns if "**🤖 baseline AI 2**" in m.text and "**🤖 baseline AI 3**" in m.text]
    assert len(together) >= len(turns) - 2  # both AIs' turns told in the one message that asks alice to play
    assert any(m.attachments for m in together)  # with the board, when a route was claimed
    ai_seats = {1, 2}
    assert any(seat in ai_seats for seat, _ in driver.game.log)


async def test_ai_plays_on_after_a_restart(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await solo_game(fake, make_bot, ai_players=1)
    await wait_for_people(fake, driver)
    await driver.act(0, driver.game.default_action(0))  # alice's starting tickets
    await wait_for_people(fake, driver)
    plies = len(driver.game.log)
    bot.get_cog("AISeats").delay = 3600  # the AI would wait an hour: restart before it moves
    await driver.act(0, driver.game.default_action(0))
    await driver.act(0, driver.game.default_action(0))
    assert 1 in driver.game.to_move()
    bot = await make_bot(ai_delay=0)  # its start-up finds the AI's turn and plays it
    driver.bot = bot
    await fake.wait_until(
        lambda: 0 in driver.game.to_move() and len(driver.game.log) > plies + 2,
        timeout=20,
        what="the AI to move after the restart",
    )


async def test_start_refuses_more_than_five_seats(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.run(fake.alice, "ttr-host new", map="usa")
    await driver.run(fake.bob, "ttr join")
    reply = await fake.slash(fake.alice, fake.general, "ttr-host start", ai_players=4)
    assert "at most 5 seats" in reply.text


async def test_ai_seats_are_named_in_the_servers_language(fake_discord, make_bot):
    from bot.language import Choice

    fake = fake_discord
    bot = await make_bot()
    bot.get_cog("AISeats").delay = 3600  # the AIs wait: only the start is looked at
    await bot.languages.set_guild(fake.guild.id, Choice("zh"))
    driver = Driver(fake, bot, fake.general, [fake.alice])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=3)
    reply = await fake.slash(
        fake.alice, fake.general, "ttr-host start", first=fake.alice, ai_players=2, ai_level="strong"
    )
    await reply.wait_resolved()
    started = fake.channel_messages(fake.general)[-1]
    assert "座位：alice、🤖 强力 AI 2和🤖 强力 AI 3。" in started.text


async def test_the_sweep_reads_the_games_written_since_its_last_look(fake_discord, make_bot):
    """A game another process moved (this process heard no outcome) is found by the next look; a
    look reads only the games written lately (plus an overlap), the first one at start all of them."""
    from datetime import timedelta

    import sqlalchemy as sa

    from storage.models import GameRecord, utcnow

    fake = fake_discord
    bot, driver = await solo_game(fake, make_bot, ai_players=1)
    cog = bot.get_cog("AISeats")
    cog.sweeper.cancel()
    await wait_for_people(fake, driver)
    bot.service.unsubscribe(cog.on_outcome)  # what follows is as if another process did it

    async def to_the_ai() -> None:
        while 0 in driver.game.to_move() and not driver.game.is_over():
            await driver.act(0, driver.choose(0))

    await to_the_ai()
    assert await cog.sweep() == 1  # written since the last look
    await wait_for_people(fake, driver)
    await to_the_ai()
    async with bot.storage.sessions() as session:  # written long before the last look
        await session.execute(
            sa.update(GameRecord)
            .where(GameRecord.id == driver.game_id)
            .values(updated_at=utcnow() - timedelta(hours=1))
        )
        await session.commit()
    assert await cog.sweep() == 0
    cog._looked = None  # a restart: the first look reads every AI game
    assert await cog.sweep() == 1
    await wait_for_people(fake, driver)


async def test_an_expert_seat_plays_its_turns(fake_discord, make_bot):
    """The expert, offered at /ttr-host start, thinks its moves (a second each at most) and plays."""
    fake = fake_discord
    bot, driver = await solo_game(fake, make_bot, ai_players=1, level="expert")
    table = await bot.service.table(driver.game_id)
    assert [s.ai for s in table.seats] == [None, "expert"]
    assert "🤖 expert AI 2" in fake.channel_messages(fake.general)[-1].text

    def expert_moves():
        return [action for seat, action in driver.game.log if seat == 1]

    for _ in range(8):  # alice acts (a card drawn is half a turn) until the expert has made three moves
        await wait_for_people(fake, driver)
        if len(expert_moves()) >= 3:
            break
        await driver.act(0, driver.choose(0))
    assert len(expert_moves()) >= 3  # its starting tickets and two actions of its turns
