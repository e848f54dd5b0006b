"""League seasons with a minimum of turns: what counting each seat's turns costs.

    python benchmarks/league_close_bench.py [games]

A season with `min_turns` replays each finished game's log once to count its seats' turns
(`storage.leagues.turns_taken`), when the game is first settled; the count is kept
(`league_games.turns`), so later rebuilds do not replay. Prints the process CPU time of one
replay (a finished 4-player USA game), of the first rebuild of a season of `games` such games
(SQLite file, every game replayed) and of a second rebuild (counts kept), and of closing it.
Figures go in docs/leagues.md.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Storage, leagues  # noqa: E402
from storage.games import action_log, create_game  # noqa: E402
from storage.models import LeagueGame  # noqa: E402
from tests.storage.helpers import finished_game  # noqa: E402


def cpu(started: float) -> str:
    return f"{(time.process_time() - started) * 1000:.1f} ms"


async def main(n: int) -> None:
    game = finished_game("usa", 4, 1)
    with tempfile.TemporaryDirectory() as folder:
        storage = Storage(f"sqlite+aiosqlite:///{folder}/bench.sqlite3")
        await storage.start()
        async with storage, storage.sessions() as s:
            now = datetime.now(UTC)
            league = await leagues.create_league(session=s, guild_id=1, name="Bench", created_by=1)
            season = await leagues.create_season(
                session=s,
                league_id=league.id,
                name="S",
                starts_at=now,
                ends_at=now + timedelta(days=1),
                created_by=1,
                min_turns=5,
            )
            for i in range(n):
                record = await create_game(
                    session=s, guild_id=1, channel_id=100 + i, game=game, players=[10 + (i + k) % 12 for k in range(4)]
                )
                s.add(LeagueGame(game_id=record.id, season_id=season.id, added_by=1))
            await s.commit()
            log = await action_log(session=s, game_id=record.id)
            started = time.process_time()
            for _ in range(20):
                leagues.turns_taken(record, log)
            print(
                f"turns_taken, one {len(log)}-action 4-player USA game: "
                f"{(time.process_time() - started) * 1000 / 20:.1f} ms"
            )
            started = time.process_time()
            await leagues.recompute_season(session=s, season_id=season.id)
            print(f"first rebuild of {n} games (each replayed once): {cpu(started)}")
            started = time.process_time()
            await leagues.recompute_season(session=s, season_id=season.id)
            print(f"second rebuild (turns kept): {cpu(started)}")
            started = time.process_time()
            await leagues.close_season(session=s, season_id=season.id)
            print(f"close (standings, results, tasks): {cpu(started)}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
