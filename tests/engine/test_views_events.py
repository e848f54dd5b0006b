"""Views, event redaction and decision tokens: what each viewer may see, when buttons go stale."""

from engine import DrawDeck, DrawMarket, DrawTickets, Game, GameOptions, KeepTickets
from engine.events import CardDrawn, TicketsKept, TicketsOffered
from tests.engine.helpers import arrange, hand_of, started


def test_s1_blind_card_and_ticket_ids_hidden_from_other_viewers():
    game = started()
    arrange(game, market="red blue green white black", deck_top="yellow orange")
    drawn = next(e for e in game.apply(0, DrawDeck()) if isinstance(e, CardDrawn))
    assert drawn.for_viewer(0).card is not None
    assert drawn.for_viewer(1).card is None and drawn.for_viewer(None).card is None
    market = next(e for e in game.apply(0, DrawMarket(0)) if isinstance(e, CardDrawn))
    assert market.for_viewer(None).card == market.card  # face-up cards are public
    offered = next(e for e in game.apply(1, DrawTickets()) if isinstance(e, TicketsOffered))
    assert offered.for_viewer(1).ids and offered.for_viewer(0).ids is None and offered.for_viewer(None).count == 3
    kept = next(e for e in game.apply(1, KeepTickets(tuple(sorted(game.offers[1]))[:1])) if isinstance(e, TicketsKept))
    assert kept.for_viewer(None).ids is None and kept.for_viewer(None).kept == 1


def test_spectator_view_has_no_private_fields_and_seat_view_has_own_hand():
    game = started()
    spectator = game.view(None)
    assert spectator["you"] is None and spectator["final"] is None
    mine = game.view(0)["you"]
    assert sum(mine["hand"].values()) == sum(game.hands[0]) and len(mine["tickets"]) == len(game.tickets[0])
    assert game.view(1)["you"]["hand"] == hand_of(game, 1)
    assert spectator["last_action"] == {"seat": 2, "kind": "KeepTickets", "text": "tickets keep (2)", "count": 2}


def test_finished_game_view_reveals_everything_to_everyone():
    game = started(seats=2)
    from engine import Resign

    game.apply(1, Resign())
    view = game.view(None)
    assert view["phase"] == "over" and len(view["final"]) == 2
    assert [len(t) for t in view["all_tickets"]] == [len(game.tickets[0]), len(game.tickets[1])]


def test_decision_token_changes_only_with_that_seats_decision():
    game = Game.new("usa", 3, seed=4, options=GameOptions(first_seat=0))
    tokens = [game.decision_token(s) for s in range(3)]
    game.apply(1, game.default_action(1))
    assert game.decision_token(0) == tokens[0] and game.decision_token(2) == tokens[2]
    assert game.decision_token(1) != tokens[1]
    game.apply(0, game.default_action(0))
    game.apply(2, game.default_action(2))
    token = game.decision_token(0)  # the first turn starts: seat 0's decision is new
    assert token != tokens[0]
    game.apply(0, DrawDeck())  # the second-card decision replaces the first: old buttons are stale
    assert game.decision_token(0) != token
    others = game.decision_token(2)
    game.apply(0, DrawDeck())
    assert game.decision_token(2) == others  # seat 1 moves next, seat 2 still waits
    assert game.decision_token(1) == len(game.log)


def test_to_json_and_from_json_share_nothing_with_the_game():
    game = started()
    state = game.to_json()
    state["hands"][0][0] += 5
    state["deck"].clear()
    assert game.to_json() != state
    data = game.to_json()
    restored = Game.from_json(data, log=game.log)
    data["hands"][1][0] += 1
    assert restored.to_json() == game.to_json()
