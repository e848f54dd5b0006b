"""Leagues and their seasons: creating, renaming and deleting a league, its admin role, opening a season, and
the games that join a season (directly, or through their lobby).

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from storage.database import detached, writing
from storage.errors import (
    AlreadyInSeasonError,
    LeagueError,
    LeagueNameTakenError,
    LeagueNotFoundError,
    NotEligibleError,
    SeasonNotOpenError,
)
from storage.models import (
    SEASON_ACTIVE,
    GameRecord,
    League,
    LeagueAudit,
    LeagueGame,
    LeagueLobby,
    Lobby,
    Season,
    SeatRecord,
    utcnow,
)


def audit_entry(
    session: AsyncSession, *, league_id: int, season_id: int | None, user_id: int | None, action: str, **details: Any
) -> None:
    """One line of the league's audit log, written with the change it records."""
    session.add(LeagueAudit(league_id=league_id, season_id=season_id, user_id=user_id, action=action, details=details))


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
            audit_entry(
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
        audit_entry(
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
    season = await season_or_error(session, season_id)
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
    season = await season_or_error(session, season_id)
    _check_season_open(season, now)
    session.add(_rated_game(season, game_id=game_id, map_id=map_id, players=players, user_id=user_id, now=now))
    audit_entry(
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
    season = await season_or_error(session, season_id)
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
            audit_entry(session, league_id=season.league_id, season_id=season.id, user_id=user_id, **audit)
    except IntegrityError:
        raise duplicate from None
    detached(session, row)


async def season_or_error(session: AsyncSession, season_id: int) -> Season:
    """The season as stored now (raises `LeagueNotFoundError`)."""
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
            audit_entry(
                session, league_id=league_id, season_id=None, user_id=user_id, action="rename_league", name=name.strip()
            )
    except IntegrityError:
        raise LeagueNameTakenError("this server already has a league called {name!r}", name=name) from None


async def delete_league(*, session: AsyncSession, league_id: int) -> None:
    """The league and everything of it (seasons, links to games, ratings, divisions, audit);
    the games themselves stay."""
    async with writing(session):
        await session.execute(delete(League).where(League.id == league_id).execution_options(synchronize_session=False))
