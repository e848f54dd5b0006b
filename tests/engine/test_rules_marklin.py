"""docs/rules.md §8 Märklin: 2-5 players, 45 trains and 3 passengers, the 118-card deck with +4
locomotives and passenger cards, the short and long ticket decks with a named mix, merchandise
stacks, passengers placed with a claim and moved along a path, double and triple routes, scoring."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Claim,
    DrawMarket,
    DrawTickets,
    Game,
    GameOptions,
    IllegalActionError,
    KeepTickets,
    format_action,
    parse_action,
)
from engine.actions import Move
from engine.cards import ALL_CARD_NAMES, LOCO, LOCO4, PASSENGER, card_index
from engine.errors import SeatCountError
from engine.mapdata import load_map
from engine.marklin import PassengerMoved, PassengerPlaced

KIND = {name: i for i, name in enumerate(ALL_CARD_NAMES)}
M = load_map("marklin")
RED, YELLOW, BLUE = card_index("red"), card_index("yellow"), card_index("blue")


def new(seats: int = 3, seed: int = 7) -> Game:
    return Game.new("marklin", seats, seed, GameOptions(first_seat=0))


def started(seats: int = 3, seed: int = 7) -> Game:
    """Past the starting tickets: every seat names 4 short tickets and keeps its default."""
    game = new(seats, seed)
    for seat in range(seats):
        game.apply(seat, game.default_action(seat))
        game.apply(seat, game.default_action(seat))
    assert game.phase == "playing" and game.current == 0
    return game


def set_hand(game: Game, seat: int, spec: str) -> None:
    """Give `seat` exactly these cards ('red red loco4 passenger'), trading with the deck."""
    for kind, n in enumerate(game.hands[seat]):
        game.deck += [kind] * n
    game.hands[seat] = [0] * 11
    for word in spec.split():
        game.deck.remove(KIND[word])
        game.hands[seat][KIND[word]] += 1
    assert game._card_total() == 118


def between(a: str, b: str) -> list:
    ia, ib = M.city_by_id[a].index, M.city_by_id[b].index
    return list(M.tracks_between[(min(ia, ib), max(ia, ib))])


def own(game: Game, seat: int, a: str, b: str, which: int = 0) -> None:
    game.owner[between(a, b)[which].index] = seat


def stack(game: Game, city: str) -> list[int]:
    return game.hooks.stacks[M.city_by_id[city].index]


def place(game: Game, seat: int, city: str) -> None:
    game.hooks.unplaced[seat] -= 1
    game.hooks.placed[seat].append(M.city_by_id[city].index)


# ---------------------------------------------------------------- §8.1 players, routes
def test_s8_1_two_to_five_players_45_trains_3_passengers():
    with pytest.raises(SeatCountError):
        Game.new("marklin", 6, 1)
    game = new(5)
    assert game.trains == [45] * 5
    assert game.view(None)["players"][0]["passengers"] == 3


@pytest.mark.parametrize("seats, usable", [(3, 1), (4, 3)])
def test_s8_1_triple_routes_by_player_count(seats, usable):
    game = started(seats)
    tracks = between("dortmund", "dusseldorf")
    claimed = 0
    for seat, t in zip(range(seats), tracks):
        game.current = seat
        set_hand(game, seat, "red")
        action = Claim(t.id, RED, 0)
        if game.is_legal(seat, action):
            game.apply(seat, action)
            claimed += 1
    assert claimed == usable


def test_s8_1_a_player_never_owns_two_tracks_of_a_route():
    game = started(4)
    first, second, third = between("dusseldorf", "koln")
    own(game, 0, "dusseldorf", "koln", 0)
    set_hand(game, 0, "red")
    with pytest.raises(IllegalActionError, match="another track"):
        game.apply(0, Claim(third.id, RED, 0))
    assert not any(isinstance(a, Claim) and a.track in (second.id, third.id) for a in game.legal_actions(0))


# ---------------------------------------------------------------- §8.2 cards
def test_s8_2_the_118_card_deck():
    game = new(2)
    assert game._card_total() == 118
    everything = Counter(game.deck + game.market)
    for hand in game.hands:
        everything.update({k: n for k, n in enumerate(hand)})
    assert everything == {**{c: 11 for c in range(8)}, LOCO: 14, LOCO4: 6, PASSENGER: 10}


def test_s8_2_plus4_pays_on_routes_of_4_or_more_and_goes_first():
    game = started()
    long_route = between("berlin", "hannover")[0]  # black 7
    assert long_route.length == 7
    set_hand(game, 0, "black black black black loco4 loco4 loco")
    game.apply(0, Claim(long_route.id, long_route.color, 3))
    assert game.hands[0][LOCO4] == 0 and game.hands[0][LOCO] == 0
    assert game._card_total() == 118


def test_s8_2_plus4_is_no_wild_on_short_routes():
    game = started()
    short = next(t for t in M.tracks if t.length == 2 and t.color is not None)
    set_hand(game, 0, f"{ALL_CARD_NAMES[short.color]} loco4")
    with pytest.raises(IllegalActionError):
        game.apply(0, Claim(short.id, short.color, 1))
    set_hand(game, 0, f"{ALL_CARD_NAMES[short.color]} loco4 loco")
    game.apply(0, Claim(short.id, short.color, 1))
    assert game.hands[0][LOCO4] == 1 and game.hands[0][LOCO] == 0


def test_s8_2_passenger_cards_pay_for_no_route():
    game = started()
    set_hand(game, 0, "passenger passenger passenger passenger passenger passenger passenger")
    assert not any(isinstance(a, Claim) for a in game.legal_actions(0))


def test_s8_2_face_up_plus4_and_passenger_cards_are_drawn_like_colors():
    game = started()
    game.market[:] = [LOCO4, PASSENGER, LOCO, RED, BLUE]
    game.apply(0, DrawMarket(0))
    assert game.stage == "second_card" and game.current == 0
    assert DrawMarket(1) in game.legal_actions(0) and DrawMarket(2) not in game.legal_actions(0)
    game.apply(0, DrawMarket(1))
    assert game.current == 1 and game.hands[0][LOCO4] >= 1 and game.hands[0][PASSENGER] >= 1


def test_s8_2_only_ordinary_locomotives_reset_the_market():
    game = started()
    game.market[:] = [LOCO4, LOCO4, LOCO4, LOCO, RED]
    game.deck.append(LOCO)
    game.apply(0, DrawMarket(4))  # the refill is a third face-up card among 5 wilds, 2 of them locomotives
    assert game.market.count(LOCO4) == 3


# ---------------------------------------------------------------- §8.3 tickets
def test_s8_3_starting_mix_then_keep_two():
    game = new(2)
    assert game.to_move() == [0, 1]
    assert game.legal_actions(0) == [DrawTickets(k) for k in range(5)]
    with pytest.raises(IllegalActionError, match="long deck"):
        game.apply(0, DrawTickets())
    game.apply(0, DrawTickets(3))
    offer = game.offers[0]
    assert [M.ticket_by_id[i].long for i in offer].count(True) == 3 and len(offer) == 4
    with pytest.raises(IllegalActionError, match="keep at least 2"):
        game.apply(0, KeepTickets((sorted(offer)[0],)))
    game.apply(0, KeepTickets(tuple(sorted(offer)[:2])))
    assert game.phase == "choosing"  # seat 1 has not named its mix yet
    game.apply(1, DrawTickets(0))
    game.apply(1, game.default_action(1))
    assert game.phase == "playing"
    decks = game.view(None)["ticket_decks"]
    assert decks["short"] + decks["long"] + 4 == 89  # the returned tickets went back


def test_s8_3_a_draw_names_its_mix_keeps_one_and_returns_under_its_own_decks():
    game = started(2)
    hooks = game.hooks
    game.apply(0, DrawTickets(1))
    offer = sorted(game.offers[0])
    assert game.offer_keep[0] == 1 and len(offer) == 4
    short_bottom = [i for i in offer if not M.ticket_by_id[i].long]
    game.apply(0, KeepTickets((offer[0],)))
    back = [i for i in offer[1:]]
    assert set(back) <= set(hooks.short[:3]) | set(hooks.long[:1])
    assert all(not M.ticket_by_id[i].long for i in hooks.short) and all(M.ticket_by_id[i].long for i in hooks.long)
    assert short_bottom


def test_s8_3_a_mix_asks_no_more_than_a_deck_holds():
    game = started(2)
    game.hooks.long[:] = game.hooks.long[:1]
    assert [a.long for a in game.legal_actions(0) if isinstance(a, DrawTickets)] == [0, 1]
    with pytest.raises(IllegalActionError, match="long=0 to 1"):
        game.apply(0, DrawTickets(2))


# ---------------------------------------------------------------- §8.4 merchandise
def test_s8_4_stacks_dealt_from_the_seed_berlin_black():
    game = new(3, seed=1)
    dots = {M.cities[c].id: color for c, color in game.hooks.dots.items()}
    assert dots["berlin"] == "black" and stack(game, "berlin") == [4, 5, 6, 7]  # top last
    assert Counter(dots.values()) == {"black": 1, "red": 6, "yellow": 12, "white": 16}
    assert set(dots) == {c.id for c in M.cities if c.kind == "city"}
    assert sum(sum(s) for s in game.hooks.stacks.values()) == 4 + 5 + 6 + 7 + 6 * 9 + 12 * 6 + 16 * 2
    assert new(3, seed=1).hooks.dots == game.hooks.dots
    assert new(3, seed=2).hooks.dots != game.hooks.dots


# ---------------------------------------------------------------- §8.5 passengers
def test_s8_5_a_claim_places_a_passenger_on_a_german_city():
    game = started()
    t = between("berlin", "hamburg")[0]
    set_hand(game, 0, " ".join([ALL_CARD_NAMES[t.color]] * t.length))
    events = game.apply(0, Claim(t.id, t.color, 0, (), "berlin"))
    assert PassengerPlaced(0, "berlin") in events
    view = game.view(None)["players"][0]
    assert view["passengers"] == 2 and view["passengers_placed"] == ["berlin"]


def test_s8_5_no_passenger_on_a_country_or_off_the_route_or_when_none_is_left():
    game = started()
    border = next(t for t in M.tracks if "border" in (M.cities[t.a].kind, M.cities[t.b].kind) and t.length <= 3)
    city, country = (M.cities[border.a], M.cities[border.b])
    if city.kind == "border":
        city, country = country, city
    color = RED if border.color is None else border.color
    set_hand(game, 0, " ".join([ALL_CARD_NAMES[color]] * border.length))
    with pytest.raises(IllegalActionError, match="German city"):
        game.apply(0, Claim(border.id, color, 0, (), country.id))
    with pytest.raises(IllegalActionError, match="two ends"):
        game.apply(0, Claim(border.id, color, 0, (), "berlin"))
    game.hooks.unplaced[0] = 0
    with pytest.raises(IllegalActionError, match="all your passengers"):
        game.apply(0, Claim(border.id, color, 0, (), city.id))
    assert not any(isinstance(a, Claim) and a.passenger for a in game.legal_actions(0))


def test_s8_5_a_move_takes_each_city_top_token_once_start_and_end_included():
    game = started()
    for a, b in (
        ("hamburg", "kiel"),
        ("kiel", "lubeck") if "lubeck" in M.city_by_id else ("hamburg", "bremen"),
        ("bremen", "hannover"),
        ("hamburg", "hannover"),
    ):
        own(game, 0, a, b)
    place(game, 0, "hamburg")
    tops = {c: stack(game, c)[-1] for c in ("hamburg", "bremen", "hannover")}
    # Hamburg -> Bremen -> Hannover -> Hamburg: Hamburg is visited again and gives nothing more.
    events = game.apply(0, Move(("hamburg", "bremen", "hannover", "hamburg"), 0))
    moved = next(e for e in events if isinstance(e, PassengerMoved))
    assert moved.tokens == (tops["hamburg"], tops["bremen"], tops["hannover"])
    assert game.hooks.placed[0] == [] and game.hooks.tokens[0] == list(moved.tokens)
    assert game.current == 1


def test_s8_5_no_route_twice_and_only_claimed_routes():
    game = started()
    own(game, 0, "hamburg", "bremen")
    place(game, 0, "hamburg")
    with pytest.raises(IllegalActionError, match="twice"):
        game.apply(0, Move(("hamburg", "bremen", "hamburg"), 0))
    with pytest.raises(IllegalActionError, match="nobody has claimed"):
        game.apply(0, Move(("hamburg", "kiel"), 0))
    with pytest.raises(IllegalActionError, match="no passenger on"):
        game.apply(0, Move(("bremen", "hamburg"), 0))


def test_s8_5_other_players_routes_cost_a_passenger_card_each():
    game = started()
    own(game, 0, "hamburg", "bremen")
    own(game, 1, "bremen", "hannover")
    place(game, 0, "hamburg")
    path = ("hamburg", "bremen", "hannover")
    set_hand(game, 0, "red")
    with pytest.raises(IllegalActionError, match="takes 1 passenger cards and you have 0"):
        game.apply(0, Move(path, 1))
    set_hand(game, 0, "passenger red")
    with pytest.raises(IllegalActionError, match="takes 1 passenger cards, not 0"):
        game.apply(0, Move(path, 0))
    assert parse_action(game, 0, "move Hamburg-Bremen-Hannover") == Move(path, 1)
    assert Move(path, 1) in game.legal_actions(0)
    game.apply(0, Move(path, 1))
    assert game.hands[0][PASSENGER] == 0 and PASSENGER in game.discard


def test_s8_5_listed_moves_are_legal_and_best_per_end():
    game = started()
    own(game, 0, "hamburg", "bremen")
    own(game, 0, "bremen", "hannover")
    own(game, 0, "hamburg", "hannover")
    place(game, 0, "hamburg")
    moves = [a for a in game.legal_actions(0) if isinstance(a, Move)]
    assert {m.path[-1] for m in moves} == {"bremen", "hannover"}
    assert all(game.is_legal(0, m) for m in moves)


# ---------------------------------------------------------------- §8.6 scoring
def test_s8_6_tokens_score_at_the_end_with_the_most_tickets_bonus():
    game = started(2)
    game.hooks.tokens[0] = [7, 3]
    game.hooks.tokens[1] = [5]
    game.apply(1, _resign())  # the game ends; the one who left takes no tokens (docs/rules.md §1.8)
    final = {s.seat: s for s in game.final}
    assert final[0].bonuses["merchandise"] == 10 and "merchandise" not in final[1].bonuses
    assert final[0].total == game.score[0] + final[0].ticket_points + 10 + final[0].bonuses.get("globetrotter", 0)
    assert all("longest_path" not in s.bonuses for s in game.final)


def _resign():
    from engine.actions import Resign

    return Resign()


# ---------------------------------------------------------------- notation, JSON, replay
def test_notation_round_trips_marklin_actions():
    game = started()
    yellow = next(t for t in between("berlin", "hamburg") if t.color == YELLOW)
    kiel = M.city_by_id["kiel"].index
    kiel_border = next(
        M.cities[t.a if t.b == kiel else t.b].id
        for t in M.tracks
        if kiel in (t.a, t.b) and "border" in (M.cities[t.a].kind, M.cities[t.b].kind)
    )
    for action in (
        Claim(yellow.id, YELLOW, 1, (), "hamburg"),
        DrawTickets(2),
        Move(("hamburg", "kiel", kiel_border), 1),
    ):
        text = format_action(game, action)
        assert parse_action(game, 0, text) == action, text
    assert format_action(game, DrawTickets(2)) == "tickets draw long=2"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 5), plies=st.integers(0, 250))
def test_random_play_conserves_cards_and_replays(seed, seats, plies):
    import random

    game = Game.new("marklin", seats, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over():
            break
        seat = rng.choice(game.to_move())
        action = rng.choice(game.legal_actions(seat, collapse_payments=True))
        assert parse_action(game, seat, format_action(game, action)) == action
        game.apply(seat, action)
        assert game._card_total() == 118
    tokens = sum(sum(s) for s in game.hooks.stacks.values()) + sum(sum(t) for t in game.hooks.tokens)
    assert tokens == 4 + 5 + 6 + 7 + 6 * 9 + 12 * 6 + 16 * 2
    assert Game.replay("marklin", seats, seed, None, game.log).to_json() == game.to_json()
    assert Game.from_json(game.to_json(), game.log).to_json() == game.to_json()
