"""A player's network of tracks as a graph: each city's tracks, and the components (the tickets,
the station choice and the longest trail all start from these)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.mapdata import Track


def adjacency_of(tracks: Sequence[Track]) -> dict[int, list[tuple[int, int]]]:
    """Each city of the network to its tracks (index in `tracks`, the other city), in order."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for i, t in enumerate(tracks):
        adjacency.setdefault(t.a, []).append((i, t.b))
        adjacency.setdefault(t.b, []).append((i, t.a))
    return adjacency


def components_of(adjacency: dict) -> tuple[dict[int, int], dict[int, bool]]:
    """Each city's component (named by its first city in `adjacency` order), and per first city
    whether its component has no odd city (a closed trail runs through all of it)."""
    component: dict[int, int] = {}
    closed: dict[int, bool] = {}
    for root in adjacency:
        if root in component:
            continue
        component[root] = root
        stack, even = [root], True
        while stack:
            x = stack.pop()
            even = even and not len(adjacency[x]) & 1
            for _, y in adjacency[x]:
                if y not in component:
                    component[y] = root
                    stack.append(y)
        closed[root] = even
    return component, closed
