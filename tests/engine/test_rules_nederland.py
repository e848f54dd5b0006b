"""docs/rules.md §4 Nederland: tickets, bridge tolls, Loans, the toll bonus, staggered scores, the
variant without tolls and the neutral player (seed 004's examples), one rule per test."""

import json

import pytest

from engine import (
    Claim,
    DrawDeck,
    DrawTickets,
    Game,
    GameOptions,
    IllegalActionError,
    KeepTickets,
    NeutralClaim,
    Resign,
    Skip,
    format_action,
    parse_action,
)
from engine.errors import VariantError
from engine.events import (
    LastRoundStarted,
    LoanTaken,
    NeutralMarkerPassed,
    NeutralRouteClaimed,
    NeutralStopped,
    NeutralTicketRevealed,
    RouteClaimed,
    TollPaid,
)
from engine.scoring import final_scores
from tests.engine.helpers import arrange, give_route, play, started, track_between

NL = "nederland"
BLANK_TICKET = 3  # Amsterdam–Rotterdam 10: nothing printed at the bottom
AMSTERDAM_ROTTERDAM = (9, 23)  # the two tickets printing the Amsterdam–Rotterdam route
BREDA_ROTTERDAM = 30  # Nijmegen–Antwerpen 21, printing Breda–Rotterdam


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


def neutral_game(first_seat: int = 0, seed: int = 7) -> Game:
    game = Game.new(NL, 2, seed, GameOptions(first_seat=first_seat, variants={"neutral": True}))
    for seat in (0, 1):
        game.apply(seat, game.default_action(seat))
    return game


def on_top(game: Game, *ids: int) -> None:
    """Put tickets on top of the ticket deck, ids[0] drawn first (taken from wherever they are)."""
    for i in ids:
        for pile in (game.ticket_deck, game.ticket_discard, *game.tickets):
            if i in pile:
                pile.remove(i)
    game.ticket_deck.extend(reversed(ids))


def at_round_6(game: Game) -> Game:
    """Play the first five rounds (each player draws two cards blind): no neutral phase yet."""
    for _ in range(5):
        for seat in (game.first, 1 - game.first):
            events = play(game, seat, "draw deck", "draw deck")
            assert not any(isinstance(e, NeutralTicketRevealed) for e in events)
    assert game.round == 6 and game.current == game.first
    return game


def end_round(game: Game) -> list:
    """Both players draw cards; returns the events (the neutral phase comes with the second turn)."""
    return draw_turn(game) + draw_turn(game)


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
    with pytest.raises(VariantError, match="2-player variant; this game has 3 seats"):
        Game.new(NL, 3, 1, GameOptions(variants={"neutral": True}))
    with pytest.raises(VariantError, match="cannot be combined with tolls off"):
        Game.new(NL, 2, 1, GameOptions(variants={"neutral": True, "tolls": False}))
    with pytest.raises(VariantError, match="no variant .bridges'.*neutral, tolls"):
        Game.new(NL, 2, 1, GameOptions(variants={"bridges": True}))
    with pytest.raises(VariantError, match="true or false"):
        Game.new(NL, 2, 1, GameOptions(variants={"tolls": "no"}))
    with pytest.raises(VariantError, match="USA map has no variant 'tolls'"):
        Game.new("usa", 2, 1, GameOptions(variants={"tolls": False}))


# ================================================================= the neutral player


def test_s4_neutral_40_trains_marker_starts_with_the_second_player():
    game = neutral_game(first_seat=1)
    assert game.hooks.neutral_trains == 40 and game.hooks.marker == 0
    view = game.view(None)["neutral"]
    assert view == {"owner": 2, "trains": 40, "marker": 0, "active": True, "ticket": None, "choices": []}
    assert neutral_game(first_seat=0).hooks.marker == 1


def test_s4_neutral_nothing_happens_in_the_first_5_rounds():
    game = neutral_game()
    for number in range(1, 6):
        assert game.round == number
        events = end_round(game)
        assert not any(isinstance(e, NeutralTicketRevealed) for e in events)
    on_top(game, BLANK_TICKET)
    events = draw_turn(game)  # the first player's turn of round 6: no phase yet
    assert not any(isinstance(e, NeutralTicketRevealed) for e in events)
    events = draw_turn(game)  # round 6 is complete: the first neutral phase
    assert NeutralTicketRevealed(1, BLANK_TICKET, None, "blank") in events


def test_s4_neutral_blank_ticket_is_discarded_and_the_marker_stays():
    game = at_round_6(neutral_game())
    on_top(game, BLANK_TICKET)
    events = end_round(game)
    assert NeutralTicketRevealed(1, BLANK_TICKET, None, "blank") in events
    assert game.ticket_discard[-1] == BLANK_TICKET and game.hooks.marker == 1
    assert game.current == 0 and game.stage is None and game.round == 7


def test_s4_neutral_both_tracks_free_marker_holder_chooses_then_passes_the_marker():
    game = at_round_6(neutral_game())
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    first, second = pair(game, "Amsterdam", "Rotterdam")
    draw_turn(game)
    token = game.decision_token(1)
    events = draw_turn(game)
    assert NeutralTicketRevealed(1, AMSTERDAM_ROTTERDAM[0], ("amsterdam", "rotterdam"), "choose") in events
    assert game.stage == "neutral" and game.to_move() == [1] and game.decision_token(1) != token
    assert game.legal_actions(1) == [NeutralClaim(first.id), NeutralClaim(second.id)]
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="claim a track for the neutral player first"):
        game.apply(1, DrawDeck())
    with pytest.raises(IllegalActionError, match="seat 2 holds the neutral marker"):
        game.apply(0, NeutralClaim(first.id))
    view = game.view(None)["neutral"]
    assert view["ticket"]["route"] == ["amsterdam", "rotterdam"] and view["choices"] == [first.id, second.id]
    text = format_action(game, NeutralClaim(second.id))
    assert text == "neutral claim Amsterdam-Rotterdam/2" and parse_action(game, 1, text) == NeutralClaim(second.id)
    events = game.apply(1, NeutralClaim(second.id))
    assert NeutralRouteClaimed(1, second.id, 36) in events and NeutralMarkerPassed(0) in events
    assert game.owner[second.index] == 2 and game.hooks.marker == 0
    assert game.current == 0 and game.stage is None and AMSTERDAM_ROTTERDAM[0] in game.ticket_discard


def test_s4_neutral_claiming_a_free_track_costs_nothing_and_scores_nothing():
    game = at_round_6(neutral_game())
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    end_round(game)
    before = (list(game.hooks.money), game.hooks.bank, list(game.score))
    events = game.apply(1, NeutralClaim(track_between(game, "Amsterdam", "Rotterdam").id))
    assert not any(isinstance(e, (TollPaid, RouteClaimed)) for e in events)
    assert (game.hooks.money, game.hooks.bank, game.score) == before
    assert all(s.route_points == game.score[s.seat] for s in final_scores(game))


@pytest.mark.parametrize("owner", [0, 1])
def test_s4_neutral_one_track_taken_bank_pays_its_owner_marker_stays(owner):
    """Including the marker holder's own track (seat 2 holds the marker)."""
    game = at_round_6(neutral_game())
    first, second = pair(game, "Breda", "Rotterdam")
    give_route(game, owner, "Breda", "Rotterdam")
    on_top(game, BREDA_ROTTERDAM)
    money = list(game.hooks.money)
    events = end_round(game)
    assert NeutralTicketRevealed(1, BREDA_ROTTERDAM, ("breda", "rotterdam"), "claimed") in events
    assert TollPaid(None, owner, second.id, 4) in events
    assert game.owner[second.index] == 2 and game.hooks.neutral_trains == 38
    assert game.hooks.money[owner] == money[owner] + 4 and game.hooks.bank == -4
    assert game.hooks.marker == 1 and game.stage is None and game.current == 0


def test_s4_neutral_no_free_track_nothing_happens_marker_stays():
    game = at_round_6(neutral_game())
    give_route(game, 0, "Breda", "Rotterdam")
    game.owner[game.map.tracks[track_between(game, "Breda", "Rotterdam").double].index] = 1
    on_top(game, BREDA_ROTTERDAM)
    events = end_round(game)
    assert NeutralTicketRevealed(1, BREDA_ROTTERDAM, ("breda", "rotterdam"), "taken") in events
    assert game.hooks.neutral_trains == 40 and game.hooks.marker == 1 and game.hooks.bank == 0
    assert game.ticket_discard[-1] == BREDA_ROTTERDAM


def test_s4_neutral_second_ticket_for_a_route_it_built_counts_as_blank():
    game = at_round_6(neutral_game())
    on_top(game, *AMSTERDAM_ROTTERDAM)
    end_round(game)
    game.apply(1, NeutralClaim(track_between(game, "Amsterdam", "Rotterdam").id))
    events = end_round(game)
    assert NeutralTicketRevealed(0, AMSTERDAM_ROTTERDAM[1], ("amsterdam", "rotterdam"), "built") in events
    assert game.stage is None and game.hooks.marker == 0 and game.hooks.neutral_trains == 36


def test_s4_live_player_taking_the_other_track_of_a_neutral_route_pays_the_bank():
    game = at_round_6(neutral_game())
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    first, second = pair(game, "Amsterdam", "Rotterdam")
    end_round(game)
    game.apply(1, NeutralClaim(first.id))
    events = claim(game, 0, second)
    assert TollPaid(0, None, second.id, 2) in events and game.hooks.bank == 2


def test_s4_neutral_too_few_trains_ends_the_neutral_phases_and_reshuffles():
    game = at_round_6(neutral_game())
    game.hooks.neutral_trains = 3  # Amsterdam–Rotterdam needs 4
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    deck_and_discard = sorted(game.ticket_deck[:-1] + game.ticket_discard + [AMSTERDAM_ROTTERDAM[0]])
    discarded = len(game.ticket_discard) + 1
    events = end_round(game)
    assert NeutralTicketRevealed(1, AMSTERDAM_ROTTERDAM[0], ("amsterdam", "rotterdam"), "stopped") in events
    assert NeutralStopped("trains", discarded) in events
    assert game.hooks.neutral_active is False and game.hooks.marker is None
    assert game.ticket_discard == [] and sorted(game.ticket_deck) == deck_and_discard
    on_top(game, BLANK_TICKET)
    assert not any(isinstance(e, NeutralTicketRevealed) for e in end_round(game))  # no more phases


def test_s4_neutral_empty_ticket_deck_ends_the_neutral_phases_and_reshuffles_the_discard():
    game = at_round_6(neutral_game())
    pile = sorted(game.ticket_deck + game.ticket_discard)
    game.ticket_discard = list(pile)
    game.ticket_deck = []
    events = end_round(game)
    assert NeutralStopped("tickets", len(pile)) in events
    assert not any(isinstance(e, NeutralTicketRevealed) for e in events)
    assert sorted(game.ticket_deck) == pile and game.ticket_discard == []
    assert game.view(None)["neutral"]["active"] is False


def test_s4_neutral_trains_never_trigger_the_last_round():
    game = at_round_6(neutral_game())
    game.hooks.neutral_trains = 4
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    end_round(game)
    events = game.apply(1, NeutralClaim(track_between(game, "Amsterdam", "Rotterdam").id))
    assert game.hooks.neutral_trains == 0
    assert game.last_round is None and not any(isinstance(e, LastRoundStarted) for e in events)


def test_s4_neutral_phase_follows_the_last_complete_round_too():
    game = at_round_6(neutral_game())
    game.trains[1] = 3
    on_top(game, BLANK_TICKET, AMSTERDAM_ROTTERDAM[0])
    draw_turn(game)
    events = claim(game, 1, next(t for t in game.map.tracks if t.length == 1))
    assert any(isinstance(e, LastRoundStarted) for e in events)  # seat 2 ends round 6 with 2 trains
    assert game.round == 7 and game.ticket_discard[-1] == BLANK_TICKET
    draw_turn(game)
    events = draw_turn(game)  # round 7 (the last) is complete: its neutral phase comes first
    assert not game.is_over() and game.stage == "neutral"
    events = game.apply(game.current, NeutralClaim(track_between(game, "Amsterdam", "Rotterdam").id))
    assert game.is_over() and game.end_reason == "last_round"
    assert any(isinstance(e, NeutralRouteClaimed) for e in events)


def test_s4_neutral_choice_timeout_takes_the_first_track():
    game = at_round_6(neutral_game())
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    end_round(game)
    first, _ = pair(game, "Amsterdam", "Rotterdam")
    assert game.default_action(1) == NeutralClaim(first.id)
    game.apply(None, Skip())
    assert game.owner[first.index] == 2 and game.current == 0 and game.passes == 0


def test_s4_neutral_choice_after_a_played_turn_keeps_the_pass_count_right():
    game = at_round_6(neutral_game())
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    game.apply(None, Skip())  # seat 1's turn skipped: one pass
    assert game.passes == 1
    draw_turn(game)  # seat 2 plays: the passes in a row are over, even with the neutral choice pending
    assert game.stage == "neutral" and game.passes == 0
    game.apply(1, game.default_action(1))
    assert game.passes == 0 and game.current == 0


def test_s4_neutral_routes_in_views_and_json():
    game = at_round_6(neutral_game())
    on_top(game, AMSTERDAM_ROTTERDAM[0])
    end_round(game)
    restored = Game.from_json(json.loads(json.dumps(game.to_json())), log=game.log)
    assert restored.to_json() == game.to_json() and restored.stage == "neutral"
    first, _ = pair(game, "Amsterdam", "Rotterdam")
    restored.apply(1, NeutralClaim(first.id))
    view = restored.view(None)
    assert view["claims"][first.id] == 2 and view["neutral"]["trains"] == 36
    assert view["last_action"] == {
        "seat": 1,
        "kind": "NeutralClaim",
        "text": "neutral claim Amsterdam-Rotterdam/1",
        "track": first.id,
    }


def test_s4_neutral_claim_is_not_an_action_of_other_games():
    game = started("usa", seats=2)
    with pytest.raises(IllegalActionError, match="not an action of this game"):
        game.apply(0, NeutralClaim("atlanta-charleston"))
    game = started(NL, seats=2)
    with pytest.raises(IllegalActionError, match="no neutral player route to claim"):
        game.apply(0, NeutralClaim(track_between(game, "Amsterdam", "Rotterdam").id))
