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
