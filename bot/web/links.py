"""Signed, expiring links to the web table: one per player and game (their seat's private view and
moves), one per game for spectators (the public view only).

A link is `<public url>/web/t/<token>`; the token is `<payload>.<signature>`, both base64url, the
payload `game.seat.issued.expires` (seat `s` for a spectator; issued in milliseconds, expires in
seconds since 1970) and the signature HMAC-SHA256 of the payload with WEB_SECRET. Nothing private
is in it: it names a seat, and the server checks it on every request. A seat's links issued up to
its stored `web_revoked_at` are refused (`Pass.revoked_by`): the player revoked them, or the seat
went to another player.

A link to a page of public data (bot/web/pages.py: a finished game's replay, a league's standings, a
tournament's tables) is signed the same way with the payload `<kind><id>.issued.expires` (kind `r` a game,
`l` a league season, `t` a tournament) and works for PAGE_DAYS: it is shown on messages that stay in the channel."""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import discord

from engine import Game
from i18n import Translator

#: How long a link works unless WEB_LINK_HOURS says otherwise.
DEFAULT_HOURS = 24.0
#: How long a link to a page of public data works (a replay, standings, a tournament's tables).
PAGE_DAYS = 30


class LinkRefused(Exception):
    """A token that is malformed, forged, expired or revoked (the page says which)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why  # "forged", "expired" or "revoked"


@dataclass(frozen=True)
class Pass:
    """What a checked token grants: a game, and a seat (None: a spectator)."""

    game_id: int
    seat: int | None
    issued: int  # milliseconds since 1970
    expires: int  # seconds since 1970

    def revoked_by(self, revoked: datetime | None) -> bool:
        return revoked is not None and self.issued <= revoked.timestamp() * 1000


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    def __init__(self, secret: str, public_url: str, *, hours: float = DEFAULT_HOURS) -> None:
        self._key = hashlib.sha256(b"ttr web links\0" + secret.encode()).digest()
        self.public_url = public_url.rstrip("/")
        self.seconds = int(hours * 3600)

    def _sign(self, payload: bytes) -> str:
        return _b64(hmac.new(self._key, payload, hashlib.sha256).digest())

    def token(self, game_id: int, seat: int | None, *, now: float | None = None, seconds: int | None = None) -> str:
        """`seconds`: how long it works, when not the links' WEB_LINK_HOURS (an Activity's session)."""
        when = time.time() if now is None else now
        lasts = self.seconds if seconds is None else seconds
        payload = f"{game_id}.{'s' if seat is None else seat}.{int(when * 1000)}.{int(when) + lasts}".encode()
        return f"{_b64(payload)}.{self._sign(payload)}"

    def url(self, game_id: int, seat: int | None, *, now: float | None = None) -> str:
        return f"{self.public_url}/web/t/{self.token(game_id, seat, now=now)}"

    def page_token(self, kind: str, ident: int, *, now: float | None = None) -> str:
        when = time.time() if now is None else now
        payload = f"{kind}{ident}.{int(when * 1000)}.{int(when) + PAGE_DAYS * 86400}".encode()
        return f"{_b64(payload)}.{self._sign(payload)}"

    def page_url(self, kind: str, ident: int) -> str:
        return f"{self.public_url}/web/{PAGES[kind]}/{self.page_token(kind, ident)}"

    def _fields(self, token: str, count: int, now: float | None) -> list[str]:
        """A token's payload fields (`count` of them, the last its expiry); raises LinkRefused. The
        signature is compared in constant time before anything in the payload is believed."""
        try:
            if len(token) > 200:
                raise ValueError
            payload_text, signature = token.split(".")
            payload = _unb64(payload_text)
        except ValueError:
            raise LinkRefused("forged") from None
        if not hmac.compare_digest(self._sign(payload), signature):
            raise LinkRefused("forged")
        fields = payload.decode().split(".")
        if len(fields) != count:  # a page's link for a seat's, or the other way round
            raise LinkRefused("forged")
        if (time.time() if now is None else now) >= int(fields[-1]):
            raise LinkRefused("expired")
        return fields

    def check(self, token: str, *, now: float | None = None) -> Pass:
        """The pass a seat's or spectator's token grants; raises LinkRefused."""
        game, seat, issued, expires = self._fields(token, 4, now)
        return Pass(int(game), None if seat == "s" else int(seat), int(issued), int(expires))

    def check_page(self, kind: str, token: str, *, now: float | None = None) -> int:
        """The id a page's token of `kind` names; raises LinkRefused."""
        named = self._fields(token, 3, now)[0]
        if not named.startswith(kind) or not named[len(kind) :].isdigit():
            raise LinkRefused("forged")
        return int(named[len(kind) :])


#: A page's kind in its token -> its route (/web/<route>/<token>).
PAGES = {"r": "replay", "l": "league", "t": "tournament"}

#: The process's signer, set when WEB_SECRET and WEB_PUBLIC_URL are (bot/client.py); None: no web table.
SIGNER: Signer | None = None
#: Whether the table is also a Discord Activity (DISCORD_CLIENT_SECRET, bot/web/activity.py): then
#: **Open the map** launches it (the Activity knows the user) instead of linking to the seat's page.
ACTIVITY = False
#: The custom id template of the button that launches the Activity (a cog's DynamicItem answers it).
LAUNCH = r"ttr:(?P<game>[0-9]+):map"


def configure(signer: Signer | None, *, activity: bool = False) -> None:
    global SIGNER, ACTIVITY
    SIGNER, ACTIVITY = signer, activity and signer is not None


def launch_button(game_id: int, *, t: Translator) -> discord.ui.Button | None:
    """**Open the map** as the Activity's launch, or None when the Activity is off."""
    if not ACTIVITY:
        return None
    label = t.pgettext("button", "Open the map")
    return discord.ui.Button(style=discord.ButtonStyle.primary, custom_id=f"ttr:{game_id}:map", label=label, emoji="🗺️")


def player_url(game_id: int, seat: int) -> str | None:
    """A fresh private link to a seat's web table, or None when the web table is off."""
    return SIGNER.url(game_id, seat) if SIGNER is not None else None


def page_url(kind: str, ident: int) -> str | None:
    """A link to a page of public data (`PAGES`), or None when the web table is off."""
    return SIGNER.page_url(kind, ident) if SIGNER is not None else None


def page_button(kind: str, ident: int, label: str) -> discord.ui.Button | None:
    """A link button to a page of public data, or None when the web table is off."""
    url = page_url(kind, ident)
    if url is None:
        return None
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label, emoji="🗺️")


PanelView = Callable[..., discord.ui.View | None]


def offers_the_map(panel_view: PanelView) -> PanelView:
    """A player's panel (bot/components.py `panel_view`) with an **Open the map** link button
    after its controls when the web table is on: a fresh link each time the panel is drawn (the
    Activity's launch instead, when it is on). Not
    on a panel without controls while the starting tickets are chosen: the messenger reads that
    one as "waiting for the others" (bot/messenger.py `panel`)."""

    @functools.wraps(panel_view)
    def with_link(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View | None:
        view = panel_view(game_id, game, seat, t=t)
        url = player_url(game_id, seat)
        if url is None or game.phase == "over" or (view is None and game.phase == "choosing"):
            return view
        if view is None:
            view = discord.ui.View(timeout=None)
            view.stop()  # nothing to listen for (bot/components.py `layout`)
        label = t.pgettext("button", "Open the map")
        link = discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label, emoji="🗺️")
        view.add_item(launch_button(game_id, t=t) or link)
        return view

    return with_link
