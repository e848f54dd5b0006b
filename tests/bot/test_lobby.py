"""Lobby refusals are private: only the person who asked reads why nothing happened."""


async def test_a_second_lobby_in_a_channel_is_refused_privately(fake_discord, make_bot):
    fake = fake_discord
    await make_bot()
    opened = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa")
    await opened.wait_resolved()
    posted = len(fake.channel_messages(fake.general))
    reply = await fake.slash(fake.bob, fake.general, "ttr-host new", map="europe")
    assert reply.kind == "message" and reply.ephemeral
    assert reply.text == "A lobby is already open in this channel: join it with `/ttr join`."
    assert len(fake.channel_messages(fake.general)) == posted


async def test_the_host_is_told_their_color_like_everyone_who_joins(fake_discord, make_bot):
    """Issue 34: the lobby lists the host with their color from the start, joiners take the next
    free one and are told it, and the game keeps them."""
    fake = fake_discord
    bot = await make_bot()
    opened = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa", players=2)
    await opened.wait_resolved()
    lobby = fake.channel_messages(fake.general)[-1]
    assert f"1. <@{fake.alice.id}> (violet)" in lobby.content
    joined = await fake.slash(fake.bob, fake.general, "ttr join")
    await joined.wait_resolved()
    assert f"<@{fake.bob.id}> joined as **teal**." in fake.channel_messages(fake.general)[-1].content
    started = await fake.slash(fake.alice, fake.general, "ttr-host start")
    await started.wait_resolved()
    table = await bot.service.table_in_channel(fake.general.id)
    assert [table.color_of(table.seat_of(u.id)) for u in (fake.alice, fake.bob)] == ["violet", "teal"]
