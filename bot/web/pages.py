"""The web table's pages of public data, each behind a signed link of its own (bot/web/links.py
`page_url`): a finished game's replay on the map, move by move; a league season's standings and a
tournament's standings and tables, read-only, built as the Discord commands build them
(bot/standings.py) and drawn as HTML tables (no script).

    GET /web/replay/<token>              the replay page (its script: src/replay.ts)
    GET /web/replay/<token>/steps.json   every step of the game (bot/web/replay.py), built once
    GET /web/league/<token>              a league season's standings
    GET /web/tournament/<token>          a tournament's standings and tables

A game still running is refused: its replay would show what the table does not show yet."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from html import escape

from aiohttp import web

from bot.standings import bracket, ladder, member_name
from bot.web.links import LinkRefused
from bot.web.replay import replay_json
from bot.web.server import HEADERS, WebTable, accepted_language, refused_page
from engine.errors import TemplateError
from i18n import Translator, translator
from storage import leagues as stored_leagues
from storage import tournaments as stored_tournaments

#: Finished games' steps kept encoded, per game and language (a replay is opened by a few people
#: at once, when the final results are posted).
CACHED = 16


def replay_words(t: Translator) -> dict[str, str]:
    """The replay page's own words in the viewer's language; `{n}`-style holes filled by the page."""
    return {
        "previous": t.pgettext("button", "Previous move"),
        "next": t.pgettext("button", "Next move"),
        "step": t.gettext("Move {n} of {total}"),
        "start": t.gettext("The game begins: everyone chooses tickets."),
        "deck": t.pgettext("button", "Deck"),
        "tickets": t.pgettext("button", "Tickets"),
        "score": t.pgettext("column", "Score"),
        "trains": t.pgettext("column", "Trains"),
        "cards": t.pgettext("column", "Cards"),
        "tickets_count": t.pgettext("column", "Tickets"),
    }


def html(t: Translator, boot: dict, script: str) -> str:
    """A page: its start-up data as a JSON block (no inline script: the CSP allows none) and its script."""
    data = json.dumps(boot, ensure_ascii=False).replace("</", "<\\/")
    return (
        f'<!doctype html><html lang="{t.language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="/web/static/app.css"><title>Ticket to Ride</title></head><body>'
        f'<script id="boot" type="application/json">{data}</script>'
        f'<script src="/web/static/{script}" defer></script></body></html>'
    )


#: A server's language (its channel posts').
GuildLanguage = Callable[[int], Awaitable[Translator]]
#: A user's name on a server: (the reader's translator, server id, user id, stored name).
GuildName = Callable[[Translator, int, int, str | None], str]


async def _english(guild_id: int) -> Translator:
    return translator()


def table_html(head: list[str], rows: list[list[str]], *, marked: list[bool] | None = None) -> str:
    """An HTML table of plain text cells (every cell escaped); `marked` rows are in bold."""
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        ('<tr class="current">' if marked and marked[i] else "<tr>")
        + "".join(f"<td>{escape(c)}</td>" for c in row)
        + "</tr>"
        for i, row in enumerate(rows)
    )
    return f"<table><tr>{cells}</tr>{body}</table>"


def static_page(t: Translator, body: str) -> web.Response:
    page = (
        f'<!doctype html><html lang="{t.language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="stylesheet" href="/web/static/app.css"><title>Ticket to Ride</title></head>'
        f'<body><main class="standings">{body}</main></body></html>'
    )
    return web.Response(text=page, content_type="text/html", headers=HEADERS)


class Pages:
    def __init__(
        self, table: WebTable, *, guild_language: GuildLanguage = _english, name: GuildName | None = None
    ) -> None:
        self.web = table
        self.guild_language = guild_language
        self.name = name or (lambda t, guild, user, stored: member_name(t, None, user, stored))
        self._replays: OrderedDict[tuple[int, str], bytes] = OrderedDict()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/web/replay/{token}", self.replay_page)
        app.router.add_get("/web/replay/{token}/steps.json", self.replay_steps)
        app.router.add_get("/web/league/{token}", self.league_page)
        app.router.add_get("/web/tournament/{token}", self.tournament_page)

    # ------------------------------------------------------------------ a league season, a tournament

    async def league_page(self, request: web.Request) -> web.Response:
        try:
            season_id = self.web.signer.check_page("l", request.match_info["token"])
        except LinkRefused as exc:
            return refused_page(accepted_language(request), exc.why, 403)
        async with self.web.service.storage.sessions() as session:
            season = await stored_leagues.get_season(session=session, season_id=season_id)
            league = season and await stored_leagues.get_league(session=session, league_id=season.league_id)
            if season is None or league is None:
                return refused_page(accepted_language(request), "gone", 404)
            table, below = await stored_leagues.standings(session=session, season_id=season.id)
        t = await self.guild_language(league.guild_id)
        shown = ladder(t, league, season, table, below, name=lambda u, s: self.name(t, league.guild_id, u, s))
        head = ["#", t.gettext("Player"), t.gettext("Rating"), t.gettext("Games"), t.gettext("Wins")]
        rows = [[str(r.place), r.name, f"{r.rating:.1f}", str(r.games), str(r.wins)] for r in shown.rows]
        note = f'<p class="note">{escape(shown.note)}</p>' if shown.note else ""
        return static_page(
            t,
            f"<h1>{escape(shown.title)}</h1><p>{escape(shown.subtitle)}</p>{table_html(head, rows)}{note}",
        )

    async def tournament_page(self, request: web.Request) -> web.Response:
        try:
            tournament_id = self.web.signer.check_page("t", request.match_info["token"])
        except LinkRefused as exc:
            return refused_page(accepted_language(request), exc.why, 403)
        async with self.web.service.storage.sessions() as session:
            tournament = await stored_tournaments.get_tournament(session=session, tournament_id=tournament_id)
            if tournament is None:
                return refused_page(accepted_language(request), "gone", 404)
            table = await stored_tournaments.standings(session=session, tournament_id=tournament.id)
            every = await stored_tournaments.tables(session=session, tournament_id=tournament.id)
            names = await stored_tournaments.names(session=session, user_ids=[s.user_id for s in table])
        t = await self.guild_language(tournament.guild_id)
        shown = bracket(t, tournament, table, every, name=lambda u: self.name(t, tournament.guild_id, u, names.get(u)))
        head = [
            "#",
            t.gettext("Player"),
            t.gettext("Points"),
            t.gettext("Score"),
            t.gettext("Opp."),
            t.gettext("Tables"),
        ]
        rows = [
            [str(r.place), r.name, f"{r.points:g}", str(r.score), f"{r.strength:g}", str(r.tables)] for r in shown.rows
        ]
        parts = [f"<h1>{escape(shown.standings_title)}</h1><p>{escape(shown.subtitle)}</p>", table_html(head, rows)]
        parts.append(f"<h1>{escape(shown.tables_title)}</h1><p>{escape(shown.format)}</p>")
        for n, box in enumerate(shown.tables):  # as the picture: a round's tables under its heading
            if n == 0 or shown.tables[n - 1].round != box.round:
                parts.append(f"<h2>{escape(t.gettext('Round {n}', n=box.round))}</h2>")
            seats = [[str(place) if place is not None else "", who] for who, place in box.players]
            advanced = [bool(a) for a in box.advanced] or None  # knockout: who went on, in bold
            parts.append(table_html(["#", t.gettext("Table {n}", n=box.number)], seats, marked=advanced))
        return static_page(t, "".join(parts))

    async def _finished(self, request: web.Request):
        """The finished game a replay link names, or a refusal page's reason and status."""
        try:
            game_id = self.web.signer.check_page("r", request.match_info["token"])
        except LinkRefused as exc:
            return None, (exc.why, 403)
        try:
            table = await self.web.service.table(game_id)
        except TemplateError:
            return None, ("game", 404)
        if not table.game.is_over():  # still running (or ended by its host: no final results)
            return None, ("running", 403) if table.record.status == "active" else ("game", 404)
        return table, None

    async def replay_page(self, request: web.Request) -> web.Response:
        table, refused = await self._finished(request)
        if refused is not None:
            return refused_page(accepted_language(request), *refused)
        t = await self.web.language(table, None)
        token = request.match_info["token"]
        boot = {
            "steps": f"/web/replay/{token}/steps.json",
            "board": f"/web/board/{table.game.map.id}/{t.language}/{t.city_names}.json",
            "words": replay_words(t),
        }
        return web.Response(text=html(t, boot, "replay.js"), content_type="text/html", headers=HEADERS)

    async def replay_steps(self, request: web.Request) -> web.Response:
        table, refused = await self._finished(request)
        if refused is not None:
            return web.json_response({"refused": refused[0]}, status=refused[1], headers=HEADERS)
        t = await self.web.language(table, None)
        key = (table.id, t.language)
        body = self._replays.get(key)
        if body is None:
            seats = await self.web.seats(table)
            data = await asyncio.to_thread(replay_json, t, table.game, table.game.log, lambda s: seats[s].name)
            data["seats"] = [{"name": s.name, "color": s.color} for s in seats]
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            self._replays[key] = body
            while len(self._replays) > CACHED:
                self._replays.popitem(last=False)
        self._replays.move_to_end(key)
        response = web.Response(body=body, content_type="application/json", headers=HEADERS)
        response.enable_compression()
        return response
