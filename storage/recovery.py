"""Recovery on start: active games are checked against this engine, and verified by replaying
their logs from their seeds.

A game that does not replay (a corrupted row, a log that diverges) or that was stored by another
rules version or other map data is reported and marked read-only: it takes no more actions
(`GameReadOnlyError`) instead of silently diverging. An admin can then abandon it.

The bot checks only its own shards' games, without replaying them (`replay=False`: rules version
and map data, one query): a replay costs about 5 ms a game, and 10,000 games kept a shard offline
for most of a minute. Each game replays when it is first needed (`bot/service.py`), and one that
does not is made read-only then. `python -m storage verify` replays them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import load_only

from storage.database import make_engine, session_factory
from storage.errors import ReplayMismatchError
from storage.games import compatibility_problem, load_game, mark_read_only
from storage.models import ACTIVE, GameRecord, on_shard

#: What `compatibility_problem` reads of a game (no state, no log).
_COMPATIBILITY = (
    GameRecord.id,
    GameRecord.guild_id,
    GameRecord.channel_id,
    GameRecord.read_only_reason,
    GameRecord.rules_version,
    GameRecord.map_id,
    GameRecord.map_sha256,
)


@dataclass(frozen=True)
class RecoveryProblem:
    game_id: int
    guild_id: int
    channel_id: int
    reason: str
    earlier: bool = False  # already read-only before this start


@dataclass
class RecoveryReport:
    verified: list[int] = field(default_factory=list)  # ids of the active games that replay (or fit, unreplayed)
    problems: list[RecoveryProblem] = field(default_factory=list)

    @property
    def checked(self) -> int:
        return len(self.verified) + len(self.problems)

    def summary(self) -> str:
        lines = [f"{self.checked} active games checked: {len(self.verified)} replay, {len(self.problems)} read-only"]
        for p in self.problems:
            since = " (read-only since an earlier start)" if p.earlier else ""
            lines.append(f"  game {p.game_id} (guild {p.guild_id}, channel {p.channel_id}){since}: {p.reason}")
        return "\n".join(lines)


async def recover(
    sessions: async_sessionmaker[AsyncSession],
    *,
    mark: bool = True,
    shards: Sequence[tuple[int, int] | None] = (None,),
    replay: bool = True,
) -> RecoveryReport:
    """Check every active game of `shards`' guilds ((shard id, shard count); None: every guild)
    against this engine's rules and maps, and with `replay` replay it; with `mark`, make the ones
    that fail read-only."""
    report = RecoveryReport()
    async with sessions() as session:
        query = select(GameRecord).where(GameRecord.status == ACTIVE).order_by(GameRecord.id)
        if None not in shards:
            query = query.where(or_(*(on_shard(GameRecord.guild_id, shard) for shard in shards if shard is not None)))
        # Without a replay only the columns that say which rules and map a game needs are read.
        if not replay:
            query = query.options(load_only(*_COMPATIBILITY, raiseload=True))
        records = (await session.execute(query)).scalars().all()
    for record in records:
        assert record.id is not None
        game_id, guild_id, channel_id = record.id, record.guild_id, record.channel_id
        if record.read_only_reason is not None:
            report.problems.append(
                RecoveryProblem(game_id, guild_id, channel_id, record.read_only_reason, earlier=True)
            )
            continue
        reason = compatibility_problem(record)
        if reason is None and replay:
            async with sessions() as session:
                try:
                    await load_game(session=session, game_id=game_id)
                except ReplayMismatchError as exc:
                    reason = exc.reason
        if reason is None:
            report.verified.append(game_id)
            continue
        report.problems.append(RecoveryProblem(game_id, guild_id, channel_id, reason))
        if mark:
            async with sessions() as session:
                await mark_read_only(session=session, game_id=game_id, reason=reason)
    return report


async def verify_database(url: str | None = None, *, mark: bool = False) -> RecoveryReport:
    """`recover` on a database by URL, without keeping the games (`python -m storage verify`)."""
    engine = make_engine(url)
    try:
        return await recover(session_factory(engine), mark=mark)
    finally:
        await engine.dispose()
