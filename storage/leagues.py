"""Leagues: seasons of rated games on a server, openskill ratings, standings, audit, CSV export.

A guild has leagues (a name and a league-admin role); a league has seasons (dates, allowed maps
and player counts, a minimum number of games for the standings, whether the final ratings carry
over into the next season). At most one season of a league is `active`; opening a new one
closes it. A game joins the active season either directly (`attach_game`, a game already
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

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
from storage.models import (
    ABANDONED,
    FINISHED,
    SEASON_ACTIVE,
    SEASON_CLOSED,
    GameRecord,
    League,
    LeagueAudit,
    LeagueGame,
    LeagueLobby,
    LeagueRating,
    LeagueRatingChange,
    Lobby,
    Player,
    Season,
    SeatRecord,
    utcnow,
)
from storage.ratings import (
    OVERALL,
    GameResult,
    Unrated,  # noqa: F401  (bot/leagues.py reads `stored.Unrated` from here)
    compute_ratings,
    displayed,
    rating_places,
    unrated_reason,
)

# ---------------------------------------------------------------------------- helpers


def _audit(session: AsyncSession, *, league_id: int, season_id: int | None, user_id: int | None, action: str,
           **details: Any) -> None:
    session.add(LeagueAudit(league_id=league_id, season_id=season_id, user_id=user_id, action=action,
                            details=details))


# ---------------------------------------------------------------------------- leagues and seasons


async def create_league(*, session: AsyncSession, guild_id: int, name: str, created_by: int,
                        admin_role_id: int | None = None) -> League:
    """A new league; `LeagueError` if the server already has one of that name."""
    league = League(guild_id=guild_id, name=name.strip(), admin_role_id=admin_role_id, created_by=created_by)
    try:
        async with writing(session):
            session.add(league)
            await session.flush()
            _audit(session, league_id=league.id, season_id=None, user_id=created_by, action="create_league",  # type: ignore[arg-type]
                   name=league.name, admin_role_id=admin_role_id)
    except IntegrityError:
        raise LeagueNameTakenError("this server already has a league called {name!r}", name=name) from None
    detached(session, league)
    return league


async def set_admin_role(*, session: AsyncSession, league_id: int, admin_role_id: int | None, user_id: int) -> None:
    async with writing(session):
        await session.execute(update(League).where(League.id == league_id).values(admin_role_id=admin_role_id)
                              .execution_options(synchronize_session=False))
        _audit(session, league_id=league_id, season_id=None, user_id=user_id, action="set_admin_role",
               admin_role_id=admin_role_id)


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
) -> Season:
    """Open a season (the league's active one); the season active until now is closed in the
    same transaction. `LeagueError` for a duplicate name or an end before the start."""
    if ends_at <= starts_at:
        raise InvalidSeasonError("a season must end after it starts")
    season = Season(league_id=league_id, name=name.strip(), starts_at=starts_at, ends_at=ends_at,
                    maps=sorted(set(maps)), player_counts=sorted(set(player_counts)), min_games=max(0, min_games),
                    carry_over=carry_over, status=SEASON_ACTIVE)
    try:
        async with writing(session):
            closed = await session.execute(
                update(Season).where(Season.league_id == league_id, Season.status == SEASON_ACTIVE)
                .values(status=SEASON_CLOSED).returning(Season.id).execution_options(synchronize_session=False))
            closed_ids = [i for (i,) in closed]
            session.add(season)
            await session.flush()
            for old in closed_ids:
                _audit(session, league_id=league_id, season_id=old, user_id=created_by, action="close_season")
            _audit(session, league_id=league_id, season_id=season.id, user_id=created_by, action="create_season",
                   name=season.name, starts_at=starts_at.isoformat(), ends_at=ends_at.isoformat(), maps=season.maps,
                   player_counts=season.player_counts, min_games=season.min_games, carry_over=carry_over)
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
    rows = await session.execute(select(Season).where(Season.league_id == league_id)
                                 .order_by(Season.starts_at, Season.id))
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
        raise SeasonNotOpenError("season {season!r} starts on {date}", season=season.name,
                          date=season.starts_at.date().isoformat())
    if now >= season.ends_at:
        raise SeasonNotOpenError("season {season!r} ended on {date}", season=season.name,
                          date=season.ends_at.date().isoformat())


def check_game_fits(season: Season, *, map_id: str, players: int | None) -> None:
    """`LeagueError` if the season does not allow this map or number of players."""
    if season.maps and map_id not in season.maps:
        raise NotEligibleError("season {season!r} is played on {maps}, not {map}", season=season.name,
                          maps=list(season.maps), map=map_id)
    if players is not None and season.player_counts and players not in season.player_counts:
        raise NotEligibleError("season {season!r} allows games of {counts} players, not {players}", season=season.name,
                          counts=list(season.player_counts), players=players)


async def attach_game(*, session: AsyncSession, season_id: int, game_id: int, user_id: int | None,
                      now: datetime | None = None) -> LeagueGame:
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
    row = _rated_game(season, game_id=game_id, map_id=record.map_id, players=[s.user_id for s in seats],
                      user_id=user_id, now=now)
    await _add_audited(session, row, season, user_id, AlreadyInSeasonError("that game already belongs to a league season"),
                       action="add_game", game_id=game_id)
    return row


async def add_new_game(*, session: AsyncSession, season_id: int, game_id: int, map_id: str,
                       players: Sequence[int | None], user_id: int | None, now: datetime | None = None) -> None:
    """Make a game part of a season inside the transaction that creates it (storage.games.create_game's
    `link`: tables the bot makes for a queue or a tournament), checked as `attach_game` checks."""
    now = now or utcnow()
    season = await _season_or_error(session, season_id)
    _check_season_open(season, now)
    session.add(_rated_game(season, game_id=game_id, map_id=map_id, players=players, user_id=user_id, now=now))
    _audit(session, league_id=season.league_id, season_id=season.id, user_id=user_id, action="add_game",
           game_id=game_id)


def _rated_game(season: Season, *, game_id: int, map_id: str, players: Sequence[int | None], user_id: int | None,
                now: datetime) -> LeagueGame:
    """The season's link to a game it may rate: its map and player count allowed, no AI seat."""
    check_game_fits(season, map_id=map_id, players=len(players))
    if any(user is None for user in players):
        raise NotEligibleError("games with AI seats are not rated")
    return LeagueGame(game_id=game_id, season_id=season.id, added_by=user_id, added_at=now)


async def attach_lobby(*, session: AsyncSession, season_id: int, lobby_id: int, user_id: int | None,
                       now: datetime | None = None) -> LeagueLobby:
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
        raise NotEligibleError("season {season!r} needs at least {players} players; this lobby takes at most {seats}",
                          season=season.name, players=min(season.player_counts), seats=lobby.max_seats)
    row = LeagueLobby(lobby_id=lobby_id, season_id=season_id, added_by=user_id, added_at=now)
    await _add_audited(session, row, season, user_id, AlreadyInSeasonError("that lobby already belongs to a league season"),
                       action="add_lobby", lobby_id=lobby_id)
    return row


async def _add_audited(session: AsyncSession, row: SQLModel, season: Season, user_id: int | None,
                       duplicate: LeagueError, **audit: Any) -> None:
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
    return (await session.execute(
        select(LeagueLobby.season_id).join(Lobby, Lobby.id == LeagueLobby.lobby_id).where(Lobby.game_id == game_id)
    )).scalar()


async def league_game(*, session: AsyncSession, game_id: int) -> LeagueGame | None:
    row = await session.get(LeagueGame, game_id, populate_existing=True)
    detached(session, row)
    return row


async def season_games(*, session: AsyncSession, season_id: int) -> list[LeagueGame]:
    rows = await session.execute(select(LeagueGame).where(LeagueGame.season_id == season_id)
                                 .order_by(LeagueGame.finished_at.is_(None), LeagueGame.finished_at, LeagueGame.game_id))
    games = list(rows.scalars().all())
    detached(session, *games)
    return games


# ---------------------------------------------------------------------------- recompute


async def _previous_season(session: AsyncSession, season: Season) -> Season | None:
    rows = await session.execute(
        select(Season).where(Season.league_id == season.league_id, Season.id != season.id,
                             sa.or_(Season.starts_at < season.starts_at,
                                    sa.and_(Season.starts_at == season.starts_at, Season.id < season.id)))
        .order_by(Season.starts_at.desc(), Season.id.desc()).limit(1))
    return rows.scalar_one_or_none()


async def _next_season(session: AsyncSession, season: Season) -> int | None:
    rows = await session.execute(
        select(Season.id).where(Season.league_id == season.league_id, Season.id != season.id,
                                sa.or_(Season.starts_at > season.starts_at,
                                       sa.and_(Season.starts_at == season.starts_at, Season.id > season.id)))
        .order_by(Season.starts_at, Season.id).limit(1))
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
            select(LeagueLobby, Lobby.game_id).join(Lobby, Lobby.id == LeagueLobby.lobby_id)
            .where(LeagueLobby.season_id == season_id, Lobby.game_id.is_not(None),
                   ~sa.exists().where(LeagueGame.game_id == Lobby.game_id)))
        for link, game_id in pending.all():
            session.add(LeagueGame(game_id=game_id, season_id=season_id, added_by=link.added_by, added_at=link.added_at))
        await session.flush()
        rows = (await session.execute(
            select(LeagueGame, GameRecord).join(GameRecord, GameRecord.id == LeagueGame.game_id)
            .where(LeagueGame.season_id == season_id))).all()
        ids = [g.game_id for g, _ in rows]
        seats_by_game: dict[int, list[SeatRecord]] = {i: [] for i in ids}
        if ids:
            for seat in (await session.execute(select(SeatRecord).where(SeatRecord.game_id.in_(ids))
                                               .order_by(SeatRecord.seat))).scalars():
                seats_by_game[seat.game_id].append(seat)
        results: list[tuple[datetime, int, GameResult]] = []
        for link, record in rows:
            seats = seats_by_game[link.game_id]
            if record.status not in (FINISHED, ABANDONED):
                rated, note, finished = None, None, None
            else:
                reason = unrated_reason(record, seats, season)
                rated, finished = reason is None, record.finished_at or record.updated_at
                note = None if reason is None else str(reason)
            if (link.rated, link.note, link.finished_at) != (rated, note, finished):
                link.rated, link.note, link.finished_at = rated, note, finished
            if rated and not link.voided:
                results.append((finished, link.game_id, GameResult(link.game_id, record.map_id,  # type: ignore[arg-type]
                                                                     rating_places(seats))))
        results.sort(key=lambda r: (r[0], r[1]))
        priors: dict[tuple[str, int], tuple[float, float]] = {}
        previous = await _previous_season(session, season)
        if previous is not None and previous.carry_over:
            for r in (await session.execute(select(LeagueRating).where(LeagueRating.season_id == previous.id))).scalars():
                priors[(r.scope, r.user_id)] = (r.mu, r.sigma)
        run = compute_ratings([r for _, _, r in results], priors)
        await session.execute(delete(LeagueRating).where(LeagueRating.season_id == season_id)
                              .execution_options(synchronize_session=False))
        await session.execute(delete(LeagueRatingChange).where(LeagueRatingChange.season_id == season_id)
                              .execution_options(synchronize_session=False))
        if run.ratings:
            await session.execute(LeagueRating.__table__.insert(), [
                {"season_id": season_id, "scope": scope, "user_id": user, "mu": s.mu, "sigma": s.sigma,
                 "games": s.games, "wins": s.wins} for (scope, user), s in run.ratings.items()])
        if run.changes:
            await session.execute(LeagueRatingChange.__table__.insert(),
                                  [{"season_id": season_id, **c} for c in run.changes])
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
        select(sa.literal(1)).select_from(LeagueGame).join(GameRecord, GameRecord.id == LeagueGame.game_id)
        .where(LeagueGame.season_id == season_id, LeagueGame.rated.is_(None),
               GameRecord.status.in_((FINISHED, ABANDONED))).limit(1))
    if unsettled.first() is not None:
        return True
    unlinked = await session.execute(
        select(sa.literal(1)).select_from(LeagueLobby).join(Lobby, Lobby.id == LeagueLobby.lobby_id)
        .where(LeagueLobby.season_id == season_id, Lobby.game_id.is_not(None),
               ~sa.exists().where(LeagueGame.game_id == Lobby.game_id)).limit(1))
    return unlinked.first() is not None


async def void_game(*, session: AsyncSession, game_id: int, user_id: int | None, reason: str | None = None,
                    restore: bool = False) -> LeagueGame:
    """Void (or, `restore`, un-void) a league game's result and rebuild the season's ratings
    from the remaining games in order. Audited."""
    async with writing(session):
        row = await session.get(LeagueGame, game_id, populate_existing=True)
        if row is None:
            raise LeagueNotFoundError("game {game} is not a league game", game=game_id)
        if row.voided == (not restore):
            raise (VoidStateError("game {game} is already voided", game=game_id) if row.voided
                   else VoidStateError("game {game} is not voided", game=game_id))
        season = await _season_or_error(session, row.season_id)
        row.voided = not restore
        _audit(session, league_id=season.league_id, season_id=season.id, user_id=user_id,
               action="restore_game" if restore else "void_game", game_id=game_id, reason=reason)
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


async def standings(*, session: AsyncSession, season_id: int, scope: str = OVERALL,
                    min_games: int | None = None) -> tuple[list[Standing], int]:
    """The ladder: players with at least `min_games` (default: the season's) rated games, best
    displayed rating first; and how many more players have fewer games."""
    season = await _season_or_error(session, season_id)
    need = season.min_games if min_games is None else min_games
    rows = list((await session.execute(select(LeagueRating).where(LeagueRating.season_id == season_id,
                                                                 LeagueRating.scope == scope))).scalars())
    qualified = [r for r in rows if r.games >= need and r.games > 0]
    qualified.sort(key=lambda r: (-displayed(r.mu, r.sigma), -r.games, r.user_id))
    names = await _names(session, (r.user_id for r in qualified))
    table = [Standing(i, r.user_id, names.get(r.user_id), r.mu, r.sigma, r.games, r.wins)
             for i, r in enumerate(qualified, start=1)]
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

    @property
    def ticket_rate(self) -> float | None:
        total = self.tickets_completed + self.tickets_failed
        return self.tickets_completed / total if total else None


async def player_profile(*, session: AsyncSession, season_id: int, user_id: int, recent: int = 5) -> Profile:
    """A player's season: ratings, place, totals over rated games, the latest games."""
    season = await _season_or_error(session, season_id)
    detached(session, season)
    ratings = {r.scope: r for r in (await session.execute(
        select(LeagueRating).where(LeagueRating.season_id == season_id, LeagueRating.user_id == user_id))).scalars()}
    overall = ratings.get(OVERALL)
    table, _ = await standings(session=session, season_id=season_id)
    place = next((s.place for s in table if s.user_id == user_id), None)
    counted = (select(LeagueGame.game_id).where(LeagueGame.season_id == season_id, LeagueGame.rated.is_(True),
                                                LeagueGame.voided.is_(False)))
    seats = (await session.execute(
        select(SeatRecord, GameRecord.map_id, GameRecord.seats, LeagueGame.finished_at)
        .join(GameRecord, GameRecord.id == SeatRecord.game_id)
        .join(LeagueGame, LeagueGame.game_id == SeatRecord.game_id)
        .where(SeatRecord.user_id == user_id, SeatRecord.game_id.in_(counted))
        .order_by(LeagueGame.finished_at, SeatRecord.game_id))).all()
    changes = {c.game_id: c for c in (await session.execute(
        select(LeagueRatingChange).where(LeagueRatingChange.season_id == season_id,
                                         LeagueRatingChange.user_id == user_id,
                                         LeagueRatingChange.scope == OVERALL))).scalars()}
    scores = [s.final_score for s, *_ in seats if s.final_score is not None]
    history = []
    games = []
    for seat, map_id, n, finished in seats:
        change = changes.get(seat.game_id)
        if change is not None:
            history.append(displayed(change.mu_after, change.sigma_after))
        delta = (displayed(change.mu_after, change.sigma_after) - displayed(change.mu_before, change.sigma_before)
                 if change else None)
        games.append(RecentGame(seat.game_id, finished, map_id, n, change.rank if change else (seat.rank or 0),
                                seat.final_score, delta))
    names = await _names(session, [user_id])
    return Profile(
        user_id=user_id, name=names.get(user_id), season=season,
        rating=overall.displayed if overall else None, mu=overall.mu if overall else None,
        sigma=overall.sigma if overall else None, place=place,
        map_ratings={scope: r.displayed for scope, r in sorted(ratings.items()) if scope != OVERALL},
        games=len(seats), wins=sum(1 for g in games if g.rank == 1),
        average_score=sum(scores) / len(scores) if scores else None,
        tickets_completed=sum(s.tickets_completed or 0 for s, *_ in seats),
        tickets_failed=sum(s.tickets_failed or 0 for s, *_ in seats),
        longest_bonuses=sum(1 for s, *_ in seats if s.longest_bonus),
        recent=list(reversed(games[-recent:])) if recent else [],
        history=history,
    )


async def audit_log(*, session: AsyncSession, league_id: int, limit: int = 20) -> list[LeagueAudit]:
    """The league's admin actions, newest first."""
    rows = await session.execute(select(LeagueAudit).where(LeagueAudit.league_id == league_id)
                                 .order_by(LeagueAudit.created_at.desc(), LeagueAudit.id.desc()).limit(limit))
    entries = list(rows.scalars().all())
    detached(session, *entries)
    return entries


RESULTS_COLUMNS = ("game_id", "finished_at", "map", "players", "status", "note", "seat", "user_id", "name",
                   "game_rank", "rating_rank", "left", "score", "tickets_completed", "tickets_failed",
                   "longest_bonus", "rating_before", "rating_after")
STANDINGS_COLUMNS = ("place", "user_id", "name", "rating", "mu", "sigma", "games", "wins")


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


async def export_results_csv(*, session: AsyncSession, season_id: int) -> str:
    """Every game of the season, one row per seat: result, whether and how it was rated
    (status: rated, voided, unrated, pending), and the overall rating before and after."""
    games = await season_games(session=session, season_id=season_id)
    ids = [g.game_id for g in games]
    records = {r.id: r for r in (await session.execute(select(GameRecord).where(GameRecord.id.in_(ids)))).scalars()}
    seats = list((await session.execute(select(SeatRecord).where(SeatRecord.game_id.in_(ids))
                                        .order_by(SeatRecord.game_id, SeatRecord.seat))).scalars())
    changes = {(c.game_id, c.user_id): c for c in (await session.execute(
        select(LeagueRatingChange).where(LeagueRatingChange.season_id == season_id,
                                         LeagueRatingChange.scope == OVERALL))).scalars()}
    names = await _names(session, (s.user_id for s in seats if s.user_id is not None))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULTS_COLUMNS)
    by_game: dict[int, list[SeatRecord]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    for game in games:
        record = records[game.game_id]
        status = ("pending" if game.rated is None else "voided" if game.voided else
                  "rated" if game.rated else "unrated")
        for seat in by_game.get(game.game_id, []):
            change = changes.get((game.game_id, seat.user_id))  # type: ignore[arg-type]
            writer.writerow([
                game.game_id, game.finished_at.isoformat() if game.finished_at else "", record.map_id, record.seats,
                status, game.note or "", seat.seat + 1, seat.user_id or "", names.get(seat.user_id, "") if seat.user_id else "AI",
                seat.rank or "", change.rank if change else "", seat.left or "",
                "" if seat.final_score is None else seat.final_score,
                "" if seat.tickets_completed is None else seat.tickets_completed,
                "" if seat.tickets_failed is None else seat.tickets_failed,
                "" if seat.longest_bonus is None else int(seat.longest_bonus),
                _fmt(displayed(change.mu_before, change.sigma_before) if change else None),
                _fmt(displayed(change.mu_after, change.sigma_after) if change else None),
            ])
    return out.getvalue()


async def export_standings_csv(*, session: AsyncSession, season_id: int, scope: str = OVERALL) -> str:
    """The season's ladder (every rated player, also those below the minimum of games)."""
    table, _ = await standings(session=session, season_id=season_id, scope=scope, min_games=1)
    season = await _season_or_error(session, season_id)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((*STANDINGS_COLUMNS, "qualified"))
    for s in table:
        writer.writerow([s.place, s.user_id, s.name or "", f"{s.rating:.3f}", f"{s.mu:.3f}", f"{s.sigma:.3f}",
                         s.games, s.wins, int(s.games >= season.min_games)])
    return out.getvalue()
