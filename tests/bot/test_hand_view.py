"""The hand image's view (`bot.messenger.hand_view`): only what the picture shows, so an equal hand
is the same image, but everything its ticket progress needs (issue 34: a ticket a station
completes shows as connected)."""

from bot.panels import hand_view
from rendering.private import ticket_status
from tests.engine.helpers import give_route, started


def test_the_hand_view_keeps_what_a_station_borrows():
    game = started("europe", seats=2)
    give_route(game, 0, "Budapest", "Sarajevo")
    give_route(game, 1, "Sarajevo", "Sofia")
    game.tickets[0] = [14]  # Budapest – Sofia
    ticket = game.view(0)["you"]["tickets"]
    assert ticket_status(hand_view(game.view(0)), game.map, 0, ticket) == [False]
    rival_moves = hand_view(game.view(0))
    give_route(game, 1, "Wien", "Zagrab")
    assert hand_view(game.view(0)) == rival_moves  # without a station, rivals' routes change nothing
    game.stations[0].append(game.map.find_city("Sarajevo").index)
    assert ticket_status(hand_view(game.view(0)), game.map, 0, ticket) == [True]
