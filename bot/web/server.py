"""The web table's routes on the bot's own aiohttp server (the one of /healthz, bot/health.py).

    GET  /web/t/<token>            the page (HTML; the token is the link, docs/web.md)
    GET  /web/api/<token>/events   server-sent events: the viewer's frame now, then after every change
    POST /web/api/<token>/act      a move for the link's seat, through `GameService.act` as a button's
    POST /web/api/<token>/revoke   every link to the seat issued so far stops working (this one too)
    GET  /web/board/<map>/<lang>/<names>.json   a map's drawing (public, cached)
    GET  /web/static/<file>        the page's script and style (built by esbuild, docs/web.md)

Every request carries its token and is checked (signature, expiry, revocation, that the seat is still
its player's); a move is the seat's own, one of its legal moves now, with the decision token it was
offered under. Each open event stream is told of every outcome of its game (a listener of the
service, before the announcer) and sends its viewer their own frame: a spectator's has no private data.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path

from aiohttp import web

from bot.errors import reason
from bot.service import Cause, CauseKind, GameService, Outcome, Table
from bot.web.board import board_json
from bot.web.frames import Seat, chosen, frame
from bot.web.links import LinkRefused, Pass, Signer
from bot.web.replay import last_lines
from engine.errors import TemplateError
from engine.mapdata import load_map
from i18n import Translator, translator
from i18n.translator import CITY_NAMES, LANGUAGES
from storage import move_feed
from texts.present import describe, drawn, merge_turn

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: The largest move request read (bytes): a move is a line of notation and a number.
MAX_BODY = 2048
#: Seconds an idle event stream waits before it looks at the stored game (a move another process
#: made) and, when nothing changed, sends a keep-alive comment (proxies close silent streams).
KEEPALIVE = 20.0
#: Open event streams one game may have at once (a spectator link shared widely, or a script):
#: more are refused (429) rather than let one game's viewers use up the server.
MAX_STREAMS = 100
#: Lines of the last moves kept per game and language.
LOG_LINES = 12

#: A seat's (None: a spectator's) language: a player's own, else the channel's.
LanguageOf = Callable[[Table, int | None], Awaitable[Translator]]
#: Every seat's name and colour, as the table shows them.
SeatsOf = Callable[[Table], Awaitable[list[Seat]]]

HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the link is the key: no page it leads to learns it
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}


def words(t: Translator) -> dict[str, str]:
    """The page's own words in the viewer's language; `{name}`-style holes are filled by the page."""
    return {
        "deck": t.pgettext("button", "Deck"),
        "tickets": t.pgettext("button", "Tickets"),
        "keep": t.gettext("Keep the chosen tickets"),
        "keep_at_least": t.gettext("Keep at least {n}"),
        "hand": t.gettext("Your hand"),
        "your_tickets": t.gettext("Your tickets"),
        "log": t.gettext("Last moves"),
        "spectating": t.gettext("You are watching: only what the table shows."),
        "your_turn": t.gettext("Your turn."),
        "turn_of": t.gettext("{name} is playing."),
        "choosing": t.gettext("Everyone is choosing tickets."),
        "pay": t.gettext("How do you pay for {route}?"),
        "station": t.gettext("Build a station in {city}?"),
        "cancel": t.pgettext("button", "Cancel"),
        "tunnel": t.gettext("Tunnel {route}: cards to add: {n}"),
        "passenger": t.gettext("Where does your passenger go from {city}?"),
        "other": t.gettext("Other moves"),
        "share": t.pgettext("button", "Copy a link for spectators"),
        "revoke": t.pgettext("button", "Stop every link to my seat"),
        "copied": t.gettext("Copied: anyone with this link sees the table, never your cards."),
        "over": t.gettext("The game is over."),
        "offline": t.gettext("Reconnecting…"),
        "score": t.pgettext("column", "Score"),
        "trains": t.pgettext("column", "Trains"),
        "cards": t.pgettext("column", "Cards"),
        "tickets_count": t.pgettext("column", "Tickets"),
    }


def refused_page(t: Translator, why: str, status: int) -> web.Response:
    text = {
        "forged": t.gettext("This link is not valid. Open the map again from your panel in Discord."),
        "expired": t.gettext("This link has expired. Open the map again from your panel in Discord."),
        "revoked": t.gettext("This link was revoked. Open the map again from your panel in Discord."),
        "seat": t.gettext("This seat is no longer yours. Open the map again from your panel in Discord."),
        "game": t.gettext("This game is not here any more."),
        "gone": t.gettext("This page is not here any more."),
        "running": t.gettext("This game is still being played: its replay opens when it is over."),
    }[why]
    body = (
        f'<!doctype html><html lang="{t.language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="stylesheet" href="/web/static/app.css"><title>Ticket to Ride</title></head>'
        f'<body><main class="refused"><h1>🚂</h1><p id="refused">{escape(text)}</p></main></body></html>'
    )
    return web.Response(text=body, status=status, content_type="text/html", headers=HEADERS)


def accepted_language(request: web.Request) -> Translator:
    """For a page no seat's language is known for (a refused link): the browser's, if we speak it."""
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return translator(code)
    return translator()


class Refused(Exception):
    def __init__(self, why: str, status: int = 403) -> None:
        super().__init__(why)
        self.why, self.status = why, status


class WebTable:
    def __init__(self, service: GameService, signer: Signer, *, language: LanguageOf, seats: SeatsOf) -> None:
        self.service = service
        self.signer = signer
        self.language = language
        self.seats = seats
        #: game id -> each open stream's event (set when the game changed) and its viewer's language
        self._streams: dict[int, dict[asyncio.Event, str]] = defaultdict(dict)
        #: game id -> language -> the game's version they go up to, and the last moves, described
        #: when they happened (or rebuilt from the log, `_log`)
        self._logs: dict[int, dict[str, tuple[int, deque[str]]]] = defaultdict(dict)
        self._closing = False
        #: streams woken by another process's move: they read the stored game, not this process's copy
        self._moved_elsewhere: set[asyncio.Event] = set()
        self._stop_listening: Callable[[], Awaitable[None]] | None = None

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/web/t/{token}", self.page)
        app.router.add_get("/web/api/{token}/events", self.events)
        app.router.add_post("/web/api/{token}/act", self.act)
        app.router.add_post("/web/api/{token}/revoke", self.revoke)
        app.router.add_get("/web/board/{map}/{language}/{names}.json", self.board)
        app.router.add_static("/web/static/", STATIC, append_version=False)
        app.on_startup.append(self.listen)
        app.on_shutdown.append(self.close)

    async def listen(self, app: web.Application | None = None) -> None:
        """Hear the moves every process stores (PostgreSQL: storage/move_feed.py), so a stream
        shows another shard's move at once; on SQLite, or if the database refuses, the quiet
        stream's look at the stored game (KEEPALIVE) is what remains."""
        try:
            self._stop_listening = await move_feed.listen(self.service.storage.engine, self.moved_elsewhere)
        except Exception:  # noqa: BLE001 - the web table works without it, only later
            log.exception("the web table cannot hear other processes' moves: their moves show within %ss", KEEPALIVE)

    def moved_elsewhere(self, game_id: int, version: int) -> None:
        """A process stored `version` of `game_id`: unless it was this one (its move woke the streams
        already, `on_outcome`), the game's streams look at the stored game."""
        known = self.service.cached_version(game_id)
        if known is not None and known >= version:
            return
        for changed in self._streams.get(game_id, ()):
            self._moved_elsewhere.add(changed)
            changed.set()

    async def close(self, app: web.Application | None = None) -> None:
        """End every event stream (the server is stopping: browsers reconnect to the next one)."""
        if self._stop_listening is not None:
            await self._stop_listening()
            self._stop_listening = None
        self._closing = True
        for streams in self._streams.values():
            for changed in streams:
                changed.set()

    # ------------------------------------------------------------------ checks

    async def admit(self, token: str) -> tuple[Pass, Table]:
        """The pass a token grants and its game, or Refused: a bad, expired or revoked token, a game
        that is gone, or a seat whose player changed since (a replaced or removed player)."""
        try:
            granted = self.signer.check(token)
        except LinkRefused as exc:
            raise Refused(exc.why) from None
        try:
            table = await self.service.table(granted.game_id)
        except TemplateError:
            raise Refused("game", 404) from None
        self.still_good(granted, table)
        return granted, table

    @staticmethod
    def still_good(granted: Pass, table: Table) -> None:
        """Refused unless the pass still holds for the game as it is: not expired, its seat still
        a player's, and not revoked since it was issued."""
        if time.time() >= granted.expires:
            raise Refused("expired")
        if granted.seat is not None:
            record = next((s for s in table.seats if s.seat == granted.seat), None)
            if record is None or record.user_id is None:
                raise Refused("seat")
            if granted.revoked_by(record.web_revoked_at):
                raise Refused("revoked")

    # ------------------------------------------------------------------ the page and the map

    async def page(self, request: web.Request) -> web.Response:
        try:
            granted, table = await self.admit(request.match_info["token"])
        except Refused as exc:
            return refused_page(accepted_language(request), exc.why, exc.status)
        boot = await self.boot(table, granted.seat, request.match_info["token"])
        data = json.dumps(boot, ensure_ascii=False).replace("</", "<\\/")
        body = (
            f'<!doctype html><html lang="{boot["language"]}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">'
            '<link rel="stylesheet" href="/web/static/app.css"><title>Ticket to Ride</title></head><body>'
            f'<script id="boot" type="application/json">{data}</script>'
            '<script src="/web/static/app.js" defer></script></body></html>'
        )
        return web.Response(text=body, content_type="text/html", headers=HEADERS)

    async def boot(self, table: Table, seat: int | None, token: str) -> dict:
        """What the page starts from: its token (kept in the page's memory), the viewer's seat, the
        map's drawing and the page's words in the viewer's language."""
        t = await self.language(table, seat)
        boot = {
            "token": token,
            "seat": seat,
            "language": t.language,
            "board": f"/web/board/{table.game.map.id}/{t.language}/{t.city_names}.json",
            "words": words(t),
        }
        if seat is not None:  # a player may hand the table's public view on
            boot["spectators"] = self.signer.url(table.id, None)
        return boot

    async def board(self, request: web.Request) -> web.Response:
        language, names = request.match_info["language"], request.match_info["names"]
        if language not in LANGUAGES or names not in CITY_NAMES:
            raise web.HTTPNotFound()
        try:
            m = load_map(request.match_info["map"])
        except KeyError:
            raise web.HTTPNotFound() from None
        t = translator(language, names)
        body = board_json(m.id, tuple(t.city(c) for c in m.cities))
        return web.Response(
            body=body, content_type="application/json", headers={"Cache-Control": "public, max-age=3600"}
        )

    # ------------------------------------------------------------------ live frames

    async def events(self, request: web.Request) -> web.StreamResponse:
        try:
            granted, table = await self.admit(request.match_info["token"])
        except Refused as exc:
            return web.json_response({"refused": exc.why}, status=exc.status, headers=HEADERS)
        if len(self._streams.get(granted.game_id, ())) >= MAX_STREAMS:
            return web.json_response({"refused": "busy"}, status=429, headers=HEADERS)
        t = await self.language(table, granted.seat)
        stream = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        await stream.prepare(request)
        changed = asyncio.Event()
        changed.set()  # the first frame now
        streams = self._streams[granted.game_id]
        streams[changed] = t.language
        sent = -1
        try:
            while True:
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE)
                    if changed in self._moved_elsewhere:
                        self._moved_elsewhere.discard(changed)
                        table = await self.service.table(granted.game_id)
                    else:
                        table = await self.service.peek(granted.game_id)
                except TimeoutError:  # quiet: a keep-alive, or the move another process (shard) stored
                    table = await self.service.table(granted.game_id)
                    if table.version == sent:
                        await stream.write(b": keep-alive\n\n")
                        continue
                changed.clear()
                if self._closing:
                    break
                try:
                    self.still_good(granted, table)  # expired or revoked since: the page says so
                except Refused:
                    await stream.write(b"event: refused\ndata: {}\n\n")
                    break
                if table.version == sent:
                    continue
                sent = table.version
                seats = await self.seats(table)
                data = frame(t, table, granted.seat, seats, await self._log(table, t, seats))
                await stream.write(b"data: " + json.dumps(data, separators=(",", ":")).encode() + b"\n\n")
        except ConnectionResetError:  # the viewer left
            pass
        finally:
            streams.pop(changed, None)
            self._moved_elsewhere.discard(changed)
            if not streams:
                self._streams.pop(granted.game_id, None)
        return stream

    async def _log(self, table: Table, t: Translator, seats: list[Seat]) -> list[str]:
        """The game's last moves in the viewer's language: kept since they happened or, when none
        are (after a restart, or nobody watched), rebuilt from its log by replay (bot/web/replay.py)."""
        logs = self._logs[table.id]
        kept = logs.get(t.language)
        if kept is None:
            version, log = table.version, list(table.game.log)
            lines = await asyncio.to_thread(last_lines, t, table.game, log, lambda s: seats[s].name, LOG_LINES)
            kept = logs.setdefault(t.language, (version, deque(lines, maxlen=LOG_LINES)))
        return list(kept[1])

    async def on_outcome(self, outcome: Outcome) -> None:
        """A listener of the service: the game's last moves in each language its viewers read
        (described now, from the events), then every open stream of the game sends its frame."""
        game_id = outcome.table.id
        streams = self._streams.get(game_id)
        if not streams:
            self._logs.pop(game_id, None)  # nobody watches: nothing to keep
            return
        if outcome.events:
            seats = await self.seats(outcome.table)
            logs = self._logs[game_id]
            names = lambda s: seats[s].name  # noqa: E731 (the sentences make names bold)
            watched = set(streams.values())
            for language, kept in list(logs.items()):
                if language not in watched:  # nobody reads it now: rebuilt from the log when someone does
                    del logs[language]
                    continue
                if kept[0] >= outcome.version:  # rebuilt from the log after this move: it is in it
                    continue
                t = translator(language)
                notes = describe(t, outcome.table.game, outcome.events, names)
                said = merge_turn(t, notes, drawn(outcome.events), outcome.seat or 0, names)  # (only a seat draws)
                kept[1].extend(line for line in said.split("\n") if line)
                logs[language] = (outcome.version, kept[1])
        for changed in streams:
            changed.set()

    # ------------------------------------------------------------------ moves

    async def act(self, request: web.Request) -> web.Response:
        try:
            granted, table = await self.admit(request.match_info["token"])
        except Refused as exc:
            return web.json_response({"refused": exc.why}, status=exc.status, headers=HEADERS)
        if granted.seat is None:
            return web.json_response({"refused": "spectator"}, status=403, headers=HEADERS)
        t = await self.language(table, granted.seat)
        try:
            if request.content_length is None or request.content_length > MAX_BODY:
                raise ValueError
            body = json.loads(await request.read())
            text, decision = body["move"], body["decision"]
            if not isinstance(text, str) or not isinstance(decision, int) or len(text) > 300:
                raise ValueError
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "bad request"}, status=400, headers=HEADERS)
        user = table.user_of(granted.seat)
        try:
            await self.service.act(
                granted.game_id,
                chosen(granted.seat, text),
                cause=Cause(CauseKind.PLAYER, user_id=user),
                token=decision,
            )
        except TemplateError as exc:
            return web.json_response({"error": reason(t, exc)}, status=409, headers=HEADERS)
        return web.json_response({"ok": True}, headers=HEADERS)

    async def revoke(self, request: web.Request) -> web.Response:
        """The seat's player stops every link to their seat issued so far (a link shared by mistake);
        the panel in Discord gives a new one."""
        try:
            granted, table = await self.admit(request.match_info["token"])
        except Refused as exc:
            return web.json_response({"refused": exc.why}, status=exc.status, headers=HEADERS)
        if granted.seat is None:
            return web.json_response({"refused": "spectator"}, status=403, headers=HEADERS)
        await self.service.revoke_web_links(table, granted.seat)
        for changed in self._streams.get(granted.game_id, {}):
            changed.set()  # the seat's open streams end (`events` checks the link again)
        return web.json_response({"ok": True}, headers=HEADERS)
