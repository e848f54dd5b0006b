"""The table and the private panel as Discord Components V2 cards (bot/layouts.py): one container
tinted with the player's color, its text, its pictures full width, its buttons; the live table's
controls only on the newest, the older ones keeping their text and board."""

from __future__ import annotations

import io

from PIL import Image

from bot.table_message import board_due, map_state
from engine import Claim, DrawDeck, Game, Undo
from tests.bot.test_play import two_player_game
from tests.fakediscord.layout import CONTAINER, MEDIA_GALLERY, TEXT_DISPLAY, walk
from tests.fakediscord.limits import FLAG_IS_COMPONENTS_V2


def container(message) -> dict:
    """The message's one top-level component: its card."""
    assert message.flags & FLAG_IS_COMPONENTS_V2 and message.content == "" and not message.embeds
    (only,) = message.components
    assert only["type"] == CONTAINER
    return only


def kinds(message) -> list[int]:
    return [c["type"] for c in container(message)["components"]]


def gallery_files(message) -> list[str]:
    """The attachments a card shows, by the URLs of its media galleries."""
    urls = [item["media"]["url"] for c in walk(message.components) if c["type"] == MEDIA_GALLERY for item in c["items"]]
    by_url = {a.url: a.filename for a in message.attachments}
    return [by_url[url] for url in urls]


async def test_the_table_is_one_card_in_the_players_color_with_board_turn_and_buttons(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    for seat in (0, 0, 1, 1):  # a round of drawing: the start's board is a round old
        await driver.act(seat, DrawDeck())
    claim = next(a for a in driver.game.legal_actions(0, collapse_payments=True) if isinstance(a, Claim))
    await driver.act(0, claim)  # alice claims: the map changed in a new round, so bob's table brings the board
    table = fake.channel_messages(fake.general)[-1]
    card = container(table)
    colors = [s.color for s in bot.messenger.styles(await bot.service.table(driver.game_id))]
    red, green, blue = colors[1][:3]
    assert card["accent_color"] == red << 16 | green << 8 | blue  # bob's color: his turn
    # what happened, the board, the scores, whose turn
    assert kinds(table)[:4] == [TEXT_DISPLAY, MEDIA_GALLERY, TEXT_DISPLAY, TEXT_DISPLAY]
    recap, standings, turn = table.text_displays
    assert "alice" in recap and "claimed" in recap
    seen = driver.game.view(None)
    for line, p in zip(standings.splitlines(), seen["players"]):  # one line a seat, then the decks
        name = "alice" if p["seat"] == 0 else "bob"
        assert line == f"**{name}** · {p['score']} points · {p['trains']} trains · {p['hand_size']} cards · " + (
            f"{p['tickets']} tickets"
        )
    assert standings.splitlines()[-1] == f"-# deck {seen['deck_size']} · tickets {seen['ticket_deck_size']}"
    assert turn.startswith("➡️") and fake.bob.mention in turn and table.pings.users == [fake.bob.id]
    assert gallery_files(table) == ["board.webp"]
    with Image.open(io.BytesIO(table.files["board.webp"])) as board:
        assert board.width >= 900  # the whole map, not a thumbnail
    assert any(c.endswith(":draw:deck") for c in table.custom_ids)  # the controls are in the card
    # alice's table before it lost its controls, and kept its text and board, its picture still its own
    before = [m for m in fake.channel_messages(fake.general) if m is not table and m.flags & FLAG_IS_COMPONENTS_V2]
    assert before and all(not m.custom_ids for m in before)
    assert all(m.text_displays for m in before)
    for old in before:
        assert gallery_files(old) == [a.filename for a in old.attachments]  # each still shows its board


async def test_a_turn_that_only_drew_cards_brings_no_picture(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    await driver.act(0, driver.game.default_action(0))  # two cards drawn (the default): the map is the same
    while driver.game.current == 0:
        await driver.act(0, driver.game.default_action(0))
    table = fake.channel_messages(fake.general)[-1]
    assert MEDIA_GALLERY not in kinds(table) and not table.attachments
    assert len(table.text_displays) == 2


async def test_my_hand_is_a_private_card_with_the_hand_and_board_pictures(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    table = fake.channel_messages(fake.general)[-1]
    reply = await fake.click(fake.alice, table, f"ttr:{driver.game_id}:hand")
    await reply.wait_resolved()
    panel = reply.message
    assert panel.ephemeral and container(panel)
    assert gallery_files(panel) == ["hand.webp", "my-board.webp"]
    assert "Your turn" in panel.text
    assert any(c.endswith(":draw:deck") for c in panel.custom_ids)
    colors = [s.color for s in bot.messenger.styles(await bot.service.table(driver.game_id))]
    red, green, blue = colors[0][:3]
    assert container(panel)["accent_color"] == red << 16 | green << 8 | blue


async def test_a_move_tapped_on_the_panel_rewrites_the_same_card(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    panel = (await driver.run(fake.alice, "ttr hand")).message
    deck = next(c for c in panel.custom_ids if c.endswith(":draw:deck"))
    reply = await fake.click(fake.alice, panel, deck)
    await fake.wait_until(lambda: panel.text_displays[0].startswith("✅"), what="what the tap did, on top")
    assert reply.message is panel and container(panel)  # still a card: the flag is never taken off
    assert driver.game.stage == "second_card"


async def test_the_panel_tells_what_happened_since_your_last_turn_and_your_place(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    claim = next(a for a in driver.game.legal_actions(0, collapse_payments=True) if isinstance(a, Claim))
    await driver.act(0, claim)
    points = driver.game.score[0]
    panel = (await driver.run(fake.bob, "ttr hand")).message
    news = panel.text_displays[0]
    lines = news.splitlines()
    assert lines[0] == "**Since your last turn:**"
    assert lines[1].startswith("• **alice**: claimed ") and f"(+{points})" in lines[1]
    assert "🏆 You have 0 points: place 2 of 2." in lines
    assert "**bob**" not in news  # his own moves are not news to him
    mine = (await driver.run(fake.alice, "ttr hand")).message.text_displays[0]
    assert mine.startswith(f"🏆 You have {points} point{'' if points == 1 else 's'}: place 1 of 2.")
    assert "Since your last turn" not in mine  # nobody has moved since


async def test_the_others_turns_read_without_a_verb_that_needs_their_person_in_russian(fake_discord, make_bot):
    """Issue 34: the recap's Russian is phrases without a verb ('**alice**: маршрут …'), so it reads
    right whoever it is about, the reader ('Вы') included."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    claim = next(a for a in driver.game.legal_actions(0, collapse_payments=True) if isinstance(a, Claim))
    await driver.act(0, claim)
    await driver.run(fake.bob, "ttr-settings language", language="ru")
    news = (await driver.run(fake.bob, "ttr hand")).message.text_displays[0].splitlines()
    assert news[0] == "**С вашего прошлого хода:**"
    assert news[1].startswith("• **alice**: маршрут "), news[1]


def test_the_channel_gets_at_most_one_board_a_round_and_a_new_one_after_an_undo():
    """`board_due` on a real game: a board when the map changed in a later round than the last
    board; none for a change in the same round; at once when a claim on it was taken back."""
    game = Game.new("usa", seats=2, seed=5)
    for seat in range(2):
        game.apply(seat, game.default_action(seat))  # the starting tickets
    last = (map_state(game.view(None)), game.round)  # the start's board
    assert not board_due(game.view(None), last)
    while not any(isinstance(a, Claim) for a in game.legal_actions(game.current)):
        game.apply(game.current, DrawDeck())
    claim = next(a for a in game.legal_actions(game.current, collapse_payments=True) if isinstance(a, Claim))
    game.apply(game.current, claim)
    seen = game.view(None)
    assert board_due(seen, last) == (seen["round"] > last[1])  # a new round: a board; the same: words only
    last = (map_state(seen), seen["round"])
    assert not board_due(seen, last)
    mover = game.log[-1][0]
    game.apply(mover, Undo())  # the claim taken back: the board showing it is replaced at once
    assert board_due(game.view(None), last)
