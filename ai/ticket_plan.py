"""What a player's tickets ask for, so menus can put it first: the routes on the cheapest way to
complete their open tickets, and the cities those tickets name. Built from the seat's own view
with the AI's path finder (ai/board.py), so it knows nothing the player does not.
"""

from __future__ import annotations

from ai.base import GameInfo
from ai.board import Board, make_plan
from engine import Game


def board_of(game: Game, seat: int) -> Board:
    return Board(game.view(seat), GameInfo.from_game(game, seat))


def ticket_tracks(game: Game, seat: int) -> set[str]:
    """Track ids on the cheapest plan (in trains) that completes the seat's open tickets."""
    board = board_of(game, seat)
    table = board.edge_costs(lambda track: float(track.length))
    plan = make_plan(board, board.tickets, table)
    tracks = game.map.tracks
    return {tracks[index].id for index in plan.tracks}


def ticket_cities(game: Game, seat: int) -> set[str]:
    """City ids named by the seat's open tickets (where a station may save one)."""
    board = board_of(game, seat)
    cities = game.map.cities
    found: set[str] = set()
    for ticket in board.tickets:
        if board.connected(ticket):
            continue
        found.update(cities[node].id for node in ticket.a_nodes)
        if ticket.destinations:
            found.update(cities[node].id for _place, nodes, _points in ticket.destinations for node in nodes)
        else:
            found.add(cities[ticket.b].id)
    return found
