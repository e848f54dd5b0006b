"""A seat's tickets during play (`tickets_now`, docs/rules.md §3.4): what the final scoring would
count if the game ended now, the routes the seat's stations would borrow included, so a ticket a
station completes reads as completed before the end (issue 34)."""

from __future__ import annotations

import pytest

from engine.mapdata import Ticket
from engine.scoring import final_scores, tickets_now
from tests.engine.helpers import give_route, random_game, started, track_between


def test_a_station_completes_a_ticket_during_play():
    """docs/rules.md §3.4's example: Red owns Paris–Dieppe, Blue Brest–Paris; Red's station in Paris
    completes Brest–Dieppe now, through Blue's track."""
    game = started("europe", seats=2)
    m = game.map
    give_route(game, 0, "Paris", "Dieppe")
    give_route(game, 1, "Brest", "Paris")
    ticket = Ticket(999, m.find_city("Brest").index, m.find_city("Dieppe").index, 5, False, "test")
    (before,) = tickets_now(m, game.owner, 0, game.seats, game.stations[0], [ticket])
    assert not before.completed
    game.stations[0].append(m.find_city("Paris").index)
    (after,) = tickets_now(m, game.owner, 0, game.seats, game.stations[0], [ticket])
    assert after.completed and after.via == (track_between(game, "Brest", "Paris").id,)


@pytest.mark.parametrize("map_id", ["europe", "nederland", "usa"])
def test_tickets_now_are_the_final_scorings_tickets(map_id):
    """At every fifth ply of random games, each seat's tickets now equal those final_scores gives
    for the same state (the neutral player's tracks on Nederland lend nothing)."""
    variants = {"neutral": True} if map_id == "nederland" else None
    seats = 2 if map_id == "nederland" else 3
    checked = 0
    for ply, (game, _, _) in enumerate(random_game(map_id, seats, seed=11, variants=variants)):
        if ply % 5 or game.phase != "playing":
            continue
        final = final_scores(game)
        for score in final:
            tickets = [game.map.ticket_by_id[i] for i in game.tickets[score.seat]]
            now = tickets_now(game.map, game.owner, score.seat, game.seats, game.stations[score.seat], tickets)
            assert now == score.tickets
        checked += 1
    assert checked > 10
