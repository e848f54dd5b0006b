"""The web table as a Discord Activity, against the fake Discord's OAuth2 and Activity instances:
the code the Discord client gave the page is exchanged for the user, the instance says where the
Activity runs and that the user is in it, and the pass given is that user's seat in that channel's
game, or a spectator's; refusals say why, in the browser's language."""

from __future__ import annotations

import time

import aiohttp

from bot.service import Cause, CauseKind
from bot.web import activity
from bot.web.activity import SESSION_SECONDS
from engine import GameOptions
from tests.fakediscord import FakeDiscord
from tests.web.conftest import Frames, Site

PRIVATE_KEYS = ("hand", "offer", "moves", "payable", "done")


async def open_session(site: Site, code: str, instance: str, **headers: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{site.url}/web/activity/session", json={"code": code, "instance": instance}, headers=headers
        ) as answer:
            return answer.status, await answer.json()


async def test_a_seated_player_gets_their_own_seat_and_discords_token(
    activity_site: Site, fake_discord: FakeDiscord
) -> None:
    fake, site = fake_discord, activity_site
    instance = fake.join_activity(fake.bob, fake.general)
    status, body = await open_session(site, fake.authorize(fake.bob), instance.id)
    assert status == 200
    boot = body["boot"]
    bob = (await site.table()).seat_of(fake.bob.id)
    assert boot["seat"] == bob and boot["board"].startswith("/web/board/europe/")
    granted = site.signer.check(boot["token"])
    assert (granted.game_id, granted.seat) == (site.game_id, bob)
    assert granted.expires <= time.time() + SESSION_SECONDS  # short-lived: the page asks again
    async with aiohttp.ClientSession() as http:
        async with http.get(
            fake.api_url + "/users/@me", headers={"Authorization": f"Bearer {body['access_token']}"}
        ) as me:
            assert (await me.json())["id"] == str(fake.bob.id)  # the SDK's `authenticate` takes it
        async with http.get(f"{site.url}/web/api/{boot['token']}/events") as events:
            frame = await Frames(events).next()
    assert frame["view"]["you"]["seat"] == bob and frame["moves"]


async def test_a_member_without_a_seat_watches_and_sees_nothing_private(
    activity_site: Site, fake_discord: FakeDiscord
) -> None:
    fake, site = fake_discord, activity_site
    instance = fake.join_activity(fake.dirk, fake.general)
    status, body = await open_session(site, fake.authorize(fake.dirk), instance.id)
    assert status == 200 and body["boot"]["seat"] is None and "spectators" not in body["boot"]
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site.url}/web/api/{body['boot']['token']}/events") as events:
            frame = await Frames(events).next()
        assert frame["view"]["you"] is None and not set(PRIVATE_KEYS) & set(frame)
        async with http.post(
            f"{site.url}/web/api/{body['boot']['token']}/act", json={"move": "draw deck", "decision": 0}
        ) as answer:
            assert answer.status == 403


async def test_the_channel_is_discords_word_not_the_pages(activity_site: Site, fake_discord: FakeDiscord) -> None:
    """Bob plays in #general; the Activity he opens in #games shows #games' game, where he has no
    seat; a channel without a game, an instance he is not in, or a code not Discord's are refused."""
    fake, site = fake_discord, activity_site
    other = await site.service.start(
        guild_id=fake.guild.id,
        channel_id=fake.games.id,
        map_id="usa",
        options=GameOptions(),
        user_ids=[fake.alice.id, fake.dirk.id],
        colors=[None, None],
        host_id=fake.alice.id,
        cause=Cause(CauseKind.START),
    )
    there = fake.join_activity(fake.bob, fake.games)
    status, body = await open_session(site, fake.authorize(fake.bob), there.id)
    assert status == 200 and body["boot"]["seat"] is None
    assert site.signer.check(body["boot"]["token"]).game_id == other.table.id
    await site.service.end(other.table.id, cause=Cause(CauseKind.ADMIN, user_id=fake.alice.id))
    status, body = await open_session(site, fake.authorize(fake.bob), there.id, **{"Accept-Language": "ru"})
    assert (
        status == 404 and body["refused"] == "no_game" and "/ttr-host новая" in body["message"]
    )  # the browser's language
    alices = fake.join_activity(fake.alice, fake.general)
    status, body = await open_session(site, fake.authorize(fake.carol), alices.id)
    assert status == 403 and body["refused"] == "instance"  # Carol is not in it
    status, body = await open_session(site, "not-a-code", alices.id)
    assert status == 403 and body["refused"] == "discord"
    code = fake.authorize(fake.alice)
    assert (await open_session(site, code, alices.id))[0] == 200
    assert (await open_session(site, code, alices.id))[1]["refused"] == "discord"  # a code works once
    for instance in ("../../users/@me", "", "x" * 101):
        assert (await open_session(site, fake.authorize(fake.alice), instance))[0] == 400


async def test_the_entry_page_may_be_framed_by_discord_only(activity_site: Site) -> None:
    site = activity_site
    async with aiohttp.ClientSession() as http:
        for entry in ("/web/activity/", "/web/activity", "/"):  # Discord's mapping `/`: to the page, or the host
            async with http.get(f"{site.url}{entry}?frame_id=f&instance_id=i&platform=mobile") as page:
                body = await page.text()
                policy = page.headers["Content-Security-Policy"]
            assert page.status == 200 and "/web/static/activity.js" in body and "Connecting to Discord" in body
            assert "frame-ancestors 'self' https://discord.com" in policy and "script-src 'self'" in policy
        async with http.get(f"{site.url}/web/activity/", headers={"Accept-Language": "ru"}) as page:
            assert "Подключение к Discord" in await page.text()
        async with http.get(site.link(0)) as page:  # the link page is never framed
            assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        async with http.get(f"{site.url}/web/static/activity.js") as script:
            assert script.status == 200


async def test_sessions_are_capped_and_discords_wait_is_kept(
    activity_site: Site, fake_discord: FakeDiscord, monkeypatch
) -> None:
    """Each session costs three calls to Discord, whose refusals count towards shutting the bot's
    address out: beyond the cap, and while Discord asks to wait, the page is told to try later."""
    fake, site = fake_discord, activity_site
    instance = fake.join_activity(fake.alice, fake.general)
    fake.rate_limit("POST /oauth2/token", retry_after=30)
    status, body = await open_session(site, fake.authorize(fake.alice), instance.id)
    assert status == 403 and body["refused"] == "discord"  # Discord's 429: this one fails...
    asked = len(fake.requests)
    status, body = await open_session(site, fake.authorize(fake.alice), instance.id)
    assert status == 429 and body["refused"] == "busy" and "Try again" in body["message"]
    assert len(fake.requests) == asked  # ...and the next ones do not ask Discord meanwhile
    site.activity._quiet_until = 0.0  # Discord's wait is over
    monkeypatch.setattr(activity, "SESSIONS_PER_MINUTE", 2)  # the one Discord refused, one now, then the cap
    assert (await open_session(site, fake.authorize(fake.alice), instance.id))[0] == 200
    status, body = await open_session(site, fake.authorize(fake.alice), instance.id)
    assert status == 429 and body["refused"] == "busy"
