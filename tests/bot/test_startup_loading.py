"""Start-up loads no game (issue 33): a shard process checks its own guilds' games without
replaying them, and each game, its own or another shard's, replays the first time it is needed; one
that does not replay is made read-only then, with a refusal instead of an apology."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from bot.errors import GameReadOnly
from storage import games as stored_games
from storage.models import GameRecord
from tests.bot.test_play import two_player_game
from tests.storage.helpers import new_game

SHARDS = 2


async def store_game(bot, guild_id: int, channel_id: int) -> int:  # type: ignore[no-untyped-def]
    """An active game of 6 plies stored straight into the bot's database."""
    game = new_game(map_id="usa", seats=2, seed=guild_id % 1000)
    async with bot.storage.sessions() as session:
        record = await stored_games.create_game(
            session=session, guild_id=guild_id, channel_id=channel_id, game=game, players=[7, 8]
        )
        assert record.id is not None
        for version in range(6):
            seat = game.to_move()[0]
            game.apply(seat, game.default_action(seat))
            await stored_games.save_action(session=session, game_id=record.id, expected_version=version, game=game)
    return record.id


async def test_a_shard_replays_no_game_at_start_and_each_one_when_it_is_needed(
    fake_discord, make_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    mine = driver.game_id
    shard = (fake.guild.id >> 22) % SHARDS
    elsewhere = fake.guild.id + (1 << 22)  # the next shard's guild
    theirs = await store_game(bot, elsewhere, channel_id=1)
    broken = await store_game(bot, fake.guild.id, channel_id=2)
    async with bot.storage.sessions() as session:
        await session.execute(update(GameRecord).where(GameRecord.id == broken).values(state={"phase": "over"}))
        await session.commit()

    replayed: list[int] = []
    replay = stored_games.replay

    def counted(record, log):  # type: ignore[no-untyped-def]
        replayed.append(record.id)
        return replay(record, log)

    monkeypatch.setattr(stored_games, "replay", counted)
    bot = await make_bot(shard_count=SHARDS, shard_ids=[shard])  # a restart as one shard's process
    assert bot.resumed_games == 2 and replayed == []  # its own two games, checked, none replayed

    table = driver._newest_with(fake.channel_messages(fake.general), r"ttr:\d+:\d+:draw:deck")
    await driver.tap(fake.alice, table, next(c for c in table.custom_ids if c.endswith(":draw:deck")))
    assert replayed == [mine]  # the game is needed: replayed once
    assert (await bot.service.table(mine)).game.stage == "second_card"
    await bot.service.table(theirs)  # another shard's game (a DM reaches shard 0), when asked for
    assert replayed == [mine, theirs]
    with pytest.raises(GameReadOnly):
        await bot.service.table(broken)
    async with bot.storage.sessions() as session:
        record = await stored_games.get_game(session=session, game_id=broken)
    assert "stored state" in (record.read_only_reason or "")
