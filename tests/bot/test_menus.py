"""The claim and station menus (bot/components.py) and the ticket plan that orders them
(ai/ticket_plan.py), on real games: every payable route is offered exactly once across the pages,
planned ones first, and every custom id is one the cogs know."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ai import make_ai
from ai.base import ask
from ai.ticket_plan import ticket_cities, ticket_tracks
from bot import components
from engine import BuildStation, Claim, Game, GameOptions
from i18n import translator

EN = translator("en")


def played(map_id: str, seed: int, plies: int) -> Game:
    game = Game.new(map_id, 3, seed, GameOptions())
    player = make_ai("baseline", seed)
    while not game.is_over() and len(game.log) < plies:
        seat = game.to_move()[0]
        game.apply(seat, ask(player, game, seat))
    return game


def known(custom_id: str) -> bool:
    return any(re.fullmatch(template, custom_id) for template in components.KNOWN)


def menu_pages(game: Game, seat: int, claims: list[Claim], planned: set[str]) -> list[list[str]]:
    pages, page = [], 0
    while True:
        content, view = components.claim_menu(1, game, seat, claims, planned, page, t=EN)
        select = next(item for item in view.children if isinstance(item, components.discord.ui.Select))
        assert all(known(item.custom_id) for item in view.children)
        pages.append([option.value for option in select.options])
        more = [item for item in view.children if getattr(item, "label", "") == "More"]
        if not more or more[0].disabled:
            return pages
        page += 1


@settings(max_examples=15, deadline=None)
@given(map_id=st.sampled_from(["usa", "europe", "nordic"]), seed=st.integers(0, 10_000), plies=st.integers(3, 60))
def test_the_claim_menu_offers_each_payable_route_once_planned_first(map_id, seed, plies):
    game = played(map_id, seed, plies)
    if game.phase != "playing" or game.stage is not None:
        return
    seat = game.current
    claims = [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)]
    planned = ticket_tracks(game, seat)
    if not claims:
        content, view = components.claim_menu(1, game, seat, claims, planned, 0, t=EN)
        assert view is None and "no route" in content
        return
    pages = menu_pages(game, seat, claims, planned)
    offered = [tid for page in pages for tid in page]
    assert sorted(offered) == sorted({c.track for c in claims})  # each once
    assert all(len(page) <= components.SELECT_OPTIONS for page in pages)
    flags = [tid in planned for tid in offered]
    assert flags == sorted(flags, reverse=True)  # the ticket plan's routes before the others


def test_off_turn_the_menu_lists_what_the_hand_could_pay_without_controls():
    game = played("usa", 3, 40)
    other = (game.current + 1) % game.seats
    claims = game.payable_claims(other)
    content, view = components.claim_menu(1, game, other, claims, ticket_tracks(game, other), 0, t=EN)
    assert view is None and content.startswith("🛤️ Not your turn.")
    assert len(content.splitlines()) == 1 + min(len({c.track for c in claims}), components.SELECT_OPTIONS)


def test_the_ticket_plan_uses_free_or_own_tracks_and_the_station_menu_puts_ticket_cities_first():
    game = played("europe", 11, 30)
    seat = game.current
    planned = ticket_tracks(game, seat)
    assert planned and all(game.owner[game.map.track_by_id[tid].index] in (-1, seat) for tid in planned)
    builds = [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, BuildStation)]
    wanted = ticket_cities(game, seat)
    content, view = components.station_menu(1, game, seat, builds, wanted, 0, t=EN)
    select = next(item for item in view.children if isinstance(item, components.discord.ui.Select))
    firsts = [option.value in wanted for option in select.options]
    assert firsts == sorted(firsts, reverse=True) and any(firsts)


def test_table_and_panel_controls_follow_the_turn():
    game = played("europe", 5, 10)
    seat = game.current
    table = components.table_view(1, game, t=EN)
    ids = [item.custom_id for item in table.children]
    assert all(known(i) for i in ids)
    turn = game.turn_token(seat)
    assert f"ttr:1:{turn}:routes:0" in ids and f"ttr:1:{turn}:cities:0" in ids and "ttr:1:hand" in ids
    assert components.panel_view(1, game, (seat + 1) % game.seats, t=EN) is None  # off turn: nothing to tap
    game.apply(seat, next(a for a in game.legal_actions(seat) if type(a).__name__ == "DrawDeck"))
    table = components.table_view(1, game, t=EN)
    by_id = {item.custom_id: item for item in table.children}
    assert by_id[f"ttr:1:{turn}:routes:0"].disabled  # the second card: no claim now
    assert not by_id[f"ttr:1:{turn}:draw:deck"].disabled  # same turn token: the same message serves it


def test_the_nederland_claim_menu_names_each_routes_toll():
    for seed in range(20):
        game = played("nederland", seed, 12)
        if game.phase != "playing" or game.stage is not None:
            continue
        seat = game.current
        claims = [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)]
        tolled = {c.track for c in claims if game.map.track_by_id[c.track].toll}
        if not tolled:
            continue
        options = [o for page in range(3) for o in _options(game, seat, claims, page)]
        for option in options:
            assert ("toll" in (option.description or "")) == (option.value in tolled), option
        return
    raise AssertionError("no tolled route was payable in 20 games")


def _options(game, seat, claims, page):
    """One page's options (a page past the last is the last again: checked twice, harmlessly)."""
    content, view = components.claim_menu(1, game, seat, claims, set(), page, t=EN)
    return next(item for item in view.children if isinstance(item, components.discord.ui.Select)).options
