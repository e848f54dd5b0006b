"""The words players read: turn accounts stay short and never name a blind card."""

from engine import DrawDeck, DrawMarket
from i18n import translator
from tests.engine.helpers import arrange, started
from texts.present import describe, drawn, merge_turn, signed

NAMES = ["Anna", "Ben", "Cleo"].__getitem__
EN = translator("en")


def turn_line(game, seat, *actions, t=EN):
    """Apply a turn's actions for `seat` and word it like the channel message does."""
    notes, draws = [], []
    for action in actions:
        events = game.apply(seat, action)
        notes += describe(t, game, events, NAMES)
        draws += drawn(events)
    return merge_turn(t, notes, draws, seat, NAMES)


def test_a_two_step_draw_is_one_line_and_blind_cards_stay_hidden():
    game = started()
    arrange(game, market="red blue green white black", deck_top="yellow orange loco")
    assert turn_line(game, 0, DrawMarket(0), DrawDeck()) == "**Anna** drew a face-up 🟥 red and a card from the deck"
    assert turn_line(game, 1, DrawDeck(), DrawDeck()) == "**Ben** drew 2 cards from the deck"


def test_claim_line_names_route_length_payment_and_points():
    from engine import Claim
    from engine.cards import card_index

    game = started()
    arrange(game, hands={0: "blue blue blue blue loco"})
    line = describe(EN, game, game.apply(0, Claim("atlanta-miami", card_index("blue"), 1)), NAMES)[0]
    assert line == "**Anna** claimed Atlanta – Miami with 4 blue + 1 loco · +10"


def test_final_breakdown_names_the_longest_path_once_with_its_length_and_bonus():
    from engine.scoring import final_scores
    from tests.engine.helpers import give_route
    from texts.present import final_fields

    game = started("europe", seats=2)
    for a, b in (("Edinburgh", "London"), ("London", "Dieppe"), ("Dieppe", "Paris")):
        give_route(game, 0, a, b)
    give_route(game, 1, "Lisboa", "Madrid")
    game.final = final_scores(game)
    (winner, winner_body), (other, other_body) = final_fields(EN, game, NAMES)
    best, second = sorted(game.final, key=lambda s: s.rank)
    assert winner == f"🥇 Anna — {best.total}" and other == f"🥈 Ben — {second.total}"
    assert winner_body.splitlines()[0] == (
        f"routes {best.route_points} · tickets {signed(best.ticket_points)} · stations +12 "
        f"(3 unused) · longest path (7 trains) +10"
    )  # 4 + 2 + 1
    assert other_body.splitlines()[0] == (
        f"routes {second.route_points} · tickets {signed(second.ticket_points)} · "
        f"stations +12 (3 unused) · longest path (3 trains)"
    )
    assert best.total == best.route_points + best.ticket_points + 12 + 10


def toll_pair(game, a: str, b: str):
    """Both tracks of a Nederland double route, the first (the bank's toll) first."""
    from tests.engine.helpers import track_between

    first = track_between(game, a, b)
    return first, game.map.tracks[first.double]


def claim_with_locos(game, seat, track):
    from engine import Claim
    from tests.engine.helpers import arrange

    arrange(game, hands={seat: " ".join(["loco"] * track.length)})
    return describe(EN, game, game.apply(seat, Claim(track.id, None, track.length)), NAMES)


def test_a_nederland_claim_names_its_toll_and_who_received_it():
    from engine import DrawDeck

    game = started("nederland", seats=2)
    first, second = toll_pair(game, "Breda", "Rotterdam")
    assert claim_with_locos(game, 0, first)[0].endswith(" · +2 · toll 4 to the bank")
    for seat in (1, 1, 0, 0):
        game.apply(seat, DrawDeck())
    assert claim_with_locos(game, 1, second)[0].endswith(" · +2 · toll 4 to **Anna**")


def test_a_toll_paid_with_a_loan_says_the_bank_paid_the_owner():
    from engine import DrawDeck

    game = started("nederland", seats=2)
    first, second = toll_pair(game, "Breda", "Rotterdam")
    claim_with_locos(game, 0, first)
    game.apply(1, DrawDeck())
    game.apply(1, DrawDeck())
    game.apply(0, DrawDeck())
    game.apply(0, DrawDeck())
    game.hooks.money[1], game.hooks.bank = 2, game.hooks.bank + 28
    claim, loan, bank = claim_with_locos(game, 1, second)
    assert claim.endswith(" · +2 · toll 4") and "Loan (1 now)" in loan
    assert bank == f"💸 The bank paid **Anna** the toll of Breda – Rotterdam ({EN.card(second.color)}): 4."


def test_a_toll_paid_to_the_one_reading_is_paid_to_you():
    """The terminal's one person is "you" (a pronoun, in Russian "вам" where a name would take
    the dative): a toll paid to them, by a player or by the bank for a Loan, is said to them so."""
    from engine import Claim

    ru = translator("ru")
    for loan in (False, True):
        game = started("nederland", seats=2)
        first, second = toll_pair(game, "Breda", "Rotterdam")
        claim_with_locos(game, 0, first)
        for seat in (1, 1, 0, 0):
            game.apply(seat, DrawDeck())
        if loan:
            game.hooks.money[1], game.hooks.bank = 2, game.hooks.bank + 28
        arrange(game, hands={1: " ".join(["loco"] * second.length)})
        events = game.apply(1, Claim(second.id, None, second.length))
        mine, theirs = describe(EN, game, events, NAMES, viewer=0), describe(EN, game, events, NAMES, viewer=1)
        if loan:
            route = f"Breda – Rotterdam ({EN.card(second.color)})"
            assert mine[2] == f"💸 The bank paid you the toll of {route}: 4."
            assert theirs[2] == f"💸 The bank paid **Anna** the toll of {route}: 4."
            assert describe(ru, game, events, NAMES, viewer=0)[2].startswith("💸 Банк платит вам пошлину")
        else:
            assert mine[0].endswith(" · toll 4 to you") and theirs[0].endswith(" · toll 4 to **Anna**")
            assert describe(ru, game, events, NAMES, viewer=0)[0].endswith(" · пошлина 4 — вам")


def test_a_route_choice_shows_its_payment_and_toll_and_warns_of_a_loan():
    from engine import Claim
    from engine.cards import card_index
    from texts.present import claim_choice_label

    game = started("nederland", seats=2)
    first, _ = toll_pair(game, "Breda", "Rotterdam")
    claim = Claim(first.id, first.color if first.color is not None else card_index("red"), 1)
    payment = f"{first.length - 1} {EN.card(claim.color)} + 1 loco"
    route = f"Breda – Rotterdam ({EN.card(first.color)})"  # a double route's track: by its color, never a number
    assert claim_choice_label(EN, game, claim) == f"{route} · {payment} · toll 4"
    game.hooks.money[0] = 3
    assert claim_choice_label(EN, game, claim, seat=0) == f"{route} · {payment} · toll 4: a Loan (you have 3)"
    assert claim_choice_label(EN, game, claim, seat=1) == f"{route} · {payment} · toll 4"
    untolled = started("nederland", seats=2, variants={"tolls": False})
    assert claim_choice_label(EN, untolled, claim, seat=0) == f"{route} · {payment}"
    europe = started("europe", seats=2)
    tunnel = next(t for t in europe.map.tracks if t.tunnel and t.color is not None)
    label = claim_choice_label(EN, europe, Claim(tunnel.id, tunnel.color, 0))
    assert label.endswith(" · tunnel") and "toll" not in label


def test_a_player_who_left_reads_what_leaving_meant_not_an_empty_hand():
    from engine import Remove, Resign
    from texts.present import private_summary

    game = started("usa", seats=3)
    game.apply(1, Resign())
    text = private_summary(EN, game, 1)
    assert text.startswith("You resigned from this game.\nYour routes stay on the board")
    assert "**Your tickets:**" in text and "Your hand" not in text and "Trains left" not in text
    game.apply(None, Remove(2))
    assert private_summary(EN, game, 2).startswith("You were removed from this game.")
    assert private_summary(EN, game, 0).startswith("**Your hand:**")


def test_a_double_routes_tracks_are_told_apart_in_words_never_by_number():
    from engine import load_map
    from texts.present import route_choice_label, route_name

    for map_id in ("usa", "europe", "nederland", "switzerland", "nordic", "marklin"):
        m = load_map(map_id)
        for track in (t for t in m.tracks if t.double is not None):
            parallel = [s for s in m.tracks if {s.a, s.b} == {track.a, track.b}]
            name, label = route_name(EN, m, track), route_choice_label(EN, m, track)
            assert "#" not in name and "/" not in name and "#" not in label, name
            if [s.color for s in parallel].count(track.color) == 1:
                color = "gray" if track.color is None else EN.card(track.color)
                assert name.endswith(f"({color})")
            assert len({route_name(EN, m, s) for s in parallel}) == len(parallel)  # each told apart


def test_signed_points_use_the_minus_sign_not_a_hyphen():
    assert (signed(-14), signed(3), signed(0)) == ("−14", "+3", "+0")
