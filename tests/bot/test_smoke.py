"""A first look: a lobby, a start, one turn, through the real client and the fake Discord."""


async def run(fake, user, channel, command, **options):
    reply = await fake.slash(user, channel, command, **options)
    if reply.kind == "deferred":
        await reply.wait_resolved()
    return reply


async def test_new_join_start_and_first_messages(fake_discord, make_bot):
    fake = fake_discord
    await make_bot()
    await run(fake, fake.alice, fake.general, "ttr new", map="usa", players=3)
    await run(fake, fake.bob, fake.general, "ttr join")
    started = await run(fake, fake.alice, fake.general, "ttr start")
    print("START:", started.kind, started.content)
    msgs = fake.channel_messages(fake.general)
    for m in msgs:
        print("CHANNEL:", m.content[:300], [a.filename for a in m.attachments], m.custom_ids)
    for m in fake.dms(fake.alice):
        print("DM alice:", m.content[:600], m.custom_ids)
    board = fake.channel_messages(fake.general)[-1].attachments[0]
    open("/tmp/bot_board.png", "wb").write(board.data)
