"""Recovery on start: every active game is loaded and verified by replaying its log from its seed.

A game that does not replay (a corrupted row, a log that diverges) or that was stored by another
rules version or other map data is reported and marked read-only: it takes no more actions
(`GameReadOnlyError`) instead of silently diverging. An admin can then abandon it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage.database import make_engine, session_factory
from storage.errors import ReplayMismatchError
from storage.games import LoadedGame, load_game, mark_read_only
from storage.models import ACTIVE, GameRecord


@dataclass(frozen=True)
class RecoveryProblem:
    game_id: int
    guild_id: int
    channel_id: int
    reason: str
    earlier: bool = False  # already read-only before this start


@dataclass
class RecoveryReport:
    verified: list[int] = field(default_factory=list)  # ids of the active games that replay
    games: dict[int, LoadedGame] = field(default_factory=dict)  # those games rebuilt (with keep_games)
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
    sessions: async_sessionmaker[AsyncSession], *, mark: bool = True, keep_games: bool = True
) -> RecoveryReport:
    """Verify every active game; with `mark`, make the ones that fail read-only.
    With `keep_games`, the report holds the rebuilt games (the bot's cache to start from)."""
    report = RecoveryReport()
    async with sessions() as session:
        rows = (
            await session.execute(
                select(GameRecord.id, GameRecord.guild_id, GameRecord.channel_id, GameRecord.read_only_reason)
                .where(GameRecord.status == ACTIVE)
                .order_by(GameRecord.id)
            )
        ).all()
    for game_id, guild_id, channel_id, reason in rows:
        if reason is not None:
            report.problems.append(RecoveryProblem(game_id, guild_id, channel_id, reason, earlier=True))
            continue
        async with sessions() as session:
            try:
                loaded = await load_game(session=session, game_id=game_id)
            except ReplayMismatchError as exc:
                report.problems.append(RecoveryProblem(game_id, guild_id, channel_id, exc.reason))
                if mark:
                    await mark_read_only(session=session, game_id=game_id, reason=exc.reason)
                continue
        report.verified.append(game_id)
        if keep_games:
            report.games[game_id] = loaded
    return report


async def verify_database(url: str | None = None, *, mark: bool = False) -> RecoveryReport:
    """`recover` on a database by URL, without keeping the games (`python -m storage verify`)."""
    engine = make_engine(url)
    try:
        return await recover(session_factory(engine), mark=mark, keep_games=False)
    finally:
        await engine.dispose()
