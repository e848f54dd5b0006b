"""The web table in a real browser (Debian's chromium driven by Playwright, phone-sized): two players
in two browser contexts play by tapping the page and the map, a spectator's every event frame holds
nothing private, a forged link is refused. Skipped where chromium or Playwright is missing."""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import Cause, CauseKind
from bot.web.frames import chosen
from engine import Claim, DrawDeck, DrawTickets, KeepTickets, PayTunnel
from engine.actions import Move
from engine.notation import format_action
from tests.web.conftest import Site, serve
from tests.web.test_pages import a_cup, a_season, play

playwright_api = pytest.importorskip("playwright.async_api", reason="Playwright for Python is not installed")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
if not shutil.which(CHROMIUM):
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: Every frame an EventSource of the page receives, as received (installed before the page's script).
RECORD_FRAMES = """
window.__frames = [];
const Real = window.EventSource;
window.EventSource = function (url) {
  const source = new Real(url);
  source.addEventListener("message", (e) => window.__frames.push(e.data));
  return source;
};
"""
SHOTS = Path(os.environ.get("WEB_SCREENSHOTS", "ttr-images")).resolve()  # (before a test changes folder)


async def version(page) -> int:
    return int(await page.evaluate("() => document.body.dataset.version || -1"))


async def frame_of(page) -> dict:
    return json.loads(await page.evaluate("() => window.__frames[window.__frames.length - 1]"))


async def until_version(page, at_least: int) -> None:
    await page.wait_for_function("(v) => Number(document.body.dataset.version) >= v", arg=at_least, timeout=5000)


async def view_width(page) -> float:
    return float((await page.locator("svg.map").get_attribute("viewBox")).split()[2])


async def pinch(cdp, *, spread_from: float, spread_to: float, x: float = 195, y: float = 200) -> None:
    """Two touch points moving apart (or together) around (x, y), as a phone reports a pinch."""

    def points(spread: float) -> list[dict]:
        return [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]

    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(spread_from)})
    for step in range(1, 9):
        spread = spread_from + (spread_to - spread_from) * step / 8
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(spread)})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


async def test_two_players_and_a_spectator_on_phones(site: Site) -> None:
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            pages = []
            for seat in (0, 1, None):
                context = await browser.new_context(**PHONE)
                await context.add_init_script(RECORD_FRAMES)
                page = await context.new_page()
                await page.goto(site.link(seat))
                await page.wait_for_selector("svg.map .car")
                await until_version(page, 0)
                pages.append(page)
            alice, bob, watcher = pages

            # The starting tickets: tap two of the offer, then Keep.
            for page in (alice, bob):
                start = await version(page)
                boxes = page.locator("#offer input")
                for i in range(2):
                    await boxes.nth(i).tap()
                await page.locator("#keep").tap()
                await until_version(page, start + 1)
            table = await site.table()
            first = table.game.current
            mover, waiter = (alice, bob) if first == 0 else (bob, alice)
            await until_version(mover, table.version)

            # A face-up card, then the deck: the other player's page follows each.
            start = await version(waiter)
            await mover.locator("#market .slot:not([disabled])").first.tap()
            await until_version(waiter, start + 1)
            await mover.locator("#deck").tap()
            await until_version(waiter, start + 2)

            # The other player claims a route by tapping it on the map, then choosing how to pay.
            game = (await site.table()).game
            claims = [a for a in game.payable_claims(1 - first) if game.map.track_by_id[a.track].length <= 2]
            assert claims, "a short route the opening hand pays for"
            track = claims[0].track
            await waiter.wait_for_selector(f'[data-track="{track}"].payable')
            car = waiter.locator(f'[data-track="{track}"] .car').first
            await car.scroll_into_view_if_needed()
            box = await car.bounding_box()
            assert box is not None
            # Zoom in around the route first (a pinch is two pointers; the wheel does the same here).
            await waiter.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            for _ in range(6):
                await waiter.mouse.wheel(0, -100)
            box = await car.bounding_box()
            assert box is not None and box["width"] > 12
            await waiter.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            await waiter.locator("#dialog .choice").first.tap()
            await until_version(watcher, start + 3)
            assert (await site.table()).game.owner[game.map.track_by_id[track].index] == 1 - first
            public = await frame_of(watcher)
            assert public["view"]["claims"][track] == 1 - first

            # Tickets in the middle of the game: draw, tick one, keep it.
            start = await version(watcher)
            await mover.locator("#draw-tickets").tap()
            await mover.wait_for_selector("#offer input")
            await mover.locator("#offer input").first.tap()
            await mover.locator("#keep").tap()
            await until_version(waiter, start + 2)
            assert len((await site.table()).game.tickets[first]) == 3

            # A station, by tapping a city on the map (zoomed in around it, from a fresh page).
            await waiter.reload()
            await until_version(waiter, start + 2)
            city = "wien"
            dot = waiter.locator(f'circle[data-city="{city}"]')
            box = await dot.bounding_box()
            assert box is not None
            await waiter.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            for _ in range(6):
                await waiter.mouse.wheel(0, -100)
            box = await dot.bounding_box()
            assert box is not None
            await waiter.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            await waiter.wait_for_selector("#dialog:not([hidden])", timeout=2000)
            assert "Wien" in await waiter.locator("#dialog p").inner_text()
            await waiter.locator("#dialog .choice").first.tap()
            await until_version(watcher, start + 3)
            assert (await frame_of(watcher))["view"]["stations"] == {city: 1 - first}

            # Two fingers spread apart zoom the map in (the viewBox narrows); pinching back zooms out.
            cdp = await watcher.context.new_cdp_session(watcher)
            before = await view_width(watcher)
            await pinch(cdp, spread_from=20, spread_to=120)
            zoomed = await view_width(watcher)
            assert zoomed < before / 3
            await pinch(cdp, spread_from=120, spread_to=60)
            assert zoomed < await view_width(watcher) < before

            SHOTS.mkdir(exist_ok=True)
            await waiter.screenshot(path=str(SHOTS / "web-phone-player.png"))
            await watcher.screenshot(path=str(SHOTS / "web-phone-spectator.png"))

            frames = await watcher.evaluate("() => window.__frames")
            assert len(frames) >= 4
            for raw in frames:  # every frame the spectator's browser received
                seen = json.loads(raw)
                assert seen["view"]["you"] is None and not {"moves", "payable", "done"} & seen.keys()
                assert '"hand"' not in raw and '"offer"' not in raw

            forged = await browser.new_page()
            await forged.goto(site.link(0)[:-2] + "xx")
            assert "not valid" in await forged.locator("#refused").inner_text()
        finally:
            await browser.close()


async def claimed(page) -> int:
    return await page.locator("svg.map .track.claimed").count()


async def step(page) -> int:
    return int(await page.evaluate("() => document.body.dataset.step"))


async def test_a_finished_games_replay_on_a_phone(site: Site) -> None:
    """The replay opens at the final results; a finger drags the slider back through the game (the
    board empties), the buttons and the arrow keys step one move."""
    await play(site)
    moves = len((await site.table()).game.log)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(**PHONE)
            page = await context.new_page()
            await page.goto(f"{site.url}/web/replay/{site.signer.page_token('r', site.game_id)}")
            await page.wait_for_selector("svg.map .car")
            await page.wait_for_function("() => document.body.dataset.step !== undefined")
            assert await step(page) == moves and await page.locator("#final").is_visible()
            at_end = await claimed(page)
            assert at_end > 5 and "Game over" in await page.locator("#final h2").inner_text()
            SHOTS.mkdir(exist_ok=True)
            await page.screenshot(path=str(SHOTS / "web-phone-replay-end.png"), full_page=True)

            # A finger on the slider's thumb (at its right end) drags it to the middle, then to the start.
            box = await page.locator("#slider").bounding_box()
            assert box is not None
            y = box["y"] + box["height"] / 2
            cdp = await context.new_cdp_session(page)
            for target in (box["x"] + box["width"] / 2, box["x"]):
                start = box["x"] + box["width"] - 8 if target != box["x"] else box["x"] + box["width"] / 2
                await cdp.send(
                    "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start, "y": y}]}
                )
                for i in range(1, 11):
                    x = start + (target - start) * i / 10
                    await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
                await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
                if target != box["x"]:
                    middle = await step(page)
                    assert 0 < middle < moves and 0 < await claimed(page) < at_end
                    assert not await page.locator("#final").is_visible()
                    await page.screenshot(path=str(SHOTS / "web-phone-replay.png"))
            assert await step(page) == 0 and await claimed(page) == 0
            assert "The game begins" in await page.locator("#said").inner_text()

            # One move on with the button, one back with the arrow key.
            await page.locator("#next").tap()
            assert await step(page) == 1 and await page.locator("#said li").count() >= 1
            await page.locator("#next").tap()
            await page.keyboard.press("ArrowLeft")
            assert await step(page) == 1
            await page.keyboard.press("End")  # (not a key the page takes: the step stays)
            assert await step(page) == 1
        finally:
            await browser.close()


async def test_a_league_and_a_tournament_page_on_a_phone(site: Site) -> None:
    """The standings fit the phone's width (no sideways scrolling)."""
    pages = {"league": ("l", (await a_season(site)).id), "tournament": ("t", (await a_cup(site)).id)}
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(**PHONE)
            page = await context.new_page()
            SHOTS.mkdir(exist_ok=True)
            for route, (kind, ident) in pages.items():
                await page.goto(f"{site.url}/web/{route}/{site.signer.page_token(kind, ident)}")
                assert await page.locator("main.standings table tr").count() >= 4
                assert await page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
                await page.screenshot(path=str(SHOTS / f"web-phone-{route}.png"), full_page=True)
        finally:
            await browser.close()


async def play_until(site: Site, reached, prefer, seed: int = 1) -> int:
    """Plays the game through the service (as buttons would) until `reached(game)`, preferring the
    moves `prefer` picks; returns the seat that is to move then."""
    rng = random.Random(seed)
    for _ in range(2000):
        table = await site.table()
        game = table.game
        assert not game.is_over(), "the state never came"
        seat = game.to_move()[0]
        if reached(game, seat):
            return seat
        actions = game.legal_actions(seat, collapse_payments=True)
        action = rng.choice(prefer(game, seat, actions) or actions)
        await site.service.act(
            site.game_id,
            chosen(seat, format_action(game, action)),
            cause=Cause(CauseKind.PLAYER, user_id=table.user_of(seat)),
            token=game.decision_token(seat),
        )
    raise AssertionError("the state never came")


async def phone(browser, site: Site, seat: int | None):
    context = await browser.new_context(**PHONE)
    page = await context.new_page()
    await page.goto(site.link(seat))
    await page.wait_for_selector("svg.map .car")
    await until_version(page, (await site.table()).version)
    return page


async def tap_center(page, locator) -> None:
    box = await locator.bounding_box()
    assert box is not None
    await page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


async def test_a_tunnel_is_decided_on_the_map(site: Site) -> None:
    """The tunnel being dug is lit on every viewer's map, the player's map zooms to it, and the
    three cards, what they cost more and pay or decline stand over the bottom of the screen."""

    def tunnels(game, seat, actions):  # cards first, so that the surcharge can be paid
        dig = [a for a in actions if isinstance(a, Claim) and site_map.track_by_id[a.track].tunnel]
        rich = sum(game.view(seat)["you"]["hand"].values()) >= 12
        return (dig if rich else []) or [a for a in actions if isinstance(a, (DrawDeck, KeepTickets))]

    site_map = (await site.table()).game.map
    seat = await play_until(site, lambda g, s: any(isinstance(a, PayTunnel) for a in g.legal_actions(s)), tunnels)
    track = (await site.table()).game.view(None)["tunnel"]["track"]
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            player, watcher = await phone(browser, site, seat), await phone(browser, site, None)
            for page in (player, watcher):
                assert await page.locator(f'[data-track="{track}"].pending').count() == 1
            assert await view_width(player) < 1280 / 2  # zoomed to the tunnel
            sheet = player.locator("#tunnel")
            assert await sheet.locator(".revealed .card").count() == 3
            assert site_map.cities[site_map.track_by_id[track].a].name in await sheet.locator("p").inner_text()
            assert await watcher.locator("#tunnel").count() == 0
            SHOTS.mkdir(exist_ok=True)
            await player.screenshot(path=str(SHOTS / "web-phone-tunnel.png"))
            start = await version(watcher)
            await sheet.locator("button.pay").first.tap()
            await until_version(watcher, start + 1)
            game = (await site.table()).game
            assert game.view(None)["tunnel"] is None and game.owner[site_map.track_by_id[track].index] == seat
            assert await watcher.locator(".pending").count() == 0
        finally:
            await browser.close()


@pytest.fixture
async def marklin(tmp_path) -> AsyncIterator[Site]:
    async for served in serve(tmp_path, "marklin"):
        yield served


async def test_a_marklin_passenger_travels_by_taps_on_the_map(marklin: Site) -> None:
    """The cities a passenger may leave are ringed; a tap on one draws the trips it may take and
    offers them; choosing one moves the passenger."""
    site = marklin

    def placing(game, seat, actions):
        return [a for a in actions if isinstance(a, Claim) and a.passenger] or [
            a for a in actions if isinstance(a, (Claim, DrawDeck, KeepTickets, DrawTickets))
        ]

    seat = await play_until(site, lambda g, s: any(isinstance(a, Move) for a in g.legal_actions(s)), placing)
    game = (await site.table()).game
    trips = [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Move)]
    city = trips[0].path[0]
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            player = await phone(browser, site, seat)
            assert await player.locator(".passenger-start").count() == len({t.path[0] for t in trips})
            assert await player.locator("#other button").count() == 0  # no longer a list of buttons
            dot = player.locator(f'circle[data-city="{city}"]')
            await tap_center(player, dot)
            for _ in range(6):  # zoomed in around it, the way a finger finds a city
                box = await dot.bounding_box()
                await player.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                await player.mouse.wheel(0, -100)
            await tap_center(player, dot)
            await player.wait_for_selector("#dialog:not([hidden])", timeout=2000)
            offered = [t for t in trips if t.path[0] == city]
            assert await player.locator(".trip").count() == len(offered)
            assert await player.locator("#dialog .choice").count() == len(offered)
            SHOTS.mkdir(exist_ok=True)
            await player.screenshot(path=str(SHOTS / "web-phone-passenger.png"))
            start = await version(player)
            await player.locator("#dialog .choice").first.tap()
            await until_version(player, start + 1)
            assert isinstance((await site.table()).game.log[-1][1], Move)
            assert await player.locator(".trip").count() == 0
        finally:
            await browser.close()
