"""The story of the turns on the board: every claim and station since the viewer last looked
glows and gets a recap line; private images say what is true now (country tickets, off-turn
claims); the final image shows only the bonuses the map has."""

from __future__ import annotations

import math
import random

import pytest

from engine import Claim, DrawMarket, Game, GameOptions, PayTunnel
from engine.cards import card_index
from engine.mapdata import load_map
from i18n import translator
from rendering import (
    default_players,
    fonts,
    render_board,
    render_final,
    render_hand,
    render_player_board,
    render_ticket_offer,
)
from rendering.geometry import geometry
from rendering.sample import played_game, synthetic_final, synthetic_view, with_seat
from rendering.style import HIGHLIGHT
from rendering.words import turn_text
from tests.engine.helpers import arrange, started, track_between
from tests.rendering.conftest import MAPS, decode
from tests.rendering.test_private import near


def glowing(img, geo, m, tid) -> bool:
    """Whether the gold glow shows just outside a track's first car."""
    car = geo.tracks[m.track_by_id[tid].index].cars[0]
    a = math.radians(car.angle)
    for side in (1, -1):
        off = geo.car_width / 2 + 5
        x, y = car.x - side * math.sin(a) * off, car.y + side * math.cos(a) * off
        if near(img, x, y, HIGHLIGHT, 1, tol=20):  # not a toll coin's gold
            return True
    return False


def test_every_claim_since_the_viewers_previous_board_glows_and_is_told():
    for plies in range(200, 300, 5):
        view = played_game("usa", seats=5, seed=7, plies=plies).view(None)
        if sum(e["kind"] == "Claim" for e in view["recent"]) >= 2:
            break
    m = load_map("usa")
    since = view["recent"][0]["ply"] - 1
    claims = [e["track"] for e in view["recent"] if e["kind"] == "Claim"]
    assert len(claims) >= 2  # several turns of the round claimed something
    geo = geometry(m)
    players = default_players(5)
    img = decode(render_board(view, m, players, since=since).data)
    assert all(glowing(img, geo, m, tid) for tid in claims)
    alt = render_board(view, m, players, since=since).alt_text
    seats = {e["seat"] for e in view["recent"]}
    assert all(f"{players[s].name}:" in alt for s in seats)
    # since the last ply: only what happened after it glows
    last = decode(render_board(view, m, players, since=view["plies"]).data)
    assert not any(glowing(last, geo, m, tid) for tid in claims if tid != view["last_action"].get("track"))
    nothing = decode(render_board(view, m, players, highlight=False, since=since).data)
    assert not any(glowing(nothing, geo, m, tid) for tid in claims)


def test_paid_tunnel_glows_and_names_its_route_and_face_up_card_its_color():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(
        game,
        hands={0: "green green green green loco loco"},
        deck_top="green loco blue",
        market="red blue green white black",
    )
    game.apply(0, Claim(t.id, card_index("green"), 0))
    game.apply(0, PayTunnel(1))
    game.apply(1, DrawMarket(1))
    view = game.view(None)
    m = game.map
    r = render_board(view, m)
    assert "claimed the tunnel Venezia – Zürich with 2 green, then 1 loco more (+2)" in r.alt_text, r.alt_text
    assert "took blue" in r.alt_text
    assert glowing(decode(r.data), geometry(m), m, t.id)


def test_turns_are_told_in_russian_and_chinese():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "green green green green loco loco"}, deck_top="green loco blue")
    game.apply(0, Claim(t.id, card_index("green"), 0))
    game.apply(0, PayTunnel(1))

    entries = game.view(None)["recent"][-2:]
    assert turn_text(translator("ru", "translated"), game.map, game.view(None), entries).startswith(
        "тоннель Венеция – Цюрих: зелёный ×2, затем ещё 1 локомотив"
    )
    assert turn_text(translator("zh", "translated"), game.map, game.view(None), entries).startswith("占领隧道 威尼斯")


def test_country_ticket_shows_the_destination_reached_and_its_value():
    m = load_map("switzerland")
    view = with_seat(synthetic_view(m, seats=3, seed=1), m, 0)
    # a country ticket and one track from its city to one destination's border point
    ticket, place, nodes, points, track = next(
        (t, place, nodes, points, x)
        for t in m.tickets
        if t.destinations and m.cities[t.a].kind != "country"
        for place, nodes, points in t.destinations
        for x in m.tracks
        if {x.a, x.b} & set(t.a_nodes) and {x.a, x.b} & set(nodes) and points < max(d[2] for d in t.destinations)
    )
    view["claims"] = {track.id: 0}
    view["you"]["tickets"] = [
        {
            "id": ticket.id,
            "a": m.cities[ticket.a].id,
            "b": m.cities[ticket.b].id,
            "points": ticket.points,
            "long": False,
            "destinations": [{"to": m.cities[p].id, "points": v} for p, _, v in ticket.destinations],
        }
    ]
    r = render_hand(view, m)
    reached = m.cities[place].name
    assert f"{m.cities[ticket.a].name}-{reached} {points} connected" in r.alt_text, r.alt_text
    view["claims"] = {}
    lost = render_hand(view, m).alt_text
    assert "not connected" in lost and f"{m.cities[ticket.a].name}-{reached} " not in lost


def test_player_board_off_turn_shows_what_the_hand_could_pay_for():
    game = played_game("usa", seats=3, seed=5, plies=60)
    seat = (game.current + 1) % 3
    payable = sorted({a.track for a in game.payable_claims(seat)})
    assert payable and game.legal_actions(seat) == []
    m = game.map
    r = render_player_board(game.view(seat), m, claimable_tracks=payable)
    assert "not your turn" in r.alt_text and f"could pay for {len(payable)} route" in r.alt_text
    mine = render_player_board(game.view(game.current), m, claimable_tracks=[])
    assert "not your turn" not in mine.alt_text
    img = decode(r.data)
    geo = geometry(m)
    assert sum(glowing(img, geo, m, tid) for tid in payable[:6]) >= 4


@pytest.mark.parametrize("map_id,longest", [("usa", True), ("europe", True), ("nordic", False), ("nederland", False)])
def test_final_shows_the_longest_path_only_where_it_scores(map_id, longest):
    m = load_map(map_id)
    view = synthetic_final(synthetic_view(m, seats=min(3, m.rules.max_players), seed=2), m)
    if not longest:
        for p in view["final"]:
            p["bonuses"].pop("longest_path", None)
    r = render_final(view, m)
    img = decode(r.data)
    geo = geometry(m)
    best = max(view["final"], key=lambda p: p["longest"])
    lit = sum(glowing(img, geo, m, tid) for tid in best["longest_tracks"])
    assert (lit > 0) == longest, lit


def test_nederland_final_shows_money_and_the_neutral_players_trains(monkeypatch):
    game = Game.new("nederland", 2, seed=3, options=GameOptions(variants={"neutral": True}))
    rng = random.Random(3)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    view = game.view(None)
    assert view.get("neutral") and all("money" in p["details"] for p in view["final"])
    drawn = []
    real = fonts.draw_text
    monkeypatch.setattr(
        fonts, "draw_text", lambda d, xy, text, *a, **k: drawn.append(text) or real(d, xy, text, *a, **k)
    )
    r = render_final(view, game.map)
    assert "Money" in drawn and "Longest" not in drawn and "longest" not in r.alt_text
    assert f"Neutral player: {view['neutral']['trains']} trains left" in drawn or view["neutral"]["trains"] == 1
    assert all(str(p["details"]["money"]) in drawn for p in view["final"])


@pytest.mark.parametrize("map_id", MAPS)
def test_five_ticket_offer_is_shorter_than_a_phone_screen_and_shows_the_claims(monkeypatch, map_id):
    """A phone screen is about twice as tall as wide: 5 tickets (3 columns) stay under 1.5x their
    width on every map, portrait Nederland and Nordic too (before: ~2000 px at 800). The
    thumbnails show the claims and draw no text (a label there was 2 px high at 400 px)."""
    from rendering import private

    m = load_map(map_id)
    view = with_seat(synthetic_view(m, seats=min(3, m.rules.max_players), seed=1), m, 0, offer=5)
    r = render_ticket_offer(view, m)
    assert r.height < 1.5 * r.width, (r.width, r.height)
    drawn = []
    real = fonts.draw_text
    monkeypatch.setattr(
        fonts, "draw_text", lambda d, xy, text, *a, **k: drawn.append(text) or real(d, xy, text, *a, **k)
    )
    thumb, _, _ = private.thumbnail(view, m, default_players(3), 240, t=translator("en"), colorblind=True)
    assert drawn == [] and thumb.width == 240
    monkeypatch.undo()
    empty = dict(view, claims={})
    assert render_ticket_offer(empty, m).data != r.data


def test_tunnel_being_paid_for_is_lit_and_named_by_its_cities():
    """The reveal is told with the route's city names as the recap names it (no track id, no
    notation) and the tunnel glows while its owner decides."""
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "green green green green loco loco"}, deck_top="green loco blue")
    game.apply(0, Claim(t.id, card_index("green"), 0))
    view = game.view(None)
    assert view["tunnel"]["track"] == t.id
    r = render_board(view, game.map)
    assert "Tunnel Venezia – Zürich (Player 1): revealed green, loco, blue — 2 more cards to pay" in r.alt_text, (
        r.alt_text
    )
    assert "digging the tunnel Venezia – Zürich" in r.alt_text
    assert glowing(decode(r.data), geometry(game.map), game.map, t.id)


@pytest.mark.parametrize("language", ["en", "ru", "zh"])
def test_a_passenger_move_is_worded_with_its_path_and_cards(language):
    """Märklin: a passenger's move reads as words with the cities of its path in order (and the
    passenger cards paid), not as the notation ("move Frankfurt-Mainz")."""
    from engine.actions import Move

    game, rng = Game.new("marklin", seats=3, seed=5), random.Random(5)
    while True:
        seat = game.to_move()[0]
        acts = game.legal_actions(seat, collapse_payments=True)
        moves = [a for a in acts if isinstance(a, Move)]
        game.apply(seat, moves[-1] if moves else rng.choice(acts))
        if moves:
            break
    move, m, t = moves[-1], game.map, translator(language)
    entry = game.view(None)["last_action"]
    text = turn_text(t, m, game.view(None), [entry])
    assert entry["text"].split()[1] not in text  # the notation's "Frankfurt-Mainz" is not shown
    names = [t.city(m.city_by_id[c]) for c in move.path]
    assert [text.index(n) for n in names] == sorted(text.index(n) for n in names), text
    assert (str(move.cards) in text) == bool(move.cards), text
