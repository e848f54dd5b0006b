"""Destination tickets at the end of the game (docs/rules.md §1, §5): completed when both ends are
in one component of the owner's network; a country ticket scores its best destination reached."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from engine.network import adjacency_of, components_of
from engine.outcome import TicketResult

if TYPE_CHECKING:
    from engine.mapdata import Track


def ticket_results(tracks: Sequence[Track], tickets: Sequence) -> tuple[TicketResult, ...]:
    """Each ticket's result on the network of `tracks`: completed when its ends share a component.
    Cost: one pass over the tracks to label the components, then a comparison per ticket (a country
    ticket: per border point)."""
    get = components_of(adjacency_of(tracks))[0].get
    return tuple(ticket_result(lambda city: get(city, city), t) for t in tickets)


def ticket_result(find, ticket) -> TicketResult:
    if ticket.destinations:
        return places_result(find, ticket)
    return ordinary_result(ticket.id, ticket.points, find(ticket.a) == find(ticket.b))


#: An ordinary ticket's result without borrowed tracks, made once (a frozen dataclass is slow to build).
ordinary_result = cache(TicketResult)


def places_result(find, ticket) -> TicketResult:
    """A ticket to countries or to several destinations (docs/rules.md §5, Switzerland): a country is
    reached through any of its border points (each a separate node, so no connection passes
    through a country); it scores its highest completed destination, or loses its lowest value."""
    roots = {find(n) for n in ticket.a_nodes}
    best = None
    for place, nodes, points in ticket.destinations:
        if (best is None or points > best[1]) and any(find(n) in roots for n in nodes):
            best = (place, points)
    if best is not None:
        return TicketResult(ticket.id, best[1], True, reached=best[0])
    return TicketResult(ticket.id, min(p for _, _, p in ticket.destinations), False)


def ticket_value(results: Sequence[TicketResult]) -> tuple[int, int]:
    points = completed = 0
    for r in results:  # (one plain loop: two generators cost more)
        if r.completed:
            points += r.points
            completed += 1
        else:
            points -= r.points
    return points, completed
