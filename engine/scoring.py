"""End-of-game scoring (docs/rules.md §1–3): each seat's tickets (engine/tickets.py), its
stations' borrowed tracks (engine/stations.py) and its longest trail (engine/trail.py), the end
bonuses and the ranks with the map's tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.mapdata import tracks_at
from engine.network import adjacency_of, components_of
from engine.outcome import PlayerScore, TicketResult
from engine.stations import best_station_use
from engine.tickets import ticket_results, ticket_value
from engine.trail import longest_trail, longest_trail_in

if TYPE_CHECKING:
    from engine.hooks import GameState
    from engine.mapdata import MapData, Track

#: engine.scoring's API: final scores and ranks, and the searches they run.
__all__ = [
    "PlayerScore",
    "TicketResult",
    "best_station_use",
    "final_scores",
    "longest_trail",
    "rank",
    "ticket_results",
    "tickets_now",
]


def final_scores(game: GameState) -> list[PlayerScore]:
    """Score every seat (resigned seats included) and rank them with the map's tie-breaks."""
    m: MapData = game.map
    deck = game.deck_rules
    owned: list[list[Track]] = [[] for _ in range(game.seats)]
    for track, owner in zip(m.tracks, game.owner):
        if 0 <= owner < game.seats:  # a hook's non-seat owner (Nederland's neutral player) scores nothing
            owned[owner].append(track)
    partial = []
    for seat in range(game.seats):
        tickets = [m.ticket_by_id[i] for i in game.tickets[seat]]
        options = _station_options(m, game.owner, seat, game.seats, game.stations[seat])
        adjacency = adjacency_of(owned[seat])
        component, closed = components_of(adjacency)
        results, borrowed = best_station_use(owned[seat], tickets, options, component)
        longest, path = longest_trail_in(owned[seat], adjacency, closed)
        unbuilt = game.stations_left[seat]
        partial.append((seat, results, borrowed, longest, path, unbuilt * m.rules.station_points))
    longest_bonus, globetrotter_bonus = game.hooks.end_bonuses(game, deck)
    bonus_names = []
    if longest_bonus:
        bonus_names.append(("longest_path", longest_bonus, lambda p: p[3]))
    if globetrotter_bonus:  # nobody scores it when nobody completed a ticket (top > 0 below)
        bonus_names.append(("globetrotter", globetrotter_bonus, lambda p: sum(r.completed for r in p[1])))
    # A seat that resigned or was removed takes no end bonus, and the bonuses are contested by the
    # seats that stayed: a quitter cannot take one from the winner (docs/rules.md §1.8).
    stayed = [game.left[seat] is None for seat in range(game.seats)]
    metrics = [(name, points, [metric(p) for p in partial]) for name, points, metric in bonus_names]
    sums, keys = [], []
    for i, (seat, results, _, longest, _, station_points) in enumerate(partial):
        bonuses = {}
        for name, points, values in metrics:
            top = max((v for v, s in zip(values, stayed) if s), default=0)
            if stayed[i] and top > 0 and values[i] == top:
                bonuses[name] = points
        ticket_points, completed = ticket_value(results)
        total = game.score[seat] + ticket_points + station_points + sum(bonuses.values())
        sums.append((bonuses, ticket_points, total))
        keys.append(_tie_key(game, seat, total, completed, longest))
    # Each score is built once, with its place (a frozen dataclass is slow to build); rank() redoes
    # the places of a hook that changes totals.
    scores = []
    for p, (bonuses, ticket_points, total), place in zip(partial, sums, _places(keys)):
        seat, results, borrowed, longest, path, station_points = p
        scores.append(
            PlayerScore(
                seat=seat,
                route_points=game.score[seat],
                tickets=results,
                ticket_points=ticket_points,
                borrowed=tuple(t.id for t in borrowed),
                station_points=station_points,
                longest=longest,
                longest_tracks=tuple(t.id for t in path),
                bonuses=bonuses,
                total=total,
                rank=place,
            )
        )
    adjusted = game.hooks.adjust_final_scores(game, scores)
    return scores if adjusted is scores else rank(game, adjusted)


def tickets_now(
    m: MapData, owner: Sequence[int], seat: int, seats: int, stations: Sequence[int], tickets: Sequence
) -> tuple[TicketResult, ...]:
    """`seat`'s tickets as the final scoring would count them if the game ended now: on its own
    tracks and the rival tracks its built `stations` (city indices) would borrow (docs/rules.md
    §3.4), so a ticket a station completes reads as completed during play (`via`: the borrowed
    tracks it needs). `owner`: each track's owner by track index (< 0: nobody)."""
    own = [track for track in m.tracks if owner[track.index] == seat]
    return best_station_use(own, tickets, _station_options(m, owner, seat, seats, stations))[0]


def _station_options(m: MapData, owner: Sequence[int], seat: int, seats: int, stations: Sequence[int]) -> list:
    """Per station city of `seat`, the tracks of other seats ending there that it may borrow (a
    hook's non-seat owner, Nederland's neutral player, lends nothing)."""
    at = tracks_at(m)
    return [[t for t in at[city] if owner[t.index] != seat and 0 <= owner[t.index] < seats] for city in stations]


def _tie_key(game: GameState, seat: int, total: int, completed: int, longest: int) -> tuple:
    keys: list[int] = [total]
    for rule in game.map.rules.tie_breaks:
        if rule == "tickets":
            keys.append(completed)
        elif rule == "fewer_stations":
            keys.append(-len(game.stations[seat]))
        elif rule == "longest":
            keys.append(longest)
        else:
            raise ValueError(f"unknown tie-break {rule!r}")
    return tuple(keys)


def _places(keys: list[tuple]) -> list[int]:
    """Competition places (1, 1, 3) of tie keys, the highest first; equal keys share a place."""
    places = [0] * len(keys)
    previous = None
    place = 0
    for position, i in enumerate(sorted(range(len(keys)), key=keys.__getitem__, reverse=True), start=1):
        if keys[i] != previous:
            place, previous = position, keys[i]
        places[i] = place
    return places


def rank(game: GameState, scores: list[PlayerScore]) -> list[PlayerScore]:
    """Competition ranking (1, 1, 3) by total then the map's tie-breaks; equal keys share a rank."""
    places = _places([_tie_key(game, s.seat, s.total, s.completed, s.longest) for s in scores])
    return [s if s.rank == place else replace(s, rank=place) for s, place in zip(scores, places)]
