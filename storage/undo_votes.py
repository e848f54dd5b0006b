"""Undo votes: the other players' answers to "take back my move", one row per voter.

A request is a game's move `ply` (the game's version when the mover asked). Votes are rows, not
words in the request's message, so two players answering at the same moment are both counted:
each vote is an upsert on the voter's own primary key, taken under the game's row lock
(PostgreSQL; SQLite's one writer), and returns every vote as the write left them, so the later of
two simultaneous approvals sees both.
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import writing
from storage.errors import GameNotFoundError, StaleVersionError
from storage.models import GameRecord, UndoVote, utcnow


async def _votes(session: AsyncSession, game_id: int, ply: int) -> dict[int, bool]:
    rows = await session.execute(
        select(UndoVote.user_id, UndoVote.approve).where(UndoVote.game_id == game_id, UndoVote.ply == ply)
    )
    return {user: approve for user, approve in rows.all()}


async def record_vote(*, session: AsyncSession, game_id: int, ply: int, user_id: int, approve: bool) -> dict[int, bool]:
    """The voter's answer (a second answer replaces the first; the same one again changes
    nothing). Returns every vote of the request, {user id: approve}, including this one.

    Raises `StaleVersionError` when the game moved past `ply` (the request is over: nothing is
    written) and `GameNotFoundError` when there is no such game."""
    async with writing(session):
        version = (
            await session.execute(select(GameRecord.version).where(GameRecord.id == game_id).with_for_update())
        ).scalar_one_or_none()
        if version is None:
            raise GameNotFoundError(game_id)
        if version != ply:
            raise StaleVersionError(game_id, ply, version)
        insert = pg_insert if session.bind.dialect.name == "postgresql" else sqlite_insert  # type: ignore[union-attr]
        statement = insert(UndoVote).values(
            game_id=game_id, ply=ply, user_id=user_id, approve=approve, voted_at=utcnow()
        )
        await session.execute(
            statement.on_conflict_do_update(
                index_elements=[UndoVote.game_id, UndoVote.ply, UndoVote.user_id],
                set_={"approve": statement.excluded.approve, "voted_at": statement.excluded.voted_at},
            )
        )
        votes = await _votes(session, game_id, ply)
    return votes


async def votes_for(*, session: AsyncSession, game_id: int, ply: int) -> dict[int, bool]:
    """The votes on the undo request of move `ply`: {user id: approve}."""
    return await _votes(session, game_id, ply)


async def clear_votes(*, session: AsyncSession, game_id: int, ply: int) -> int:
    """Forget a request's votes (the mover asks again after a refusal). Returns how many went."""
    async with writing(session):
        result = await session.execute(
            delete(UndoVote)
            .where(UndoVote.game_id == game_id, UndoVote.ply == ply)
            .execution_options(synchronize_session=False)
        )
    return result.rowcount
