"""Issue 7 admin: kick, replace, host transfer, force-end, server settings."""

from engine import DrawDeck
from tests.bot.test_play import private_reply, two_player_game


async def ask_to_kick(fake, host, player):
    """`/ttr admin kick`: the private question and its buttons."""
    reply = await fake.slash(host, fake.general, "ttr-host kick", player=player)
    assert reply.ephemeral and "Remove **" in reply.text and "from the game?" in reply.text
    return reply.message


async def three_player_game(fake, make_bot):
    bot = await make_bot()
    from tests.bot.driver import Driver

    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob, fake.dirk])
    await driver.start_game("usa")
    for seat in range(3):
        await driver.act(seat, driver.game.default_action(seat))
    return bot, driver


async def test_only_host_or_manager_may_kick_and_kick_removes_the_seat_once_confirmed(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await three_player_game(fake, make_bot)
    seat = (await bot.service.table(driver.game_id)).seat_of(fake.dirk.id)
    reply = await fake.slash(fake.bob, fake.general, "ttr-host kick", player=fake.dirk)
    assert reply.ephemeral and f"Only <@{fake.alice.id}>" in reply.text
    question = await ask_to_kick(fake, fake.alice, fake.dirk)
    assert question.custom_ids == [
        f"ttr:{driver.game_id}:kick:{seat}:{fake.dirk.id}:yes",
        f"ttr:{driver.game_id}:kick:{seat}:{fake.dirk.id}:ai",
        f"ttr:{driver.game_id}:kick:{seat}:{fake.dirk.id}:no",
    ]
    cancel = await fake.click(fake.alice, question, label="Cancel")
    assert cancel.kind == "update" and cancel.message.text == "Nobody was removed." and not cancel.message.buttons
    assert driver.game.left[seat] is None
    question = await ask_to_kick(fake, fake.alice, fake.dirk)
    confirm = await fake.click(fake.alice, question, label="Remove")
    answer = await confirm.wait_edit(2)
    assert answer.text == "✅ **dirk** was removed from the game." and not answer.buttons
    assert driver.game.left[seat] == "removed" and not driver.game.is_over()
    assert any("was removed from the game" in m.text for m in fake.channel_messages(fake.general))
    assert "Done." not in [m.text for m in fake.ephemeral(fake.alice)]
    assert not fake.rejections  # one handler answered each click (no second answer refused with 40060)


async def test_a_stale_kick_confirmation_removes_nobody(fake_discord, make_bot):
    """Confirming after the seat was given to someone else, or after the player left, changes nothing."""
    fake = fake_discord
    bot, driver = await three_player_game(fake, make_bot)
    question = await ask_to_kick(fake, fake.alice, fake.dirk)
    await fake.slash(fake.alice, fake.general, "ttr-host replace", player=fake.dirk, new_player=fake.carol)
    confirm = await fake.click(fake.alice, question, label="Remove")
    assert confirm.ephemeral and "changed hands" in confirm.text
    assert all(left is None for left in driver.game.left)
    question = await ask_to_kick(fake, fake.alice, fake.bob)
    resigned = await private_reply(fake, await fake.slash(fake.bob, fake.general, "ttr resign"))
    assert "You resigned from this game." in resigned and "Your hand" not in resigned and "no cards" not in resigned
    confirm = await fake.click(fake.alice, question, label="Remove")
    answer = await confirm.wait_edit(2)
    assert answer.text.startswith("⚠️") and "already left" in answer.text
    bob = (await bot.service.table(driver.game_id)).seat_of(fake.bob.id)
    assert driver.game.left[bob] == "resigned"


async def test_a_kick_that_ends_the_game_posts_the_final_results(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    question = await ask_to_kick(fake, fake.alice, fake.bob)
    confirm = await fake.click(fake.alice, question, label="Remove")
    answer = await confirm.wait_edit(2)
    assert answer.text == (
        f"✅ **bob** was removed from the game. That ended it: the final results are in <#{fake.general.id}>."
    )
    final = fake.channel_messages(fake.general)[-1]
    title, summary, first, *_ = final.text_displays
    assert title == "## 🏁 Game over — USA" and summary.startswith("**bob** was removed from the game")
    assert first.startswith("**🥇")
    assert sum("Game over" in text for text in final.text_displays) == 1  # the heading says it, once
    assert final.files.keys() == {"final.webp"} and final.button("Rematch") is not None
    assert "Done." not in [m.text for m in fake.ephemeral(fake.alice)]


async def test_replace_gives_the_seat_to_another_member(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    reply = await fake.slash(fake.alice, fake.general, "ttr-host replace", player=fake.bob, new_player=fake.dirk)
    assert "takes over" in reply.text
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())
    reply = await fake.slash(fake.bob, fake.general, "ttr tickets")
    assert "not playing" in await private_reply(fake, reply)
    reply = await fake.slash(fake.dirk, fake.general, "ttr tickets")
    assert "Choose your tickets" in await private_reply(fake, reply)


async def test_host_transfer_then_force_end(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    reply = await fake.slash(fake.bob, fake.general, "ttr-host end")
    assert reply.ephemeral and "Only" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-host handover", player=fake.bob)
    assert "is now the host" in reply.text
    reply = await fake.slash(fake.bob, fake.general, "ttr-host end")
    assert "ended the game" in reply.text
    assert await bot.service.table_in_channel(fake.general.id) is None
    reply = await fake.slash(fake.alice, fake.general, "ttr status")
    assert "no game running" in reply.text


async def test_server_settings_default_map_and_allowed_channels(fake_discord, make_bot):
    fake = fake_discord
    await make_bot()
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings map", map="europe")
    assert reply.ephemeral and "Only members with **Manage Server**" in reply.text
    reply = await fake.slash(fake.owner, fake.general, "ttr-settings map", map="europe")
    assert "Default map: Europe" in reply.text
    reply = await fake.slash(
        fake.owner, fake.general, "ttr-settings channel", options={"channel": fake.games, "allowed": True}
    )
    assert f"<#{fake.games.id}>" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-host new")
    assert reply.ephemeral and "Games aren't played in this channel" in reply.text
    reply = await fake.slash(fake.alice, fake.games, "ttr-host new")
    assert "New Europe game" in (await reply.wait_resolved()).text


async def test_language_setting_for_a_player_and_for_the_server(fake_discord, make_bot):
    """`/ttr-settings language`: a player's own language answers in it at once; the server's needs
    Manage Server and moves the channel's messages (a new lobby) and `settings show`."""
    fake = fake_discord
    await make_bot()
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings show")
    assert "Language: automatic (Discord's language)" in reply.text and "City names: as printed" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings language", language="ru")
    assert reply.ephemeral and reply.text == "Теперь пишу вам по-русски."
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings language", language="zh", **{"for": "server"})
    assert reply.ephemeral and "Управлять сервером" in reply.text  # refused, in alice's Russian
    reply = await fake.slash(
        fake.owner, fake.general, "ttr-settings language", language="zh", city_names="translated", **{"for": "server"}
    )
    assert "语言：简体中文" in reply.text and "城市名：译名" in reply.text  # in the server's new language
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings show")
    assert "Язык: 简体中文 (китайский)" in reply.text  # alice reads it in Russian
    reply = await fake.slash(fake.bob, fake.general, "ttr-host new", map="europe")
    assert "新的欧洲游戏" in (await reply.wait_resolved()).text  # the lobby, in the server's language
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings language", language="auto")
    assert reply.text == "I'll follow your Discord language."  # alice's Discord is en-US


async def test_colorblind_setting_changes_the_images(fake_discord, make_bot):
    from tests.bot.test_play import two_player_game

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    table = await bot.service.table(driver.game_id)
    plain = (await bot.messenger.board_file(table)).fp.read()
    reply = await fake.slash(fake.bob, fake.general, "ttr-settings colorblind", on=True)
    assert "letter" in reply.text
    assert bot.messenger.colorblind(table, 1) and not bot.messenger.colorblind(table, 0)
    marked = (await bot.messenger.board_file(table)).fp.read()
    assert marked != plain  # the public board switches for everyone at a table with a color-blind player


async def test_forget_a_servers_data_on_request(fake_discord, make_bot):
    from tests.bot.test_play import two_player_game

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    reply = await fake.slash(fake.alice, fake.general, "ttr-settings forget", confirm="DELETE")
    assert "Only members with **Manage Server**" in reply.text
    reply = await fake.slash(fake.owner, fake.general, "ttr-settings forget", confirm="yes")
    assert "Nothing deleted" in reply.text
    reply = await fake.slash(fake.owner, fake.general, "ttr-settings forget", confirm="DELETE")
    await reply.wait_resolved()
    assert "deleted" in reply.message.text
    assert await bot.service.table_in_channel(fake.general.id) is None
