"""The web table's pages of public data, each behind a signed link of its own (bot/web/links.py
`page_url`): a finished game's replay on the map, move by move.

    GET /web/replay/<token>              the replay page (its script: src/replay.ts)
    GET /web/replay/<token>/steps.json   every step of the game (bot/web/replay.py), built once

A game still running is refused: its replay would show what the table does not show yet."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict

from aiohttp import web

from bot.web.links import LinkRefused
from bot.web.replay import replay_json
from bot.web.server import HEADERS, WebTable, accepted_language, refused_page
from engine.errors import TemplateError
from i18n import Translator

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


class Pages:
    def __init__(self, table: WebTable) -> None:
        self.web = table
        self._replays: OrderedDict[tuple[int, str], bytes] = OrderedDict()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/web/replay/{token}", self.replay_page)
        app.router.add_get("/web/replay/{token}/steps.json", self.replay_steps)

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
