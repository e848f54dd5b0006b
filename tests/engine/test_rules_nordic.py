"""docs/rules.md §6 Nordic Countries (and the published Nordic rules where §6 is silent, docs/engine.md
"Rules decisions"): 2-3 players, 40 trains, tickets, free locomotive draws without market resets,
locomotives only on ferries and tunnels, ferry substitutes, Murmansk-Lieksa, doubles, Globetrotter."""

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
from engine.errors import SeatCountError
from engine.events import MarketReset, TunnelRevealed
from engine.scoring import final_scores
from tests.engine.helpers import arrange, give_route, hand_of, started, track_between

PINK, BLUE, YELLOW, RED, GREEN, BLACK = (card_index(c) for c in ("pink", "blue", "yellow", "red", "green", "black"))


def nordic(seats: int = 3, **kw) -> Game:
    return started("nordic", seats=seats, **kw)


def claims_of(game: Game, track) -> set:
    return {(a.color, a.locos, a.subs) for a in game.legal_actions(0) if isinstance(a, Claim) and a.track == track.id}


def test_s6_nordic_two_or_three_players_40_trains():
    assert Game.new("nordic", 2, 1).trains == [40, 40]
    with pytest.raises(SeatCountError, match="2 to 3 seats"):
        Game.new("nordic", 4, 1)


def test_s6_nordic_five_tickets_keep_two_rest_leave_the_game():
    game = Game.new("nordic", 2, seed=9, options=GameOptions(first_seat=0))
    offer = sorted(game.offers[0])
    assert len(offer) == 5 and game.offer_keep[0] == 2
    game.apply(0, KeepTickets(tuple(offer[:2])))
    assert not set(offer[2:]) & set(game.ticket_deck) and len(game.ticket_deck) == 46 - 10


def test_s6_nordic_mid_game_draw_three_keep_one_rest_leave_the_game():
    """Published rules: unwanted tickets are removed from the game, at setup and later."""
    game = nordic()
    before = len(game.ticket_deck)
    game.apply(0, DrawTickets())
    offer = sorted(game.offers[0])
    assert len(offer) == 3 and game.offer_keep[0] == 1
    game.apply(0, KeepTickets((offer[0],)))
    assert len(game.ticket_deck) == before - 3


def test_s6_nordic_face_up_locomotives_drawn_freely():
    game = nordic()
    arrange(game, market="loco red loco blue green", deck_top="white black")
    game.apply(0, DrawMarket(0))
    assert game.stage == "second_card" and game.current == 0
    game.apply(0, DrawMarket(2))  # a second face-up locomotive
    assert hand_of(game, 0) == {"loco": 2} and game.current == 1


def test_s6_nordic_market_never_resets_for_three_locomotives():
    """Published rules: the display is not flushed for 3 face-up locomotives."""
    game = nordic()
    arrange(game, market="loco loco red blue green", deck_top="loco white black")
    events = game.apply(0, DrawMarket(2))
    assert not any(isinstance(e, MarketReset) for e in events)
    assert game.market.count(card_index("loco")) == 3
    game._check_market([])
    assert game.market.count(card_index("loco")) == 3


def test_s6_nordic_locomotives_only_on_ferries_and_tunnels():
    game = nordic()
    plain = track_between(game, "Göteborg", "Oslo")  # orange 2
    arrange(game, hands={0: "orange loco loco"})
    with pytest.raises(IllegalActionError, match="only be used on ferries and tunnels"):
        game.apply(0, Claim(plain.id, card_index("orange"), 1))
    with pytest.raises(IllegalActionError, match="only be used on ferries and tunnels"):
        game.apply(0, Claim(plain.id, None, 2))
    assert not claims_of(game, plain)


def test_s6_nordic_tunnel_one_color_or_only_locomotives_surcharge_payable_with_locomotives():
    """docs/rules.md §6.4: the cards shown before the reveal are all of one color or all
    locomotives, never a mix (Europe and Switzerland allow the mix); the extra cards may be
    locomotives."""
    game = nordic()
    tunnel = track_between(game, "Åndalsnes", "Lillehammer")  # yellow 2 tunnel
    arrange(game, hands={0: "yellow yellow loco loco blue blue blue"}, deck_top="yellow red red")
    assert claims_of(game, tunnel) == {(YELLOW, 0, ()), (None, 2, ())}  # no mix, no substitutes in tunnels
    with pytest.raises(IllegalActionError, match="one color or with locomotives only, not both"):
        game.apply(0, Claim(tunnel.id, YELLOW, 1))
    with pytest.raises(IllegalActionError, match="takes no substitute cards"):
        game.apply(0, Claim(tunnel.id, YELLOW, 0, (BLUE, BLUE, BLUE)))
    events = game.apply(0, Claim(tunnel.id, YELLOW, 0))
    assert next(e for e in events if isinstance(e, TunnelRevealed)).surcharge == 1
    assert PayTunnel(1) in game.legal_actions(0)  # the extra card may be a locomotive
    game.apply(0, PayTunnel(1))
    assert game.owner[tunnel.index] == 0 and hand_of(game, 0) == {"loco": 1, "blue": 3}


def test_s6_nordic_tunnel_notation_fills_in_an_unmixed_payment():
    game = nordic()
    tunnel = track_between(game, "Åndalsnes", "Lillehammer")
    arrange(game, hands={0: "yellow loco loco"})
    assert parse_action(game, 0, "claim Åndalsnes-Lillehammer") == Claim(tunnel.id, None, 2)
    arrange(game, hands={0: "yellow loco"})  # one of each: no unmixed payment
    claim = parse_action(game, 0, "claim Åndalsnes-Lillehammer")
    with pytest.raises(IllegalActionError, match="one color or with locomotives only, not both"):
        game.apply(0, claim)


def test_s6_nordic_ferry_three_cards_of_any_colors_replace_a_required_locomotive():
    """The BGG guide's example: red Mo i Rana-Trondheim (6, 2 locomotives) paid with 3 red,
    1 locomotive and 6 other cards standing for the locomotives."""
    game = nordic()
    ferry = track_between(game, "Mo i Rana", "Trondheim", "red")
    assert (ferry.length, ferry.ferry) == (6, 2)
    arrange(game, hands={0: "red red red red loco blue blue blue green green green"})
    subs = (BLUE, BLUE, BLUE, GREEN, GREEN, GREEN)
    assert game.is_legal(0, Claim(ferry.id, RED, 1, subs))  # 3 red + loco + 2 sets for the locomotives
    assert game.is_legal(0, Claim(ferry.id, RED, 0, subs))  # 4 red + 2 sets
    assert game.is_legal(0, Claim(ferry.id, RED, 1, subs[:3]))  # 4 red + loco + 1 set
    with pytest.raises(IllegalActionError, match="at most 6 substitute cards"):  # no chaining
        game.apply(0, Claim(ferry.id, RED, 0, subs + (BLUE, BLUE, GREEN)))
    with pytest.raises(IllegalActionError, match="sets of 3"):
        game.apply(0, Claim(ferry.id, RED, 1, (BLUE, BLUE)))
    with pytest.raises(IllegalActionError, match="needs 2 locomotives"):
        game.apply(0, Claim(ferry.id, RED, 0, subs[:3]))
    game.apply(0, Claim(ferry.id, RED, 1, subs))
    assert hand_of(game, 0) == {"red": 1} and game.score[0] == 15 and game.trains[0] == 34


def test_s6_nordic_ferry_substitutes_may_be_of_the_routes_color_and_gray_ferries_need_no_colored_card():
    game = nordic()
    ferry = track_between(game, "Århus", "København")  # gray 1, 1 locomotive
    arrange(game, hands={0: "pink pink blue"})
    assert claims_of(game, ferry) == {(None, 0, (PINK, PINK, BLUE))}
    red = track_between(game, "Ålborg", "Kristiansand")  # red 2, 1 locomotive
    arrange(game, hands={0: "red red red red"})
    assert claims_of(game, red) == {(RED, 0, (RED, RED, RED))}


def test_s6_nordic_murmansk_lieksa_four_cards_replace_each_missing_card():
    """Published rules (Dan Blum's summary): 9 blue, 8 blue + 4 others, 7 blue + 8 others ...;
    docs/rules.md §6: the 4 cards are not locomotives. 27 points."""
    game = nordic()
    route = track_between(game, "Murmansk", "Lieksa")
    arrange(game, hands={0: "blue blue blue blue blue blue blue red red red red green green green green black loco"})
    eight = (GREEN,) * 4 + (RED,) * 4
    assert game.is_legal(0, Claim(route.id, BLUE, 0, eight))
    with pytest.raises(IllegalActionError, match="only replace missing blue cards"):
        game.apply(0, Claim(route.id, BLUE, 0, eight + (RED, GREEN, GREEN, BLACK)))
    with pytest.raises(IllegalActionError, match="never locomotives"):
        game.apply(0, Claim(route.id, BLUE, 0, (GREEN,) * 4 + (RED, RED, RED, 8)))
    with pytest.raises(IllegalActionError, match="only be used on ferries and tunnels"):
        game.apply(0, Claim(route.id, BLUE, 2))
    assert claims_of(game, route) == {(BLUE, 0, tuple(sorted((BLACK, RED, RED, RED, RED, GREEN, GREEN, GREEN))))}
    game.apply(0, Claim(route.id, BLUE, 0, eight))
    assert game.score[0] == 27 and hand_of(game, 0) == {"black": 1, "loco": 1} and game.trains[0] == 31


def test_s6_nordic_double_routes_both_tracks_only_with_three_players_even_unequal_ones():
    for seats, open_ in ((2, False), (3, True)):
        game = nordic(seats)
        give_route(game, 1, "Kristiansand", "Stavanger", "green")  # the 2-long tunnel
        ferry = track_between(game, "Kristiansand", "Stavanger", "orange")  # the 3-long ferry
        arrange(game, hands={0: "orange orange loco"})
        assert game.is_legal(0, Claim(ferry.id, card_index("orange"), 1)) is open_


def test_s6_nordic_globetrotter_10_for_most_completed_tickets_all_tied_no_longest_path():
    game = nordic()
    game.tickets = [[1], [1], [2]]  # Ålborg-Norrköping for seats 0 and 1, Ålborg-Umeå for seat 2
    give_route(game, 0, "Ålborg", "Göteborg")
    give_route(game, 0, "Göteborg", "Norrköping")
    give_route(game, 1, "Ålborg", "Oslo")
    give_route(game, 1, "Oslo", "Örebro", "green")
    give_route(game, 1, "Örebro", "Norrköping")
    scores = final_scores(game)
    assert scores[0].bonuses == {"globetrotter": 10} == scores[1].bonuses and scores[2].bonuses == {}
    assert all("longest_path" not in s.bonuses for s in scores)


def test_s6_nordic_ties_by_most_completed_tickets_then_shared():
    game = nordic()
    game.tickets = [[1], [], []]  # Ålborg-Norrköping 5
    give_route(game, 0, "Ålborg", "Göteborg")
    give_route(game, 0, "Göteborg", "Norrköping")
    game.score = [0, 15, 15]  # totals: 0 + 5 + Globetrotter 10 = 15 for seat 0
    scores = final_scores(game)
    assert [s.total for s in scores] == [15, 15, 15]
    assert [s.rank for s in scores] == [1, 2, 2]


def test_s6_nordic_substitute_payments_in_notation():
    game = nordic()
    ferry = track_between(game, "Mo i Rana", "Trondheim", "red")
    arrange(game, hands={0: "red red red loco blue blue blue green green green"})
    action = Claim(ferry.id, RED, 1, (BLUE, BLUE, BLUE, GREEN, GREEN, GREEN))
    text = format_action(game, action)
    assert text == "claim Mo I Rana-Trondheim red loco=1 sub=blue:3,green:3"
    assert parse_action(game, 0, text) == action
    assert parse_action(game, 0, "claim Mo i Rana-Trondheim red") == action  # filled in: the listed payment
    route = track_between(game, "Murmansk", "Lieksa")
    arrange(game, hands={0: "red " * 8 + "blue " * 4})
    assert parse_action(game, 0, "claim Lieksa-Murmansk red") == Claim(route.id, RED, 0, (BLUE,) * 4)


def test_s6_nordic_globetrotter_goes_to_nobody_when_nobody_completed_a_ticket():
    """docs/rules.md §1.9: a most-completed-tickets bonus needs at least one completed ticket."""
    game = nordic()
    game.tickets = [[1], [2], []]
    give_route(game, 0, "Ålborg", "Göteborg")  # no ticket completed
    assert all(s.bonuses == {} for s in final_scores(game))
