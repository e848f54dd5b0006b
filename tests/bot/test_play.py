"""Issue 7 through the fake Discord: wrong actions, restarts, double clicks, permissions, rematch."""

import asyncio
import json
import re

from engine import DrawDeck
from tests.bot.driver import Driver


async def two_player_game(fake, make_bot, map_id="usa"):
    """alice and bob, tickets chosen (their defaults), alice to play first."""
    bot = await make_bot()
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    host, other = driver.users
    await driver.run(host, "ttr-host new", map=map_id, players=2)
    await driver.run(other, "ttr join")
    reply = await fake.slash(host, fake.general, "ttr-host start", first=host)
    await reply.wait_resolved()
    table = await bot.service.table_in_channel(fake.general.id)
    driver.game_id = table.id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    assert driver.game.phase == "playing" and driver.game.current == 0
    return bot, driver


def state_of(driver) -> str:
    return json.dumps(driver.game.to_json(), sort_keys=True)


async def private_reply(fake, reply):
    """The private answer: the deferred one resolved, or a tap's private follow-up (a tap on the
    table is a deferred update: its answer may edit the table, and the private one follows)."""
    if reply.kind == "deferred_update":
        await fake.wait_until(lambda: any(m.ephemeral for m in reply.followups), what="the private answer")
        return next(m for m in reversed(reply.followups) if m.ephemeral).text
    if reply.kind == "deferred":
        await reply.wait_resolved()
    return reply.message.text if reply.message else reply.text


async def test_bad_inputs_get_a_private_specific_reply_and_change_nothing(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    before = state_of(driver)
    cases = [
        (fake.alice, "ttr claim", {"route": "Denver-Atlantis"}, "no city 'Atlantis' on the USA map"),
        (fake.alice, "ttr claim", {"route": "Atlanta-Miami", "color": "red"}, "is blue: it cannot be paid with red"),
        (fake.bob, "ttr claim", {"route": "Atlanta-Miami"}, "It is **alice**'s turn, not yours"),
        (fake.dirk, "ttr tickets", {}, "You are not playing in this game"),
    ]
    for user, command, options, expected in cases:
        reply = await fake.slash(user, fake.general, command, **options)
        text = await private_reply(fake, reply)
        assert reply.ephemeral and expected.lower() in text.lower(), text
    reply = await fake.slash(fake.alice, fake.games, "ttr claim", route="Atlanta-Miami")
    assert reply.ephemeral and "no game running in this channel" in reply.text
    assert state_of(driver) == before


def deck_of(message) -> str:
    return next(c for c in message.custom_ids if c.endswith(":draw:deck"))


async def test_mis_taps_get_the_real_reason_and_the_table_serves_the_second_card(fake_discord, make_bot):
    """Issue 16's commonest mis-taps: someone else's Deck, a spectator's, the player's own second
    card from the table message, and a button from a turn that is over."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    table = driver._newest_with(fake.channel_messages(fake.general), r"ttr:\d+:\d+:draw:deck")
    reply = await fake.click(fake.dirk, table, deck_of(table))
    assert "not playing in this game" in await private_reply(fake, reply)
    before = state_of(driver)
    reply = await fake.click(fake.bob, table, deck_of(table))  # not bob's turn
    assert "It is **alice**'s turn, not yours" in await private_reply(fake, reply)
    assert state_of(driver) == before
    old_panel = (await driver.run(fake.alice, "ttr draw")).message  # a panel alice will leave behind
    first = await driver.tap(fake.alice, table, deck_of(table))
    assert first.kind == "deferred_update" and first.message is table  # its answer may edit the table
    panel = driver._answer(first)  # the private answer: a new panel
    assert panel.ephemeral and re.search(r"You drew an? \S+( card)? from the deck", panel.text)
    assert driver.game.stage == "second_card"
    assert fake.channel_messages(fake.general)[-1] is table  # the same message, its buttons refreshed
    assert len(table.history) == 1  # edited once, through the tap
    private = len(fake.ephemeral(fake.alice))
    second = await driver.tap(fake.alice, table, deck_of(table))  # the second card, from the table again
    assert second.kind == "deferred_update" and len(fake.ephemeral(fake.alice)) == private  # no new message:
    assert "It's bob's turn." in panel.text  # the panel was updated
    assert driver.game.current == 1 and len(driver.game.log) == 4
    assert not table.custom_ids  # bob's turn has its own table message now: the old one has no controls
    newest = fake.channel_messages(fake.general)[-1]
    assert newest in second.followups and not newest.ephemeral  # posted as the tap's public follow-up
    before = state_of(driver)  # the panel left behind still shows draw buttons... which now say why not
    reply = await fake.click(fake.alice, old_panel, deck_of(old_panel))
    await fake.wait_until(lambda: reply.followups, what="the refusal")
    assert "It is **bob**'s turn, not yours" in reply.followups[-1].text
    assert state_of(driver) == before


async def test_your_own_claim_is_told_to_you_in_the_second_person(fake_discord, make_bot):
    """Issue 34: the actor's private answer says "You claimed …", never their own name in the third person."""
    from tests.engine.helpers import arrange

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    arrange(driver.game, hands={0: "blue blue blue blue loco"})
    text = await private_reply(fake, await fake.slash(fake.alice, fake.general, "ttr claim", route="Atlanta-Miami"))
    assert text.startswith("✅ You claimed Atlanta – Miami with 4 blue + 1 loco · +10\n"), text
    assert "**alice**" not in text


async def test_two_players_tapping_at_once_one_applies_the_other_is_told_why(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    table = driver._newest_with(fake.channel_messages(fake.general), r"ttr:\d+:\d+:draw:deck")
    plies = len(driver.game.log)
    first, second = await asyncio.gather(
        fake.click(fake.alice, table, deck_of(table)), fake.click(fake.bob, table, deck_of(table))
    )
    texts = [await private_reply(fake, r) for r in (first, second)]
    assert len(driver.game.log) == plies + 1 and driver.game.log[-1][0] == 0
    assert "You drew a" in texts[0] and "It is **alice**'s turn, not yours" in texts[1]


async def test_a_face_up_card_that_changed_is_not_drawn_blind(fake_discord, make_bot):
    """A double tap on a face-up card: the second tap names the card the first one took; if
    the refill is another color it is refused, not drawn in its place."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    for _ in range(10):
        game, seat = driver.game, driver.game.current
        user = driver.user_of(seat)
        table = fake.channel_messages(fake.general)[-1]
        slot = next(i for i, c in enumerate(game.market) if c != 8)  # not a locomotive
        tap = next(c for c in table.custom_ids if f":draw:{slot}:" in c)
        plies = len(game.log)
        first, second = await asyncio.gather(fake.click(user, table, tap), fake.click(user, table, tap))
        texts = [await private_reply(fake, r) for r in (first, second)]
        if any("the market changed" in text for text in texts):
            assert len(driver.game.log) == plies + 1 and driver.game.stage == "second_card"
            return
        await driver.act(driver.game.current, DrawDeck()) if driver.game.stage else None
    raise AssertionError("the refill was the same color ten times running")


async def test_restart_mid_game_keeps_everything_and_old_buttons_work(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())
    state = state_of(driver)
    turn = fake.channel_messages(fake.general)[-1]  # bob's turn message, made before the restart
    bob_deck = next(c for c in turn.custom_ids if c.endswith(":draw:deck"))
    bot = await make_bot()  # a new process on the same database
    driver.bot = bot
    table = await bot.service.table_in_channel(fake.general.id)
    assert json.dumps(table.game.to_json(), sort_keys=True) == state
    reply = await fake.click(fake.bob, turn, bob_deck)
    text = await private_reply(fake, reply)
    assert "Draw your second card" in text
    assert table.version == json.loads(state)["plies"] + 1  # bob's first card, applied by the new process
    await driver.tap(fake.bob, turn, bob_deck)  # the second card, from the same table
    newest = fake.channel_messages(fake.general)[-1]
    assert newest is not turn and deck_of(newest)
    assert not turn.custom_ids  # the new process found the old table in the history and cleared it


async def test_closed_dms_player_is_told_and_uses_my_hand(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.carol])
    await driver.run(fake.alice, "ttr-host new", map="europe", players=2)
    join = await driver.run(fake.carol, "ttr join")
    notice = await join.wait_followup(1)
    assert notice.ephemeral and "can't send you direct messages" in notice.text
    await driver.run(fake.alice, "ttr-host start")
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    turn = driver._newest_with(fake.channel_messages(fake.general), rf"ttr:{driver.game_id}:hand")
    reply = await fake.click(fake.carol, turn, f"ttr:{driver.game_id}:hand")
    await reply.wait_resolved()
    offer = fake.ephemeral(fake.carol)[-1]
    assert "Choose your tickets" in offer.text and offer.attachments and offer.attachments[0].is_image
    seat = (await bot.service.table(driver.game_id)).seat_of(fake.carol.id)
    await driver.act(seat, driver.game.default_action(seat))
    assert driver.game.tickets[seat]


async def test_missing_permissions_are_named(fake_discord, make_bot):
    fake = fake_discord
    no_files = fake.add_channel(fake.guild, "no-files", bot_can_attach=False)
    await make_bot()
    reply = await fake.slash(fake.alice, no_files, "ttr-host new", map="usa")
    assert reply.ephemeral and "**Attach Files** permission" in reply.text


async def test_game_over_shows_scores_and_rematch_starts_same_seats(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    old_id = driver.game_id
    await driver.run(fake.bob, "ttr resign")
    final = fake.channel_messages(fake.general)[-1]
    assert "Game over" in final.text_displays[0]
    assert final.attachments[0].filename == "final.webp"
    reply = await fake.click(fake.bob, final, f"ttr:{old_id}:rematch")
    await reply.wait_resolved()
    table = await bot.service.table_in_channel(fake.general.id)
    assert table.id != old_id and sorted(s.user_id for s in table.seats) == sorted([fake.alice.id, fake.bob.id])
    assert "game started" in fake.channel_messages(fake.general)[-1].text


async def test_claim_autocomplete_lists_what_the_player_can_claim_now(fake_discord, make_bot):
    from engine import Claim
    from engine.notation import route_label

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    game = driver.game
    claimable = {
        route_label(game.map, game.map.track_by_id[a.track])
        for a in game.legal_actions(0, collapse_payments=True)
        if isinstance(a, Claim)
    }
    reply = await fake.autocomplete(fake.alice, fake.general, "ttr claim", "route", "")
    assert set(reply.choice_values) <= claimable and len(reply.choice_values) == min(25, len(claimable))
    assert all(" · " in name for name in reply.choice_names)  # "Dieppe – Paris · 1 · pink"
    reply = await fake.autocomplete(fake.bob, fake.general, "ttr claim", "route", "")
    assert reply.choices == []  # not bob's turn: nothing to offer


async def test_several_payments_fit_so_buttons_ask_which(fake_discord, make_bot):
    from engine import Claim

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    for _ in range(12):
        game = driver.game
        by_track = {}
        for a in game.legal_actions(0, collapse_payments=True):
            if isinstance(a, Claim) and game.map.track_by_id[a.track].color is None and a.color is not None:
                by_track.setdefault(a.track, []).append(a)
        choice = next((t for t, options in by_track.items() if len(options) >= 2), None)
        if choice:
            break
        for seat in (0, 1):
            await driver.act(seat, DrawDeck())
            await driver.act(seat, DrawDeck())
    assert choice, "no gray route with two ways to pay came up"
    from engine.notation import route_label

    track = game.map.track_by_id[choice]
    reply = await fake.slash(fake.alice, fake.general, "ttr claim", route=route_label(game.map, track))
    asked = reply.message
    assert asked.ephemeral and "How do you pay for" in asked.text and len(asked.buttons) >= 2
    assert all(b["label"][0].isdigit() for b in asked.buttons)  # "2 red", "1 blue + 1 loco"
    plies = len(driver.game.log)
    await driver.tap(fake.alice, asked, asked.custom_ids[0])
    assert len(driver.game.log) == plies + 1 and driver.game.owner[track.index] == 0


async def test_log_during_and_after_the_game_export_and_replay(fake_discord, make_bot):
    from storage.export import replay_export

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    reply = await fake.slash(fake.dirk, fake.general, "ttr log")  # spectators may read it
    assert "alice: tickets keep (2)" in reply.text and "#" not in reply.text.split("```")[1]
    await driver.act(0, DrawDeck())
    await driver.act(0, DrawDeck())
    await driver.run(fake.bob, "ttr resign")
    reply = await fake.slash(fake.dirk, fake.general, "ttr log")
    log_text = reply.message.attachments[0].data.decode()
    assert "alice: tickets keep " in log_text and "bob: resign" in log_text  # ids revealed after the end
    reply = await fake.slash(fake.dirk, fake.general, "ttr log", export=True)
    data = json.loads(reply.message.attachments[0].data)
    assert replay_export(data).to_json()["plies"] == len(driver.game.log)
    reply = await fake.slash(fake.dirk, fake.general, "ttr board", move=2)
    image = await reply.wait_resolved()
    assert "after move 2 of 5" in image.text and image.attachments[0].is_image


async def _claim_something(driver):
    from engine import Claim

    for _ in range(12):
        claims = [a for a in driver.game.legal_actions(0, collapse_payments=True) if isinstance(a, Claim)]
        if claims:
            await driver.act(0, claims[0])
            return claims[0]
        for seat in (0, 1):
            await driver.act(seat, DrawDeck())
            await driver.act(seat, DrawDeck())
    raise AssertionError("alice never could claim")


async def test_undo_needs_the_others_consent_and_only_before_they_act(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    claim = await _claim_something(driver)
    track = driver.game.map.track_by_id[claim.track]
    turn = fake.channel_messages(fake.general)[-1]
    undo_id = next(c for c in turn.custom_ids if c.endswith(":undo"))
    reply = await fake.click(fake.bob, turn, undo_id)
    assert "Only the player who just moved" in reply.text
    reply = await fake.click(fake.alice, turn, undo_id)
    request = reply.message
    assert "asks to take back" in request.text and f"<@{fake.bob.id}>" in request.text
    refuse = await fake.click(fake.alice, request, next(c for c in request.custom_ids if c.endswith(":no")))
    assert "Only the other players decide" in refuse.text
    agree = await fake.click(fake.bob, request, next(c for c in request.custom_ids if c.endswith(":yes")))
    await fake.wait_until(lambda: type(driver.game.log[-1][1]).__name__ == "Undo", what="the undo")
    assert driver.game.owner[track.index] == -1 and driver.game.current == 0
    assert "Everyone agreed" in agree.message.text
    posted = await fake.wait_for_message(fake.general, lambda m: "last move was taken back" in m.text)
    # the channel's last board (the start's, this round) never showed the claim: no new one
    assert not posted.attachments and f"<@{fake.alice.id}>, your turn" in posted.text
    # Claim again; bob draws: now it is too late, and the table's Undo is gone.
    await driver.act(0, claim)
    turn = fake.channel_messages(fake.general)[-1]
    undo_id = next(c for c in turn.custom_ids if c.endswith(":undo"))
    await driver.act(1, DrawDeck())
    assert undo_id not in turn.custom_ids


async def test_a_game_in_a_new_thread_and_the_thread_permission_named(fake_discord, make_bot):
    fake = fake_discord
    closed = fake.add_channel(fake.guild, "no-threads", bot_can_create_threads=False)
    bot = await make_bot()
    reply = await fake.slash(fake.alice, closed, "ttr-host new", map="usa", thread=True)
    assert reply.ephemeral and "**Create Public Threads** permission" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa", thread=True)
    await reply.wait_resolved()
    (thread,) = fake.threads(fake.general)
    assert f"Lobby opened in <#{thread.id}>" in reply.message.text
    assert "New USA game" in fake.channel_messages(thread)[0].text
    await fake.slash(fake.bob, thread, "ttr join")
    started = await fake.slash(fake.alice, thread, "ttr-host start")
    await started.wait_resolved()
    assert (await bot.service.table_in_channel(thread.id)) is not None
    assert fake.channel_messages(thread)[-1].attachments  # the board is posted in the thread


async def test_an_unexpected_error_in_a_button_is_an_apology_with_an_error_id(fake_discord, make_bot):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)

    async def broken(interaction, game_id):
        raise RuntimeError("boom")

    bot.get_cog("Play").show_hand = broken
    turn = driver._newest_with(fake.channel_messages(fake.general), rf"ttr:{driver.game_id}:hand")
    reply = await fake.click(fake.alice, turn, f"ttr:{driver.game_id}:hand")
    assert reply.ephemeral and "Sorry, something went wrong on my side (error id `" in reply.text


async def test_a_russian_server_reads_turns_and_undo_requests_in_russian(fake_discord, make_bot):
    """Channel posts follow the server's language; the undo request keeps its state in any language."""
    from bot.language import Choice

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    await bot.languages.set_guild(fake.guild.id, Choice("ru"))
    claim = await _claim_something(driver)
    turn = fake.channel_messages(fake.general)[-1]
    assert "прокладывает маршрут" in turn.text and f"<@{fake.bob.id}>, ваш ход" in turn.text
    assert "Мои карты" in [b["label"] for b in turn.buttons]
    request = (await fake.click(fake.alice, turn, next(c for c in turn.custom_ids if c.endswith(":undo")))).message
    assert "просит отменить прокладку маршрута" in request.text
    assert {b["label"] for b in request.buttons} == {"Согласиться", "Отказать"}
    agree = await fake.click(fake.bob, request, next(c for c in request.custom_ids if c.endswith(":yes")))
    await fake.wait_until(lambda: type(driver.game.log[-1][1]).__name__ == "Undo", what="the undo")
    assert "Все согласны." in agree.message.text and f"<@{fake.bob.id}>" in agree.message.text.splitlines()[-2]
    posted = await fake.wait_for_message(fake.general, lambda m: "последний ход отменён" in m.text)
    assert f"<@{fake.alice.id}>, ваш ход" in posted.text
    assert driver.game.owner[driver.game.map.track_by_id[claim.track].index] == -1


async def test_the_bot_keeps_no_view_for_the_messages_it_sent(fake_discord, make_bot):
    """Buttons are layouts: a click reaches the registered DynamicItems, so discord.py must not
    keep a view (with its buttons) for every message sent, which it would for good (issue 23)."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    for _ in range(4):
        await driver.act(driver.game.current, DrawDeck())
    await driver.run(fake.alice, "ttr hand")
    store = bot._connection._view_store
    assert not store._synced_message_views and not any(store._views.values())
    assert store._dynamic_items  # what the clicks reach


def table_ids(table_message) -> list[str]:
    return [c for c in table_message.custom_ids if c.split(":")[3:4] == ["draw"]]


async def test_after_a_restart_inside_a_turn_the_table_follows_the_market(fake_discord, make_bot):
    """Issue 38: the restarted process does not hold the table message. A face-up card taken from
    the table updates that table through the tap; one taken from a panel finds the table in the
    channel; either way the second card is taken from the table's new buttons."""
    from bot import components
    from engine.cards import LOCO
    from i18n import translator

    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    for path in ("table", "panel"):
        bot = driver.bot = await make_bot()  # a restart: nothing of the table in memory
        table = fake.channel_messages(fake.general)[-1]
        game = (await bot.service.table(driver.game_id)).game  # (for the test's eyes)
        seat = game.current
        user = driver.user_of(seat)
        slot = next(i for i, card in enumerate(game.market) if card != LOCO)
        if path == "table":
            source = table
        else:  # the panel /ttr draw shows, which has the same draws
            source = (await driver.run(user, "ttr draw")).message
        tapped = next(c for c in source.custom_ids if c.startswith(f"ttr:{driver.game_id}:") and f":draw:{slot}:" in c)
        answer = driver._answer(await driver.tap(user, source, tapped))
        assert "from the face-up cards" in answer.text
        game = driver.game
        assert game.stage == "second_card"
        expected = components.table_view(driver.game_id, game, t=translator())
        assert fake.channel_messages(fake.general)[-1] is table  # no new table mid-turn
        assert table_ids(table) == [
            item.custom_id for item in expected.children if ":draw:" in getattr(item, "custom_id", "")
        ]
        second = next(c for c in table.custom_ids if c.endswith(":draw:deck"))
        answer = driver._answer(await driver.tap(user, table, second))  # the second card, from the new buttons
        assert "market changed" not in answer.text and driver.game.current != seat


async def test_help_names_the_buttons_the_table_has(fake_discord, make_bot):
    """Issue 34: /ttr help's turn line names the turn message's own buttons (Claim, Tickets, …)."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot, map_id="europe")
    table = driver._newest_with(fake.channel_messages(fake.general), r"ttr:\d+:\d+:draw:deck")
    labels = {b.get("label") for b in table.buttons}
    text = await private_reply(fake, await fake.slash(fake.alice, fake.general, "ttr help"))
    turn_line = next(line for line in text.splitlines() if line.startswith("**Your turn**"))
    named = re.findall(r"\*\*([^*]+)\*\*", turn_line)[1:]
    assert named == ["Claim", "Tickets", "Station"] and set(named) <= labels, (named, labels)
