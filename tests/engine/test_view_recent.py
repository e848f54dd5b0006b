"""The view's recent actions: what every seat did since any seat's previous turn, with the
public facts an image needs (the face-up card taken, a tunnel's route), and nothing private."""

from engine import Claim, DrawDeck, DrawMarket, Game, PayTunnel, Undo
from engine.cards import card_index
from engine.turns import effective_log
from tests.engine.helpers import arrange, started, track_between


def test_face_up_draw_names_the_card_and_a_blind_draw_does_not():
    game = started()
    arrange(game, market="red blue green white black", deck_top="yellow orange")
    game.apply(0, DrawMarket(1))
    game.apply(0, DrawDeck())
    recent = game.view(None)["recent"]
    assert [(e["kind"], e.get("card")) for e in recent[-2:]] == [("DrawMarket", "blue"), ("DrawDeck", None)]
    assert "card" not in recent[-1] and recent[-1]["ply"] == len(game.log)


def test_paid_tunnel_names_its_route_and_color():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "green green green green loco loco"}, deck_top="green loco blue")
    game.apply(0, Claim(t.id, card_index("green"), 0))
    game.apply(0, PayTunnel(1))
    view = game.view(None)
    assert view["last_action"] == {
        "seat": 0,
        "kind": "PayTunnel",
        "text": "tunnel pay loco=1",
        "locos": 1,
        "track": t.id,
        "color": "green",
    }
    assert [e["kind"] for e in view["recent"][-2:]] == ["Claim", "PayTunnel"]


def test_recent_covers_one_turn_per_seat_oldest_first():
    game = started(seats=3)
    for _ in range(4):  # four turns of two blind draws: seats 0, 1, 2, 0
        seat = game.current
        game.apply(seat, DrawDeck())
        game.apply(seat, DrawDeck())
    recent = game.view(1)["recent"]
    assert [e["seat"] for e in recent] == [1, 1, 2, 2, 0, 0]
    assert [e["ply"] for e in recent] == list(range(len(game.log) - 5, len(game.log) + 1))


def test_undone_actions_and_undo_entries_are_left_out():
    from tests.engine.test_undo import first_undoable

    game, seat, _ = first_undoable("usa", 3)
    before = game.view(None)["recent"]
    game.apply(seat, Undo())
    after = game.view(None)["recent"]
    assert before[-1]["seat"] == seat and before[-1]["kind"] in ("Claim", "BuildStation")
    assert len(after) >= len(before) - 1 and after[len(after) - len(before) + 1 :] == before[:-1]
    assert all(e["kind"] != "Undo" for e in after) and len(effective_log(game.log)) == len(game.log) - 2


def test_replayed_game_has_the_same_recent_actions():
    game = started("europe", seats=2)
    for _ in range(6):
        seat = game.to_move()[0]
        game.apply(seat, game.legal_actions(seat, collapse_payments=True)[0])
    again = Game.replay("europe", 2, game.seed, game.options, game.log)
    assert again.view(None)["recent"] == game.view(None)["recent"]


def test_payable_claims_off_turn_are_the_claims_the_seat_could_make_on_its_turn():
    game = started(seats=3)
    arrange(game, hands={1: "red red red red loco loco", 0: "blue"})
    off_turn = {(a.track, a.color, a.locos) for a in game.payable_claims(1)}
    assert off_turn and game.legal_actions(1) == []
    game.apply(0, DrawDeck())
    game.apply(0, DrawDeck())  # now seat 1's turn, same hand
    on_turn = {
        (a.track, a.color, a.locos) for a in game.legal_actions(1, collapse_payments=True) if isinstance(a, Claim)
    }
    assert off_turn == on_turn
