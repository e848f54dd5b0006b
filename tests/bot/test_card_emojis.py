"""Issue 34: the bot's own emojis for the train cards, through the fake Discord: made once at
start-up (a restart makes none), shown in the turn messages' text and on the market's buttons;
without them (Discord refusing), the Unicode squares."""

import re

from engine import DrawMarket
from engine.cards import ALL_CARD_NAMES, LOCO
from tests.bot.test_play import two_player_game
from texts.present import UNICODE_CARD_EMOJI

CREATE = "POST /applications/{application_id}/emojis"


async def test_the_cards_emojis_are_made_once_and_shown_in_turn_messages_and_buttons(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    made = {e["name"]: e["id"] for e in fake.application_emojis}
    assert set(made) == {f"ttr_{card}" for card in UNICODE_CARD_EMOJI} and fake.requests.count(CREATE) == len(made)
    bot = driver.bot = await make_bot()  # a restart: the emojis are there, none is made again
    assert fake.requests.count(CREATE) == len(made) and len(fake.application_emojis) == len(made)
    await bot.service.table(driver.game_id)  # (loaded for the test's eyes)
    for _ in range(2):  # alice takes two face-up cards (not a locomotive)
        game = driver.game
        slot = next(i for i, card in enumerate(game.market) if card != LOCO)
        taken = ALL_CARD_NAMES[game.market[slot]]
        await driver.act(0, DrawMarket(slot))
    mark = f"<:ttr_{taken}:{made[f'ttr_{taken}']}>"
    told = [m.text for m in fake.channel_messages(fake.general) if "drew a face-up" in m.text]
    assert told and mark in told[-1] and UNICODE_CARD_EMOJI[taken] not in told[-1], told[-1]
    table = fake.channel_messages(fake.general)[-1]
    market = [b for b in table.buttons if re.search(r":draw:\d+:", b.get("custom_id", ""))]
    assert market and all(str(b["emoji"]["id"]) in made.values() for b in market), market
    assert fake.unknown_routes == []


async def test_without_the_emojis_the_cards_keep_their_squares(fake_discord, make_bot):
    fake = fake_discord
    fake.fail("GET /applications/{application_id}/emojis", status=503)
    bot, driver = await two_player_game(fake, make_bot)
    assert fake.application_emojis == [] and CREATE not in fake.requests
    for _ in range(2):
        game = driver.game
        slot = next(i for i, card in enumerate(game.market) if card != LOCO)
        square = UNICODE_CARD_EMOJI[ALL_CARD_NAMES[game.market[slot]]]
        await driver.act(0, DrawMarket(slot))
    told = [m.text for m in fake.channel_messages(fake.general) if "drew a face-up" in m.text]
    assert told and square in told[-1] and "<:ttr_" not in told[-1], told[-1]
    table = fake.channel_messages(fake.general)[-1]
    market = [b for b in table.buttons if re.search(r":draw:\d+:", b.get("custom_id", ""))]
    assert market and all(b["emoji"]["name"] in UNICODE_CARD_EMOJI.values() for b in market), market
