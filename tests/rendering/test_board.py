"""The public board: size and mode, owner colors at the train-space positions, privacy."""

from __future__ import annotations

import copy
import io
import math
from collections import Counter

import pytest
from PIL import Image

from engine import Game
from engine.mapdata import load_map
from rendering import PlayerStyle, default_players, render_board, render_final
from rendering.geometry import geometry
from rendering.style import ROUTE_COLORS
from tests.rendering.conftest import MAPS, PLAYED_MAPS, decode

#: Player colors no route and no default uses, so a pixel of that color can only be a claim.
PROBE = [(255, 0, 255), (0, 255, 255), (128, 0, 0), (0, 0, 128), (255, 128, 255)]


def probe_players(n=5):
    return [PlayerStyle(f"P{i}", PROBE[i]) for i in range(n)]


def close(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def fill_point(car, width):
    """A point inside a car, off its center stripe (claimed cars have a light stripe)."""
    a = math.radians(car.angle)
    nx, ny = -math.sin(a), math.cos(a)
    return round(car.x + nx * width * 0.3), round(car.y + ny * width * 0.3)


def fill_color(img, car, width):
    """A car's fill: the commonest pixel at six points off its center stripe, on either side and
    along it (one point of a 9 px wide car can fall on an anti-aliased edge)."""
    a = math.radians(car.angle)
    ux, uy, nx, ny = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    points = [
        (
            round(car.x + nx * width * side + ux * car.length * along),
            round(car.y + ny * width * side + uy * car.length * along),
        )
        for side in (-0.3, 0.3)
        for along in (-0.2, 0.0, 0.2)
    ]
    return Counter(img.getpixel(p) for p in points).most_common(1)[0][0]


@pytest.mark.parametrize("map_id", PLAYED_MAPS)
def test_size_mode_and_discord_limit(late_games, map_id):
    view = late_games[map_id].view(None)
    r = render_board(view, load_map(map_id))
    raw = Image.open(io.BytesIO(r.data))
    assert raw.format == "WEBP" and r.filename("board") == "board.webp"  # lossless: Discord shows it inline
    img = decode(r.data)
    assert img.size == (r.width, r.height) and r.width == 960
    assert img.getcolors(256) is not None  # mapped onto the board's palette: a third fewer bytes
    assert len(r.data) <= 150 * 1024  # measured 98-116 KB (docs/rendering.md)
    assert r.alt_text and "\n" not in r.alt_text and load_map(map_id).name in r.alt_text


def test_width_parameter_and_colorblind_mode(synthetic_views):
    m = load_map("europe")
    small = render_board(synthetic_views["europe"], m, width=800)
    assert decode(small.data).size == (800, small.height)
    normal = render_board(synthetic_views["europe"], m)
    cb = render_board(synthetic_views["europe"], m, colorblind=True)
    assert (cb.width, cb.height) == (normal.width, normal.height) and cb.data != normal.data


@pytest.mark.parametrize("map_id", MAPS)
def test_claims_in_owner_color_at_space_positions(synthetic_views, map_id):
    m = load_map(map_id)
    view = synthetic_views[map_id]
    geo = geometry(m)
    img = decode(render_board(view, m, probe_players(), highlight=False).data).convert("RGB")
    claimed = unclaimed = under_tokens = 0
    tokens = _marklin_boxes(m, geo, view)
    for t in m.tracks:
        tg = geo.tracks[t.index]
        owner = view["claims"].get(t.id)
        for car in tg.cars:
            x, y = fill_point(car, geo.car_width)
            px = fill_color(img, car, geo.car_width)
            if any(
                lab.box[0] - 2 <= x <= lab.box[2] + 2 and lab.box[1] - 2 <= y <= lab.box[3] + 2 for lab in geo.labels
            ):
                continue  # a city name is drawn over this car
            if any(b[0] - 2 <= x <= b[2] + 2 and b[1] - 2 <= y <= b[3] + 2 for b in tokens):
                under_tokens += 1  # Märklin: a stack, or a crowd of passengers (five seats on Emden)
                continue
            if owner is not None:
                assert close(px, PROBE[owner]), (t.id, px, PROBE[owner])
                claimed += 1
            else:
                assert not any(close(px, c, 40) for c in PROBE), (t.id, px)
                route = ROUTE_COLORS[
                    "gray"
                    if t.color is None
                    else ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")[t.color]
                ]
                if not t.ferry and not (map_id == "nederland" and t.toll):
                    assert close(px, route, 30), (t.id, px, route)
                unclaimed += 1
    assert claimed > 30 and unclaimed > 10 and under_tokens <= 8  # measured: 7 of 312 (5 under the crowd)


def _marklin_boxes(m, geo, view) -> list[tuple[float, float, float, float]]:
    """The boxes of the stacks and waiting passengers drawn on a Märklin board (none elsewhere)."""
    from rendering import marklin

    if "merchandise" not in view:
        return []
    where = marklin.spots(geo, tuple(sorted(m.city_by_id[c].index for c in view["merchandise"])))
    waiting: dict[str, int] = {}
    for p in view["players"]:
        for c in p["passengers_placed"]:
            waiting[c] = waiting.get(c, 0) + 1
    out = [marklin.stack_box(geo, *where[m.city_by_id[c].index][0]) for c in view["merchandise"]]
    return out + [marklin.figures_box(geo, *where[m.city_by_id[c].index][1], n) for c, n in waiting.items()]


def test_stations_in_owner_color(late_games):
    game = late_games["europe"]
    view = game.view(None)
    if not view["stations"]:
        pytest.skip("no station in this game")
    m = load_map("europe")
    geo = geometry(m)
    img = decode(render_board(view, m, probe_players(), highlight=False).data)
    for cid, seat in view["stations"].items():
        x, y = geo.cities[m.city_by_id[cid].index]
        assert close(img.getpixel((round(x), round(y))), PROBE[seat]), cid


def test_last_claim_is_highlighted(late_games):
    game = late_games["usa"]
    view = game.view(None)
    # find the last claim in the log to make the view's last action a claim
    from rendering.sample import played_game

    for plies in range(200, 100, -1):
        g = played_game("usa", seats=5, seed=7, plies=plies)
        v = g.view(None)
        if v["last_action"] and v["last_action"].get("track"):
            break
    m = load_map("usa")
    with_hl = decode(render_board(v, m).data)
    without = decode(render_board(v, m, highlight=False).data)
    assert with_hl.tobytes() != without.tobytes()
    _ = view


def test_public_image_identical_when_only_private_info_differs():
    from rendering.sample import played_game

    game = played_game("europe", seats=3, seed=11, plies=80)
    state = copy.deepcopy(game.to_json())
    hand = state["hands"][0]
    have = next(k for k, n in enumerate(hand) if n)
    k = next(i for i, c in enumerate(state["deck"]) if c != have)
    other = state["deck"][k]
    hand[have] -= 1
    hand[other] += 1
    state["deck"][k] = have
    state["ticket_deck"] = list(reversed(state["ticket_deck"]))
    twin = Game.from_json(state, log=game.log)
    twin.public_log = list(game.public_log)  # what was public when each action was applied
    assert twin.view(0) != game.view(0)
    assert twin.view(None) == game.view(None)
    m = load_map("europe")
    assert render_board(twin.view(None), m).data == render_board(game.view(None), m).data


def test_private_view_is_refused():
    from rendering.sample import played_game

    game = played_game("usa", seats=2, seed=3, plies=10)
    with pytest.raises(ValueError):
        render_board(game.view(0), load_map("usa"))


def test_fewer_players_than_styles_and_missing_styles(synthetic_views):
    m = load_map("usa")
    r = render_board(synthetic_views["usa"], m, default_players(["only one"]))
    assert r.width == 960


def test_neutral_player_claims_drawn_in_the_neutral_color():
    """docs/rules.md §4 neutral player: its claims (owner index = seats) get their own slate color."""
    import random

    from engine import GameOptions
    from rendering.style import NEUTRAL_PLAYER

    game = Game.new("nederland", 2, 5, GameOptions(variants={"neutral": True}))
    rng = random.Random(1)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    view = game.view(None)
    neutral = [t for t, owner in view["claims"].items() if owner == view["neutral"]["owner"]]
    assert neutral
    m = load_map("nederland")
    geo = geometry(m)
    img = decode(render_board(view, m, probe_players(2), highlight=False).data).convert("RGB")
    hits = 0
    for track_id in neutral:
        for car in geo.tracks[m.track_by_id[track_id].index].cars:
            x, y = fill_point(car, geo.car_width)
            if any(
                lab.box[0] - 2 <= x <= lab.box[2] + 2 and lab.box[1] - 2 <= y <= lab.box[3] + 2 for lab in geo.labels
            ):
                continue
            hits += close(img.getpixel((x, y)), NEUTRAL_PLAYER)
    assert hits >= len(neutral)
    render_final(view, m)  # the final image handles the neutral player too


@pytest.mark.parametrize("map_id", ["switzerland", "nordic"])
def test_played_three_player_games_render_board_private_and_final(map_id):
    """docs/rules.md §5–6 maps (2-3 players): every image from engine views, countries included."""
    from rendering import render_player_board
    from rendering.sample import played_game

    m = load_map(map_id)
    game = played_game(map_id, seats=3, seed=5)
    assert game.is_over()
    public = render_board(game.view(None), m)
    assert decode(public.data).size == (public.width, public.height)
    render_final(game.view(None), m)
    game = played_game(map_id, seats=3, seed=5, plies=120)
    mine = render_player_board(game.view(0), m, claimable_tracks=[t.id for t in m.tracks[:5]])
    assert mine.alt_text.startswith("Your board")


def test_switzerland_border_points_drawn_with_country_initials_and_rings():
    """Switzerland's countries: border points are diamonds (no label), the country a bigger name;
    a country ticket rings the country's border points."""
    from rendering import render_player_board
    from rendering.sample import synthetic_view, with_seat

    m = load_map("switzerland")
    geo = geometry(m)
    labelled = {m.cities[lab.city].kind for lab in geo.labels}
    assert labelled == {"city", "country"}
    country = next(lab for lab in geo.labels if m.cities[lab.city].kind == "country")
    assert country.size > geo.label_size
    view = synthetic_view(m, seats=3, seed=2)
    img = decode(render_board(view, m, highlight=False).data).convert("RGB")
    from rendering.board import BORDER_FILL

    for i in m.borders[m.city_by_id["italia"].index]:
        x, y = geo.cities[i]
        box = [img.getpixel((round(x + dx), round(y + dy))) for dx in (-4, 4) for dy in (-4, 4)]
        assert any(close(px, BORDER_FILL, 40) for px in box), m.cities[i].id
    seat_view = with_seat(view, m, 0)
    seat_view["you"]["tickets"] = [
        {
            "id": 6,
            "a": "chur",
            "b": "france",
            "points": 12,
            "long": False,
            "destinations": [
                {"to": "france", "points": 12},
                {"to": "deutschland", "points": 6},
                {"to": "osterreich", "points": 3},
                {"to": "italia", "points": 5},
            ],
        }
    ]
    ringed = decode(render_player_board(seat_view, m).data).convert("RGB")
    plain = decode(render_board(view, m, highlight=False).data).convert("RGB")
    x, y = geo.cities[m.borders[m.city_by_id["osterreich"].index][0]]
    r = round(geo.city_r * 2.3)
    assert any(
        ringed.getpixel((round(x) + dx, round(y))) != plain.getpixel((round(x) + dx, round(y)))
        for dx in range(-r, r + 1)
    )


def test_colorblind_letter_stays_whole_when_the_other_track_of_its_double_is_claimed():
    """A double's badge may touch its other track; once that track is claimed its cars are drawn
    over the static layer, so the unclaimed track's letter is drawn again on top (before: half
    of 蓝 under the other track's claim on Kansas City - Saint Louis in Chinese)."""
    from i18n import translator
    from rendering.badges import badge_conflicts, badges
    from rendering.board import board_image, map_marks, static_map
    from rendering.sample import synthetic_view
    from rendering.words import city_names

    checked = 0
    for map_id, language in ((map_id, language) for map_id in MAPS for language in ("en", "ru", "zh")):
        if checked:  # one map and language with such a badge is enough
            break
        m = load_map(map_id)
        t = translator(language, "translated")
        geo = geometry(m, None, city_names(t, m))
        marks = map_marks(m, t, True)
        placed = badges(m, geo, tuple(dict(marks[0]).values()))
        touching = [
            (a, other)
            for a, what, other in badge_conflicts(m, geo, placed)
            if what == "car"
            and m.track_by_id[a].double == m.track_by_id[other].index
            and m.track_by_id[a].color is not None
        ]
        if not touching:
            continue
        view = dict(synthetic_view(m, seats=3), claims={other: 0 for _, other in touching}, stations={})
        img, _, _ = board_image(view, m, default_players(3), t=t, colorblind=True, highlight=False, panel=False)
        static = static_map(m, geo, marks)
        for a, _ in touching:
            b = placed[m.track_by_id[a].index]
            inside = [
                (x, y)
                for x in range(round(b.x - b.r), round(b.x + b.r) + 1)
                for y in range(round(b.y - b.r), round(b.y + b.r) + 1)
                if math.dist((x, y), (b.x, b.y)) < b.r - 2
            ]
            assert [img.getpixel(p) for p in inside] == [static.getpixel(p) for p in inside], (map_id, language, a)
            checked += 1
    assert checked
