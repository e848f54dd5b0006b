"""A season's ratings, rebuilt (never updated in place): `recompute_season` replays its rated, not voided
games in the order they finished (openskill Plackett–Luce over the final ranks, ties shared), so voiding a
game is "recompute without it". Each rebuild runs in one transaction under the season's row lock
(PostgreSQL) or the write lock (SQLite), so two games finishing at once both end up counted.

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine import Game, GameOptions, Phase, Remove, Resign, Skip, Undo, parse_action
from storage.database import detached, writing
from storage.errors import (
    LeagueNotFoundError,
    VoidStateError,
)
from storage.games import action_log
from storage.leagues.seasons import audit_entry, season_of_game, season_or_error
from storage.models import (
    ABANDONED,
    FINISHED,
    GameRecord,
    LeagueGame,
    LeagueLobby,
    LeagueRating,
    LeagueRatingChange,
    Lobby,
    Season,
    SeatRecord,
)
from storage.ratings import (
    GameResult,
    Unrated,
    compute_ratings,
    game_results,
    unrated_reason,
)

log = logging.getLogger(__name__)


def turns_taken(record: GameRecord, log: Sequence[tuple[int | None, str]]) -> list[int]:
    """How many turns each seat took: turns it ended with its own move (the starting ticket
    choice, a turn skipped by the table and the turn a seat left in are not turns; an undone
    move's turn is not one either)."""
    game = Game.new(record.map_id, record.seats, record.seed, GameOptions.from_json(record.options))
    turns = [0] * record.seats
    ended: list[int | None] = []  # per action in effect: the seat whose turn it ended
    for seat, text in log:
        action = parse_action(game, seat, text)
        own = (
            game.phase == Phase.PLAYING
            and seat is not None
            and seat == game.current
            and not isinstance(action, (Resign, Remove, Skip, Undo))
        )
        game.apply(seat, action)
        if isinstance(action, Undo):
            undone = ended.pop()
            if undone is not None:
                turns[undone] -= 1
            continue
        ended.append(seat if own and game.stage is None else None)
        if ended[-1] is not None:
            turns[seat] += 1  # type: ignore[index]
    return turns


async def _turns_of(session: AsyncSession, record: GameRecord) -> list[int] | None:
    """A finished game's `turns_taken`, from its stored log (None if the log does not replay)."""
    try:
        return turns_taken(record, await action_log(session=session, game_id=record.id))  # type: ignore[arg-type]
    except ValueError:
        log.warning("a league game's log does not replay: its turns are not counted", extra={"game_id": record.id})
        return None


async def _previous_season(session: AsyncSession, season: Season) -> Season | None:
    rows = await session.execute(
        select(Season)
        .where(
            Season.league_id == season.league_id,
            Season.id != season.id,
            sa.or_(
                Season.starts_at < season.starts_at,
                sa.and_(Season.starts_at == season.starts_at, Season.id < season.id),
            ),
        )
        .order_by(Season.starts_at.desc(), Season.id.desc())
        .limit(1)
    )
    return rows.scalar_one_or_none()


async def _next_season(session: AsyncSession, season: Season) -> int | None:
    rows = await session.execute(
        select(Season.id)
        .where(
            Season.league_id == season.league_id,
            Season.id != season.id,
            sa.or_(
                Season.starts_at > season.starts_at,
                sa.and_(Season.starts_at == season.starts_at, Season.id > season.id),
            ),
        )
        .order_by(Season.starts_at, Season.id)
        .limit(1)
    )
    return rows.scalar()


async def recompute_season(*, session: AsyncSession, season_id: int) -> None:
    """Settle the season's finished games (rated or why not) and rebuild its ladders from its
    rated, not voided games in the order they finished. When the season carries its ratings
    over, the next season is rebuilt too."""
    while season_id is not None:
        carry, next_id = await _recompute_one(session, season_id)
        season_id = next_id if carry else None  # type: ignore[assignment]


async def _recompute_one(session: AsyncSession, season_id: int) -> tuple[bool, int | None]:
    async with writing(session):
        lock = select(Season).where(Season.id == season_id).execution_options(populate_existing=True)
        if session.bind.dialect.name == "postgresql":
            lock = lock.with_for_update()
        season = (await session.execute(lock)).scalar_one_or_none()
        if season is None:
            raise LeagueNotFoundError("there is no season {season}", season=season_id)
        # Lobbies of this season that became games: the games join the season.
        pending = await session.execute(
            select(LeagueLobby, Lobby.game_id)
            .join(Lobby, Lobby.id == LeagueLobby.lobby_id)
            .where(
                LeagueLobby.season_id == season_id,
                Lobby.game_id.is_not(None),
                ~sa.exists().where(LeagueGame.game_id == Lobby.game_id),
            )
        )
        for link, game_id in pending.all():
            session.add(
                LeagueGame(game_id=game_id, season_id=season_id, added_by=link.added_by, added_at=link.added_at)
            )
        await session.flush()
        rows = (
            await session.execute(
                select(LeagueGame, GameRecord)
                .join(GameRecord, GameRecord.id == LeagueGame.game_id)
                .where(LeagueGame.season_id == season_id)
            )
        ).all()
        ids = [g.game_id for g, _ in rows]
        seats_by_game: dict[int, list[SeatRecord]] = {i: [] for i in ids}
        if ids:
            for seat in (
                await session.execute(select(SeatRecord).where(SeatRecord.game_id.in_(ids)).order_by(SeatRecord.seat))
            ).scalars():
                seats_by_game[seat.game_id].append(seat)
        results: list[tuple[datetime, int, int, GameResult]] = []
        for link, record in rows:
            seats = seats_by_game[link.game_id]
            if record.status not in (FINISHED, ABANDONED):
                rated, note, finished = None, None, None
            else:
                reason = unrated_reason(record, seats, season)
                if reason is None and season.min_turns and link.turns is None:
                    link.turns = await _turns_of(session, record)
                counted = reason or game_results(link.game_id, record.map_id, seats, link.turns, season.min_turns)
                reason = counted if isinstance(counted, Unrated) else None
                rated, finished = reason is None, record.finished_at or record.updated_at
                note = None if reason is None else str(reason)
            if (link.rated, link.note, link.finished_at) != (rated, note, finished):
                link.rated, link.note, link.finished_at = rated, note, finished
            if rated and not link.voided:
                results += [(finished, link.game_id, i, r) for i, r in enumerate(counted)]  # type: ignore[arg-type,misc]
        results.sort(key=lambda r: (r[0], r[1], r[2]))
        priors: dict[tuple[str, int], tuple[float, float]] = {}
        previous = await _previous_season(session, season)
        if previous is not None and previous.carry_over:
            for r in (
                await session.execute(select(LeagueRating).where(LeagueRating.season_id == previous.id))
            ).scalars():
                priors[(r.scope, r.user_id)] = (r.mu, r.sigma)
        run = compute_ratings([r for *_, r in results], priors)
        await session.execute(
            delete(LeagueRating).where(LeagueRating.season_id == season_id).execution_options(synchronize_session=False)
        )
        await session.execute(
            delete(LeagueRatingChange)
            .where(LeagueRatingChange.season_id == season_id)
            .execution_options(synchronize_session=False)
        )
        if run.ratings:
            await session.execute(
                LeagueRating.__table__.insert(),
                [
                    {
                        "season_id": season_id,
                        "scope": scope,
                        "user_id": user,
                        "mu": s.mu,
                        "sigma": s.sigma,
                        "games": s.games,
                        "wins": s.wins,
                    }
                    for (scope, user), s in run.ratings.items()
                ],
            )
        if run.changes:
            await session.execute(
                LeagueRatingChange.__table__.insert(), [{"season_id": season_id, **c} for c in run.changes]
            )
        carry, next_id = season.carry_over, await _next_season(session, season)
    return carry, next_id


async def settle_game(*, session: AsyncSession, game_id: int) -> int | None:
    """After a game ended: if it belongs to a season, rebuild that season. Returns the season id."""
    season_id = await season_of_game(session=session, game_id=game_id)
    if season_id is not None:
        await recompute_season(session=session, season_id=season_id)
    return season_id


async def needs_recompute(*, session: AsyncSession, season_id: int) -> bool:
    """True when a game of the season ended (or a lobby became a game) since the last rebuild,
    e.g. the bot stopped between a game's end and its rating."""
    unsettled = await session.execute(
        select(sa.literal(1))
        .select_from(LeagueGame)
        .join(GameRecord, GameRecord.id == LeagueGame.game_id)
        .where(
            LeagueGame.season_id == season_id, LeagueGame.rated.is_(None), GameRecord.status.in_((FINISHED, ABANDONED))
        )
        .limit(1)
    )
    if unsettled.first() is not None:
        return True
    unlinked = await session.execute(
        select(sa.literal(1))
        .select_from(LeagueLobby)
        .join(Lobby, Lobby.id == LeagueLobby.lobby_id)
        .where(
            LeagueLobby.season_id == season_id,
            Lobby.game_id.is_not(None),
            ~sa.exists().where(LeagueGame.game_id == Lobby.game_id),
        )
        .limit(1)
    )
    return unlinked.first() is not None


async def void_game(
    *, session: AsyncSession, game_id: int, user_id: int | None, reason: str | None = None, restore: bool = False
) -> LeagueGame:
    """Void (or, `restore`, un-void) a league game's result and rebuild the season's ratings
    from the remaining games in order. Audited."""
    async with writing(session):
        row = await session.get(LeagueGame, game_id, populate_existing=True)
        if row is None:
            raise LeagueNotFoundError("game {game} is not a league game", game=game_id)
        if row.voided == (not restore):
            raise (
                VoidStateError("game {game} is already voided", game=game_id)
                if row.voided
                else VoidStateError("game {game} is not voided", game=game_id)
            )
        season = await season_or_error(session, row.season_id)
        row.voided = not restore
        audit_entry(
            session,
            league_id=season.league_id,
            season_id=season.id,
            user_id=user_id,
            action="restore_game" if restore else "void_game",
            game_id=game_id,
            reason=reason,
        )
    await recompute_season(session=session, season_id=row.season_id)
    detached(session, row)
    return row
