"""Issue 35's "done when": whole games on Europe and Nederland where two seats play in chromium on
phone-sized pages by tapping the map (routes, a city for a station, cards, the deck, the tickets
dialog, a tunnel's sheet) and the third by the Discord buttons of the real bot on the fake Discord;
a spectator's every frame holds nothing private. It measures, for docs/web.md, the time from a tap
to every other viewer's frame and the bytes one viewer receives over the game
(`WEB_FIGURES=1` prints them)."""

from __future__ import annotations

import json
import os
import statistics
import time

import pytest

from engine import BuildStation, Claim, DeclineTunnel, DrawDeck, DrawMarket, DrawTickets, Game, KeepTickets, PayTunnel
from tests.bot.conftest import make_bot  # noqa: F401 (the fixture)
from tests.bot.driver import Driver
from tests.web.test_browser import CHROMIUM, PHONE, SHOTS, playwright_api

PUBLIC = "https://ttr.example/"
SECRET = "a test secret of enough length"
#: Each frame a page's EventSource receives: its version, when (ms since the epoch, the test's
#: clock too), its size in bytes, and the frame as received.
RECORD = """
window.__frames = [];
window.__arrivals = [];
const Real = window.EventSource;
window.EventSource = function (url) {
  const source = new Real(url);
  source.addEventListener("message", (e) => {
    window.__frames.push(e.data);
    const v = JSON.parse(e.data).version;
    window.__arrivals.push([v, Date.now(), new TextEncoder().encode(e.data).length]);
  });
  return source;
};
"""


class Timed(Driver):
    """The Discord player: the time of the last tap (the one that makes the move)."""

    tapped_at = 0.0

    async def tap(self, user, message, custom_id, values=None):
        self.tapped_at = now()
        return await super().tap(user, message, custom_id, values)


def policy(game: Game, seat: int, extras: set[str]) -> object:
    """A move that ends the game soon: the longest route the hand pays for, else the deck; once
    in the game each seat draws tickets and (Europe) builds a station, so every dialog is used."""
    actions = game.legal_actions(seat, collapse_payments=True)
    keeps = [a for a in actions if isinstance(a, KeepTickets)]
    if keeps:
        return min(keeps, key=lambda a: (len(a.ids), sorted(a.ids)))
    pay = [a for a in actions if isinstance(a, PayTunnel)]
    if pay or any(isinstance(a, DeclineTunnel) for a in actions):
        return pay[0] if pay else DeclineTunnel()
    if game.stage is not None:
        return DrawDeck()
    claims = [a for a in actions if isinstance(a, Claim)]
    played = sum(1 for s, _ in game.log if s == seat)
    if "tickets" not in extras and played > 8 and any(isinstance(a, DrawTickets) for a in actions):
        extras.add("tickets")
        return next(a for a in actions if isinstance(a, DrawTickets))
    stations = [a for a in actions if isinstance(a, BuildStation)]
    if "station" not in extras and played > 14 and stations:
        extras.add("station")
        return stations[0]
    if claims:
        longest = max(claims, key=lambda a: game.map.track_by_id[a.track].length)
        if game.map.track_by_id[longest.track].length >= 3 or game.trains[seat] < 10:
            return longest
    markets = [a for a in actions if isinstance(a, DrawMarket) and game.market[a.slot] is not None]
    return markets[0] if markets and played % 3 == 0 else DrawDeck()


async def version(page) -> int:
    return int(await page.evaluate("() => document.body.dataset.version || -1"))


async def until_version(page, at_least: int) -> None:
    await page.wait_for_function("(v) => Number(document.body.dataset.version) >= v", arg=at_least, timeout=10000)


async def tap_on_map(page, selector: str, wanted: str) -> None:
    """Tap the element as a finger would: zoomed in around it until the tap lands on it."""
    await page.evaluate("() => window.scrollTo(0, 0)")
    for _ in range(12):  # the whole map first
        await page.mouse.move(195, 150)
        await page.mouse.wheel(0, 200)
    target = page.locator(selector).first
    for _ in range(8):
        box = await target.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        hit = await page.evaluate(
            "([x, y, w]) => { const e = document.elementFromPoint(x, y); return !!e && !!e.closest(w) }",
            [x, y, wanted],
        )
        if hit:
            await page.touchscreen.tap(x, y)
            return
        await page.mouse.move(x, y)
        for _ in range(3):
            await page.mouse.wheel(0, -100)
    raise AssertionError(f"no tap lands on {selector}")


def now() -> float:
    return time.time() * 1000


async def tap_move(page, game: Game, action) -> float:
    """`action` done on the page by taps, as a player would; returns when the last tap began."""
    if isinstance(action, KeepTickets):
        for ticket in action.ids:
            await page.locator(f'#offer input[data-ticket="{ticket}"]').tap()
        at = now()
        await page.locator("#keep").tap()
    elif isinstance(action, (PayTunnel, DeclineTunnel)):
        at = now()
        await page.locator("#tunnel button." + ("pay" if isinstance(action, PayTunnel) else "decline")).first.tap()
    elif isinstance(action, DrawDeck):
        at = now()
        await page.locator("#deck").tap()
    elif isinstance(action, DrawMarket):
        at = now()
        await page.locator(f'#market .slot[data-slot="{action.slot}"]').tap()
    elif isinstance(action, DrawTickets):
        at = now()
        await page.locator("#draw-tickets").tap()
    elif isinstance(action, Claim):
        cars = game.map.track_by_id[action.track].length
        await tap_on_map(
            page, f'[data-track="{action.track}"] .car >> nth={cars // 2}', f'[data-track="{action.track}"]'
        )
        at = now()
        await page.locator("#dialog .choice").first.tap()
    elif isinstance(action, BuildStation):
        await tap_on_map(page, f'circle[data-city="{action.city}"]', f'[data-city="{action.city}"]')
        at = now()
        await page.locator("#dialog .choice").first.tap()
    else:
        raise AssertionError(f"no tap for {action!r}")
    return at


@pytest.mark.slow
@pytest.mark.parametrize("map_id", ["europe", "nederland"])
async def test_a_whole_game_mixed_web_and_discord_on_phones(fake_discord, make_bot, map_id) -> None:  # noqa: F811
    fake = fake_discord
    bot = await make_bot(health_port=0, web_secret=SECRET, web_public_url=PUBLIC)
    driver = Timed(fake, bot, fake.general, [fake.alice, fake.bob, fake.dirk])
    await driver.start_game(map_id)
    table = bot.service._tables[driver.game_id]
    on_web = [table.seat_of(fake.alice.id), table.seat_of(fake.bob.id)]
    base = f"http://127.0.0.1:{bot.health.port}/web/t/"
    extras: dict[int, set[str]] = {seat: set() for seat in range(3)}
    taps: list[tuple[int | None, float, int]] = []  # (the page that tapped, when, the version it made)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            pages = {}
            for seat in [*on_web, None]:
                context = await browser.new_context(**PHONE)
                await context.add_init_script(RECORD)
                page = await context.new_page()
                await page.goto(base + bot.web.signer.token(driver.game_id, seat))
                await until_version(page, 0)
                pages[seat] = page
            for _ in range(600):
                game = driver.game
                if game.is_over():
                    break
                seat = game.to_move()[0]
                action = policy(game, seat, extras[seat])
                before = game.version
                if seat in pages:
                    page = pages[seat]
                    await until_version(page, before)
                    tapped = await tap_move(page, game, action)
                    await fake.wait_until(lambda v=before: driver.game.version > v, what=f"{action!r} from the page")
                else:  # once the channel's table offers the turn (a page's move is announced after it is made)
                    turn = rf"ttr:{driver.game_id}:{game.turn_token(seat)}:.*"
                    if game.phase == "playing" and not isinstance(action, (KeepTickets, PayTunnel, DeclineTunnel)):
                        await fake.wait_until(
                            lambda t=turn: driver._newest_with(fake.channel_messages(fake.general), t) is not None,
                            what="the turn's table in the channel",
                        )
                    await driver.act(seat, action)
                    tapped = driver.tapped_at
                taps.append((seat if seat in pages else None, tapped, driver.game.version))
                assert type(driver.game.log[-1][1]) is type(action)
            game = driver.game
            assert game.is_over(), "not over after 600 moves"
            totals = [s.total for s in sorted(game.final, key=lambda s: (s.rank, s.seat))]  # first place first
            for page in pages.values():
                await until_version(page, game.version)
                assert await page.locator("#status").inner_text() == "The game is over."
                assert "<:" not in await page.locator("#log").inner_text()  # no Discord emoji markup
                rows = page.locator("#players tr:not(:first-child) td:nth-child(2)")
                assert [int(x) for x in await rows.all_inner_texts()] == totals
            await fake.wait_until(  # the channel's final message, with the score breakdown
                lambda: any(
                    m.text_displays[:1] and m.text_displays[0].startswith("## 🏁")
                    for m in fake.channel_messages(fake.general)
                ),
                what=f"the final scores in the channel {[m.text_displays[:1] for m in fake.channel_messages(fake.general)[-3:]]}",
            )
            kinds = {type(a).__name__ for _, a in game.log}
            assert {"Claim", "DrawDeck", "DrawMarket", "DrawTickets", "KeepTickets"} <= kinds, kinds
            assert map_id != "europe" or "BuildStation" in kinds
            web_kinds = {type(a).__name__ for s, a in game.log if s in on_web}
            assert {"Claim", "DrawTickets"} <= web_kinds

            SHOTS.mkdir(exist_ok=True)
            await pages[on_web[0]].evaluate("() => window.scrollTo(0, 0)")
            await pages[on_web[0]].screenshot(path=str(SHOTS / f"web-phone-over-{map_id}.png"))
            frames = await pages[None].evaluate("() => window.__frames")
            for raw in frames:  # every frame the spectator's browser received
                seen = json.loads(raw)
                assert seen["view"]["you"] is None and not {"moves", "payable", "done"} & seen.keys()
                assert '"hand"' not in raw and '"offer"' not in raw

            arrivals = {seat: await page.evaluate("() => window.__arrivals") for seat, page in pages.items()}
            delays = []
            for by, at, made in taps:
                for seat, seen in arrivals.items():
                    if seat == by and by is not None:
                        continue
                    delays.append(next(t for v, t, _ in seen if v >= made) - at)
            sent = {seat: sum(n for _, _, n in seen) for seat, seen in arrivals.items()}
        finally:
            await browser.close()
    if os.environ.get("WEB_FIGURES"):
        q = statistics.quantiles(delays, n=20)
        print(
            f"\n{map_id}: {len(game.log)} moves, {len(delays)} updates; tap -> other viewers' frame: "
            f"median {statistics.median(delays):.0f} ms, p95 {q[18]:.0f} ms, max {max(delays):.0f} ms; "
            f"bytes to one viewer: player {sent[on_web[0]] / 1024:.0f} KiB, spectator {sent[None] / 1024:.0f} KiB"
        )
