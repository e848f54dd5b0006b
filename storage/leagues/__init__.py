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

One module per concern: `seasons` (leagues, seasons, the games that join them), `rerating`
(ratings rebuilt), `standings` (standings, profiles, the audit log), `exports` (CSV), `divisions`
(divisions and reward roles), `turnover` (opening and closing seasons). The tables are in storage/models.py, the rating maths (pure, no SQL) in storage/ratings.py, the
refusals (`LeagueError` and its subclasses) in storage/errors.py.

Every function is keyword-only and takes the session; write functions commit.
"""

from storage.errors import LeagueError
from storage.leagues.divisions import (
    league_divisions,
    league_rewards,
    place_player,
    placements,
    remove_division,
    set_division,
    set_reward,
)
from storage.leagues.exports import RESULTS_COLUMNS, STANDINGS_COLUMNS, export_results_csv, export_standings_csv
from storage.leagues.rerating import needs_recompute, recompute_season, settle_game, turns_taken, void_game
from storage.leagues.seasons import (
    active_season,
    add_new_game,
    attach_game,
    attach_lobby,
    check_game_fits,
    create_league,
    delete_league,
    get_league,
    get_season,
    guild_leagues,
    league_game,
    league_seasons,
    rename_league,
    season_games,
    season_of_game,
    set_admin_role,
)
from storage.leagues.standings import Profile, RecentGame, Standing, audit_log, player_profile, standings
from storage.leagues.turnover import (
    TASK_LEASE_SECONDS,
    claim_close_tasks,
    close_season,
    close_tasks,
    create_season,
    division_moves,
    due_seasons,
    finish_close_task,
    season_results,
)
from storage.models import SEASON_ACTIVE, League, LeagueGame, RoleHolder, Season
from storage.ratings import OVERALL, Unrated, unrated_reason

__all__ = [
    "LeagueError",
    "SEASON_ACTIVE",
    "League",
    "LeagueGame",
    "RoleHolder",
    "Season",
    "OVERALL",
    "Unrated",
    "unrated_reason",
    "active_season",
    "add_new_game",
    "attach_game",
    "attach_lobby",
    "check_game_fits",
    "create_league",
    "delete_league",
    "get_league",
    "get_season",
    "guild_leagues",
    "league_game",
    "league_seasons",
    "rename_league",
    "season_games",
    "season_of_game",
    "set_admin_role",
    "needs_recompute",
    "recompute_season",
    "settle_game",
    "turns_taken",
    "void_game",
    "Profile",
    "RecentGame",
    "Standing",
    "audit_log",
    "player_profile",
    "standings",
    "RESULTS_COLUMNS",
    "STANDINGS_COLUMNS",
    "export_results_csv",
    "export_standings_csv",
    "league_divisions",
    "league_rewards",
    "place_player",
    "placements",
    "remove_division",
    "set_division",
    "set_reward",
    "TASK_LEASE_SECONDS",
    "claim_close_tasks",
    "close_season",
    "close_tasks",
    "create_season",
    "division_moves",
    "due_seasons",
    "finish_close_task",
    "season_results",
]
