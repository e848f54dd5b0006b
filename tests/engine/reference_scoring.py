"""Plain end-of-game scoring, slow and obviously right: the definitions the engine's fast searches
(engine/tickets.py, engine/stations.py, engine/trail.py) are compared against with hypothesis.

- tickets: a breadth-first search from a ticket's start over the player's tracks;
- stations: every assignment of a borrowed track (or none) to each station, scored from scratch;
- longest trail: every walk from every city, each track used once.

Ties are broken as the rules' fixed order says (docs/rules.md §1, §3): the first best assignment
(each station's options in order, no track first, the later stations varying fastest) and the first
longest trail (start cities in order of first appearance, at each city its tracks in order).
Also the networks the tests build from a map.
"""

from __future__ import annotations

from collections import deque
from itertools import product

from engine.outcome import TicketResult


def _neighbours(tracks) -> dict[int, list[tuple[int, int]]]:
    """Each city to its tracks (index in `tracks`, the other city), in order."""
    out: dict[int, list[tuple[int, int]]] = {}
    for i, t in enumerate(tracks):
        out.setdefault(t.a, []).append((i, t.b))
        out.setdefault(t.b, []).append((i, t.a))
    return out


def reachable(tracks, starts) -> set[int]:
    """The cities reached from `starts` (themselves included) along `tracks`: breadth first."""
    neighbours = _neighbours(tracks)
    seen = set(starts)
    queue = deque(seen)
    while queue:
        for _, other in neighbours.get(queue.popleft(), ()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


def reference_ticket_results(tracks, tickets) -> tuple[TicketResult, ...]:
    """Each ticket completed when its end is reached from its start; a country ticket (several
    destinations, each a set of border points) scores the most valuable destination reached from any
    of its start points (the first of equals), else loses its lowest value."""
    results = []
    for t in tickets:
        if not t.destinations:
            results.append(TicketResult(t.id, t.points, t.b in reachable(tracks, [t.a])))
            continue
        seen = reachable(tracks, t.a_nodes)
        best = None
        for place, nodes, points in t.destinations:
            if any(n in seen for n in nodes) and (best is None or points > best[1]):
                best = (place, points)
        if best is None:
            results.append(TicketResult(t.id, min(p for _, _, p in t.destinations), False))
        else:
            results.append(TicketResult(t.id, best[1], True, reached=best[0]))
    return tuple(results)


def _value(results) -> tuple[int, int]:
    return sum(r.points if r.completed else -r.points for r in results), sum(r.completed for r in results)


def reference_station_use(own, tickets, station_options):
    """Every assignment scored from scratch; the first with the most ticket points, then completed
    tickets. A completed ticket's `via`: the borrowed tracks without any one of which it is not."""
    best = reference_ticket_results(own, tickets)
    best_key, best_borrowed = _value(best), ()
    for combo in product(*[[None, *opts] for opts in station_options]):
        borrowed = tuple(t for t in combo if t is not None)
        results = reference_ticket_results([*own, *borrowed], tickets)
        if _value(results) > best_key:
            best, best_key, best_borrowed = results, _value(results), borrowed
    via = []
    for r, ticket in zip(best, tickets):
        needs = ()
        if r.completed:
            needs = tuple(
                b.id
                for i, b in enumerate(best_borrowed)
                if not reference_ticket_results([*own, *best_borrowed[:i], *best_borrowed[i + 1 :]], [ticket])[
                    0
                ].completed
            )
        via.append(TicketResult(r.id, r.points, r.completed, needs, r.reached))
    return tuple(via), best_borrowed


def reference_trail(tracks):
    """Every walk from every city (each track once); the first longest."""
    neighbours = _neighbours(tracks)
    best = [0, []]
    path: list[int] = []
    used = [False] * len(tracks)

    def walk(city, total):
        if total > best[0]:
            best[:] = [total, path.copy()]
        for i, nxt in neighbours[city]:
            if not used[i]:
                used[i] = True
                path.append(i)
                walk(nxt, total + tracks[i].length)
                path.pop()
                used[i] = False

    for city in neighbours:
        walk(city, 0)
    return best[0], tuple(tracks[i] for i in best[1])


def network(m, picks):
    """A connected network a player could own on map `m` (trains allowing, never both tracks of a
    double route), grown one track at a time: each pick chooses among the tracks at its cities,
    those closing a cycle and the short ones first, so that hypothesis finds dense networks."""
    owned, mine, cities, trains = [], set(), set(), m.rules.trains
    for pick in picks:
        frontier = [
            t
            for t in m.tracks
            if t.index not in mine
            and t.length <= trains
            and (t.double is None or t.double not in mine)
            and (not cities or t.a in cities or t.b in cities)
        ]
        if not frontier:
            break
        frontier.sort(key=lambda t: (not (t.a in cities and t.b in cities), t.length, t.index))
        t = frontier[pick % len(frontier)]
        owned.append(t)
        mine.add(t.index)
        cities.update((t.a, t.b))
        trains -= t.length
    return owned
