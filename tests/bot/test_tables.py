"""Tables the bot makes itself (bot/tables.py): a thread with the players greeted, the game started
in it and rated in its season, with the caller's own rows in the same transaction — or nothing at
all when the season cannot rate the game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.tables import TableSpec, open_table
from storage import leagues as stored
from storage.errors import NotEligibleError
from storage.models import LeagueAudit, utcnow
from tests.bot.driver import Driver


async def season(bot, *, maps: tuple[str, ...] = ("usa",)) -> int:
    async with bot.storage.sessions() as session:
        league = await stored.create_league(
            session=session, guild_id=bot.settings.dev_guild_id, name="Club", created_by=1
        )
        made = await stored.create_season(
            session=session,
            league_id=league.id,
            name="Cup",
            starts_at=utcnow(),
            ends_at=utcnow() + timedelta(days=30),
            created_by=1,
            maps=maps,
        )
    return made.id


async def test_a_made_table_opens_a_thread_greets_its_players_and_is_rated(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    season_id = await season(bot)
    linked: list[int] = []

    async def link(session, game_id: int) -> None:  # the caller's rows join the game's transaction
        linked.append(game_id)
        session.add(
            LeagueAudit(
                league_id=1,
                season_id=season_id,
                user_id=None,
                action="test_link",
                details={"game": game_id},
                created_at=utcnow(),
            )
        )

    outcome = await open_table(
        bot,
        TableSpec(
            guild_id=fake.guild.id,
            channel_id=fake.general.id,
            name="Cup · round 1 · table 1",
            user_ids=(fake.alice.id, fake.bob.id),
            map_id="usa",
            host_id=fake.owner.id,
            season_id=season_id,
        ),
        link=link,
    )
    [thread] = fake.threads(fake.general)
    assert thread.name == "Cup · round 1 · table 1" and outcome.table.record.channel_id == thread.id
    greeting = fake.channel_messages(thread)[0]
    assert f"<@{fake.alice.id}>" in greeting.text and f"<@{fake.bob.id}>" in greeting.text
    assert "USA" in greeting.text
    assert [s.user_id for s in outcome.table.seats] == [fake.alice.id, fake.bob.id]
    assert outcome.table.record.host_id == fake.owner.id
    async with bot.storage.sessions() as session:
        assert await stored.season_of_game(session=session, game_id=outcome.table.id) == season_id
        actions = (await session.execute(select(LeagueAudit.action))).scalars().all()
    assert linked == [outcome.table.id] and {"add_game", "test_link"} <= set(actions)

    driver = Driver(fake, bot, thread, [fake.alice, fake.bob])
    driver.game_id = outcome.table.id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    await driver.run(fake.bob, "ttr resign")
    rated = await fake.wait_for_message(thread, lambda m: "rated:" in m.text)
    assert f"game #{outcome.table.id} rated" in rated.text


async def test_a_table_its_season_cannot_rate_stores_nothing(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    season_id = await season(bot, maps=("europe",))
    with pytest.raises(NotEligibleError):
        await open_table(
            bot,
            TableSpec(
                guild_id=fake.guild.id,
                channel_id=fake.general.id,
                name="Table",
                user_ids=(fake.alice.id, fake.bob.id),
                map_id="usa",
                host_id=fake.owner.id,
                season_id=season_id,
            ),
        )
    [thread] = fake.threads(fake.general)
    assert await bot.service.table_in_channel(thread.id) is None
    # A retry in the same thread (the caller fixed the map) makes no second thread
    outcome = await open_table(
        bot,
        TableSpec(
            guild_id=fake.guild.id,
            channel_id=fake.general.id,
            name="Table",
            user_ids=(fake.alice.id, fake.bob.id),
            map_id="europe",
            host_id=fake.owner.id,
            season_id=season_id,
            thread_id=thread.id,
        ),
    )
    assert fake.threads(fake.general) == [thread] and outcome.table.record.channel_id == thread.id
