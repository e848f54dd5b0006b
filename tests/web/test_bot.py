"""The web table in the running bot (the fake Discord): the panel's **Open the map** link opens the
seat's table, a move made there is announced in the channel as a button's is, and a move made with
the Discord buttons reaches the web page's stream."""

from __future__ import annotations

import aiohttp

from engine import DrawDeck, KeepTickets
from tests.bot.conftest import make_bot  # noqa: F401 (the fixture)
from tests.bot.driver import Driver
from tests.web.conftest import SECRET, Frames

PUBLIC = "https://ttr.example/"


async def test_a_panel_link_plays_through_the_bot_with_discord_players(fake_discord, make_bot) -> None:  # noqa: F811
    fake = fake_discord
    bot = await make_bot(health_port=0, web_secret=SECRET, web_public_url=PUBLIC)
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.start_game("europe")
    game_id = driver.game_id
    table = fake.channel_messages(fake.general)[-1]
    reply = await fake.click(fake.alice, table, f"ttr:{game_id}:hand")
    panel = await reply.wait_resolved()
    link = next(b for b in panel.buttons if b.get("style") == 5)
    assert link["label"] == "Open the map" and "custom_id" not in link
    url = link["url"].replace(PUBLIC.rstrip("/"), f"http://127.0.0.1:{bot.health.port}")
    token = url.rsplit("/", 1)[1]
    alice = driver.bot.service._tables[game_id].seat_of(fake.alice.id)
    bob = 1 - alice

    async with aiohttp.ClientSession() as http:
        async with http.get(url) as page:
            assert page.status == 200
        async with http.get(f"http://127.0.0.1:{bot.health.port}/web/api/{token}/events") as events:
            frames = Frames(events)
            first = await frames.next()
            keep = next(m for m in first["moves"] if m["kind"] == "KeepTickets")
            async with http.post(
                f"http://127.0.0.1:{bot.health.port}/web/api/{token}/act",
                json={"move": keep["text"], "decision": first["view"]["you"]["decision"]},
            ) as answer:
                assert answer.status == 200
            assert (await frames.next())["version"] == first["version"] + 1
            # Bob keeps his tickets with the Discord select: Alice's page hears of it.
            await driver.act(bob, next(a for a in driver.game.legal_actions(bob) if isinstance(a, KeepTickets)))
            seen = await frames.next()
            while seen["view"]["phase"] != "playing":
                seen = await frames.next()
            if driver.game.current == bob:  # Bob's turn first: two cards from the deck, by buttons
                for _ in range(2):
                    await driver.act(bob, DrawDeck())
            posted = len(fake.channel_messages(fake.general))
            for _ in range(2):  # Alice's turn from the web page: the channel's table follows
                decision = driver.game.decision_token(alice)
                async with http.post(
                    f"http://127.0.0.1:{bot.health.port}/web/api/{token}/act",
                    json={"move": "draw deck", "decision": decision},
                ) as answer:
                    assert answer.status == 200, await answer.text()
            await fake.wait_until(
                lambda: len(fake.channel_messages(fake.general)) > posted, what="the next turn's table in the channel"
            )
            assert driver.game.current == bob and driver.game.log[-2:] == [(alice, DrawDeck()), (alice, DrawDeck())]
    # Off turn, the panel has nothing to tap but the map's link.
    table = fake.channel_messages(fake.general)[-1]
    panel = await (await fake.click(fake.alice, table, f"ttr:{game_id}:hand")).wait_resolved()
    assert [b.get("style") for b in panel.buttons] == [5]


async def test_the_final_results_and_the_history_offer_the_games_replay(fake_discord, make_bot) -> None:  # noqa: F811
    fake = fake_discord
    bot = await make_bot(health_port=0, web_secret=SECRET, web_public_url=PUBLIC)
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.start_game("europe")
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    kick = await fake.slash(fake.alice, fake.general, "ttr-host kick", player=fake.bob)
    await (await fake.click(fake.alice, kick.message, label="Remove")).wait_edit(2)
    final = fake.channel_messages(fake.general)[-1]
    assert "Game over" in final.text_displays[0] and final.button("Rematch") is not None
    link = final.button("Replay on the map")
    assert link["style"] == 5 and "custom_id" not in link and link["url"].startswith(PUBLIC + "web/replay/")
    url = link["url"].replace(PUBLIC.rstrip("/"), f"http://127.0.0.1:{bot.health.port}")
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as page:
            assert page.status == 200 and "replay.js" in await page.text()
        async with http.get(url + "/steps.json") as answer:
            replay = await answer.json()
    assert len(replay["steps"]) == len(driver.game.log) + 1
    assert {s["name"] for s in replay["seats"]} == {"alice", "bob"}
    assert any("removed" in line for line in replay["steps"][-1]["lines"])
    # The game's history answers offer the same replay.
    log = await fake.slash(fake.dirk, fake.general, "ttr log")
    assert log.message.attachments and log.message.button("Replay on the map")["url"].startswith(PUBLIC)
    board = await (await fake.slash(fake.dirk, fake.general, "ttr board", move=2)).wait_resolved()
    assert "after move 2" in board.text and board.button("Replay on the map")["style"] == 5


async def test_the_league_and_tournament_answers_link_their_pages(fake_discord, make_bot) -> None:  # noqa: F811
    fake = fake_discord
    bot = await make_bot(health_port=0, web_secret=SECRET, web_public_url=PUBLIC)
    here = f"http://127.0.0.1:{bot.health.port}"
    await fake.slash(fake.owner, fake.general, "ttr-league create", name="Club")
    await (await fake.slash(fake.owner, fake.general, "ttr-league season", name="Autumn")).wait_resolved()
    await fake.slash(fake.owner, fake.general, "ttr-tournament create", name="Cup", format="swiss", map="usa")
    pages = []
    for command, label in (
        ("ttr-league leaderboard", "Standings on the web"),
        ("ttr-tournament standings", "Tables on the web"),
    ):
        answer = await (await fake.slash(fake.alice, fake.general, command)).wait_resolved()
        link = answer.button(label)
        assert link["style"] == 5 and answer.attachments
        async with aiohttp.ClientSession() as http, http.get(link["url"].replace(PUBLIC.rstrip("/"), here)) as page:
            assert page.status == 200
            pages.append(await page.text())
    assert "Club · Standings" in pages[0] and "Autumn · all maps" in pages[0]
    assert "Cup · Standings" in pages[1] and "Cup · Tables" in pages[1]
