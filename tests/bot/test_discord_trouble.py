"""Discord pushing back while a game is played (issue 18): rate limits on the routes a turn uses,
and a game whose thread archived between turns. The move is made once, the table posted once,
the player answered once."""

from engine import DrawDeck
from tests.bot.test_play import deck_of, private_reply, state_of, two_player_game


async def test_rate_limited_posts_and_answers_are_retried_not_repeated(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    panel = driver._answer(await driver.act(0, DrawDeck()))
    tables = len(fake.channel_messages(fake.general))
    private = len(fake.ephemeral(fake.alice))
    fake.rate_limit("POST /webhooks/{application_id}/{token}", retry_after=0.2, times=2)  # the next table (follow-up)
    # the old table's edit through the tap (or else the panel's)
    fake.rate_limit("PATCH /webhooks/{application_id}/{token}/messages/{message_id}", retry_after=0.2)
    table = fake.channel_messages(fake.general)[-1]
    reply = await driver.tap(fake.alice, table, deck_of(table))  # alice's second card ends her turn
    await fake.wait_until(lambda: len(fake.channel_messages(fake.general)) > tables, what="the next table")
    await fake.settled()
    assert len(fake.channel_messages(fake.general)) == tables + 1  # posted once, after the 429s
    newest = fake.channel_messages(fake.general)[-1]
    assert f"<@{fake.bob.id}>, your turn" in newest.text and deck_of(newest)
    assert len(driver.game.log) == 4 and driver.game.current == 1
    assert "It's bob's turn." in panel.text and reply.followups == [newest]  # the panel edited, not sent again
    assert len(fake.ephemeral(fake.alice)) == private
    assert fake.rate_limited == ["POST /webhooks/{application_id}/{token}"] * 2 + [  # every scripted 429 was met
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
    ]


async def test_a_game_whose_thread_archived_goes_on_and_the_thread_reopens(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    reply = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa", players=2, thread=True)
    await reply.wait_resolved()
    (thread,) = fake.threads(fake.general)
    await fake.slash(fake.bob, thread, "ttr join")
    await (await fake.slash(fake.alice, thread, "ttr-host start", first=fake.alice)).wait_resolved()
    from tests.bot.driver import Driver

    driver = Driver(fake, bot, thread, [fake.alice, fake.bob])
    driver.game_id = (await bot.service.table_in_channel(thread.id)).id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    thread.archived = True  # a week without a move: Discord archived it
    await fake.dispatch_thread_update(thread)
    before = state_of(driver)
    table = fake.channel_messages(thread)[-1]
    await private_reply(fake, await fake.click(fake.alice, table, deck_of(table)))
    assert state_of(driver) != before  # the move was made
    await driver.act(0, DrawDeck())  # ends alice's turn: the next table is posted, which reopens the thread
    await fake.settled()
    assert not thread.archived
    assert f"<@{fake.bob.id}>, your turn" in fake.channel_messages(thread)[-1].text
