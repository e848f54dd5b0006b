"""A backup restored as docs/deployment.md says, through the real bot process and the fake Discord:
backup, more moves, stop, restore, start, and every turn played after the restore gets its table
message. (The restored database numbers its next outbox rows as rows that were posted after the
backup; Discord, which remembers nonces for a few minutes, would hand back those old messages if
the nonces were the row ids alone.)"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import select

from engine import Game, GameOptions, parse_action
from storage import Storage
from storage.backup import backup_sqlite, restore_sqlite
from storage.games import action_log, get_game
from storage.models import Announcement
from storage.settings import database_url
from tests.bot.bot_process import BotProcess
from tests.bot.remote import RemoteTable, posted_turns
from tests.storage.conftest import BACKENDS, PG_URL, wipe_postgres


def _libpq(url: str) -> str:
    """The URL pg_dump and pg_restore take (no SQLAlchemy driver name)."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def backup(url: str, file: Path) -> None:
    if url.startswith("sqlite"):
        backup_sqlite(url, file)  # `python -m storage backup FILE`
    else:
        subprocess.run(["pg_dump", "-Fc", "-f", str(file), _libpq(url)], check=True, timeout=60)


def restore(url: str, file: Path) -> None:
    if url.startswith("sqlite"):
        restore_sqlite(url, file)  # `python -m storage restore FILE`
    else:
        subprocess.run(["pg_restore", "--clean", "--if-exists", "-d", _libpq(url), str(file)], check=True, timeout=60)


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'ttr.sqlite3'}"
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("PostgreSQL's client tools (pg_dump, pg_restore) are not installed")
    url = database_url(PG_URL)
    await wipe_postgres(url)
    return url


async def play(table: RemoteTable, moves: int) -> None:
    """Make moves one at a time, each stored before the next (a panel's answer may come before
    the move is saved)."""
    for _ in range(moves):
        move = await table.move()
        await table.settle(move)
        await table.stored(move)


async def turn_tokens(storage: Storage, game_id: int, after: int) -> list[int]:
    """The turn tokens (what a turn's table buttons carry) of the turns begun after version `after`."""
    async with storage.sessions() as session:
        record = await get_game(session=session, game_id=game_id)
        log = await action_log(session=session, game_id=game_id)
    game = Game.new(record.map_id, record.seats, record.seed, GameOptions.from_json(record.options))
    tokens = []
    for version in range(len(log) + 1):
        if version:
            seat, text = log[version - 1]
            game.apply(seat, parse_action(game, seat, text))
        if (
            version > after
            and game.phase == "playing"
            and game.stage is None
            and game.decision_token(game.current) == version
        ):
            tokens.append(game.turn_token(game.current))
    return tokens


def tables_posted(fake, channel, game_id: int, since: int) -> set[int]:  # type: ignore[no-untyped-def]
    """The turn tokens of the table messages posted in the channel after its first `since` messages."""
    return set(posted_turns(fake, channel, game_id, since))


@pytest.mark.slow
async def test_every_turn_after_a_restore_gets_its_table_message(fake_discord, tmp_path: Path, database: str) -> None:
    fake = fake_discord
    bot = BotProcess(fake, tmp_path, DATABASE_URL=database)
    storage = Storage(database)
    await bot.start()
    try:
        table = RemoteTable(fake, storage, fake.general, [fake.alice, fake.bob, fake.dirk], seed=33)
        await table.start_game("usa")
        await play(table, 8)  # the starting tickets and a few turns
        restored_version = (await table.load()).game.version
        backup(database, tmp_path / "backup")
        await play(table, 12)  # posted, then lost by the restore
        assert await bot.stop() == 0
        await storage.close()
        restore(database, tmp_path / "backup")
        table.storage = storage = Storage(database)  # (PostgreSQL: the restore made new tables)
        assert (await table.load()).game.version == restored_version
        since = len(fake.channel_messages(fake.general))
        await bot.start()
        await play(table, 12)
        await asyncio.sleep(0.5)  # the last turn's table, if it were still coming
        turns = await turn_tokens(storage, table.game_id, after=restored_version)  # type: ignore[arg-type]
        posted = tables_posted(fake, fake.general, table.game_id, since)  # type: ignore[arg-type]
        lost = [token for token in turns if token not in posted]
        print(f"\nrestore ({database.split(':', 1)[0]}): {len(turns)} turns after the restore, {len(lost)} lost")
        assert len(turns) >= 5
        assert lost == []
        assert not bot.errors(), bot.error_report()
        async with storage.sessions() as session:  # no process died since: every new row was claimed once
            query = select(Announcement.attempts).where(Announcement.version > restored_version)
            attempts = (await session.execute(query)).scalars().all()
        print(f"outbox rows claimed more than once: {sum(a > 1 for a in attempts)} of {len(attempts)}")
        assert set(attempts) == {1}
    finally:
        await bot.stop()
        await storage.close()
