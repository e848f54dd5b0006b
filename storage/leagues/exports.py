"""A season's results and standings as CSV, for organizers' own tools.

Every function is keyword-only and takes the session; write functions commit.
"""

from __future__ import annotations

import csv
import io

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.leagues.seasons import season_games, season_or_error
from storage.leagues.standings import player_names, standings
from storage.models import (
    GameRecord,
    LeagueRatingChange,
    SeatRecord,
)
from storage.ratings import (
    OVERALL,
    displayed,
)

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
    names = await player_names(session, (s.user_id for s in seats if s.user_id is not None))
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
    season = await season_or_error(session, season_id)
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
