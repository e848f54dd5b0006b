"""The matchmaking queue through the fake Discord (issue 22): `/ttr-league queue rules`, `join`,
`status`, `leave`; the matcher forming 3 rated tables from 11 players by rating; a player in two
queues seated once; a restart between reserving a table and starting its game (the players waiting
survive, the table opens once, in the thread made before).

The matcher's loop is slowed to an hour here and each test runs its rounds itself
(`cog.tick()`), so who is matched with whom does not depend on timing. The fake guild's four users
are joined by seven more made with `fake.add_user` (docs/fakediscord.md)."""

from __future__ import annotations

import sys
from datetime import timedelta

from sqlalchemy import func, select

from storage import leagues as stored_leagues
from storage import queue as stored
from storage.models import GameRecord, LeagueRating, utcnow


def matcher(bot):
    """The bot's queue cog, its loop slowed to an hour: the test runs the rounds (`tick`)."""
    cog = bot.get_cog("Queue")
    cog.loop.change_interval(seconds=3600)
    return cog


async def open_season(bot) -> stored_leagues.Season:
    async with bot.storage.sessions() as session:
        league = await stored_leagues.create_league(
            session=session, guild_id=bot.settings.dev_guild_id, name="Club", created_by=1
        )
        return await stored_leagues.create_season(
            session=session,
            league_id=league.id,
            name="Cup",
            starts_at=utcnow() - timedelta(days=1),
            ends_at=utcnow() + timedelta(days=30),
            created_by=1,
        )


async def games(bot) -> int:
    async with bot.storage.sessions() as session:
        return (await session.execute(select(func.count()).select_from(GameRecord))).scalar_one()


def seated(fake, thread) -> set[int]:
    """Who the table's greeting mentions."""
    greeting = fake.channel_messages(thread)[0]
    assert "Your table is ready" in greeting.text
    return set(greeting.pings.users)


async def test_eleven_players_make_three_tables_by_rating(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    cog = matcher(bot)
    season = await open_season(bot)
    refused = await fake.slash(fake.alice, fake.general, "ttr-league queue rules", min_players=3)
    assert refused.ephemeral and "Only league admins of **Club**" in refused.text
    reply = await fake.slash(
        fake.owner,
        fake.general,
        "ttr-league queue rules",
        min_players=3,
        max_players=4,
        spread=5.0,
        widen=0.0,
        options={"channel": fake.games},
    )
    assert "queue rules set: 3 and 4 players" in reply.text and f"<#{fake.games.id}>" in reply.text

    players = [fake.alice, fake.bob, fake.carol, fake.dirk] + [fake.add_user(f"player{i}") for i in range(7)]
    # Three levels of play: 4 strong, 4 middling, 3 new (rating 0, the default)
    async with bot.storage.sessions() as session:
        for i, user in enumerate(players[:8]):
            mu = 40.0 if i % 2 else 25.0  # ordinals 34 and 19 (mu − 3·2)
            session.add(LeagueRating(season_id=season.id, scope="all", user_id=user.id, mu=mu, sigma=2.0))
        await session.commit()
    for user in players:
        reply = await fake.slash(user, fake.general, "ttr-league queue join")
        assert reply.ephemeral and "You are waiting for a **Club** table (any map · any table size)" in reply.text
    again = await fake.slash(fake.alice, fake.general, "ttr-league queue join")
    assert "already waiting" in again.text
    status = await fake.slash(fake.bob, fake.general, "ttr-league queue status")
    assert status.ephemeral and status.text.count("waiting since <t:") == 11

    assert await cog.tick() == 3
    threads = fake.threads(fake.games)
    tables = [seated(fake, thread) for thread in threads]
    assert sorted(len(t) for t in tables) == [3, 4, 4]
    strong = {u.id for u in players[1:8:2]}
    middling = {u.id for u in players[0:8:2]}
    new = {u.id for u in players[8:]}
    assert sorted(map(sorted, tables)) == sorted(map(sorted, [strong, middling, new]))
    async with bot.storage.sessions() as session:
        for thread in threads:
            table = await bot.service.table_in_channel(thread.id)
            assert table is not None and {s.user_id for s in table.seats} == seated(fake, thread)
            assert await stored_leagues.season_of_game(session=session, game_id=table.id) == season.id
    status = await fake.slash(fake.bob, fake.general, "ttr-league queue status")
    assert "nobody is waiting" in status.text
    assert await cog.tick() == 0 and await games(bot) == 3


async def test_a_player_in_two_queues_is_seated_once_and_a_restart_opens_a_table_once(
    fake_discord, make_bot, monkeypatch
):
    fake = fake_discord
    bot = await make_bot()
    cog = matcher(bot)
    await open_season(bot)
    await fake.slash(fake.owner, fake.general, "ttr-league queue rules", max_players=2)
    await fake.slash(fake.alice, fake.general, "ttr-league queue join", map="usa")
    await fake.slash(fake.alice, fake.general, "ttr-league queue join", map="europe")
    await fake.slash(fake.bob, fake.general, "ttr-league queue join", map="usa")
    await fake.slash(fake.carol, fake.general, "ttr-league queue join", map="europe")

    # The table is reserved and its thread made, then the game fails to start (as if the process died)
    async def crash(*args, **kwargs):
        raise RuntimeError("the process died here")

    with monkeypatch.context() as patch:  # the extension's own module (load_extension imports it afresh)
        patch.setattr(sys.modules[type(cog).__module__], "open_table", crash)
        assert await cog.tick() == 0
    [thread] = fake.threads(fake.general)
    left = await fake.slash(fake.alice, fake.general, "ttr-league queue leave")
    assert "being opened right now" in left.text  # her table is hers: leaving does not undo it

    bot = await make_bot()  # a restart: the reserved table and carol, still waiting, survive it
    await matcher(bot).tick()  # (or the round the loop runs at start-up: the same table either way)
    cog = matcher(bot)
    assert fake.threads(fake.general) == [thread]  # the same thread, no second one
    assert seated(fake, thread) == {fake.alice.id, fake.bob.id}  # alice's first queue (usa) took her
    table = await bot.service.table_in_channel(thread.id)
    assert table.game.map.id == "usa" and await games(bot) == 1
    async with bot.storage.sessions() as session:
        assert [(e.user_id, e.map_id) for e in await stored.entries(session=session)] == [(fake.carol.id, "europe")]

    await fake.slash(fake.dirk, fake.general, "ttr-league queue join", map="europe")
    assert await cog.tick() == 1 and await cog.tick() == 0  # carol and dirk; nothing made twice
    assert len(fake.threads(fake.general)) == 2 and await games(bot) == 2
    assert seated(fake, fake.threads(fake.general)[1]) == {fake.carol.id, fake.dirk.id}
