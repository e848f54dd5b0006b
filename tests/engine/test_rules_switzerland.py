"""docs/rules.md §5 Switzerland (and the published Swiss rules where §5 is silent, docs/engine.md
"Rules decisions"): 2-3 players, 40 trains, locomotives only on tunnels and drawn freely, tunnels
as in Europe, country tickets, double routes, the longest-path bonus."""

import pytest

from engine import (
    Claim,
    DrawMarket,
    DrawTickets,
    Game,
    GameOptions,
    IllegalActionError,
    KeepTickets,
    PayTunnel,
    format_action,
    parse_action,
)
from engine.cards import card_index
from engine.errors import SeatCountError, VariantError
from engine.events import MarketReset, TunnelRevealed
from engine.mapdata import Ticket
from engine.notation import ticket_label
from engine.scoring import final_scores, ticket_results
from tests.engine.helpers import arrange, give_route, hand_of, started, track_between

WHITE, YELLOW, ORANGE = (card_index(c) for c in ("white", "yellow", "orange"))


def swiss(seats: int = 3, **kw) -> Game:
    return started("switzerland", seats=seats, **kw)


def test_s5_switzerland_two_or_three_players():
    for seats in (2, 3):
        assert Game.new("switzerland", seats, 1).seats == seats
    with pytest.raises(SeatCountError, match="2 to 3 seats"):
        Game.new("switzerland", 4, 1)


def test_s5_switzerland_40_trains_five_tickets_keep_two_rest_leave_the_game():
    game = Game.new("switzerland", 3, seed=4, options=GameOptions(first_seat=0))
    assert game.trains == [40, 40, 40]
    assert [len(o) for o in game.offers] == [5, 5, 5] and game.offer_keep == [2, 2, 2]
    offer = sorted(game.offers[0])
    with pytest.raises(IllegalActionError, match="keep at least 2"):
        game.apply(0, KeepTickets(offer[:1]))
    game.apply(0, KeepTickets(tuple(offer[:2])))
    assert not set(offer[2:]) & set(game.ticket_deck)  # out of the game
    assert len(game.ticket_deck) == 46 - 15


def test_s5_switzerland_mid_game_draw_three_keep_one_rest_leave_the_game():
    game = swiss()
    before = len(game.ticket_deck)
    game.apply(0, DrawTickets())
    offer = sorted(game.offers[0])
    assert len(offer) == 3 and game.offer_keep[0] == 1
    game.apply(0, KeepTickets((offer[0],)))
    assert len(game.ticket_deck) == before - 3 and not set(offer[1:]) & set(game.ticket_deck)


def test_s5_switzerland_locomotives_pay_only_for_tunnels():
    game = swiss()
    plain = track_between(game, "Olten", "Zürich")  # white 3
    tunnel = track_between(game, "Basel", "Delémont")  # yellow 2 tunnel
    assert not plain.tunnel and tunnel.tunnel
    arrange(game, hands={0: "white white loco loco yellow"}, deck_top="red red red")
    with pytest.raises(IllegalActionError, match="locomotives can only be used on tunnels"):
        game.apply(0, Claim(plain.id, WHITE, 1))
    claims = [a for a in game.legal_actions(0) if isinstance(a, Claim)]
    assert not any(a.locos for a in claims if not game.map.track_by_id[a.track].tunnel)
    assert Claim(tunnel.id, YELLOW, 1) in claims and Claim(tunnel.id, None, 2) in claims
    game.apply(0, Claim(tunnel.id, YELLOW, 1))
    assert game.owner[tunnel.index] == 0 and hand_of(game, 0) == {"white": 2, "loco": 1}


def test_s5_switzerland_tunnels_as_in_europe_surcharge_payable_with_locomotives():
    game = swiss()
    tunnel = track_between(game, "Basel", "Delémont")
    arrange(game, hands={0: "yellow yellow loco yellow"}, deck_top="yellow loco blue")
    events = game.apply(0, Claim(tunnel.id, YELLOW, 0))
    assert next(e for e in events if isinstance(e, TunnelRevealed)).surcharge == 2
    assert set(game.legal_actions(0)) >= {PayTunnel(1)}
    game.apply(0, PayTunnel(1))
    assert game.owner[tunnel.index] == 0 and hand_of(game, 0) == {}


def test_s5_switzerland_face_up_locomotive_counts_as_one_card():
    """Published rules: locomotives being usable on tunnels only, a face-up one is an ordinary draw."""
    game = swiss()
    arrange(game, market="loco loco red blue green", deck_top="white black yellow")
    game.apply(0, DrawMarket(0))
    assert game.current == 0 and game.stage == "second_card"
    assert DrawMarket(0) in game.legal_actions(0)  # the refill (white) ... and the other locomotive
    game.apply(0, DrawMarket(1))
    assert hand_of(game, 0) == {"loco": 2} and game.current == 1


def test_s5_switzerland_market_still_resets_on_three_locomotives():
    game = swiss()
    arrange(game, market="loco loco red blue green", deck_top="loco white black yellow pink pink")
    events = game.apply(0, DrawMarket(2))
    assert any(isinstance(e, MarketReset) for e in events)


def test_s5_switzerland_double_routes_only_one_track_with_two_players():
    two, three = swiss(2), swiss(3)
    for game, open_ in ((two, False), (three, True)):
        first = track_between(game, "Winterthur", "Zürich", "blue")
        other = track_between(game, "Winterthur", "Zürich", "pink")
        give_route(game, 1, "Winterthur", "Zürich", "blue")
        arrange(game, hands={0: "pink"})
        assert game.is_legal(0, Claim(other.id, card_index("pink"), 0)) is open_
        assert first.double == other.index


def test_s5_switzerland_city_to_country_ticket_scores_its_highest_completed_value():
    game = swiss()
    bern = game.map.ticket_by_id[5]  # Bern: France 5, Deutschland 6, Österreich 11, Italia 8
    game.tickets = [[5], [], []]
    for a, b in (("Bern", "Fribourg"), ("Fribourg", "Lausanne"), ("Genève", "Lausanne"), ("Genève", "france_2")):
        give_route(game, 0, a, b)
    (result,) = ticket_results([t for t in game.map.tracks if game.owner[t.index] == 0], [bern])
    assert (result.completed, result.points, game.map.cities[result.reached].id) == (True, 5, "france")
    for a, b in (("Bern", "Solothurn"), ("Olten", "Solothurn"), ("Basel", "Olten"), ("Basel", "deutschland_1")):
        give_route(game, 0, a, b)
    score = final_scores(game)[0]
    assert score.tickets[0].points == 6 and score.ticket_points == 6  # Deutschland beats France
    assert score.to_json()["tickets"][0]["reached"] == game.map.city_by_id["deutschland"].index


def test_s5_switzerland_country_ticket_not_completed_loses_its_lowest_value():
    game = swiss()
    game.tickets = [[5], [8], []]  # Bern (lowest 5), Lugano: France 14, Deutschland 12, Österreich 13, Italia 2
    give_route(game, 0, "Bern", "Fribourg")
    scores = final_scores(game)
    assert (scores[0].ticket_points, scores[0].completed) == (-5, 0)
    assert scores[1].ticket_points == -2


def test_s5_switzerland_country_to_country_ticket():
    game = swiss()
    game.tickets = [[2], [], []]  # Deutschland: France 5, Österreich 5, Italia 13
    for a, b in (
        ("Schaffhausen", "deutschland_2"),
        ("Schaffhausen", "Zürich"),
        ("St. Gallen", "Zürich"),
        ("St. Gallen", "osterreich_1"),
    ):
        give_route(game, 0, a, b)
    assert final_scores(game)[0].ticket_points == 5


def test_s5_switzerland_no_connection_passes_through_a_country():
    """Schaffhausen and Kreuzlingen both reach Deutschland, but not each other through it."""
    game = swiss()
    m = game.map
    give_route(game, 0, "Schaffhausen", "deutschland_2")
    give_route(game, 0, "Kreuzlingen", "deutschland_3")
    own = [t for t in m.tracks if game.owner[t.index] == 0]
    across = Ticket(999, m.find_city("Schaffhausen").index, m.find_city("Kreuzlingen").index, 4, False, "test")
    to_germany = m.ticket_by_id[7]  # Zürich: ... Deutschland 3 ...
    assert ticket_results(own, [across])[0].completed is False
    assert ticket_results(own, [to_germany])[0].completed is False
    give_route(game, 0, "Schaffhausen", "Zürich")
    assert ticket_results([t for t in m.tracks if game.owner[t.index] == 0], [to_germany])[0].points == 3


def test_s5_switzerland_longest_path_bonus_10_and_ties_by_tickets_then_longest():
    game = swiss()
    game.tickets = [[], [], []]
    give_route(game, 0, "Olten", "Zürich")
    scores = final_scores(game)
    assert scores[0].bonuses == {"longest_path": 10} and scores[1].bonuses == {}
    assert game.map.rules.tie_breaks == ("tickets", "longest")


def test_s5_switzerland_border_routes_in_notation():
    game = swiss()
    m = game.map
    arrange(game, hands={0: "white orange yellow"})
    white = parse_action(game, 0, "claim Kreuzlingen-Deutschland white")
    assert white == Claim("deutschland_4-kreuzlingen", WHITE, 0)
    assert parse_action(game, 0, "claim Deutschland-Kreuzlingen/1 orange") == Claim(
        "deutschland_3-kreuzlingen", ORANGE, 0
    )
    assert format_action(game, white) == "claim Kreuzlingen-Deutschland white"
    assert format_action(game, Claim("deutschland_4-kreuzlingen", None, 1)) == "claim Kreuzlingen-Deutschland/2 loco=1"
    assert parse_action(game, 0, "claim Schaffhausen-Deutschland") == Claim("deutschland_2-schaffhausen", YELLOW, 0)
    game.apply(0, white)
    assert game.owner[m.track_by_id["deutschland_4-kreuzlingen"].index] == 0


def test_s5_switzerland_views_show_every_destination_of_a_country_ticket():
    game = swiss()
    game.tickets[0] = [5]
    ticket = game.view(0)["you"]["tickets"][0]
    assert ticket["destinations"] == [
        {"to": "france", "points": 5},
        {"to": "deutschland", "points": 6},
        {"to": "osterreich", "points": 11},
        {"to": "italia", "points": 8},
    ]
    assert (ticket["b"], ticket["points"]) == ("osterreich", 11)


def test_s5_switzerland_ticket_labels_name_every_destination():
    m = swiss().map
    assert ticket_label(m, m.ticket_by_id[5]) == "Bern: France 5 / Deutschland 6 / Österreich 11 / Italia 8"
    assert ticket_label(m, m.ticket_by_id[5], reached=m.city_by_id["italia"].index) == "Bern-Italia 8"
    assert ticket_label(m, m.ticket_by_id[9]) == "Basel-Bern 5"


def _ticket_path(game):
    """A city-to-city ticket and tracks joining its cities (breadth-first, fewest tracks)."""
    m = game.map
    ticket = next(t for t in m.tickets if not t.destinations)
    came = {ticket.a: None}
    frontier = [ticket.a]
    while ticket.b not in came:
        reached = []
        for city in frontier:
            for t in m.tracks:
                nxt = t.b if t.a == city else t.a if t.b == city else None
                if nxt is not None and nxt not in came:
                    came[nxt] = t
                    reached.append(nxt)
        frontier = reached
    path, city = [], ticket.b
    while came[city] is not None:
        t = came[city]
        path.append(t)
        city = t.a if t.b == city else t.b
    return ticket, path


def test_s5_switzerland_most_tickets_variant_gives_the_10_points_to_the_most_completed_tickets():
    """docs/rules.md §5.5: the variant swaps the longest-path bonus for one of the same 10 points
    for the most completed tickets."""
    game = swiss(variants={"most_tickets": True})
    ticket, path = _ticket_path(game)
    game.tickets = [[], [ticket.id], []]
    for t in path:  # seat 1 completes the only ticket
        game.owner[t.index] = 1
    scores = final_scores(game)
    assert scores[1].bonuses == {"globetrotter": 10} and scores[0].bonuses == {} == scores[2].bonuses


def test_s5_switzerland_most_tickets_bonus_goes_to_nobody_when_nobody_completed_a_ticket():
    game = swiss(variants={"most_tickets": True})
    give_route(game, 0, "Olten", "Zürich")
    game.tickets = [[], [], []]
    assert all(s.bonuses == {} for s in final_scores(game))


def test_s5_switzerland_most_tickets_is_a_named_variant():
    assert Game.new("switzerland", 2, 1).hooks.variants == {"most_tickets": False}
    with pytest.raises(VariantError, match="no variant 'tolls'.*most_tickets"):
        Game.new("switzerland", 2, 1, GameOptions(variants={"tolls": True}))
