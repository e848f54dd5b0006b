"""The web table as a Discord Activity: the same table, opened inside Discord (docs/web.md).

    GET  /web/activity/          the Activity's entry page: Discord's URL mapping `/` leads here
    GET  /                       the same, for a mapping `/` to the host itself (docs/deployment.md)
    POST /web/activity/session   {"code", "instance"}: who the user is, and their pass to the table

The page (frontend/src/activity.ts) asks the Discord client, through the Embedded App SDK, for an
OAuth2 code and sends it here with its Activity instance. The code is exchanged with the
application's secret at Discord for an access token, `/users/@me` says who the user is, and the
instance (read with the bot's own token) says where the Activity runs and that the user is in it:
the channel comes from Discord, never from the page. The answer is the access token (the SDK's
`authenticate` needs it) and the table page's start-up data with a short-lived pass for that
channel's game: the user's seat if they have one there, else a spectator's. The pass is the links'
signed token (bot/web/links.py), kept in the page's memory, never in the page's address.
"""

from __future__ import annotations

import html
import json
import logging
import re
import time
from collections import deque
from typing import Any

import aiohttp
import discord
from aiohttp import web

from bot.errors import NoGameHere, reason
from bot.web.server import HEADERS, MAX_BODY, Refused, WebTable, accepted_language
from i18n import Translator

log = logging.getLogger(__name__)

#: How long an Activity's pass works (seconds): a page whose pass ran out reloads and asks Discord again.
SESSION_SECONDS = 2 * 3600
#: Who may frame the entry page: Discord's clients (and the page's own origin, a stand-in in tests).
FRAMED_BY = (
    "'self' https://discord.com https://*.discord.com https://discordapp.com https://*.discordapp.com "
    "https://*.discordsays.com"
)
#: Sessions opened per minute, all users together: each costs three calls to Discord, and calls
#: Discord refuses (a flood's 429s) count towards the limit that shuts the bot's address out.
SESSIONS_PER_MINUTE = 120
#: An Activity instance's id as Discord gives it (`i-<snowflake>-gc-<guild>-<channel>`).
INSTANCE = re.compile(r"[A-Za-z0-9-]{1,100}")
ENTRY_HEADERS = {
    **HEADERS,
    "Content-Security-Policy": HEADERS["Content-Security-Policy"].replace(
        "frame-ancestors 'none'", f"frame-ancestors {FRAMED_BY}"
    ),
}


def words(t: Translator) -> dict[str, str]:
    """The entry page's own words: while it connects, and why it could not."""
    return {
        "connecting": t.gettext("Connecting to Discord…"),
        "discord": t.gettext("Discord did not confirm who you are. Close the Activity and open it again."),
        "instance": t.gettext("This Activity is not open for you in this channel. Open it again from the channel."),
        "busy": t.gettext("Too many people are opening the map right now. Try again in a minute."),
    }


def refusal(t: Translator, why: str) -> str:
    return reason(t, NoGameHere()) if why == "no_game" else words(t)[why]


class Activity:
    def __init__(self, table: WebTable, *, client_id: int, client_secret: str, bot_token: str) -> None:
        self.table = table
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token
        self._http: aiohttp.ClientSession | None = None
        self._opened: deque[float] = deque()  # when the sessions of the last minute were asked for
        self._quiet_until = 0.0  # Discord said to wait (a 429's Retry-After)

    def add_routes(self, app: web.Application) -> None:
        for path in ("/web/activity/", "/web/activity", "/"):
            app.router.add_get(path, self.entry)
        app.router.add_post("/web/activity/session", self.session)
        app.on_cleanup.append(self.close)

    async def close(self, app: web.Application | None = None) -> None:
        if self._http is not None:
            await self._http.close()

    async def entry(self, request: web.Request) -> web.Response:
        t = accepted_language(request)
        said = words(t)
        boot = json.dumps({"client_id": str(self.client_id), "words": said}, ensure_ascii=False).replace("</", "<\\/")
        body = (
            f'<!doctype html><html lang="{t.language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">'
            '<link rel="stylesheet" href="/web/static/app.css"><title>Ticket to Ride</title></head><body>'
            f'<main class="refused"><h1>🚂</h1><p id="activity">{html.escape(said["connecting"])}</p></main>'
            f'<script id="activity-boot" type="application/json">{boot}</script>'
            '<script src="/web/static/activity.js" defer></script></body></html>'
        )
        return web.Response(text=body, content_type="text/html", headers=ENTRY_HEADERS)

    async def session(self, request: web.Request) -> web.Response:
        try:
            if request.content_length is None or request.content_length > MAX_BODY:
                raise ValueError
            body = json.loads(await request.read())
            code, instance = body["code"], body["instance"]
            if not isinstance(code, str) or not 0 < len(code) <= 200 or not isinstance(instance, str):
                raise ValueError
            if not INSTANCE.fullmatch(instance):  # it goes into a path called with the bot's token
                raise ValueError
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "bad request"}, status=400, headers=HEADERS)
        try:
            self.take_turn()
            access, user_id = await self.who(code)
            channel_id = await self.where(instance, user_id)
            table = await self.table.service.table_in_channel(channel_id)
            if table is None:
                raise Refused("no_game", 404)
        except Refused as exc:
            message = refusal(accepted_language(request), exc.why)
            return web.json_response({"refused": exc.why, "message": message}, status=exc.status, headers=HEADERS)
        seat = table.seat_of(user_id)
        token = self.table.signer.token(table.id, seat, seconds=SESSION_SECONDS)
        boot = await self.table.boot(table, seat, token)
        return web.json_response({"access_token": access, "boot": boot}, headers=HEADERS)

    def take_turn(self) -> None:
        """Refused (429) beyond SESSIONS_PER_MINUTE, or while Discord asks the bot to wait."""
        now = time.monotonic()
        while self._opened and self._opened[0] <= now - 60:
            self._opened.popleft()
        if len(self._opened) >= SESSIONS_PER_MINUTE or now < self._quiet_until:
            raise Refused("busy", 429)
        self._opened.append(now)

    # ------------------------------------------------------------------ Discord

    async def discord(self, method: str, path: str, **kwargs: Any) -> Any:
        """A call to Discord's API (`discord.http.Route.BASE`: the fake Discord's in tests); None
        when Discord refused it."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        try:
            async with self._http.request(method, discord.http.Route.BASE + path, **kwargs) as answer:
                if answer.status == 429:
                    self._quiet_until = time.monotonic() + float(answer.headers.get("Retry-After", 60))
                if answer.status != 200:
                    log.info("Discord refused the Activity's %s %s: %s", method, path.split("/")[1], answer.status)
                    return None
                return await answer.json()
        except (aiohttp.ClientError, TimeoutError, ValueError):
            log.warning("Discord did not answer the Activity's %s %s", method, path.split("/")[1])
            return None

    async def who(self, code: str) -> tuple[str, int]:
        """The access token an authorization code stands for, and its user's id."""
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        grant = await self.discord("POST", "/oauth2/token", data=form)
        access = grant.get("access_token") if isinstance(grant, dict) else None
        me = await self.discord("GET", "/users/@me", headers={"Authorization": f"Bearer {access}"}) if access else None
        if not isinstance(me, dict) or not str(me.get("id", "")).isdigit():
            raise Refused("discord")
        return access, int(me["id"])

    async def where(self, instance: str, user_id: int) -> int:
        """The channel of an Activity instance the user is in (Discord's own word, with the bot's token)."""
        path = f"/applications/{self.client_id}/activity-instances/{instance}"
        found = await self.discord("GET", path, headers={"Authorization": f"Bot {self._bot}"})
        if not isinstance(found, dict) or str(user_id) not in found.get("users", ()):
            raise Refused("instance")
        channel = (found.get("location") or {}).get("channel_id")
        if not str(channel).isdigit():
            raise Refused("instance")
        return int(channel)
