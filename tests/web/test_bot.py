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


async def test_open_the_map_launches_the_activity_where_each_finds_their_own_seat(fake_discord, make_bot) -> None:  # noqa: F811
    """With DISCORD_CLIENT_SECRET, **Open the map** on the table and on a panel launches the Activity
    (LAUNCH_ACTIVITY through discord.py's `launch_activity`); the Activity's session then gives
    the clicker their seat in the channel's game, and a member without one a spectator's view."""
    fake = fake_discord
    bot = await make_bot(
        health_port=0, web_secret=SECRET, web_public_url=PUBLIC, discord_client_secret=fake.client_secret
    )
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.start_game("europe")
    game_id = driver.game_id
    table = fake.channel_messages(fake.general)[-1]
    assert table.button("Open the map")["custom_id"] == f"ttr:{game_id}:map"
    panel = await (await fake.click(fake.alice, table, f"ttr:{game_id}:hand")).wait_resolved()
    assert panel.button("Open the map")["custom_id"] == f"ttr:{game_id}:map"
    assert not [b for b in panel.buttons if b.get("style") == 5]  # no link: the Activity knows who you are
    launched = await fake.click(fake.alice, panel, f"ttr:{game_id}:map")
    watching = await fake.click(fake.dirk, table, f"ttr:{game_id}:map")
    assert launched.kind == watching.kind == "launch_activity" and launched.activity is watching.activity
    sessions = {}
    async with aiohttp.ClientSession() as http:
        for user in (fake.alice, fake.dirk):
            async with http.post(
                f"http://127.0.0.1:{bot.health.port}/web/activity/session",
                json={"code": fake.authorize(user), "instance": launched.activity.id},
            ) as answer:
                assert answer.status == 200, await answer.text()
                sessions[user.name] = (await answer.json())["boot"]
    assert sessions["alice"]["seat"] == bot.service._tables[game_id].seat_of(fake.alice.id)
    assert sessions["dirk"]["seat"] is None
    # Restarted without the Activity: the button of before is refused, the panel links again.
    bot = await make_bot(health_port=0, web_secret=SECRET, web_public_url=PUBLIC)
    refused = await fake.click(fake.alice, table, f"ttr:{game_id}:map")
    assert refused.kind == "message" and refused.ephemeral and "no longer valid" in refused.content
    panel = await (await fake.click(fake.alice, table, f"ttr:{game_id}:hand")).wait_resolved()
    assert panel.button("Open the map")["style"] == 5 and "custom_id" not in panel.button("Open the map")


async def test_a_global_sync_keeps_the_activitys_entry_point(fake_discord, make_bot) -> None:  # noqa: F811
    """Enabling Activities gives the application an Entry Point command that a bulk overwrite may
    not drop (Discord's 50240): the bot's global sync carries it through, as Discord made it."""
    fake = fake_discord
    entry = fake.enable_activities()
    bot = await make_bot(dev_guild_id=None)
    assert bot.commands_synced.startswith("synced globally")
    names = fake.command_names()
    assert "launch" in names and "ttr" in names
    assert next(c for c in fake.commands() if c["type"] == 4)["id"] == entry["id"]


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
