"""The web table's server: links checked on every request, each viewer's frames (a spectator's
without private data), moves through `GameService.act` as a button's, refusals with their reason."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp
import pytest
from pydantic import ValidationError

from bot.service import Cause, CauseKind, GameService
from bot.settings import Settings
from bot.web import server
from bot.web.links import LinkRefused, Signer
from engine import DrawDeck, GameOptions
from storage.store import Storage
from tests.storage.conftest import PG_URL, wipe_postgres
from tests.web.conftest import SECRET, USERS, Frames, Site, serve

PRIVATE_KEYS = ("hand", "offer", "moves", "payable", "done")


def test_a_link_is_checked_signature_first_and_expires() -> None:
    signer = Signer(SECRET, "https://ttr.example/")
    token = signer.token(5, 1, now=1000)
    granted = signer.check(token, now=1001)
    assert (granted.game_id, granted.seat) == (5, 1)
    assert signer.url(5, None).startswith("https://ttr.example/web/t/")
    assert signer.check(signer.token(5, None), now=time.time()).seat is None
    with pytest.raises(LinkRefused) as refused:
        signer.check(token, now=1000 + 24 * 3600)
    assert refused.value.why == "expired"
    payload, signature = token.split(".")
    other = Signer(SECRET + "!", "https://ttr.example")
    for forged in (f"{payload}.{other.token(5, 1).split('.')[1]}", other.token(5, 1), "x", "a.b.c", payload + "."):
        with pytest.raises(LinkRefused) as refused:
            signer.check(forged, now=1001)
        assert refused.value.why == "forged"


@pytest.mark.parametrize(
    ("setting", "value"), [("WEB_SECRET", "short"), ("WEB_PUBLIC_URL", "ttr.example.org"), ("WEB_LINK_HOURS", "0")]
)
def test_a_web_setting_of_the_wrong_form_stops_the_start(monkeypatch, setting, value) -> None:
    monkeypatch.setenv(setting, value)
    with pytest.raises(ValidationError, match=setting.lower()):
        Settings(_env_file=None)


async def test_the_page_opens_for_a_good_link_and_refuses_a_forged_or_expired_one(site: Site) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(site.link(0)) as page:
            body = await page.text()
            assert page.status == 200 and '"seat": 0' in body and "/web/static/app.js" in body
            assert (
                page.headers["Referrer-Policy"] == "no-referrer"
                and "script-src 'self'" in page.headers["Content-Security-Policy"]
            )
        forged = site.link(0)[:-3] + "AAA"
        async with http.get(forged) as page:
            assert page.status == 403 and "This link is not valid" in await page.text()
        expired = f"{site.url}/web/t/{site.signer.token(site.game_id, 0, now=time.time() - 25 * 3600)}"
        async with http.get(expired, headers={"Accept-Language": "ru-RU,ru;q=0.9"}) as page:
            assert page.status == 403 and "/web/static/app.css" in await page.text()
        async with http.get(f"{site.url}/web/t/{site.signer.token(site.game_id + 99, 0)}") as page:
            assert page.status == 404
        async with http.get(f"{site.url}/web/t/{site.signer.token(site.game_id, 7)}") as page:
            assert page.status == 403  # not a seat of the game
        async with http.get(f"{site.url}/web/static/app.js") as script:
            assert script.status == 200 and len(await script.read()) > 1000
        async with http.get(f"{site.url}/web/board/europe/en/printed.json") as board:
            drawing = await board.json()
            assert {c["id"] for c in drawing["cities"]} >= {"paris", "berlin"} and len(drawing["tracks"]) > 90
        async with http.get(f"{site.url}/web/board/europe/xx/printed.json") as board:
            assert board.status == 404


async def test_each_viewer_gets_their_own_frames_live_and_a_spectator_nothing_private(site: Site) -> None:
    async with aiohttp.ClientSession() as http:
        async with (
            http.get(site.api(0, "events")) as seat0,
            http.get(site.api(None, "events")) as watcher,
        ):
            mine, theirs = Frames(seat0), Frames(watcher)
            first = await mine.next()
            assert first["view"]["you"]["seat"] == 0 and first["view"]["you"]["offer"]
            keeps = [m for m in first["moves"] if m["kind"] == "KeepTickets"]
            assert keeps and all("ids" in m for m in keeps)
            public = await theirs.next()
            assert public["view"]["you"] is None and "moves" not in public
            # Seat 0 keeps tickets from the page; seat 1 from elsewhere (a Discord button's path).
            async with http.post(
                site.api(0, "act"), json={"move": keeps[0]["text"], "decision": first["view"]["you"]["decision"]}
            ) as answer:
                assert answer.status == 200, await answer.text()
            after = await mine.next()
            assert after["version"] == first["version"] + 1 and not after["view"]["you"]["offer"]
            table = await site.table()
            await site.service.act(
                site.game_id, table.game.legal_actions(1)[0], cause=Cause(CauseKind.PLAYER, user_id=USERS[1])
            )
            playing = await mine.next()
            assert playing["view"]["phase"] == "playing" and playing["log"]
            while (await theirs.next())["version"] < playing["version"]:  # (frames may coalesce)
                pass
            for raw in theirs.raw:  # every frame the spectator got, as sent
                for key in PRIVATE_KEYS:
                    assert f'"{key}"' not in raw, key
                assert '"you":null' in raw


async def test_moves_are_the_seats_own_legal_ones_and_refused_with_their_reason(site: Site) -> None:
    table = await site.table()
    for seat in (0, 1):
        await site.service.act(
            site.game_id, table.game.legal_actions(seat)[0], cause=Cause(CauseKind.PLAYER, user_id=USERS[seat])
        )
    game = (await site.table()).game
    me, other = game.current, 1 - game.current
    decision = game.decision_token(me)

    async def post(seat, body, **kwargs) -> tuple[int, dict]:
        async with http.post(site.api(seat, "act"), json=body, **kwargs) as answer:
            return answer.status, await answer.json()

    async with aiohttp.ClientSession() as http:
        status, said = await post(other, {"move": "draw deck", "decision": game.decision_token(other)})
        assert status == 409 and "turn" in said["error"]  # the engine's reason: whose turn it is
        status, said = await post(None, {"move": "draw deck", "decision": decision})
        assert status == 403 and said["refused"] == "spectator"
        status, said = await post(me, {"move": "claim Nowhere-Else red", "decision": decision})
        assert status == 409 and "Nowhere" in said["error"]  # the notation's own reason
        status, said = await post(me, {"move": "draw deck", "decision": decision - 1})
        assert status == 409 and "no longer open" in said["error"]
        for bad in ({"move": "draw deck"}, {"move": 3, "decision": decision}, [1]):
            assert (await post(me, bad))[0] == 400
        async with http.post(site.api(me, "act"), data=b"x" * 5000) as answer:
            assert answer.status == 400
        forged = site.api(me, "act").replace("/api/", "/api/A")
        async with http.post(forged, json={"move": "draw deck", "decision": decision}) as answer:
            assert answer.status == 403
        status, _ = await post(me, {"move": "draw deck", "decision": decision})
        assert status == 200
    assert (await site.table()).game.log[-1] == (me, DrawDeck())


async def test_a_player_revokes_their_links_and_a_replaced_players_links_stop(site: Site) -> None:
    old = site.signer.token(site.game_id, 0, now=time.time() - 5)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site.url}/web/api/{old}/events") as stream:
            frames = Frames(stream)
            await frames.next()
            async with http.post(f"{site.url}/web/api/{old}/revoke") as answer:
                assert answer.status == 200
            async with asyncio.timeout(5):  # the open stream is told, and ends
                assert b"event: refused" in await stream.content.read()
        async with http.get(f"{site.url}/web/t/{old}") as page:
            assert page.status == 403 and "was revoked" in await page.text()
        async with http.get(site.link(0)) as page:  # a link issued after it works
            assert page.status == 200
        async with http.post(site.api(None, "revoke")) as answer:
            assert answer.status == 403
        one = site.signer.token(site.game_id, 1, now=time.time() - 1)
        await site.service.replace_player(await site.table(), 1, 99)
        async with http.get(f"{site.url}/web/t/{one}") as page:
            assert page.status == 403, "the seat's new player's view is not the old one's"
    site.service.forget(site.game_id)  # as another process loads it
    reloaded = await site.table()
    assert all(s.web_revoked_at is not None for s in reloaded.seats if s.seat in (0, 1))


async def test_a_move_another_process_stored_reaches_a_quiet_stream(site: Site, monkeypatch) -> None:
    monkeypatch.setattr(server, "KEEPALIVE", 0.2)
    there = GameService(site.service.storage)  # another process (a shard) on the same database
    async with aiohttp.ClientSession() as http, http.get(site.api(None, "events")) as stream:
        frames = Frames(stream)
        first = await frames.next()
        game = (await there.table(site.game_id)).game
        await there.act(site.game_id, game.legal_actions(0)[0], cause=Cause(CauseKind.PLAYER, user_id=USERS[0]))
        assert (await frames.next(timeout=3))["version"] == first["version"] + 1


@pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set")
@pytest.mark.xdist_group("postgresql")
async def test_on_postgresql_another_processs_move_reaches_a_stream_at_once(tmp_path) -> None:
    """Shards over one PostgreSQL: a move stored by another process reaches this process's open
    stream through NOTIFY in the move's transaction, well before the quiet stream's own look."""
    await wipe_postgres(PG_URL)
    async for site in serve(tmp_path, database=PG_URL):
        there = GameService(Storage(PG_URL))  # another process (a shard), its own connections
        async with aiohttp.ClientSession() as http, http.get(site.api(None, "events")) as stream:
            frames = Frames(stream)
            first = await frames.next()
            game = (await there.table(site.game_id)).game
            started = time.monotonic()
            await there.act(site.game_id, game.legal_actions(0)[0], cause=Cause(CauseKind.PLAYER, user_id=USERS[0]))
            assert (await frames.next(timeout=server.KEEPALIVE / 4))["version"] == first["version"] + 1
            assert time.monotonic() - started < 1.0
        await there.storage.close()


@pytest.mark.parametrize(
    ("map_id", "variants"), [("europe", {}), ("nederland", {"neutral": True}), ("marklin", {}), ("nordic", {})]
)
async def test_a_whole_game_is_played_from_the_web_pages_alone(tmp_path, map_id, variants) -> None:
    """Every move of the game, each seat's, picked from the moves its own frame offered and sent as
    the page sends it: whatever the map asks (tunnels, stations, tolls, the neutral player,
    passengers), the pages can answer, to the end."""
    rng = random.Random(3)
    kinds: set[str] = set()
    async for site in serve(tmp_path, map_id, GameOptions(variants=variants)):
        async with aiohttp.ClientSession() as http:
            streams = [await http.get(site.api(seat, "events")) for seat in (0, 1)]
            frames = [Frames(stream) for stream in streams]
            latest = [await f.next() for f in frames]
            for _ in range(3000):
                game = (await site.table()).game
                if game.is_over():
                    break
                seat = game.to_move()[0]
                while latest[seat]["version"] < game.version:
                    latest[seat] = await frames[seat].next()
                offered = latest[seat]["moves"]
                claims = [m for m in offered if m["kind"] in ("Claim", "Move")]
                draws = [m for m in offered if m["kind"] in ("DrawDeck", "DrawMarket")]
                if claims and rng.random() < 0.6:
                    move = rng.choice(claims)
                elif draws and rng.random() < 0.9:
                    move = rng.choice(draws)
                else:
                    move = rng.choice(offered)
                kinds.add(move["kind"])
                body = {"move": move["text"], "decision": latest[seat]["view"]["you"]["decision"]}
                async with http.post(site.api(seat, "act"), json=body) as answer:
                    assert answer.status == 200, (move, await answer.text())
            assert game.is_over(), f"{map_id}: not over after 3000 moves"
            final = await frames[0].next()
            while final["view"]["phase"] != "over":
                final = await frames[0].next()
            assert final["view"]["final"] and not final["moves"]
            for stream in streams:
                stream.close()
    assert {"Claim", "DrawDeck", "DrawMarket", "KeepTickets"} <= kinds, kinds
    assert map_id != "nederland" or "NeutralClaim" in kinds
    assert map_id != "marklin" or "Move" in kinds
