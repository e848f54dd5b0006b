"""What a hostile or careless user can type or click changes nothing and gets a clear, short,
private answer; a name is never markup (issue 18)."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot import components
from bot.errors import ButtonNotValid
from engine import Claim, NeutralClaim
from tests.bot.test_play import private_reply, state_of, two_player_game


def test_a_choice_button_carries_only_what_choices_are_offered_for():
    claim = Claim("Atlanta-Miami", 3, 1, ())
    assert components.decode_choice(components.encode_choice(claim)) == claim
    assert components.decode_choice("N|Amsterdam-Utrecht") == NeutralClaim("Amsterdam-Utrecht")
    assert components.decode_choice("station Paris red") == "station Paris red"
    for forged in ("resign", "pass", "tickets draw", "C|x|y|z|w", "C|Atlanta-Miami|3|one|"):
        with pytest.raises(ButtonNotValid):
            components.decode_choice(forged)


def test_every_custom_id_the_bot_can_send_is_known_and_anything_else_is_refused():
    unknown = re.compile(components.UNKNOWN)
    sent = [
        "ttr:12:3:draw:4",
        "ttr:12:3:draw:deck",
        "ttr:12:3:tickets",
        "ttr:12:3:keep",
        "ttr:12:3:tunnel:2",
        "ttr:12:3:tunnel:decline",
        "ttr:12:3:do:C|a|1|0|",
        "ttr:12:40:undo",
        "ttr:12:40:undo:yes",
        "ttr:12:hand",
        "ttr:12:rematch",
        "ttr:lobby:7:join",
        "ttr:12:3:draw:4:7",
        "ttr:12:3:routes:2",
        "ttr:12:3:route",
        "ttr:12:3:cities:0",
        "ttr:12:3:city",
        "ttr:12:kick:0:7:yes",
    ]
    assert not [cid for cid in sent if unknown.fullmatch(cid)]
    assert all(unknown.fullmatch(cid) for cid in ("ttr:12:3:draw:9", "ttr:12:hand:x", "ttr:", "garbage", ""))


async def test_a_thread_inside_a_thread_is_refused_clearly(fake_discord, make_bot):
    fake = fake_discord
    await make_bot()
    reply = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa", thread=True)
    await reply.wait_resolved()
    [thread] = fake.threads(fake.general)
    reply = await fake.slash(fake.alice, thread, "ttr-host new", map="usa", thread=True)
    text = await private_reply(fake, reply)
    assert reply.ephemeral and "This is a thread already" in text and "Sorry" not in text
    assert len(fake.threads(fake.general)) == 1


async def test_a_huge_typed_route_gets_a_short_refusal_that_quotes_a_little_of_it(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    before = state_of(driver)
    reply = await fake.slash(fake.alice, fake.general, "ttr claim", route="Denver-" + "X" * 5000)
    text = await private_reply(fake, reply)
    assert reply.ephemeral and "too long" in text and len(text) < 300 and "Sorry" not in text
    reply = await fake.slash(fake.alice, fake.general, "ttr claim", route="Denver-" + "X" * 150)
    text = await private_reply(fake, reply)  # short enough to read: the unknown city is quoted, cut
    assert reply.ephemeral and "XXXX…" in text and "X" * 100 not in text and len(text) < 300
    assert state_of(driver) == before


async def test_names_in_messages_are_text_not_markup(fake_discord, make_bot):
    fake = fake_discord
    fake.alice.global_name = "**bold** `tick` @everyone <@&123456789012345678>"
    bot, driver = await two_player_game(fake, make_bot)
    await driver.act(0, driver.game.default_action(0))  # alice's turn ends: the channel reads her name
    posted = [m.text for m in fake.channel_messages(fake.general)]
    named = [c for c in posted if "bold" in c]
    assert named, posted[-3:]
    for content in named:
        assert "**bold**" not in content and "\\*\\*bold\\*\\*" in content
        assert "@everyone" not in content.replace("@\u200beveryone", "") and "<@&123456789012345678>" not in content
    # Whatever a message says, it pings only whom it means: the next player on a turn message, nobody else.
    assert fake.pings, "the fake records who each message notified"
    for message, pinged in fake.pings:
        assert not (pinged.everyone or pinged.here or pinged.roles), (message.text, pinged)
        assert set(pinged.users) <= {fake.alice.id, fake.bob.id}, (message.text, pinged)
    turn = [(m, p) for m, p in fake.pings if "your turn" in m.text]
    assert turn and all(p.users == [driver.user_of(driver.game.current).id] or len(p.users) == 1 for _, p in turn)


async def test_two_players_approving_an_undo_at_the_same_moment_are_both_counted(fake_discord, make_bot):
    from tests.bot.test_play import _claim_something

    fake = fake_discord
    bot = await make_bot()
    from tests.bot.driver import Driver

    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob, fake.dirk])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=3)
    await driver.run(fake.bob, "ttr join")
    await driver.run(fake.dirk, "ttr join")
    reply = await fake.slash(fake.alice, fake.general, "ttr-host start", first=fake.alice)
    await reply.wait_resolved()
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    for seat in (0, 1, 2):
        await driver.act(seat, driver.game.default_action(seat))
    claim = await _claim_something(driver)
    turn = fake.channel_messages(fake.general)[-1]
    request = (await fake.click(fake.alice, turn, next(c for c in turn.custom_ids if c.endswith(":undo")))).message
    yes = next(c for c in request.custom_ids if c.endswith(":yes"))
    await asyncio.gather(fake.click(fake.bob, request, yes), fake.click(fake.dirk, request, yes))
    await fake.wait_until(lambda: type(driver.game.log[-1][1]).__name__ == "Undo", what="the undo")
    assert driver.game.owner[driver.game.map.track_by_id[claim.track].index] == -1
