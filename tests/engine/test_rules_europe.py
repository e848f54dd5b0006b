"""docs/rules.md §3 Europe: ferries, tunnels, stations, the European Express, ties."""

import pytest

from engine import (
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawTickets,
    Game,
    GameOptions,
    IllegalActionError,
    KeepTickets,
    PayTunnel,
)
from engine.cards import card_index
from engine.errors import OptionValueError
from engine.events import RouteClaimed, TunnelRevealed
from engine.mapdata import Ticket
from engine.scoring import best_station_use, final_scores
from tests.engine.helpers import arrange, give_route, hand_of, started, track_between

PINK, GREEN, RED = card_index("pink"), card_index("green"), card_index("red")


def test_s3_setup_one_long_and_three_regular_keep_two_long_may_go():
    game = Game.new("europe", 4, seed=2)
    for seat in range(4):
        offer = [game.map.ticket_by_id[i] for i in game.offers[seat]]
        assert sum(t.long for t in offer) == 1 and len(offer) == 4 and game.offer_keep[seat] == 2
    regular_left = len(game.ticket_deck)
    assert regular_left == 40 - 12 and all(not game.map.ticket_by_id[i].long for i in game.ticket_deck)
    long_id = next(i for i in game.offers[0] if game.map.ticket_by_id[i].long)
    keep = tuple(sorted(i for i in game.offers[0] if i != long_id)[:2])
    game.apply(0, KeepTickets(keep))
    assert long_id not in game.tickets[0] and long_id not in game.ticket_deck  # rejected: to the box


def test_s3_mid_game_returned_tickets_go_under_the_deck():
    game = started("europe")
    game.apply(0, DrawTickets())
    offer = sorted(game.offers[0])
    game.apply(0, KeepTickets((offer[0],)))
    assert sorted(game.ticket_deck[:2]) == offer[1:]


def test_s3_ferry_smyrna_palermo_seed_example():
    """2 loco + 4 pink, 3 loco + 3 pink, 6 loco are legal; colored cards never replace a loco."""
    game = started("europe")
    t = track_between(game, "Palermo", "Smyrna")
    assert (t.length, t.ferry) == (6, 2)
    arrange(game, hands={0: "pink pink pink pink pink pink loco loco loco loco loco loco"})
    payments = {(a.color, a.locos) for a in game.legal_actions(0) if isinstance(a, Claim) and a.track == t.id}
    assert {(PINK, 2), (PINK, 3), (None, 6)} <= payments
    assert (PINK, 1) not in payments and (PINK, 0) not in payments
    with pytest.raises(IllegalActionError, match="ferry: it needs at least 2 locomotives, not 1"):
        game.apply(0, Claim(t.id, PINK, 1))
    game.apply(0, Claim(t.id, PINK, 2))
    assert hand_of(game, 0) == {"pink": 2, "loco": 4} and game.score[0] == 15


def test_s3_tunnel_two_long_green_reveals_green_loco_blue_seed_example():
    """Surcharge 2, payable as 2 green, green + loco or 2 locos; the blue adds nothing."""
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")  # 2 green tunnel
    assert t.tunnel and t.color == GREEN
    arrange(game, hands={0: "green green green green loco loco"}, deck_top="green loco blue")
    events = game.apply(0, Claim(t.id, GREEN, 0))
    reveal = next(e for e in events if isinstance(e, TunnelRevealed))
    assert reveal.surcharge == 2 and game.stage == "tunnel" and game.owner[t.index] == -1
    options = game.legal_actions(0)
    assert set(options) == {PayTunnel(0), PayTunnel(1), PayTunnel(2), DeclineTunnel()}
    assert game._card_total() == 110
    events = game.apply(0, PayTunnel(1))
    assert any(isinstance(e, RouteClaimed) for e in events)
    assert hand_of(game, 0) == {"green": 1, "loco": 1} and game.owner[t.index] == 0 and game.score[0] == 2
    assert game.current == 1


def test_s3_tunnel_decline_returns_cards_and_spends_the_turn():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "green green"}, deck_top="green red red")
    game.apply(0, Claim(t.id, GREEN, 0))
    with pytest.raises(IllegalActionError, match="cannot pay the tunnel's extra 1 green or locomotive"):
        game.apply(0, PayTunnel(0))
    assert game.legal_actions(0) == [DeclineTunnel()]
    discard = len(game.discard)
    game.apply(0, DeclineTunnel())
    assert hand_of(game, 0) == {"green": 2} and game.owner[t.index] == -1 and game.current == 1
    assert len(game.discard) == discard + 3  # the revealed cards


def test_s3_tunnel_all_locomotive_payment_only_locomotives_count():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "loco loco loco green"}, deck_top="green green loco")
    events = game.apply(0, Claim(t.id, None, 2))
    assert next(e for e in events if isinstance(e, TunnelRevealed)).surcharge == 1
    assert game.legal_actions(0) == [PayTunnel(1), DeclineTunnel()]
    game.apply(0, PayTunnel(1))
    assert hand_of(game, 0) == {"green": 1}


def test_s3_tunnel_without_surcharge_claims_at_once():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "green green"}, deck_top="red red blue")
    game.apply(0, Claim(t.id, GREEN, 0))
    assert game.owner[t.index] == 0 and game.stage is None and game.current == 1


def test_s3_tunnel_reveal_reshuffles_discard_but_not_the_held_payment():
    game = started("europe")
    t = track_between(game, "Venezia", "Zürich")
    arrange(game, hands={0: "green green"}, deck_top="red", discard="")
    game.deck, game.discard = game.deck[-1:], game.deck[:-1] + game.discard
    game.discard = [c for c in game.discard]
    game.apply(0, Claim(t.id, GREEN, 0))
    assert game._card_total() == 110
    if game.tunnel:
        assert game.tunnel["paid"][GREEN] == 2
        game.apply(0, DeclineTunnel())
    assert game._card_total() == 110


def test_s3_stations_cost_1_2_3_cards_of_one_color_any_free_city():
    game = started("europe", seats=2)
    arrange(game, hands={0: "red red red red red red loco"})
    game.apply(0, BuildStation("paris", RED, 0))
    assert game.stations_left[0] == 2 and hand_of(game, 0) == {"red": 5, "loco": 1}
    game.apply(1, game.default_action(1))
    game.apply(1, game.default_action(1))
    with pytest.raises(IllegalActionError, match="Paris already has a station"):
        game.apply(0, BuildStation("paris", RED, 0))
    game.apply(0, BuildStation("berlin", RED, 1))
    assert hand_of(game, 0) == {"red": 4}
    game.apply(1, game.default_action(1))
    game.apply(1, game.default_action(1))
    game.apply(0, BuildStation("wien", RED, 0))
    assert hand_of(game, 0) == {"red": 1} and game.stations_left[0] == 0
    game.apply(1, game.default_action(1))
    game.apply(1, game.default_action(1))
    with pytest.raises(IllegalActionError, match="built all your stations"):
        game.apply(0, BuildStation("roma", RED, 0))


def test_s3_station_paris_example_borrows_brest_paris():
    """Red owns Paris-Dieppe, Blue owns Brest-Paris; a red station in Paris completes Brest-Dieppe."""
    game = started("europe", seats=2)
    give_route(game, 0, "Paris", "Dieppe")
    give_route(game, 1, "Brest", "Paris")
    m = game.map
    paris = m.find_city("Paris").index
    brest_dieppe = Ticket(999, m.find_city("Brest").index, m.find_city("Dieppe").index, 5, False, "test")
    own = [t for t in m.tracks if game.owner[t.index] == 0]
    blue_at_paris = [t for t in m.tracks if game.owner[t.index] == 1 and paris in (t.a, t.b)]
    results, borrowed = best_station_use(own, [brest_dieppe], [blue_at_paris])
    assert results[0].completed and results[0].via == (track_between(game, "Brest", "Paris").id,)
    assert [t.id for t in borrowed] == [track_between(game, "Brest", "Paris").id]
    results, borrowed = best_station_use(own, [brest_dieppe], [])
    assert not results[0].completed and borrowed == ()


def test_s3_station_assignment_maximizes_ticket_points_then_completed_tickets():
    game = started("europe", seats=3)
    m = game.map
    give_route(game, 0, "Paris", "Pamplona")
    give_route(game, 1, "Barcelona", "Pamplona")
    give_route(game, 2, "Madrid", "Pamplona", "black")
    city = {name: m.find_city(name).index for name in ("Paris", "Madrid", "Barcelona", "Pamplona")}
    own = [t for t in m.tracks if game.owner[t.index] == 0]
    at_pamplona = [t for t in m.tracks if game.owner[t.index] in (1, 2) and city["Pamplona"] in (t.a, t.b)]
    madrid = Ticket(901, city["Paris"], city["Madrid"], 8, False, "test")
    barcelona = Ticket(902, city["Paris"], city["Barcelona"], 5, False, "test")
    # One station borrows one route: Madrid (8) beats Barcelona (5): +8 - 5 = 3 against -8 + 5.
    results, borrowed = best_station_use(own, [barcelona, madrid], [at_pamplona])
    assert [r.completed for r in results] == [False, True]
    assert [t.id for t in borrowed] == [track_between(game, "Madrid", "Pamplona", "black").id]
    # Equal points: the choice completing more tickets wins (two 4s via Madrid vs one 8 via Barcelona).
    madrid_a = Ticket(903, city["Paris"], city["Madrid"], 4, False, "test")
    madrid_b = Ticket(904, city["Pamplona"], city["Madrid"], 4, False, "test")
    barcelona_8 = Ticket(905, city["Paris"], city["Barcelona"], 8, False, "test")
    results, borrowed = best_station_use(own, [madrid_a, madrid_b, barcelona_8], [at_pamplona])
    assert [r.completed for r in results] == [True, True, False]


def test_s3_unbuilt_stations_score_4_each_and_stations_never_add_to_longest_path():
    game = started("europe", seats=2)
    give_route(game, 0, "Paris", "Dieppe")
    give_route(game, 1, "Brest", "Paris")
    game.stations[0] = [game.map.find_city("Paris").index]
    game.stations_left[0] = 2
    scores = {s.seat: s for s in final_scores(game)}
    assert scores[0].station_points == 8 and scores[1].station_points == 12
    assert scores[0].longest == 1
    assert scores[1].bonuses == {"longest_path": 10} and "longest_path" not in scores[0].bonuses


def test_s3_ties_most_tickets_then_fewer_stations_then_longest():
    game = started("europe", seats=2)
    game.tickets = [[], []]
    game.score = [10, 14]
    give_route(game, 0, "Paris", "Dieppe")  # 1 point: 11 vs 14 before stations
    game.stations[0], game.stations_left[0] = [], 3
    game.stations[1] = [game.map.find_city("Roma").index]
    game.stations_left[1] = 2
    scores = {s.seat: s for s in final_scores(game)}
    # 11 + 12 + 10 (express) = 33 vs 14 + 8 = 22: no tie here; make totals equal.
    assert scores[0].total == 33 and scores[1].total == 22
    game.score[1] = 25
    scores = {s.seat: s for s in final_scores(game)}
    assert scores[0].total == scores[1].total == 33
    assert scores[0].rank == 1 and scores[1].rank == 2  # same tickets (0); seat 0 built fewer stations


def test_s3_players_may_not_build_stations_on_maps_without_them():
    game = started("usa")
    arrange(game, hands={0: "red"})
    with pytest.raises(IllegalActionError, match="has no stations"):
        game.apply(0, BuildStation("denver", RED, 0))


def test_s2_usa_returned_tickets_option_bottom():
    game = started("usa", returned_tickets="bottom")
    game.apply(0, DrawTickets())
    offer = sorted(game.offers[0])
    game.apply(0, KeepTickets((offer[0],)))
    assert sorted(game.ticket_deck[:2]) == offer[1:]
    with pytest.raises(OptionValueError, match="returned tickets go to the box or to the bottom"):
        Game.new("usa", 2, 1, GameOptions(returned_tickets="sideways"))
