"""A Swiss tournament through the fake Discord (issue 22): 12 players sign up (the post's button, and
the command), 3 rounds of tables of 4 open as threads with their games started, games end by
resignations through `/ttr resign` (one table also loses a no-show the organizer kicks), a player
drops, the bot restarts in the middle of round 2 and goes on, the organizer forces round 3 with
`next`, and the results are posted with the standings and bracket images. And a single elimination
of 6 on a chosen ticket deck, with a game ended by `/ttr-host end`, up to its champion.

The fake guild has four members; eight more are added with `fake.add_user` before the bot starts
(GUILD_CREATE carries the members)."""

from __future__ import annotations

import asyncio
import csv
import io

from storage import tournaments as stored
from tests.bot.driver import Driver


async def _tables(bot, round_: int):
    """The started tournament's tables of a round."""
    async with bot.storage.sessions() as session:
        found = await stored.guild_tournaments(session=session, guild_id=bot.settings.dev_guild_id)
        t = next(x for x in found if x.status != "signup")
        return t, await stored.tables(session=session, tournament_id=t.id, round=round_)


async def _wait_tables(fake, bot, round_: int, count: int):
    async def opened() -> bool:
        _, rows = await _tables(bot, round_)
        return len(rows) == count and all(r.game_id for r in rows)

    for _ in range(200):
        if await opened():
            return (await _tables(bot, round_))[1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"round {round_} did not open {count} tables")


def _thread(fake, game_id: int, bot):
    table = bot.service._tables.get(game_id)
    channel_id = table.record.channel_id
    return next(c for c in fake.threads(fake.general) if c.id == channel_id)


async def _resign_all_but_first(fake, bot, row, users, *, kick: int | None = None) -> None:
    """The table's game ends: everyone but its first seat resigns (or is kicked, as a no-show)."""
    await bot.service.table(row.game_id)
    thread = _thread(fake, row.game_id, bot)
    driver = Driver(fake, bot, thread, [users[u] for u in row.players])
    driver.game_id = row.game_id
    for user_id in row.players[1:]:
        if user_id == kick:
            reply = await fake.slash(fake.owner, thread, "ttr-host kick", player=users[user_id])
            seat = bot.service._tables[row.game_id].seat_of(user_id)
            await fake.click(fake.owner, reply.message, f"ttr:{row.game_id}:kick:{seat}:{user_id}:yes")
        else:
            await driver.run(users[user_id], "ttr resign")
    await fake.wait_until(
        lambda: (
            bot.service._tables.get(row.game_id) is None or bot.service._tables[row.game_id].record.status != "active"
        ),
        what="the game's end",
    )


async def test_a_swiss_tournament_of_twelve_with_a_drop_a_no_show_and_a_restart(fake_discord, make_bot):
    fake = fake_discord
    extra = [fake.add_user(f"player{i}") for i in range(8)]
    players = [fake.alice, fake.bob, fake.carol, fake.dirk, *extra]
    users = {u.id: u for u in players}
    bot = await make_bot()
    await fake.slash(
        fake.owner, fake.general, "ttr-tournament create", name="Spring cup", format="swiss", map="usa", rounds=3
    )
    post = next(m for m in fake.channel_messages(fake.general) if "Spring cup" in m.text)
    [join, _leave] = post.custom_ids
    for user in players[:11]:
        reply = await fake.click(user, post, join)
        await reply.wait_resolved() if reply.kind == "deferred" else None
    await fake.slash(players[11], fake.general, "ttr-tournament signup")
    refused = await fake.slash(fake.alice, fake.general, "ttr-tournament start")
    assert "Manage Server" in refused.text  # only the organizer starts it
    assert "Signed up: 12" in fake.channel_messages(fake.general)[0].text

    reply = await fake.slash(fake.owner, fake.general, "ttr-tournament start")
    await reply.wait_resolved()
    first = await _wait_tables(fake, bot, 1, 3)
    assert sorted(u for r in first for u in r.players) == sorted(users) and len(fake.threads(fake.general)) == 3
    no_show = first[1].players[2]
    for i, row in enumerate(first):
        await _resign_all_but_first(fake, bot, row, users, kick=no_show if i == 1 else None)
    second = await _wait_tables(fake, bot, 2, 3)
    _, done = await _tables(bot, 1)
    assert all(r.status == "done" for r in done)
    kicked_table = done[1]
    # the no-show kicked and the two who resigned share the last place behind the one who stayed
    assert kicked_table.ranks[kicked_table.players.index(no_show)] == 2 and sorted(kicked_table.ranks) == [1, 2, 2, 2]

    # a drop in round 2: the player's seat leaves the game; they are not seated in round 3
    dropped = second[0].players[0]
    reply = await fake.slash(fake.owner, fake.general, "ttr-tournament drop", player=users[dropped])
    await reply.wait_resolved()
    await _resign_all_but_first(fake, bot, second[1], users)

    # restart in the middle of round 2: the new process records and opens what is left
    bot = await make_bot()
    for row in second[0:1] + second[2:]:
        await _resign_all_but_first(fake, bot, row, users)
    third = await _wait_tables(fake, bot, 2 + 1, 3)
    seated = [u for r in third for u in r.players]
    assert dropped not in seated and len(seated) == 11 and sorted(len(r.players) for r in third) == [3, 4, 4]

    # the organizer forces round 3: unfinished tables are decided by their current score
    reply = await fake.slash(fake.owner, fake.general, "ttr-tournament next")
    await reply.wait_resolved()
    assert "3 unfinished tables" in reply.followups[-1].text
    results = await fake.wait_for_message(fake.general, lambda m: "is over" in m.text)
    assert {a.filename for a in results.attachments} == {"standings.webp", "bracket.webp"}
    async with bot.storage.sessions() as session:
        t = (await stored.guild_tournaments(session=session, guild_id=bot.settings.dev_guild_id))[0]
        table = await stored.standings(session=session, tournament_id=t.id)
    assert t.status == "finished" and f"<@{table[0].user_id}>" in results.text
    assert [s.user_id for s in table if s.dropped] == [dropped] and sum(s.tables for s in table) == 12 + 12 + 11

    reply = await fake.slash(fake.owner, fake.general, "ttr-tournament export")
    files = {a.filename: a for a in reply.message.attachments}
    standing = list(csv.DictReader(io.StringIO(files["spring-cup-standings.csv"].data.decode())))
    assert [int(r["user_id"]) for r in standing] == [s.user_id for s in table]


async def test_a_single_elimination_on_a_chosen_deck_with_an_abandoned_table_reaches_a_champion(fake_discord, make_bot):
    """Six players, tables of 3, the winner of each goes on to a final of 2, on the USA map's 1910
    tickets. One first-round game is ended with `/ttr-host end`: the organizer is told in the
    channel and `next` decides that table by the score it had. The `tournament` and `game`
    options autocomplete."""
    fake = fake_discord
    players = [fake.alice, fake.bob, fake.carol, fake.dirk, fake.add_user("erin"), fake.add_user("fay")]
    users = {u.id: u for u in players}
    bot = await make_bot()
    for name in ("Old cup", "Knockout"):
        await fake.slash(
            fake.owner,
            fake.general,
            "ttr-tournament create",
            name=name,
            format="elimination",
            map="usa",
            tickets="usa:1910",
            smallest=3,
            largest=3,
        )
    refused = await fake.slash(
        fake.owner,
        fake.general,
        "ttr-tournament create",
        name="Wrong deck",
        format="swiss",
        map="usa",
        tickets="europe:base",
    )
    assert "belongs to the Europe map" in refused.text
    refused = await fake.slash(
        fake.owner, fake.general, "ttr-tournament create", name="Too big", format="swiss", map="nordic", largest=4
    )  # a 3-player map
    assert "don't go together" in refused.text
    offered = await fake.autocomplete(fake.owner, fake.general, "ttr-tournament signup", "tournament", "")
    assert [c["value"] for c in offered.choices] == ["Knockout", "Old cup"]  # newest first
    for user in players:
        await fake.slash(user, fake.general, "ttr-tournament signup", tournament="knockout")
    post = next(m for m in fake.channel_messages(fake.general) if "Knockout" in m.text)
    await fake.wait_until(lambda: "Signed up: 6" in post.text, what="the sign-up post's count")
    assert "tables of 3." in post.text and "Tickets: USA 1910 (35 new tickets)." in post.text
    reply = await fake.slash(fake.owner, fake.general, "ttr-tournament start", tournament="Knockout")
    await reply.wait_resolved()

    first = await _wait_tables(fake, bot, 1, 2)
    assert sorted(u for r in first for u in r.players) == sorted(users)
    for row in first:
        assert (await bot.service.table(row.game_id)).game.options.deck == "1910"
    await _resign_all_but_first(fake, bot, first[0], users)
    ended = first[1]
    await fake.slash(fake.owner, _thread(fake, ended.game_id, bot), "ttr-host end")
    notice = await fake.wait_for_message(fake.general, lambda m: "without a result" in m.text)
    assert f"#{ended.game_id}" in notice.text and f"<@{fake.owner.id}>" in notice.text
    offered = await fake.autocomplete(fake.owner, fake.general, "ttr-tournament adjudicate", "game", "")
    assert [c["value"] for c in offered.choices] == [ended.game_id]
    reply = await fake.slash(fake.owner, fake.general, "ttr-tournament next", tournament="Knockout")
    await reply.wait_resolved()

    final = await _wait_tables(fake, bot, 2, 1)
    await _resign_all_but_first(fake, bot, final[0], users)
    results = await fake.wait_for_message(fake.general, lambda m: "Knockout** is over" in m.text)
    assert f"Champion: <@{final[0].players[0]}>" in results.text
    assert {a.filename for a in results.attachments} == {"standings.webp", "bracket.webp"}
    offered = await fake.autocomplete(fake.owner, fake.general, "ttr-tournament standings", "tournament", "c")
    assert [c["value"] for c in offered.choices] == ["Old cup", "Knockout"]  # unfinished first; "c" in both
