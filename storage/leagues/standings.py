"""What a league shows: standings (overall or per map), a player's profile, the audit log.

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached
from storage.leagues.seasons import season_or_error
from storage.models import (
    SEASON_ACTIVE,
    GameRecord,
    LeagueAudit,
    LeagueGame,
    LeagueRating,
    LeagueRatingChange,
    Placement,
    Player,
    Season,
    SeasonResult,
    SeatRecord,
)
from storage.ratings import (
    OVERALL,
    displayed,
)


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


async def player_names(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, str]:
    """The stored display names of these users (those with none left out)."""
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
    season = await season_or_error(session, season_id)
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
    names = await player_names(session, (r.user_id for r in qualified))
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
    season = await season_or_error(session, season_id)
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
    names = await player_names(session, [user_id])
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
