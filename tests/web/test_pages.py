"""The web table's pages of public data: a finished game's replay behind its own signed link (and
never a running game's), a league season's standings, a tournament's standings and tables; and the
last moves of a game rebuilt from its log after a restart."""

from __future__ import annotations

import random
import time

import aiohttp
from aiohttp import web

from bot.service import WEB, Cause, CauseKind
from bot.web.links import PAGE_DAYS
from bot.web.server import LOG_LINES, WebTable
from engine import Claim, DrawDeck, DrawMarket
from storage import leagues, tournaments
from tests.web.conftest import USERS, Frames, Site, language, seats

PRIVATE_KEYS = ('"hand"', '"offer"', '"moves"', '"payable"', '"done"', '"decision"')


async def play(site: Site, moves: int | None = None, *, seed: int = 3) -> None:
    """Moves by the seats through the service (as Discord buttons make them): `moves` of them, or to the end."""
    rng = random.Random(seed)
    for _ in range(moves or 3000):
        game = (await site.table()).game
        if game.is_over():
            return
        seat = game.to_move()[0]
        offered = game.legal_actions(seat, collapse_payments=True)
        claims = [a for a in offered if isinstance(a, Claim)]
        draws = [a for a in offered if isinstance(a, (DrawDeck, DrawMarket))]
        if claims and rng.random() < 0.6:
            action = rng.choice(claims)
        elif draws and rng.random() < 0.9:
            action = rng.choice(draws)
        else:
            action = rng.choice(offered)
        await site.service.act(site.game_id, action, cause=Cause(CauseKind.PLAYER, user_id=USERS[seat]))
    assert moves is not None, "the game did not end"


def replay_link(site: Site, *, now: float | None = None) -> str:
    return f"{site.url}/web/replay/{site.signer.page_token('r', site.game_id, now=now)}"


async def test_a_replay_is_refused_for_a_running_game_and_a_bad_link(site: Site) -> None:
    await play(site, 10)
    async with aiohttp.ClientSession() as http:
        async with http.get(replay_link(site)) as page:
            assert page.status == 403 and "still being played" in await page.text()
        async with http.get(replay_link(site) + "/steps.json") as steps:
            assert steps.status == 403 and (await steps.json()) == {"refused": "running"}
        seat_token = site.signer.token(site.game_id, None)  # a spectator's link is not a replay's
        async with http.get(f"{site.url}/web/replay/{seat_token}") as page:
            assert page.status == 403 and "not valid" in await page.text()
        page_token = site.signer.page_token("r", site.game_id)  # nor the other way round
        async with http.get(f"{site.url}/web/t/{page_token}") as page:
            assert page.status == 403 and "not valid" in await page.text()
        async with http.get(replay_link(site)[:-3] + "AAA") as page:
            assert page.status == 403 and "not valid" in await page.text()
        league = site.signer.page_token("l", site.game_id)  # another page's link
        async with http.get(f"{site.url}/web/replay/{league}") as page:
            assert page.status == 403
        expired = replay_link(site, now=time.time() - PAGE_DAYS * 86400 - 5)
        async with http.get(expired) as page:
            assert page.status == 403 and "expired" in await page.text()


async def test_a_finished_game_replays_every_move_to_the_final_results(site: Site) -> None:
    await play(site)
    table = await site.table()
    game = table.game
    async with aiohttp.ClientSession() as http:
        async with http.get(replay_link(site)) as page:
            body = await page.text()
            assert page.status == 200 and "/web/static/replay.js" in body and "steps.json" in body
            assert page.headers["Referrer-Policy"] == "no-referrer"
        async with http.get(replay_link(site) + "/steps.json", headers={"Accept-Encoding": "gzip"}) as answer:
            assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip"
            raw = await answer.text()
            replay = await answer.json()
        async with http.get(f"{site.url}/web/static/replay.js") as script:
            assert script.status == 200
    steps = replay["steps"]
    assert len(steps) == len(game.log) + 1
    view: dict = {}
    for n, step in enumerate(steps):  # each step is what changed: rebuilt as the page does
        view = {**view, **step["view"]}
        if n == 1:
            assert step["seat"] == game.log[0][0] and "players" in step["view"]
    public = game.view(None)
    for key in ("claims", "stations", "players", "market", "phase"):
        assert view[key] == public[key], key
    assert any("claimed" in line for step in steps for line in step["lines"])
    assert [s["name"] for s in replay["seats"]] == ["Player 1", "Player 2"]
    assert replay["title"].startswith("Game over") and len(replay["final"]) == 2
    assert any("Player" in f["title"] and "→" in f["body"] for f in replay["final"])  # the tickets, as the card shows
    for key in PRIVATE_KEYS:  # nobody's hand or offer at any step
        assert key not in raw, key


async def test_the_last_moves_are_rebuilt_from_the_log_after_a_restart(site: Site) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(site.api(None, "events")) as stream:  # watching while the moves are made
            frames = Frames(stream)
            await frames.next()
            await play(site, 20)
            version = (await site.table()).version
            seen = await frames.next()
            while seen["version"] < version:
                seen = await frames.next()
        assert len(seen["log"]) >= 8
        # A restart: a new web table on the same service knows no words of the moves made so far.
        restarted = WebTable(site.service, site.signer, language=language, seats=seats)
        site.service.subscribe(WEB, restarted.on_outcome)
        app = web.Application()
        restarted.add_routes(app)
        runner = web.AppRunner(app, shutdown_timeout=1)
        await runner.setup()
        there = web.TCPSite(runner, "127.0.0.1", 0)
        await there.start()
        port = there._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            token = site.signer.token(site.game_id, 0)
            async with http.get(f"http://127.0.0.1:{port}/web/api/{token}/events") as stream:
                frames = Frames(stream)
                rebuilt = await frames.next()
                assert rebuilt["log"] == seen["log"]  # the same words as when they happened
                await play(site, 1, seed=5)  # and a move after it is added once
                after = await frames.next()
                assert after["log"] == (seen["log"] + after["log"][-1:])[-LOG_LINES:]
        finally:
            await runner.cleanup()


async def a_season(site: Site):
    """A league season with two games of three players (101 won both)."""
    from tests.storage.test_leagues import A, B, C, finished, league_and_season

    async with site.service.storage.sessions() as s:
        _, season = await league_and_season(s)
        for _ in range(2):
            await finished(s, [A, B, C], season_id=season.id)
    return season


async def a_cup(site: Site):
    """A Swiss tournament of 8 players, its first round played."""
    from tests.storage.test_tournaments import _finish_round, _tournament

    storage = site.service.storage
    cup = await _tournament(storage, 8)
    async with storage.sessions() as s:
        await tournaments.start(session=s, tournament_id=cup.id)
    await _finish_round(storage, cup.id, 1)
    return cup


async def test_a_league_seasons_standings_page(site: Site) -> None:
    from tests.storage.test_leagues import A

    season = await a_season(site)
    async with site.service.storage.sessions() as s:
        table, _ = await leagues.standings(session=s, season_id=season.id)
    page_url = f"{site.url}/web/league/{site.signer.page_token('l', season.id)}"
    async with aiohttp.ClientSession() as http:
        async with http.get(page_url) as page:
            body = await page.text()
            assert page.status == 200 and page.headers["Referrer-Policy"] == "no-referrer"
        async with http.get(page_url.replace("/league/", "/tournament/")) as page:
            assert page.status == 403  # a season's link is not a tournament's
        async with http.get(f"{site.url}/web/league/{site.signer.page_token('l', season.id + 9)}") as page:
            assert page.status == 404
        expired = site.signer.page_token("l", season.id, now=time.time() - PAGE_DAYS * 86400 - 5)
        async with http.get(f"{site.url}/web/league/{expired}") as page:
            assert page.status == 403 and "expired" in await page.text()
    assert "Club · Standings" in body and "S1 · all maps" in body and "<script" not in body
    rows = [line for line in body.split("<tr>")[2:]]
    assert len(rows) == len(table) == 3
    assert f"<td>1</td><td>Player {A}</td><td>{table[0].rating:.1f}</td><td>2</td><td>2</td>" in body  # A won both


async def test_a_tournaments_standings_and_tables_page(site: Site) -> None:
    cup = await a_cup(site)
    async with site.service.storage.sessions() as s:
        tables = await tournaments.tables(session=s, tournament_id=cup.id)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site.url}/web/tournament/{site.signer.page_token('t', cup.id)}") as page:
            body = await page.text()
            assert page.status == 200
    assert "Cup · Standings" in body and "Cup · Tables" in body and "Round 1" in body
    assert body.count("Table ") == len(tables) >= 2
    for user in range(101, 109):
        assert f"Player {user}" in body
    assert "<script" not in body
