"""RULES.md §4 Nederland: tickets, bridge tolls, Loans, the toll bonus, staggered scores and the
variant without tolls (seed 004's examples), one rule per test."""

import json

import pytest

from engine import Claim, DrawDeck, DrawTickets, Game, GameOptions, IllegalActionError, KeepTickets, Resign
from engine.events import LoanTaken, TollPaid
from engine.scoring import final_scores
from tests.engine.helpers import arrange, give_route, started, track_between

NL = "nederland"


def locos(n: int) -> str:
    return " ".join(["loco"] * n)


def claim(game: Game, seat: int, track) -> list:
    """`seat` claims `track` with locomotives (given to it for the purpose)."""
    hands = {s: "" for s in range(game.seats)}
    hands[seat] = locos(track.length)
    arrange(game, hands=hands)
    return game.apply(seat, Claim(track.id, None, track.length))


def draw_turn(game: Game) -> list:
    seat = game.current
    return game.apply(seat, DrawDeck()) + game.apply(seat, DrawDeck())


def pair(game: Game, a: str, b: str):
    t = track_between(game, a, b)
    return t, game.map.tracks[t.double]


# ================================================================= tickets and setup


def test_s4_setup_40_trains_5_tickets_keep_3():
    game = Game.new(NL, 3, seed=1)
    assert game.trains == [40, 40, 40]
    assert [len(o) for o in game.offers] == [5, 5, 5] and game.offer_keep == [3, 3, 3]
    with pytest.raises(IllegalActionError, match="keep at least 3 of the 5"):
        game.apply(0, KeepTickets(tuple(sorted(game.offers[0]))[:2]))


def test_s4_mid_game_draw_4_keep_1():
    game = started(NL, seats=3)
    game.apply(0, DrawTickets())
    assert len(game.offers[0]) == 4 and game.offer_keep[0] == 1


def test_s4_tickets_not_kept_go_face_up_to_the_discard():
    game = Game.new(NL, 2, seed=1, options=GameOptions(first_seat=0))
    offer = sorted(game.offers[0])
    game.apply(0, KeepTickets(tuple(offer[:3])))
    assert sorted(game.ticket_discard) == offer[3:]  # rejected starting tickets: face up, not under the deck
    assert sorted(t["id"] for t in game.view(None)["ticket_discard"]) == offer[3:]
    game.apply(1, game.default_action(1))
    game.apply(0, DrawTickets())
    drawn = sorted(game.offers[0])
    game.apply(0, KeepTickets((drawn[0],)))
    assert sorted(game.ticket_discard[-3:]) == drawn[1:]
    assert not set(drawn[1:]) & set(game.ticket_deck)


def test_s4_ticket_discard_reshuffled_when_the_deck_runs_out_mid_draw():
    game = started(NL, seats=2)
    game.ticket_discard = game.ticket_deck[:-2] + game.ticket_discard
    game.ticket_deck = game.ticket_deck[-2:]
    top_two = set(game.ticket_deck)
    pile = set(game.ticket_discard)
    game.apply(0, DrawTickets())
    offer = set(game.offers[0])
    assert len(offer) == 4 and top_two <= offer and len(offer - top_two & pile) == 2  # the draw goes on
    assert game.ticket_discard == [] and len(game.ticket_deck) == len(pile) - 2


def test_s4_ticket_draw_illegal_only_when_deck_and_discard_are_both_empty():
    game = started(NL, seats=2)
    game.ticket_discard = game.ticket_deck + game.ticket_discard
    game.ticket_deck = []
    assert DrawTickets() in game.legal_actions(0)
    game.ticket_discard = []
    with pytest.raises(IllegalActionError, match="no destination tickets"):
        game.apply(0, DrawTickets())


def test_s4_staggered_start_seat_k_starts_with_k_minus_1_points():
    game = Game.new(NL, 4, seed=3, options=GameOptions(first_seat=2))
    # First player seat 3 (index 2) = position 1: 0 points; then 1, 2, 3 clockwise.
    assert game.score == [2, 3, 0, 1]
    assert Game.new(NL, 5, seed=3, options=GameOptions(first_seat=0)).score == [0, 1, 2, 3, 4]
    assert Game.new(NL, 2, seed=3, options=GameOptions(first_seat=0, variants={"tolls": False})).score == [0, 1]


def test_s4_staggered_start_counts_in_the_final_route_points():
    game = started(NL, seats=3)
    scores = final_scores(game)
    assert [s.route_points for s in scores] == [0, 1, 2]


# ================================================================= tolls and Loans


def test_s4_toll_money_30_each_secret_to_its_owner():
    game = started(NL, seats=3)
    assert game.hooks.money == [30, 30, 30]
    assert game.view(1)["you"]["money"] == 30
    for viewer in (0, None):
        view = game.view(viewer)
        assert all("money" not in p for p in view["players"])
    assert "money" not in json.dumps(game.view(None))


def test_s4_all_double_routes_in_play_with_tolls_even_with_2_players():
    game = started(NL, seats=2)
    first, second = pair(game, "Breda", "Rotterdam")
    claim(game, 0, first)
    claim(game, 1, second)
    assert game.owner[first.index] == 0 and game.owner[second.index] == 1


def test_s4_first_track_pays_the_bank_kirsten_breda_rotterdam():
    """Seed 004: Kirsten claims the first Breda–Rotterdam track and pays 4 to the bank."""
    game = started(NL, seats=2)  # seat 0 = Kirsten, seat 1 = Jasper
    first, _ = pair(game, "Breda", "Rotterdam")
    events = claim(game, 0, first)
    assert TollPaid(0, None, first.id, 4) in events
    assert game.hooks.money == [26, 30] and game.hooks.bank == 4


def test_s4_second_track_pays_the_first_tracks_owner():
    """Seed 004: two turns later, Jasper pays Kirsten 4 for the second track."""
    game = started(NL, seats=2)
    first, second = pair(game, "Breda", "Rotterdam")
    claim(game, 0, first)
    draw_turn(game)
    draw_turn(game)
    events = claim(game, 1, second)
    assert TollPaid(1, 0, second.id, 4) in events
    assert game.hooks.money == [30, 26] and game.hooks.bank == 4


def test_s4_cannot_pay_takes_a_loan_keeps_his_money_bank_pays_the_owner():
    """Seed 004: Jasper, holding only 2, takes a Loan and keeps his 2; the bank pays Kirsten 4."""
    game = started(NL, seats=2)
    first, second = pair(game, "Breda", "Rotterdam")
    claim(game, 0, first)
    game.hooks.money[1] = 2
    game.hooks.bank += 28  # where Jasper's other 28 went
    events = claim(game, 1, second)
    assert LoanTaken(1, second.id, 1) in events and TollPaid(None, 0, second.id, 4) in events
    assert game.hooks.money == [30, 2] and game.hooks.loans == [0, 1]
    assert game.hooks.bank == 4 + 28 - 4
    assert game.owner[second.index] == 1  # the claim itself goes ahead


def test_s4_loan_on_a_first_track_pays_nobody():
    game = started(NL, seats=2)
    first, _ = pair(game, "Breda", "Rotterdam")
    game.hooks.money[0] = 3
    events = claim(game, 0, first)
    assert [e for e in events if isinstance(e, (TollPaid, LoanTaken))] == [LoanTaken(0, first.id, 1)]
    assert game.hooks.money[0] == 3 and game.hooks.bank == 0


def test_s4_toll_amount_visible_only_to_payer_and_payee():
    game = started(NL, seats=3)
    first, second = pair(game, "Breda", "Rotterdam")
    claim(game, 0, first)
    paid = next(e for e in claim(game, 1, second) if isinstance(e, TollPaid))
    assert (paid.payer, paid.payee) == (1, 0)
    assert paid.for_viewer(0).amount == 4 and paid.for_viewer(1).amount == 4
    assert paid.for_viewer(2).amount is None and paid.for_viewer(None) == TollPaid(1, 0, second.id, None)


def test_s4_loans_are_public():
    game = started(NL, seats=2)
    game.hooks.loans[1] = 2
    for viewer in (0, 1, None):
        assert [p["loans"] for p in game.view(viewer)["players"]] == [0, 2]


# ================================================================= end scoring


def test_s4_toll_bonus_seed_example_9_9_loan_1():
    """Seed 004: Kirsten and Jasper with 9 score 55 each; Julia (3, a Loan) no bonus and −5;
    Niels with 1 is 3rd and scores 20."""
    game = started(NL, seats=4)
    game.tickets = [[], [], [], []]
    game.hooks.money = [9, 9, 3, 1]
    game.hooks.loans = [0, 0, 1, 0]
    scores = final_scores(game)
    assert [s.bonuses for s in scores] == [{"toll_bonus": 55}, {"toll_bonus": 55}, {"loans": -5}, {"toll_bonus": 20}]
    assert [s.details["toll_rank"] for s in scores] == [1, 1, 0, 3]
    assert [s.total - s.route_points for s in scores] == [55, 55, -5, 20]


@pytest.mark.parametrize(
    "money,bonuses",
    [
        ([10, 4], [35, 0]),
        ([4, 4], [35, 35]),
        ([1, 8, 5], [0, 55, 35]),
        ([7, 7, 7, 1, 0], [55, 55, 55, 10, 0]),
    ],
)
def test_s4_toll_bonus_table_by_number_of_players(money, bonuses):
    game = started(NL, seats=len(money))
    game.tickets = [[] for _ in money]
    game.hooks.money = list(money)
    assert [s.bonuses.get("toll_bonus", 0) for s in final_scores(game)] == bonuses


def test_s4_every_loan_costs_5_points():
    game = started(NL, seats=2)
    game.tickets = [[], []]
    game.hooks.loans = [3, 0]
    scores = final_scores(game)
    assert scores[0].bonuses == {"loans": -15} and scores[0].details["loans"] == 3
    assert scores[1].bonuses == {"toll_bonus": 35}  # the only player without a Loan ranks 1st


def test_s4_no_longest_path_and_no_most_tickets_bonus():
    game = started(NL, seats=2)
    game.tickets = [[], []]
    give_route(game, 0, "Amsterdam", "Rotterdam")
    give_route(game, 0, "Rotterdam", "Breda")
    scores = final_scores(game)
    assert all(set(s.bonuses) <= {"toll_bonus", "loans"} for s in scores)
    game = started(NL, seats=2, variants={"tolls": False})
    give_route(game, 0, "Amsterdam", "Rotterdam")
    assert all(s.bonuses == {} for s in final_scores(game))


def test_s4_ties_most_completed_tickets_then_shared():
    game = started(NL, seats=3)
    m = game.map
    ticket = next(t for t in m.tickets if {m.cities[t.a].id, m.cities[t.b].id} == {"amsterdam", "rotterdam"})
    game.tickets = [[ticket.id], [], []]
    give_route(game, 0, "Amsterdam", "Rotterdam")  # 7 points; ticket 10
    game.hooks.money = [0, 0, 0]  # everyone shares the toll bonus
    game.score = [7, 17, 17]
    scores = final_scores(game)
    assert [s.total for s in scores] == [72, 72, 72]
    assert [s.rank for s in scores] == [1, 2, 2]  # seat 1 completed a ticket; seats 2 and 3 share 2nd place


def test_s4_final_view_shows_everyones_money():
    game = started(NL, seats=2)
    game.hooks.money = [12, 5]
    game.hooks.bank = 43
    game.apply(1, Resign())
    final = game.view(None)["final"]
    assert [f["details"]["money"] for f in final] == [12, 5]
    assert [f["bonuses"] for f in final] == [{"toll_bonus": 35}, {}]


# ================================================================= variant without tolls


def test_s4_variant_without_tolls_no_money_loans_or_bonus():
    game = started(NL, seats=2, variants={"tolls": False})
    first, _ = pair(game, "Breda", "Rotterdam")
    events = claim(game, 0, first)
    assert not any(isinstance(e, (TollPaid, LoanTaken)) for e in events)
    view = game.view(0)
    assert "money" not in view["you"] and "loans" not in view["players"][0] and view["tolls"] is False
    game.tickets = [[], []]
    assert all(s.bonuses == {} and s.details == {} for s in final_scores(game))


@pytest.mark.parametrize("seats", [2, 3])
def test_s4_variant_without_tolls_one_track_per_double_with_2_or_3_players(seats):
    game = started(NL, seats=seats, variants={"tolls": False})
    first, second = pair(game, "Breda", "Rotterdam")
    claim(game, 0, first)
    with pytest.raises(IllegalActionError, match=f"with {seats} players only one track"):
        claim(game, 1, second)


def test_s4_variant_without_tolls_both_tracks_with_4_players():
    game = started(NL, seats=4, variants={"tolls": False})
    first, second = pair(game, "Breda", "Rotterdam")
    claim(game, 0, first)
    claim(game, 1, second)
    assert game.owner[second.index] == 1


def test_s4_variant_options_are_validated():
    with pytest.raises(ValueError, match="no variant 'bridges'.*tolls"):
        Game.new(NL, 2, 1, GameOptions(variants={"bridges": True}))
    with pytest.raises(ValueError, match="true or false"):
        Game.new(NL, 2, 1, GameOptions(variants={"tolls": "no"}))
    with pytest.raises(ValueError, match="USA map has no variant 'tolls'"):
        Game.new("usa", 2, 1, GameOptions(variants={"tolls": False}))
