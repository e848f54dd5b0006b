"""docs/rules.md §1, the common core, one rule per test."""

import pytest

from engine import (
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Game,
    GameOptions,
    IllegalActionError,
    KeepTickets,
    Pass,
    Remove,
    Resign,
)
from engine.cards import COLORS, LOCO, card_index, standard_deck
from engine.events import GameOver, LastRoundStarted, MarketReset
from engine.scoring import longest_trail
from tests.engine.helpers import (
    arrange,
    give_route,
    hand_of,
    play,
    started,
    track_between,
)


def test_s1_components_110_cards_12_per_color_14_locomotives():
    deck = standard_deck()
    assert len(deck) == 110
    assert deck.count(LOCO) == 14
    assert all(deck.count(c) == 12 for c in range(8))


def test_s1_setup_deals_4_cards_5_face_up_then_tickets():
    game = Game.new("usa", 4, seed=11)
    assert [sum(h) for h in game.hands] == [4, 4, 4, 4]
    assert all(c >= 0 for c in game.market)
    assert len(game.deck) == 110 - 16 - 5
    assert [len(o) for o in game.offers] == [3, 3, 3, 3]
    assert game.phase == "choosing" and sorted(game.to_move()) == [0, 1, 2, 3]


def test_s1_same_seed_same_game_other_seed_other_game():
    a, b, c = Game.new("usa", 3, 5), Game.new("usa", 3, 5), Game.new("usa", 3, 6)
    assert a.to_json() == b.to_json()
    assert a.to_json()["deck"] != c.to_json()["deck"]


def test_s1_starting_tickets_chosen_independently_in_any_order():
    game = Game.new("usa", 3, seed=3, options=GameOptions(first_seat=1))
    for seat in (2, 0):
        game.apply(seat, game.default_action(seat))
        assert game.phase == "choosing"
    with pytest.raises(IllegalActionError, match="choosing their starting tickets"):
        game.apply(1, DrawDeck())
    game.apply(1, KeepTickets(tuple(sorted(game.offers[1]))))
    assert game.phase == "playing" and game.current == 1
    assert len(game.tickets[1]) == 3 and len(game.tickets[0]) == 2


def test_s1_starting_choice_must_keep_two_of_three():
    game = Game.new("usa", 2, seed=3)
    offer = sorted(game.offers[0])
    with pytest.raises(IllegalActionError, match="keep at least 2"):
        game.apply(0, KeepTickets((offer[0],)))
    with pytest.raises(IllegalActionError, match="not among the tickets offered"):
        game.apply(0, KeepTickets((offer[0], 999)))
    assert game.offers[0] == game.offers[0] and not game.tickets[0]


def test_s1_market_three_locomotives_discard_and_redeal():
    game = started()
    arrange(game, market="loco loco red blue green", deck_top="white loco black yellow pink pink")
    events = game.apply(0, DrawMarket(2))  # take red; the white refill leaves 2 locos: no reset
    assert not any(isinstance(e, MarketReset) for e in events)
    game = started()  # a new turn: the second scenario starts with a first card again
    arrange(game, market="loco loco red blue green", deck_top="loco white black yellow pink pink")
    events = play(game, 0, "draw market 3")  # refill is a third loco: reset
    resets = [e for e in events if isinstance(e, MarketReset)]
    assert len(resets) == 1
    assert game.market == [card_index(c) for c in "white black yellow pink pink".split()]
    assert sorted(game.discard) == sorted([LOCO, LOCO, LOCO, card_index("blue"), card_index("green")])


def test_s1_market_reset_stops_without_three_non_locomotives():
    game = started()
    # Deck + discard hold only locomotives apart from 2 cards: resetting could loop forever.
    arrange(
        game,
        hands={
            1: " ".join(
                ["red"] * 12
                + ["blue"] * 12
                + ["green"] * 12
                + ["white"] * 12
                + ["black"] * 12
                + ["yellow"] * 12
                + ["orange"] * 12
                + ["pink"] * 10
            )
        },
        market="loco loco pink loco loco",
        deck_top="pink",
    )
    game._check_market([])
    assert game.market.count(LOCO) == 4


def test_s1_face_up_locomotive_as_first_card_ends_the_draw():
    game = started()
    arrange(game, market="loco red blue green white", deck_top="black")
    game.apply(0, DrawMarket(0))
    assert game.current == 1 and hand_of(game, 0) == {"loco": 1}


def test_s1_second_card_may_not_be_a_face_up_locomotive():
    game = started()
    arrange(game, market="red loco blue green white", deck_top="black yellow")
    game.apply(0, DrawMarket(0))
    assert game.stage == "second_card"
    with pytest.raises(IllegalActionError, match="face-up locomotive cannot be your second card"):
        game.apply(0, DrawMarket(1))
    assert DrawMarket(1) not in game.legal_actions(0)
    game.apply(0, DrawDeck())
    assert game.current == 1 and hand_of(game, 0) == {"red": 1, "yellow": 1}  # black refilled slot 1


def test_s1_blind_locomotive_counts_as_ordinary_card():
    game = started()
    arrange(game, market="red blue green white black", deck_top="loco yellow")
    game.apply(0, DrawDeck())
    assert game.current == 0 and game.stage == "second_card"
    game.apply(0, DrawDeck())
    assert hand_of(game, 0) == {"loco": 1, "yellow": 1} and game.current == 1


def test_s1_empty_deck_reshuffles_discard():
    game = started()
    arrange(game, market="red blue green white black", deck_top="", discard="")
    assert game.deck == [] and len(game.discard) == 105
    game.apply(0, DrawDeck())
    assert len(game.deck) == 104 and game.discard == []


def test_s1_no_card_to_draw_is_illegal_and_one_card_ends_turn():
    game = started()
    pool = " ".join(
        c
        for c in ["red"] * 12
        + ["blue"] * 12
        + ["green"] * 12
        + ["white"] * 12
        + ["black"] * 12
        + ["yellow"] * 12
        + ["orange"] * 12
        + ["pink"] * 11
        + ["loco"] * 10
    )
    arrange(game, hands={1: pool}, market="pink loco loco loco loco", discard="")
    assert game.deck == [] and game.discard == []
    with pytest.raises(IllegalActionError, match="deck and the discard pile are both empty"):
        game.apply(0, DrawDeck())
    game.apply(0, DrawMarket(0))  # pink; only locomotives remain face up: no second card
    assert game.current == 1


def test_s1_claim_pays_one_color_with_locomotives_and_scores_by_length():
    game = started()
    arrange(game, hands={0: "blue blue blue loco"})
    t = track_between(game, "Atlanta", "Miami")  # 5 blue
    with pytest.raises(
        IllegalActionError, match="you have 3 blue cards and 1 locomotive: Atlanta-Miami needs 5 cards, 1 short"
    ):
        game.apply(0, Claim(t.id, card_index("blue"), 1))
    arrange(game, hands={0: "blue blue blue blue loco red"})
    game.apply(0, Claim(t.id, card_index("blue"), 1))
    assert game.owner[t.index] == 0 and game.score[0] == 10 and game.trains[0] == 40
    assert hand_of(game, 0) == {"red": 1}


@pytest.mark.parametrize("length,points", [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15)])
def test_s1_route_points_table(length, points):
    game = started()
    t = next(t for t in game.map.tracks if t.length == length)
    color = card_index("red") if t.color is None else t.color
    arrange(game, hands={0: " ".join([COLORS[color]] * length)})
    game.apply(0, Claim(t.id, color, 0))
    assert game.score[0] == points


def test_s1_gray_route_any_one_color_and_all_locomotives():
    game = started()
    t = track_between(game, "Atlanta", "Charleston")  # 2 gray
    arrange(game, hands={0: "red blue loco loco"})
    with pytest.raises(IllegalActionError, match="claim Atlanta-Charleston red loco=1 would pay"):
        game.apply(0, Claim(t.id, card_index("red"), 0))
    assert Claim(t.id, None, 2) in game.legal_actions(0)
    game.apply(0, Claim(t.id, None, 2))
    assert hand_of(game, 0) == {"red": 1, "blue": 1}


def test_s1_route_color_must_match():
    game = started()
    t = track_between(game, "Atlanta", "Miami")  # blue
    arrange(game, hands={0: "red red red red red"})
    with pytest.raises(IllegalActionError, match="is blue: it cannot be paid with red"):
        game.apply(0, Claim(t.id, card_index("red"), 0))


def test_s1_claim_needs_enough_trains():
    game = started()
    t = track_between(game, "Atlanta", "Miami")
    arrange(game, hands={0: "blue blue blue blue blue"})
    game.trains[0] = 4
    with pytest.raises(IllegalActionError, match="needs 5 trains and you have 4"):
        game.apply(0, Claim(t.id, card_index("blue"), 0))


def test_s1_taken_route_names_its_owner():
    game = started()
    t = track_between(game, "Atlanta", "Charleston")
    give_route(game, 2, "Atlanta", "Charleston")
    arrange(game, hands={0: "red red"})
    with pytest.raises(IllegalActionError, match="Atlanta-Charleston is already taken by seat 3"):
        game.apply(0, Claim(t.id, card_index("red"), 0))


def test_s1_double_route_never_both_tracks_for_one_player():
    game = started(seats=4)
    a = track_between(game, "Kansas City", "Omaha")
    give_route(game, 0, "Kansas City", "Omaha")
    b = game.map.tracks[a.double]
    arrange(game, hands={0: "red red"})
    with pytest.raises(IllegalActionError, match="you own the other track"):
        game.apply(0, Claim(b.id, card_index("red"), 0))


def test_s1_double_route_closed_with_2_or_3_players():
    game = started(seats=3)
    a = track_between(game, "Kansas City", "Omaha")
    give_route(game, 1, "Kansas City", "Omaha")
    b = game.map.tracks[a.double]
    arrange(game, hands={0: "red red"})
    with pytest.raises(IllegalActionError, match="with 3 players only one track"):
        game.apply(0, Claim(b.id, card_index("red"), 0))


def test_s1_double_route_open_with_4_players():
    game = started(seats=4)
    a = track_between(game, "Kansas City", "Omaha")
    give_route(game, 1, "Kansas City", "Omaha")
    b = game.map.tracks[a.double]
    arrange(game, hands={0: "red red"})
    game.apply(0, Claim(b.id, card_index("red"), 0))
    assert game.owner[b.index] == 0


def test_s1_ticket_draw_keep_at_least_one_of_three():
    game = started()
    before = len(game.ticket_deck)
    game.apply(0, DrawTickets())
    offer = sorted(game.offers[0])
    assert len(offer) == 3 and game.stage == "tickets"
    with pytest.raises(IllegalActionError, match="keep at least 1"):
        game.apply(0, KeepTickets(()))
    game.apply(0, KeepTickets((offer[1],)))
    assert offer[1] in game.tickets[0] and len(game.ticket_deck) == before - 3  # USA: returned to the box
    assert game.current == 1


def test_s1_ticket_draw_illegal_when_no_ticket_left():
    game = started()
    game.ticket_deck = []
    with pytest.raises(IllegalActionError, match="no destination tickets are left"):
        game.apply(0, DrawTickets())
    assert DrawTickets() not in game.legal_actions(0)


def test_s1_fewer_than_three_tickets_left_draws_what_remains():
    game = started()
    game.ticket_deck = game.ticket_deck[-2:]
    game.apply(0, DrawTickets())
    assert len(game.offers[0]) == 2 and game.offer_keep[0] == 1


def test_s1_last_round_everyone_including_trigger_gets_one_more_turn():
    game = started(seats=3)
    arrange(game, hands={0: "red red red"})
    game.trains[0] = 5
    events = game.apply(0, Claim(track_between(game, "Atlanta", "Charleston").id, card_index("red"), 0))
    assert game.trains[0] == 3 and game.last_round is None  # 3 left: not yet
    assert not any(isinstance(e, LastRoundStarted) for e in events)
    for seat in (1, 2):
        game.apply(seat, game.default_action(seat))
        game.apply(seat, game.default_action(seat))
    t1 = next(t for t in game.map.tracks if t.length == 1 and game.owner[t.index] < 0)
    arrange(game, hands={0: "loco"})
    events = game.apply(0, Claim(t1.id, None, 1))
    assert [e for e in events if isinstance(e, LastRoundStarted)] == [LastRoundStarted(0, 2)]
    for seat in (1, 2):
        assert game.current == seat and not game.is_over()
        play(game, seat, "draw deck", "draw deck")
    assert game.current == 0 and not game.is_over()
    events = play(game, 0, "draw deck", "draw deck")
    assert game.is_over() and game.end_reason == "last_round"
    assert sum(isinstance(e, GameOver) for e in events) == 1


def test_s1_pass_only_without_other_move_and_all_passing_ends_game():
    game = started(seats=2)
    with pytest.raises(IllegalActionError, match="only pass when you have no other move"):
        game.apply(0, Pass())
    pool = ["red"] * 12 + ["blue"] * 12 + ["green"] * 12 + ["white"] * 12 + ["black"] * 12
    pool += ["yellow"] * 12 + ["orange"] * 12 + ["pink"] * 12 + ["loco"] * 14
    arrange(game, hands={1: " ".join(pool)}, discard="")
    game.ticket_deck = []
    game.trains = [0, 0]  # nobody can claim anything either
    assert game.legal_actions(0) == [Pass()]
    game.apply(0, Pass())
    assert not game.is_over()
    game.apply(1, Pass())
    assert game.is_over() and game.end_reason == "all_passed"


def test_s1_leaving_keeps_routes_and_tickets_discards_hand_takes_no_turn():
    game = started(seats=3)
    give_route(game, 1, "Atlanta", "Charleston")
    tickets = list(game.tickets[1])
    hand = sum(game.hands[1])
    discard = len(game.discard)
    game.apply(1, Resign())
    assert game.left[1] == "resigned" and sum(game.hands[1]) == 0 and len(game.discard) == discard + hand
    assert game.tickets[1] == tickets and game.owner[track_between(game, "Atlanta", "Charleston").index] == 1
    game.apply(0, DrawDeck())
    game.apply(0, DrawDeck())
    assert game.current == 2  # seat 1 is skipped
    with pytest.raises(IllegalActionError, match="seat 2 has left the game"):
        game.apply(1, DrawDeck())


def test_s1_removed_player_never_triggers_last_round_and_two_seats_minimum():
    game = started(seats=3)
    game.trains[2] = 1
    game.apply(None, Remove(2))
    assert game.last_round is None and game.left[2] == "removed"
    with pytest.raises(IllegalActionError, match="only the table"):
        game.apply(0, Remove(1))
    game.apply(1, Resign())
    assert game.is_over() and game.end_reason == "too_few_seats"
    assert {s.seat for s in game.final} == {0, 1, 2}


def test_s1_ticket_completion_counts_plus_or_minus():
    game = started()
    game.tickets[0] = [
        t.id
        for t in game.map.tickets
        if t.set == "base" and {game.map.cities[t.a].name, game.map.cities[t.b].name} == {"Denver", "El Paso"}
    ]
    give_route(game, 0, "Denver", "Santa Fe")
    give_route(game, 0, "El Paso", "Santa Fe")
    game.tickets[1] = list(game.tickets[0])
    from engine.scoring import final_scores

    scores = {s.seat: s for s in final_scores(game)}
    assert scores[0].ticket_points == 4 and scores[0].tickets[0].completed
    assert scores[1].ticket_points == -4


def test_s1_longest_path_is_a_trail_cities_may_repeat():
    game = started()
    # A loop Kansas City-Omaha-Denver-Kansas City plus a tail: a trail may pass Kansas City twice.
    give_route(game, 0, "Kansas City", "Omaha")
    give_route(game, 0, "Omaha", "Denver")
    give_route(game, 0, "Denver", "Kansas City")
    give_route(game, 0, "Kansas City", "Saint Louis")
    owned = [t for t in game.map.tracks if game.owner[t.index] == 0]
    length, path = longest_trail(owned)
    assert length == sum(t.length for t in owned) == 1 + 4 + 4 + 2
    assert len(path) == 4


def test_s1_longest_path_bonus_shared_by_all_tied_players():
    game = started()
    give_route(game, 0, "Atlanta", "Charleston")
    give_route(game, 1, "Raleigh", "Washington")
    from engine.scoring import final_scores

    bonuses = {s.seat: s.bonuses.get("longest_path", 0) for s in final_scores(game)}
    assert bonuses == {0: 10, 1: 10, 2: 0}


def test_s1_timeout_defaults():
    game = Game.new("usa", 2, seed=5)
    offer = game.offers[0]
    by_points = sorted(offer, key=lambda i: game.map.ticket_by_id[i].points)
    assert game.default_action(0) == KeepTickets(tuple(sorted(by_points[:2])))
    game = started()
    assert game.default_action(0) == DrawDeck()


def test_s1_empty_market_slot_refills_once_cards_return_to_the_discard():
    """docs/rules.md §1 leaves a slot empty while deck and discard are empty; once a payment puts cards
    in the discard, the empty slot is dealt again at the end of that turn (docs/engine.md)."""
    game = started()
    pool = ["blue"] * 12 + ["green"] * 12 + ["white"] * 12 + ["black"] * 12 + ["yellow"] * 12
    pool += ["orange"] * 12 + ["pink"] * 12 + ["loco"] * 14 + ["red"] * 8
    arrange(game, hands={0: "red red", 1: " ".join(pool)}, market="red red", discard="")
    assert game.market[2:] == [-1, -1, -1] and not game.deck and not game.discard
    game.apply(0, Claim(track_between(game, "Atlanta", "Charleston").id, card_index("red"), 0))
    assert game.market.count(card_index("red")) == 4 and not game.discard
