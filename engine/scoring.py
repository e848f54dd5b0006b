"""End-of-game scoring: tickets, stations, longest trail, bonuses and ranks (RULES.md §1–3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from engine.game import Game
    from engine.mapdata import MapData, Track


@dataclass(frozen=True, slots=True)
class TicketResult:
    id: int
    points: int
    completed: bool
    via: tuple[str, ...] = ()  # borrowed (station) track ids this ticket cannot do without
    reached: int | None = None  # country tickets (Switzerland): the destination scored (place index)


@dataclass(frozen=True, slots=True)
class PlayerScore:
    seat: int
    route_points: int  # points scored on the track during play (route claims, start offsets)
    tickets: tuple[TicketResult, ...]
    ticket_points: int
    borrowed: tuple[str, ...]  # track ids used through stations (Europe)
    station_points: int
    longest: int
    longest_tracks: tuple[str, ...]
    bonuses: dict[str, int] = field(default_factory=dict)
    total: int = 0
    rank: int = 0
    details: dict[str, int] = field(default_factory=dict)  # map facts behind the bonuses (Nederland: money, loans)

    @property
    def completed(self) -> int:
        return sum(1 for t in self.tickets if t.completed)

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "route_points": self.route_points,
            "tickets": [_ticket_json(t) for t in self.tickets],
            "ticket_points": self.ticket_points,
            "borrowed": list(self.borrowed),
            "station_points": self.station_points,
            "longest": self.longest,
            "longest_tracks": list(self.longest_tracks),
            "bonuses": dict(self.bonuses),
            "total": self.total,
            "rank": self.rank,
            "details": dict(self.details),
        }


def _ticket_json(t: TicketResult) -> dict:
    out = {"id": t.id, "points": t.points, "completed": t.completed, "via": list(t.via)}
    if t.reached is not None:
        out["reached"] = t.reached  # place (city/country) index of the destination scored
    return out


class _Components:
    """Union-find over city indices."""

    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        parent = self.parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:
            nxt = parent.get(x, x)
            parent[x] = root
            x = nxt
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def ticket_results(tracks: Iterable["Track"], tickets: Sequence) -> tuple[TicketResult, ...]:
    comp = _Components()
    for t in tracks:
        comp.union(t.a, t.b)
    find = comp.find
    return tuple(
        _places_result(find, t) if t.destinations else TicketResult(t.id, t.points, find(t.a) == find(t.b))
        for t in tickets
    )


def _places_result(find, ticket) -> TicketResult:
    """A ticket to countries or to several destinations (RULES.md §5, Switzerland): a country is
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


def _ticket_value(results: Sequence[TicketResult]) -> tuple[int, int]:
    points = sum(r.points if r.completed else -r.points for r in results)
    return points, sum(1 for r in results if r.completed)


def best_station_use(
    own: list["Track"], tickets: Sequence, station_options: list[list["Track"]]
) -> tuple[tuple[TicketResult, ...], tuple["Track", ...]]:
    """RULES.md §3: each station borrows at most one adjacent opponent track; pick the choice
    that maximizes ticket points, then completed tickets (first such choice in a fixed order)."""
    best = ticket_results(own, tickets)
    best_key = _ticket_value(best)
    best_borrowed: tuple = ()
    choices = [[None, *opts] for opts in station_options if opts]
    for combo in product(*choices) if choices else ():
        borrowed = tuple(t for t in combo if t is not None)
        if not borrowed:
            continue
        results = ticket_results([*own, *borrowed], tickets)
        key = _ticket_value(results)
        if key > best_key:
            best, best_key, best_borrowed = results, key, borrowed
    if best_borrowed:
        best = tuple(_with_needed_stations(r, t, own, best_borrowed) for r, t in zip(best, tickets))
    return best, best_borrowed


def _with_needed_stations(result: TicketResult, ticket, own: list, borrowed: tuple) -> TicketResult:
    if not result.completed:
        return result
    needed = tuple(
        b.id for b in borrowed
        if not ticket_results([*own, *(x for x in borrowed if x is not b)], [ticket])[0].completed
    )
    return TicketResult(result.id, result.points, True, needed, result.reached)


def longest_trail(tracks: Sequence["Track"]) -> tuple[int, tuple["Track", ...]]:
    """Longest trail (cities may repeat, each track used once) by total length; RULES.md §1."""
    if not tracks:
        return 0, ()
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for i, t in enumerate(tracks):
        adjacency.setdefault(t.a, []).append((i, t.b))
        adjacency.setdefault(t.b, []).append((i, t.a))
    lengths = [t.length for t in tracks]
    best_len = 0
    best_path: list[int] = []
    path: list[int] = []
    used = [False] * len(tracks)

    def walk(city: int, total: int) -> None:
        nonlocal best_len, best_path
        if total > best_len:
            best_len, best_path = total, path.copy()
        for i, nxt in adjacency[city]:
            if not used[i]:
                used[i] = True
                path.append(i)
                walk(nxt, total + lengths[i])
                path.pop()
                used[i] = False

    # A longest trail can always be taken to start at an odd-degree city when one exists in
    # its component, but trying every start keeps this simple and is cheap at this size.
    for city in adjacency:
        walk(city, 0)
    return best_len, tuple(tracks[i] for i in best_path)


def final_scores(game: "Game") -> list[PlayerScore]:
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
        options = []
        for city in game.stations[seat]:
            options.append([t for t in m.tracks if 0 <= game.owner[t.index] < game.seats
                            and game.owner[t.index] != seat and city in (t.a, t.b)])
        results, borrowed = best_station_use(owned[seat], tickets, options)
        longest, path = longest_trail(owned[seat])
        unbuilt = game.stations_left[seat]
        partial.append((seat, results, borrowed, longest, path, unbuilt * m.rules.station_points))
    bonus_names = []
    if deck.longest_path_bonus:
        bonus_names.append(("longest_path", deck.longest_path_bonus, lambda p: p[3]))
    if deck.globetrotter_bonus:
        bonus_names.append(("globetrotter", deck.globetrotter_bonus, lambda p: sum(r.completed for r in p[1])))
    scores = []
    for p in partial:
        seat, results, borrowed, longest, path, station_points = p
        bonuses = {}
        for name, points, metric in bonus_names:
            top = max(metric(q) for q in partial)
            if top > 0 and metric(p) == top:
                bonuses[name] = points
        ticket_points = _ticket_value(results)[0]
        total = game.score[seat] + ticket_points + station_points + sum(bonuses.values())
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
            )
        )
    scores = game.hooks.adjust_final_scores(game, scores)
    return rank(game, scores)


def _tie_key(game: "Game", s: PlayerScore) -> tuple:
    keys: list[int] = [s.total]
    for rule in game.map.rules.tie_breaks:
        if rule == "tickets":
            keys.append(s.completed)
        elif rule == "fewer_stations":
            keys.append(-len(game.stations[s.seat]))
        elif rule == "longest":
            keys.append(s.longest)
        else:
            raise ValueError(f"unknown tie-break {rule!r}")
    return tuple(keys)


def rank(game: "Game", scores: list[PlayerScore]) -> list[PlayerScore]:
    """Competition ranking (1, 1, 3) by total then the map's tie-breaks; equal keys share a rank."""
    from dataclasses import replace

    keyed = sorted(((_tie_key(game, s), s) for s in scores), key=lambda ks: ks[0], reverse=True)
    ranked: dict[int, PlayerScore] = {}
    previous = None
    place = 0
    for position, (key, s) in enumerate(keyed, start=1):
        if key != previous:
            place, previous = position, key
        ranked[s.seat] = replace(s, rank=place)
    return [ranked[s.seat] for s in scores]
