"""Leagues: seasons of rated games on a server, openskill ratings, standings, audit, CSV export.

A guild has leagues (a name and a league-admin role); a league has seasons (dates, allowed maps
and player counts, a minimum number of games for the standings, a minimum of turns for a game to
count, whether the final ratings carry over into the next season) and may have divisions (Gold,
Silver: who plays where, promotion and relegation) and reward roles. At most one season of a
league is `active`; opening a new one closes it, and so does its last day passing
(`close_season`, claimed in one transaction: one process closes it; the Discord work it leaves,
roles and the results post, are `CloseTask` rows claimed with a lease). A game joins the active season either directly (`attach_game`, a game already
running) or through its lobby (`attach_lobby`, resolved when the game exists).

Ratings are never updated in place: `recompute_season` rebuilds a season's ratings from its
rated, not voided games in the order they finished (openskill Plackett–Luce over the final
ranks, ties shared), so voiding a game is "recompute without it". Each rebuild runs in one
transaction under the season's row lock (PostgreSQL) or the write lock (SQLite), so two games
finishing at once both end up counted. A seat that left the game (removed for inactivity, or
resigned) takes the last rank, shared with any other leaver. Games with an AI seat (no user)
are not rated. The displayed rating is the conservative mu − 3·sigma.

The tables are in storage/models.py, the rating maths (pure, no SQL) in storage/ratings.py, the
refusals (`LeagueError` and its subclasses) in storage/errors.py.

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlmodel import SQLModel

from engine import Game, GameOptions, Phase, Remove, Resign, Skip, Undo, parse_action
from storage.database import detached, writing
from storage.errors import (
    AlreadyInSeasonError,
    InvalidSeasonError,
    LeagueError,
    LeagueNameTakenError,
    LeagueNotFoundError,
    NotEligibleError,
    SeasonNotOpenError,
    VoidStateError,
)
from storage.games import action_log
from storage.models import (
    ABANDONED,
    ADD_ROLE,
    ANNOUNCE,
    FINISHED,
    REMOVE_ROLE,
    SEASON_ACTIVE,
    SEASON_CLOSED,
    CloseTask,
    Division,
    GameRecord,
    League,
    LeagueAudit,
    LeagueGame,
    LeagueLobby,
    LeagueRating,
    LeagueRatingChange,
    Lobby,
    Placement,
    Player,
    Reward,
    RoleHolder,
    Season,
    SeasonResult,
    SeatRecord,
    utcnow,
)
from storage.ratings import (
    OVERALL,
    GameResult,
    Unrated,
    compute_ratings,
    displayed,
    game_results,
    unrated_reason,
)

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------- helpers


def _audit(
    session: AsyncSession, *, league_id: int, season_id: int | None, user_id: int | None, action: str, **details: Any
) -> None:
    session.add(LeagueAudit(league_id=league_id, season_id=season_id, user_id=user_id, action=action, details=details))


# ---------------------------------------------------------------------------- leagues and seasons


async def create_league(
    *,
    session: AsyncSession,
    guild_id: int,
    name: str,
    created_by: int,
    admin_role_id: int | None = None,
    channel_id: int | None = None,
) -> League:
    """A new league; `LeagueError` if the server already has one of that name. `channel_id`:
    where its seasons' results are posted when they close."""
    league = League(
        guild_id=guild_id, name=name.strip(), admin_role_id=admin_role_id, created_by=created_by, channel_id=channel_id
    )
    try:
        async with writing(session):
            session.add(league)
            await session.flush()
            _audit(
                session,
                league_id=league.id,
                season_id=None,
                user_id=created_by,
                action="create_league",  # type: ignore[arg-type]
                name=league.name,
                admin_role_id=admin_role_id,
            )
    except IntegrityError:
        raise LeagueNameTakenError("this server already has a league called {name!r}", name=name) from None
    detached(session, league)
    return league


async def set_admin_role(*, session: AsyncSession, league_id: int, admin_role_id: int | None, user_id: int) -> None:
    async with writing(session):
        await session.execute(
            update(League)
            .where(League.id == league_id)
            .values(admin_role_id=admin_role_id)
            .execution_options(synchronize_session=False)
        )
        _audit(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="set_admin_role",
            admin_role_id=admin_role_id,
        )


async def guild_leagues(*, session: AsyncSession, guild_id: int) -> list[League]:
    rows = await session.execute(select(League).where(League.guild_id == guild_id).order_by(League.name))
    leagues = list(rows.scalars().all())
    detached(session, *leagues)
    return leagues


async def get_league(*, session: AsyncSession, league_id: int) -> League | None:
    league = await session.get(League, league_id, populate_existing=True)
    detached(session, league)
    return league


async def create_season(
    *,
    session: AsyncSession,
    league_id: int,
    name: str,
    starts_at: datetime,
    ends_at: datetime,
    created_by: int,
    maps: Sequence[str] = (),
    player_counts: Sequence[int] = (),
    min_games: int = 1,
    carry_over: bool = False,
    min_turns: int = 0,
) -> Season:
    """Open a season (the league's active one); the season active until now is closed in the
    same transaction, as `close_season` closes one (results, promotion and relegation, reward
    roles). `min_turns`: the turns each seat takes for a game to count in full (`game_results`).
    `LeagueError` for a duplicate name or an end before the start."""
    if ends_at <= starts_at:
        raise InvalidSeasonError("a season must end after it starts")
    season = Season(
        league_id=league_id,
        name=name.strip(),
        starts_at=starts_at,
        ends_at=ends_at,
        maps=sorted(set(maps)),
        player_counts=sorted(set(player_counts)),
        min_games=max(0, min_games),
        carry_over=carry_over,
        status=SEASON_ACTIVE,
        min_turns=max(0, min_turns),
    )
    current = await active_season(session=session, league_id=league_id)
    if current is not None and await needs_recompute(session=session, season_id=current.id):
        await recompute_season(session=session, season_id=current.id)
    now = utcnow()
    try:
        async with writing(session):
            closed = await session.execute(
                update(Season)
                .where(Season.league_id == league_id, Season.status == SEASON_ACTIVE)
                .values(status=SEASON_CLOSED, closed_at=now)
                .returning(Season.id)
                .execution_options(synchronize_session=False)
            )
            closed_ids = [i for (i,) in closed]
            for old in closed_ids:
                await _plan_close(session, old)
                _audit(session, league_id=league_id, season_id=old, user_id=created_by, action="close_season")
            session.add(season)
            await session.flush()
            _audit(
                session,
                league_id=league_id,
                season_id=season.id,
                user_id=created_by,
                action="create_season",
                name=season.name,
                starts_at=starts_at.isoformat(),
                ends_at=ends_at.isoformat(),
                maps=season.maps,
                player_counts=season.player_counts,
                min_games=season.min_games,
                carry_over=carry_over,
                min_turns=season.min_turns,
            )
    except IntegrityError:
        raise LeagueNameTakenError("this league already has a season called {name!r}", name=name) from None
    detached(session, season)
    return season


async def active_season(*, session: AsyncSession, league_id: int) -> Season | None:
    rows = await session.execute(select(Season).where(Season.league_id == league_id, Season.status == SEASON_ACTIVE))
    season = rows.scalar_one_or_none()
    detached(session, season)
    return season


async def league_seasons(*, session: AsyncSession, league_id: int) -> list[Season]:
    """A league's seasons, oldest first."""
    rows = await session.execute(
        select(Season).where(Season.league_id == league_id).order_by(Season.starts_at, Season.id)
    )
    seasons = list(rows.scalars().all())
    detached(session, *seasons)
    return seasons


async def get_season(*, session: AsyncSession, season_id: int) -> Season | None:
    season = await session.get(Season, season_id, populate_existing=True)
    detached(session, season)
    return season


# ---------------------------------------------------------------------------- games in a season


def _check_season_open(season: Season, now: datetime) -> None:
    if season.status != SEASON_ACTIVE:
        raise SeasonNotOpenError("season {season!r} is closed", season=season.name)
    if now < season.starts_at:
        raise SeasonNotOpenError(
            "season {season!r} starts on {date}", season=season.name, date=season.starts_at.date().isoformat()
        )
    if now >= season.ends_at:
        raise SeasonNotOpenError(
            "season {season!r} ended on {date}", season=season.name, date=season.ends_at.date().isoformat()
        )


def check_game_fits(season: Season, *, map_id: str, players: int | None) -> None:
    """`LeagueError` if the season does not allow this map or number of players."""
    if season.maps and map_id not in season.maps:
        raise NotEligibleError(
            "season {season!r} is played on {maps}, not {map}", season=season.name, maps=list(season.maps), map=map_id
        )
    if players is not None and season.player_counts and players not in season.player_counts:
        raise NotEligibleError(
            "season {season!r} allows games of {counts} players, not {players}",
            season=season.name,
            counts=list(season.player_counts),
            players=players,
        )


async def attach_game(
    *, session: AsyncSession, season_id: int, game_id: int, user_id: int | None, now: datetime | None = None
) -> LeagueGame:
    """Make a running game part of a season (checked: season open, map and player count allowed,
    no AI seat, not in a season already)."""
    now = now or utcnow()
    season = await _season_or_error(session, season_id)
    _check_season_open(season, now)
    record = await session.get(GameRecord, game_id, populate_existing=True)
    if record is None:
        raise LeagueNotFoundError("there is no game {game}", game=game_id)
    if record.status != "active":
        raise NotEligibleError("that game is over already: only running games can join a season")
    seats = (await session.execute(select(SeatRecord).where(SeatRecord.game_id == game_id))).scalars().all()
    row = _rated_game(
        season, game_id=game_id, map_id=record.map_id, players=[s.user_id for s in seats], user_id=user_id, now=now
    )
    await _add_audited(
        session,
        row,
        season,
        user_id,
        AlreadyInSeasonError("that game already belongs to a league season"),
        action="add_game",
        game_id=game_id,
    )
    return row


async def add_new_game(
    *,
    session: AsyncSession,
    season_id: int,
    game_id: int,
    map_id: str,
    players: Sequence[int | None],
    user_id: int | None,
    now: datetime | None = None,
) -> None:
    """Make a game part of a season inside the transaction that creates it (storage.games.create_game's
    `link`: tables the bot makes for a queue or a tournament), checked as `attach_game` checks."""
    now = now or utcnow()
    season = await _season_or_error(session, season_id)
    _check_season_open(season, now)
    session.add(_rated_game(season, game_id=game_id, map_id=map_id, players=players, user_id=user_id, now=now))
    _audit(
        session, league_id=season.league_id, season_id=season.id, user_id=user_id, action="add_game", game_id=game_id
    )


def _rated_game(
    season: Season, *, game_id: int, map_id: str, players: Sequence[int | None], user_id: int | None, now: datetime
) -> LeagueGame:
    """The season's link to a game it may rate: its map and player count allowed, no AI seat."""
    check_game_fits(season, map_id=map_id, players=len(players))
    if any(user is None for user in players):
        raise NotEligibleError("games with AI seats are not rated")
    return LeagueGame(game_id=game_id, season_id=season.id, added_by=user_id, added_at=now)


async def attach_lobby(
    *, session: AsyncSession, season_id: int, lobby_id: int, user_id: int | None, now: datetime | None = None
) -> LeagueLobby:
    """Make the game an open lobby becomes part of a season (the player count is checked when
    the game ends: a game of a count the season excludes is recorded unrated)."""
    now = now or utcnow()
    season = await _season_or_error(session, season_id)
    _check_season_open(season, now)
    lobby = await session.get(Lobby, lobby_id, populate_existing=True)
    if lobby is None or lobby.status != "open":
        raise LeagueNotFoundError("there is no open lobby to add")
    check_game_fits(season, map_id=lobby.map_id, players=None)
    if season.player_counts and lobby.max_seats < min(season.player_counts):
        raise NotEligibleError(
            "season {season!r} needs at least {players} players; this lobby takes at most {seats}",
            season=season.name,
            players=min(season.player_counts),
            seats=lobby.max_seats,
        )
    row = LeagueLobby(lobby_id=lobby_id, season_id=season_id, added_by=user_id, added_at=now)
    await _add_audited(
        session,
        row,
        season,
        user_id,
        AlreadyInSeasonError("that lobby already belongs to a league season"),
        action="add_lobby",
        lobby_id=lobby_id,
    )
    return row


async def _add_audited(
    session: AsyncSession, row: SQLModel, season: Season, user_id: int | None, duplicate: LeagueError, **audit: Any
) -> None:
    """Insert a season's game or lobby link with its audit entry, in one transaction."""
    try:
        async with writing(session):
            session.add(row)
            _audit(session, league_id=season.league_id, season_id=season.id, user_id=user_id, **audit)
    except IntegrityError:
        raise duplicate from None
    detached(session, row)


async def _season_or_error(session: AsyncSession, season_id: int) -> Season:
    season = await session.get(Season, season_id, populate_existing=True)
    if season is None:
        raise LeagueNotFoundError("there is no season {season}", season=season_id)
    return season


async def season_of_game(*, session: AsyncSession, game_id: int) -> int | None:
    """The season a game belongs to (directly, or through the lobby it was started from)."""
    direct = (await session.execute(select(LeagueGame.season_id).where(LeagueGame.game_id == game_id))).scalar()
    if direct is not None:
        return direct
    return (
        await session.execute(
            select(LeagueLobby.season_id).join(Lobby, Lobby.id == LeagueLobby.lobby_id).where(Lobby.game_id == game_id)
        )
    ).scalar()


async def league_game(*, session: AsyncSession, game_id: int) -> LeagueGame | None:
    row = await session.get(LeagueGame, game_id, populate_existing=True)
    detached(session, row)
    return row


async def season_games(*, session: AsyncSession, season_id: int) -> list[LeagueGame]:
    rows = await session.execute(
        select(LeagueGame)
        .where(LeagueGame.season_id == season_id)
        .order_by(LeagueGame.finished_at.is_(None), LeagueGame.finished_at, LeagueGame.game_id)
    )
    games = list(rows.scalars().all())
    detached(session, *games)
    return games


# ---------------------------------------------------------------------------- recompute


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
        season = await _season_or_error(session, row.season_id)
        row.voided = not restore
        _audit(
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


# ---------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Standing:
    place: int
    user_id: int
    name: str | None
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def rating(self) -> float:
        return displayed(self.mu, self.sigma)


async def _names(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    rows = await session.execute(select(Player.user_id, Player.display_name).where(Player.user_id.in_(ids)))
    return {u: n for u, n in rows.all() if n}


async def standings(
    *,
    session: AsyncSession,
    season_id: int,
    scope: str = OVERALL,
    min_games: int | None = None,
    division_id: int | None = None,
) -> tuple[list[Standing], int]:
    """The ladder: players with at least `min_games` (default: the season's) rated games, best
    displayed rating first; and how many more players have fewer games. `division_id`: only the
    players of that division (in a closed season, the division they played it in)."""
    season = await _season_or_error(session, season_id)
    need = season.min_games if min_games is None else min_games
    query = select(LeagueRating).where(LeagueRating.season_id == season_id, LeagueRating.scope == scope)
    if division_id is not None:
        played = select(SeasonResult.user_id).where(
            SeasonResult.season_id == season_id, SeasonResult.division_id == division_id
        )
        if season.status == SEASON_ACTIVE:
            played = select(Placement.user_id).where(Placement.division_id == division_id)
        query = query.where(LeagueRating.user_id.in_(played))
    rows = list((await session.execute(query)).scalars())
    qualified = [r for r in rows if r.games >= need and r.games > 0]
    qualified.sort(key=lambda r: (-displayed(r.mu, r.sigma), -r.games, r.user_id))
    names = await _names(session, (r.user_id for r in qualified))
    table = [
        Standing(i, r.user_id, names.get(r.user_id), r.mu, r.sigma, r.games, r.wins)
        for i, r in enumerate(qualified, start=1)
    ]
    return table, sum(1 for r in rows if 0 < r.games < need)


@dataclass(frozen=True)
class RecentGame:
    game_id: int
    finished_at: datetime | None
    map_id: str
    players: int
    rank: int
    score: int | None
    change: float | None  # displayed rating change in the overall ladder


@dataclass(frozen=True)
class Profile:
    user_id: int
    name: str | None
    season: Season
    rating: float | None  # displayed, overall ladder (None: no rated game yet)
    mu: float | None
    sigma: float | None
    place: int | None  # in the overall standings (None: not qualified)
    map_ratings: dict[str, float]
    games: int
    wins: int
    average_score: float | None
    tickets_completed: int
    tickets_failed: int
    longest_bonuses: int
    recent: list[RecentGame]
    history: list[float]  # displayed overall rating after each rated game, in order
    #: Per map: (index in `history`, displayed rating in that map's ladder after that game).
    map_history: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    #: The league's seasons up to this one where the player has a rating: (name, displayed overall).
    seasons: list[tuple[str, float]] = field(default_factory=list)

    @property
    def ticket_rate(self) -> float | None:
        total = self.tickets_completed + self.tickets_failed
        return self.tickets_completed / total if total else None


async def player_profile(*, session: AsyncSession, season_id: int, user_id: int, recent: int = 5) -> Profile:
    """A player's season: ratings, place, totals over rated games, the latest games."""
    season = await _season_or_error(session, season_id)
    detached(session, season)
    ratings = {
        r.scope: r
        for r in (
            await session.execute(
                select(LeagueRating).where(LeagueRating.season_id == season_id, LeagueRating.user_id == user_id)
            )
        ).scalars()
    }
    overall = ratings.get(OVERALL)
    table, _ = await standings(session=session, season_id=season_id)
    place = next((s.place for s in table if s.user_id == user_id), None)
    counted = select(LeagueGame.game_id).where(
        LeagueGame.season_id == season_id, LeagueGame.rated.is_(True), LeagueGame.voided.is_(False)
    )
    seats = (
        await session.execute(
            select(SeatRecord, GameRecord.map_id, GameRecord.seats, LeagueGame.finished_at)
            .join(GameRecord, GameRecord.id == SeatRecord.game_id)
            .join(LeagueGame, LeagueGame.game_id == SeatRecord.game_id)
            .where(SeatRecord.user_id == user_id, SeatRecord.game_id.in_(counted))
            .order_by(LeagueGame.finished_at, SeatRecord.game_id)
        )
    ).all()
    every = list(
        (
            await session.execute(
                select(LeagueRatingChange).where(
                    LeagueRatingChange.season_id == season_id, LeagueRatingChange.user_id == user_id
                )
            )
        ).scalars()
    )
    changes = {c.game_id: c for c in every if c.scope == OVERALL}
    by_map = {(c.game_id, c.scope): c for c in every if c.scope != OVERALL}
    scores = [s.final_score for s, *_ in seats if s.final_score is not None]
    history: list[float] = []
    map_history: dict[str, list[tuple[int, float]]] = {}
    games = []
    for seat, map_id, n, finished in seats:
        change = changes.get(seat.game_id)
        if change is not None:
            history.append(displayed(change.mu_after, change.sigma_after))
            on_map = by_map.get((seat.game_id, map_id))
            if on_map is not None:
                map_history.setdefault(map_id, []).append(
                    (len(history) - 1, displayed(on_map.mu_after, on_map.sigma_after))
                )
        delta = (
            displayed(change.mu_after, change.sigma_after) - displayed(change.mu_before, change.sigma_before)
            if change
            else None
        )
        games.append(
            RecentGame(
                seat.game_id, finished, map_id, n, change.rank if change else (seat.rank or 0), seat.final_score, delta
            )
        )
    names = await _names(session, [user_id])
    return Profile(
        user_id=user_id,
        name=names.get(user_id),
        season=season,
        rating=overall.displayed if overall else None,
        mu=overall.mu if overall else None,
        sigma=overall.sigma if overall else None,
        place=place,
        map_ratings={scope: r.displayed for scope, r in sorted(ratings.items()) if scope != OVERALL},
        games=len(seats),
        wins=sum(1 for g in games if g.rank == 1),
        average_score=sum(scores) / len(scores) if scores else None,
        tickets_completed=sum(s.tickets_completed or 0 for s, *_ in seats),
        tickets_failed=sum(s.tickets_failed or 0 for s, *_ in seats),
        longest_bonuses=sum(1 for s, *_ in seats if s.longest_bonus),
        recent=list(reversed(games[-recent:])) if recent else [],
        history=history,
        map_history=map_history,
        seasons=await _season_ratings(session, season, user_id),
    )


async def _season_ratings(session: AsyncSession, season: Season, user_id: int) -> list[tuple[str, float]]:
    """The player's overall rating at the end of each of the league's seasons up to `season`."""
    rows = await session.execute(
        select(Season.name, LeagueRating.mu, LeagueRating.sigma)
        .join(LeagueRating, LeagueRating.season_id == Season.id)
        .where(
            Season.league_id == season.league_id,
            LeagueRating.user_id == user_id,
            LeagueRating.scope == OVERALL,
            LeagueRating.games > 0,
            sa.or_(Season.starts_at < season.starts_at, Season.id == season.id),
        )
        .order_by(Season.starts_at, Season.id)
    )
    return [(name, displayed(mu, sigma)) for name, mu, sigma in rows.all()]


async def audit_log(*, session: AsyncSession, league_id: int, limit: int = 20) -> list[LeagueAudit]:
    """The league's admin actions, newest first."""
    rows = await session.execute(
        select(LeagueAudit)
        .where(LeagueAudit.league_id == league_id)
        .order_by(LeagueAudit.created_at.desc(), LeagueAudit.id.desc())
        .limit(limit)
    )
    entries = list(rows.scalars().all())
    detached(session, *entries)
    return entries


RESULTS_COLUMNS = (
    "game_id",
    "finished_at",
    "map",
    "players",
    "status",
    "note",
    "seat",
    "user_id",
    "name",
    "game_rank",
    "rating_rank",
    "left",
    "score",
    "tickets_completed",
    "tickets_failed",
    "longest_bonus",
    "rating_before",
    "rating_after",
)
STANDINGS_COLUMNS = ("place", "user_id", "name", "rating", "mu", "sigma", "games", "wins")


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


async def export_results_csv(*, session: AsyncSession, season_id: int) -> str:
    """Every game of the season, one row per seat: result, whether and how it was rated
    (status: rated, voided, unrated, pending), and the overall rating before and after."""
    games = await season_games(session=session, season_id=season_id)
    ids = [g.game_id for g in games]
    records = {r.id: r for r in (await session.execute(select(GameRecord).where(GameRecord.id.in_(ids)))).scalars()}
    seats = list(
        (
            await session.execute(
                select(SeatRecord).where(SeatRecord.game_id.in_(ids)).order_by(SeatRecord.game_id, SeatRecord.seat)
            )
        ).scalars()
    )
    changes = {
        (c.game_id, c.user_id): c
        for c in (
            await session.execute(
                select(LeagueRatingChange).where(
                    LeagueRatingChange.season_id == season_id, LeagueRatingChange.scope == OVERALL
                )
            )
        ).scalars()
    }
    names = await _names(session, (s.user_id for s in seats if s.user_id is not None))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULTS_COLUMNS)
    by_game: dict[int, list[SeatRecord]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    for game in games:
        record = records[game.game_id]
        status = "pending" if game.rated is None else "voided" if game.voided else "rated" if game.rated else "unrated"
        for seat in by_game.get(game.game_id, []):
            change = changes.get((game.game_id, seat.user_id))  # type: ignore[arg-type]
            writer.writerow(
                [
                    game.game_id,
                    game.finished_at.isoformat() if game.finished_at else "",
                    record.map_id,
                    record.seats,
                    status,
                    game.note or "",
                    seat.seat + 1,
                    seat.user_id or "",
                    names.get(seat.user_id, "") if seat.user_id else "AI",
                    seat.rank or "",
                    change.rank if change else "",
                    seat.left or "",
                    "" if seat.final_score is None else seat.final_score,
                    "" if seat.tickets_completed is None else seat.tickets_completed,
                    "" if seat.tickets_failed is None else seat.tickets_failed,
                    "" if seat.longest_bonus is None else int(seat.longest_bonus),
                    _fmt(displayed(change.mu_before, change.sigma_before) if change else None),
                    _fmt(displayed(change.mu_after, change.sigma_after) if change else None),
                ]
            )
    return out.getvalue()


async def export_standings_csv(*, session: AsyncSession, season_id: int, scope: str = OVERALL) -> str:
    """The season's ladder (every rated player, also those below the minimum of games)."""
    table, _ = await standings(session=session, season_id=season_id, scope=scope, min_games=1)
    season = await _season_or_error(session, season_id)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((*STANDINGS_COLUMNS, "qualified"))
    for s in table:
        writer.writerow(
            [
                s.place,
                s.user_id,
                s.name or "",
                f"{s.rating:.3f}",
                f"{s.mu:.3f}",
                f"{s.sigma:.3f}",
                s.games,
                s.wins,
                int(s.games >= season.min_games),
            ]
        )
    return out.getvalue()


# ---------------------------------------------------------------------------- divisions and rewards


async def league_divisions(*, session: AsyncSession, league_id: int) -> list[Division]:
    """A league's divisions, the top one (level 1) first."""
    rows = await session.execute(select(Division).where(Division.league_id == league_id).order_by(Division.level))
    divisions = list(rows.scalars().all())
    detached(session, *divisions)
    return divisions


async def set_division(
    *,
    session: AsyncSession,
    league_id: int,
    name: str,
    user_id: int,
    promote: int | None = None,
    relegate: int | None = None,
) -> Division:
    """Create a division (below the others) or change its promotion and relegation counts. Audited."""
    async with writing(session):
        division = (
            await session.execute(
                select(Division).where(
                    Division.league_id == league_id, sa.func.lower(Division.name) == name.strip().lower()
                )
            )
        ).scalar_one_or_none()
        if division is None:
            level = (
                await session.execute(select(sa.func.max(Division.level)).where(Division.league_id == league_id))
            ).scalar() or 0
            division = Division(league_id=league_id, name=name.strip(), level=level + 1)
            session.add(division)
        if promote is not None:
            division.promote = max(0, promote)
        if relegate is not None:
            division.relegate = max(0, relegate)
        await session.flush()
        _audit(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="set_division",
            name=division.name,
            promote=division.promote,
            relegate=division.relegate,
        )
    detached(session, division)
    return division


async def _division_named(session: AsyncSession, league_id: int, name: str) -> Division:
    division = (
        await session.execute(
            select(Division).where(
                Division.league_id == league_id, sa.func.lower(Division.name) == name.strip().lower()
            )
        )
    ).scalar_one_or_none()
    if division is None:
        raise LeagueNotFoundError("there is no division {name!r}", name=name)
    return division


async def remove_division(*, session: AsyncSession, league_id: int, name: str, user_id: int) -> None:
    """Delete a division (its players become unplaced; the ones below move up a level). Audited."""
    async with writing(session):
        division = await _division_named(session, league_id, name)
        await session.delete(division)
        await session.execute(
            update(Division)
            .where(Division.league_id == league_id, Division.level > division.level)
            .values(level=Division.level - 1)
            .execution_options(synchronize_session=False)
        )
        _audit(
            session, league_id=league_id, season_id=None, user_id=user_id, action="remove_division", name=division.name
        )


async def place_player(
    *, session: AsyncSession, league_id: int, player_id: int, division: str, user_id: int
) -> Division:
    """Put a player in a division (`division` by name), wherever they were. Audited."""
    async with writing(session):
        found = await _division_named(session, league_id, division)
        row = await session.get(Placement, (league_id, player_id))
        if row is None:
            session.add(Placement(league_id=league_id, user_id=player_id, division_id=found.id))  # type: ignore[arg-type]
        else:
            row.division_id = found.id  # type: ignore[assignment]
        _audit(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="place_player",
            player=player_id,
            name=found.name,
        )
    detached(session, found)
    return found


async def placements(*, session: AsyncSession, league_id: int) -> dict[int, int]:
    """Each placed player's division id."""
    rows = await session.execute(
        select(Placement.user_id, Placement.division_id).where(Placement.league_id == league_id)
    )
    return dict(rows.all())  # type: ignore[arg-type]


async def set_reward(
    *, session: AsyncSession, league_id: int, role_id: int, top: int, user_id: int, division: str | None = None
) -> Reward | None:
    """The role the top `top` of a division's (None: the league's) final standings get at each
    season's close; `top` 0 removes that reward. Audited."""
    async with writing(session):
        found = await _division_named(session, league_id, division) if division else None
        row = (
            await session.execute(
                select(Reward).where(
                    Reward.league_id == league_id,
                    Reward.role_id == role_id,
                    Reward.division_id.is_(None) if found is None else Reward.division_id == found.id,
                )
            )
        ).scalar_one_or_none()
        if top <= 0:
            if row is not None:
                await session.delete(row)
            row = None
        elif row is None:
            row = Reward(league_id=league_id, division_id=found.id if found else None, role_id=role_id, top=top)
            session.add(row)
        else:
            row.top = top
        _audit(
            session,
            league_id=league_id,
            season_id=None,
            user_id=user_id,
            action="set_reward",
            role_id=role_id,
            top=top,
            name=found.name if found else None,
        )
    detached(session, row)
    return row


async def league_rewards(*, session: AsyncSession, league_id: int) -> list[Reward]:
    rows = await session.execute(select(Reward).where(Reward.league_id == league_id).order_by(Reward.id))
    rewards = list(rows.scalars().all())
    detached(session, *rewards)
    return rewards


# ---------------------------------------------------------------------------- closing seasons

#: How long a process holds a claimed close task before another may take it over.
TASK_LEASE_SECONDS = 120


def division_moves(ranked: Sequence[int], *, promote: int, relegate: int, top: bool, bottom: bool) -> dict[int, str]:
    """A division's final order (best first) → who goes up or down: the first `promote` (not from
    the top division), then the last `relegate` of those left (not from the bottom one)."""
    up = [] if top else list(ranked[:promote])
    rest = [u for u in ranked if u not in up]
    down = [] if bottom or relegate <= 0 else rest[-relegate:]
    return {**{u: "up" for u in up}, **{u: "down" for u in down}}


async def _plan_close(session: AsyncSession, season_id: int) -> None:
    """In the transaction that closed the season: its final standings per division, promotion
    and relegation (the placements change now), the reward roles to give and take, and the
    results post, as tasks for the bot (`claim_close_tasks`)."""
    season = await _season_or_error(session, season_id)
    league = await session.get(League, season.league_id)
    divisions = list(
        (
            await session.execute(
                select(Division)
                .where(Division.league_id == league.id)  # type: ignore[union-attr]
                .order_by(Division.level)
            )
        ).scalars()
    )
    placed = {
        u: d
        for u, d in (
            await session.execute(
                select(Placement.user_id, Placement.division_id).where(Placement.league_id == season.league_id)
            )
        ).all()
    }
    table, _ = await standings(session=session, season_id=season_id)
    by_division: dict[int | None, list[Standing]] = {}
    for row in table:
        by_division.setdefault(placed.get(row.user_id) if divisions else None, []).append(row)
    level_of = {d.id: i for i, d in enumerate(divisions)}
    results = []
    for division_id, rows in by_division.items():
        division = divisions[level_of[division_id]] if division_id is not None else None
        moves = (
            {}
            if division is None
            else division_moves(
                [r.user_id for r in rows],
                promote=division.promote,
                relegate=division.relegate,
                top=level_of[division_id] == 0,
                bottom=level_of[division_id] == len(divisions) - 1,
            )
        )  # type: ignore[index]
        for place, row in enumerate(rows, start=1):
            outcome, target = moves.get(row.user_id, "stay"), division_id
            if divisions and division is None:  # qualified without a division: placed in the bottom one
                outcome, target = "new", divisions[-1].id
            elif outcome != "stay":
                target = divisions[level_of[division_id] + (-1 if outcome == "up" else 1)].id  # type: ignore[index]
            results.append(
                SeasonResult(
                    season_id=season_id,
                    user_id=row.user_id,
                    division_id=division_id,
                    place=place,
                    rating=row.rating,
                    games=row.games,
                    outcome=outcome,
                    to_division_id=target,
                )
            )
    session.add_all(results)
    for result in results:
        if result.outcome == "new":
            session.add(
                Placement(league_id=season.league_id, user_id=result.user_id, division_id=result.to_division_id)
            )  # type: ignore[arg-type]
        elif result.outcome != "stay":
            await session.execute(
                update(Placement)
                .where(Placement.league_id == season.league_id, Placement.user_id == result.user_id)
                .values(division_id=result.to_division_id)
                .execution_options(synchronize_session=False)
            )
    wanted: dict[int, set[int]] = {}
    for reward in (await session.execute(select(Reward).where(Reward.league_id == season.league_id))).scalars():
        ranked = (
            [r.user_id for r in table]
            if reward.division_id is None
            else [r.user_id for r in results if r.division_id == reward.division_id]
        )
        wanted.setdefault(reward.role_id, set()).update(ranked[: reward.top])
    held: dict[int, set[int]] = {}
    for holder in (await session.execute(select(RoleHolder).where(RoleHolder.league_id == season.league_id))).scalars():
        held.setdefault(holder.role_id, set()).add(holder.user_id)
    tasks = []
    for role_id in sorted(set(wanted) | set(held)):
        now_held, then = held.get(role_id, set()), wanted.get(role_id, set())
        for kind, users in ((REMOVE_ROLE, now_held - then), (ADD_ROLE, then - now_held)):
            tasks += [
                CloseTask(season_id=season_id, guild_id=league.guild_id, kind=kind, user_id=u, role_id=role_id)
                for u in sorted(users)
            ]
        await session.execute(
            delete(RoleHolder).where(
                RoleHolder.league_id == season.league_id,
                RoleHolder.role_id == role_id,
                RoleHolder.user_id.in_(now_held - then),
            )
        )
        session.add_all(RoleHolder(league_id=season.league_id, role_id=role_id, user_id=u) for u in then - now_held)
    tasks.append(CloseTask(season_id=season_id, guild_id=league.guild_id, kind=ANNOUNCE))  # type: ignore[union-attr]
    session.add_all(tasks)


async def due_seasons(*, session: AsyncSession, now: datetime | None = None) -> list[tuple[Season, int]]:
    """Open seasons whose last day has passed, with their league's guild."""
    rows = await session.execute(
        select(Season, League.guild_id)
        .join(League, League.id == Season.league_id)
        .where(Season.status == SEASON_ACTIVE, Season.ends_at <= (now or utcnow()))
        .order_by(Season.ends_at, Season.id)
    )
    found = [(season, guild) for season, guild in rows.all()]
    detached(session, *(s for s, _ in found))
    return found


async def close_season(
    *, session: AsyncSession, season_id: int, user_id: int | None = None, now: datetime | None = None
) -> bool:
    """Close an open season: settle its games, then in one transaction claim it (only one caller,
    of any process, gets True), write its results, promotions, relegations, and the Discord
    tasks (`claim_close_tasks`). False: it was closed already."""
    now = now or utcnow()
    if await needs_recompute(session=session, season_id=season_id):
        await recompute_season(session=session, season_id=season_id)
    async with writing(session):
        claimed = await session.execute(
            update(Season)
            .where(Season.id == season_id, Season.status == SEASON_ACTIVE)
            .values(status=SEASON_CLOSED, closed_at=now)
            .returning(Season.league_id)
            .execution_options(synchronize_session=False)
        )
        league_id = claimed.scalar()
        if league_id is None:
            return False
        await _plan_close(session, season_id)
        _audit(session, league_id=league_id, season_id=season_id, user_id=user_id, action="close_season")
    return True


async def claim_close_tasks(
    *, session: AsyncSession, guild_ids: Iterable[int] | None = None, now: datetime | None = None, limit: int = 20
) -> list[CloseTask]:
    """Pending close tasks this caller now holds (a lease of `TASK_LEASE_SECONDS`): role changes
    first; a season's results post once its role changes are all done. `guild_ids`: only these
    guilds' (a shard process's)."""
    now = now or utcnow()
    free = sa.and_(CloseTask.done_at.is_(None), sa.or_(CloseTask.lease_until.is_(None), CloseTask.lease_until < now))
    role_task = aliased(CloseTask)
    roles_left = select(sa.literal(1)).where(
        role_task.season_id == CloseTask.season_id, role_task.kind != ANNOUNCE, role_task.done_at.is_(None)
    )
    query = (
        select(CloseTask.id)
        .where(free, sa.or_(CloseTask.kind != ANNOUNCE, ~roles_left.exists()))
        .order_by(CloseTask.kind == ANNOUNCE, CloseTask.id)
        .limit(limit)
    )
    if guild_ids is not None:
        query = query.where(CloseTask.guild_id.in_(list(guild_ids)))
    claimed = []
    async with writing(session):
        for task_id in (await session.execute(query)).scalars().all():
            row = await session.execute(
                update(CloseTask)
                .where(CloseTask.id == task_id, free)
                .values(lease_until=now + timedelta(seconds=TASK_LEASE_SECONDS))
                .returning(CloseTask)
                .execution_options(synchronize_session=False)
            )
            task = row.scalar_one_or_none()
            if task is not None:
                claimed.append(task)
    detached(session, *claimed)
    return claimed


async def finish_close_task(
    *, session: AsyncSession, task_id: int, error: str | None = None, now: datetime | None = None
) -> None:
    """A claimed task is done (`error`: what Discord refused; it is not tried again)."""
    async with writing(session):
        await session.execute(
            update(CloseTask)
            .where(CloseTask.id == task_id)
            .values(done_at=now or utcnow(), error=error[:200] if error else None)
            .execution_options(synchronize_session=False)
        )


async def season_results(*, session: AsyncSession, season_id: int) -> list[SeasonResult]:
    """A closed season's final standings per division (the top division first), with moves."""
    rows = await session.execute(
        select(SeasonResult)
        .outerjoin(Division, Division.id == SeasonResult.division_id)
        .where(SeasonResult.season_id == season_id)
        .order_by(Division.level.is_(None), Division.level, SeasonResult.place)
    )
    results = list(rows.scalars().all())
    detached(session, *results)
    return results


async def close_tasks(*, session: AsyncSession, season_id: int) -> list[CloseTask]:
    rows = await session.execute(select(CloseTask).where(CloseTask.season_id == season_id).order_by(CloseTask.id))
    tasks = list(rows.scalars().all())
    detached(session, *tasks)
    return tasks


# ---------------------------------------------------------------------------- renaming and deleting


async def rename_league(*, session: AsyncSession, league_id: int, name: str, user_id: int) -> None:
    """`LeagueNameTakenError` if the server has a league of that name. Audited."""
    try:
        async with writing(session):
            await session.execute(
                update(League)
                .where(League.id == league_id)
                .values(name=name.strip())
                .execution_options(synchronize_session=False)
            )
            _audit(
                session, league_id=league_id, season_id=None, user_id=user_id, action="rename_league", name=name.strip()
            )
    except IntegrityError:
        raise LeagueNameTakenError("this server already has a league called {name!r}", name=name) from None


async def delete_league(*, session: AsyncSession, league_id: int) -> None:
    """The league and everything of it (seasons, links to games, ratings, divisions, audit);
    the games themselves stay."""
    async with writing(session):
        await session.execute(delete(League).where(League.id == league_id).execution_options(synchronize_session=False))
