"""A league season's ladder and a tournament's standings and tables as rows and headings: what
`/ttr-league leaderboard` and `/ttr-tournament standings` draw as pictures (bot/cogs/) and the web
pages show as tables (bot/web/pages.py), built once for both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.errors import league_map_name
from i18n import NC_, Translator
from rendering.standings import LadderRow
from rendering.tournament import BracketTable, TournamentRow
from storage import leagues as stored_leagues
from storage import pairings
from storage.models import Tournament, TournamentTable

#: A user's name as shown: (user id, the name stored with their results, if any).
Name = Callable[[int, str | None], str]

FORMAT_WORDS = {
    pairings.SWISS: NC_("format", "Swiss"),
    pairings.ELIMINATION: NC_("format", "single elimination"),
    pairings.GROUPS: NC_("format", "group stage and final"),
}


def member_name(t: Translator, guild: discord.Guild | None, user_id: int, stored: str | None) -> str:
    """The member's name on the server, else the name stored with their results, else 'Player <id>'."""
    member = guild.get_member(user_id) if guild else None
    return member.display_name if member else stored or t.gettext("Player {id}", id=user_id)


@dataclass(frozen=True)
class Ladder:
    title: str
    subtitle: str
    note: str
    rows: list[LadderRow]


def ladder(
    t: Translator,
    league: stored_leagues.League,
    season: stored_leagues.Season,
    table: Sequence[stored_leagues.Standing],
    below: int,
    *,
    name: Name,
    map_id: str | None = None,
    division: str | None = None,
    me: int | None = None,
) -> Ladder:
    """A season's standings (`stored_leagues.standings`) with their heading and the note on who is not ranked yet."""
    rows = [
        LadderRow(s.place, name(s.user_id, s.name), s.rating, s.games, s.wins, highlight=s.user_id == me) for s in table
    ]
    scope = league_map_name(t, map_id) if map_id else t.gettext("all maps")
    if division is not None:
        scope = t.gettext("{division} · {ladder}", division=division, ladder=scope)
    note = (
        t.ngettext(
            "{n} more player with fewer than {min_games} games",
            "{n} more players with fewer than {min_games} games",
            below,
            min_games=season.min_games,
        )
        if below
        else ""
    )
    return Ladder(
        title=t.gettext("{league} · Standings", league=league.name),
        subtitle=t.gettext("{season} · {ladder} · rating = μ - 3σ (openskill)", season=season.name, ladder=scope),
        note=note,
        rows=rows,
    )


@dataclass(frozen=True)
class Bracket:
    standings_title: str
    subtitle: str
    rows: list[TournamentRow]
    tables_title: str
    format: str
    tables: list[BracketTable]


def bracket(
    t: Translator,
    tournament: Tournament,
    table: Sequence[pairings.Standing],
    every: Sequence[TournamentTable],
    *,
    name: Callable[[int], str],
    me: int | None = None,
) -> Bracket:
    """A tournament's standings (`storage.tournaments.standings`) and its tables (`tables`), round by round."""
    rows = [
        TournamentRow(
            s.place,
            name(s.user_id),
            s.points,
            s.score,
            s.strength,
            s.tables,
            dropped=s.dropped,
            highlight=s.user_id == me,
        )
        for s in table
    ]
    fmt = t.pgettext("format", FORMAT_WORDS[tournament.format])
    knockout = tournament.format != pairings.SWISS
    boxes = [
        BracketTable(
            x.round,
            x.number,
            [(name(u), x.ranks[i] if x.ranks else None) for i, u in enumerate(x.players)],
            [bool(knockout and x.ranks and x.ranks[i] <= tournament.advance) for i in range(len(x.players))],
        )
        for x in every
    ]
    return Bracket(
        standings_title=t.gettext("{tournament} · Standings", tournament=tournament.name),
        subtitle=t.gettext("{format} · points, then game score, then opponents' strength", format=fmt),
        rows=rows,
        tables_title=t.gettext("{tournament} · Tables", tournament=tournament.name),
        format=fmt,
        tables=boxes,
    )
