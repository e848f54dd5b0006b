"""What an AI knows at one decision, as fast structures built from its view and the map data,
plus the route planner both AIs share (shortest paths on the network still open to the seat).

Nothing here reads a Game: only `view` (the seat's own view) and `GameInfo` (public data).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from ai.base import GameInfo
from engine.cards import ALL_CARD_NAMES, LOCO, NUM_CARD_KINDS
from engine.mapdata import MapData, Ticket, Track

CARD_INDEX = {name: i for i, name in enumerate(ALL_CARD_NAMES)}
INF = float("inf")


@cache
def adjacency(m: MapData) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """For each city: (neighbor city, track indices joining them) pairs."""
    adj: list[dict[int, list[int]]] = [{} for _ in m.cities]
    for t in m.tracks:
        adj[t.a].setdefault(t.b, []).append(t.index)
        adj[t.b].setdefault(t.a, []).append(t.index)
    return tuple(tuple((n, tuple(ts)) for n, ts in d.items()) for d in adj)


class Components:
    """Union-find over city indices."""

    __slots__ = ("parent",)

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def joined(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)


class Board:
    """One seat's picture of the game at a decision (built from its view only)."""

    def __init__(self, view: dict, info: GameInfo) -> None:
        m = info.map
        self.view = view
        self.info = info
        self.m = m
        self.me = info.seat
        self.seats = info.seats
        owner = [-1] * len(m.tracks)
        by_id = m.track_by_id
        for tid, seat in view["claims"].items():
            owner[by_id[tid].index] = seat
        self.owner = owner
        you = view["you"] or {}
        hand = [0] * len(ALL_CARD_NAMES)  # Märklin's +4 and passenger cards at the end
        for name, n in (you.get("hand") or {}).items():
            hand[CARD_INDEX[name]] = n
        self.hand = hand
        players = view["players"]
        me = players[self.me]
        self.trains = me["trains"]
        self.stations_left = me["stations_left"]
        self.score = me["score"] + sum(me.get("tokens", ()))  # points so far: Märklin's tokens score at the end
        self.money = you.get("money")  # Nederland with tolls
        self.loans = me.get("loans", 0)
        self.tolls = bool(view.get("tolls"))
        self.opponents = [p["seat"] for p in players if p["seat"] != self.me and p["left"] is None]
        self.min_opp_trains = min((players[s]["trains"] for s in self.opponents), default=99)
        self.last_round = view["last_round"]
        self.tickets: list[Ticket] = [m.ticket_by_id[t["id"]] for t in you.get("tickets", ())]
        self.offer: list[Ticket] = [m.ticket_by_id[t["id"]] for t in you.get("offer", ())]
        self.market = [None if c is None else CARD_INDEX[c] for c in view["market"]]
        self.station_cities = {m.city_by_id[c].index for c in view["stations"]}
        self.my_stations = sum(1 for s in view["stations"].values() if s == self.me)
        comp = Components(len(m.cities))
        for t in m.tracks:
            if owner[t.index] == self.me:
                comp.union(t.a, t.b)
        self.comp = comp

    # ------------------------------------------------------------------ tracks

    def own(self, t: Track) -> bool:
        return self.owner[t.index] == self.me

    def free(self, t: Track, seat: int | None = None) -> bool:
        """Whether `seat` (default: me) may still claim `t` some day (cards aside)."""
        seat = self.me if seat is None else seat
        if self.owner[t.index] >= 0:
            return False
        if t.double is not None:
            partner = self.owner[t.double]
            if partner == seat or (partner >= 0 and not self.info.doubles_open):
                return False
        return True

    def connected(self, ticket: Ticket) -> bool:
        if not ticket.destinations:
            return self.comp.joined(ticket.a, ticket.b)
        roots = {self.comp.find(n) for n in ticket.a_nodes}
        return any(self.comp.find(n) in roots for _, nodes, _ in ticket.destinations for n in nodes)

    # ------------------------------------------------------------------ paths

    def edge_costs(
        self,
        cost: Callable[[Track], float | None],
        seat: int | None = None,
        borrow: Callable[[Track], float | None] | None = None,
    ) -> list[list[tuple[int, float, int]]]:
        """Per city: (neighbor, cost, track index) of the cheapest usable track to each neighbor.
        Tracks of `seat` (default: me) cost 0; `cost(t)` prices a track `seat` may claim (None:
        never use it); `borrow(t)`, if given, prices another player's track (Europe stations)."""
        seat = self.me if seat is None else seat
        tracks = self.m.tracks
        owner = self.owner
        seats = self.seats
        table: list[list[tuple[int, float, int]]] = []
        for pairs in adjacency(self.m):
            row = []
            for nbr, tis in pairs:
                best, best_t = INF, -1
                for ti in tis:
                    o = owner[ti]
                    if o == seat:
                        best, best_t = 0.0, ti
                        break
                    t = tracks[ti]
                    if o >= 0:
                        if borrow is None or o >= seats:
                            continue
                        c = borrow(t)
                    elif self.free(t, seat):
                        c = cost(t)
                    else:
                        continue
                    if c is not None and c < best:
                        best, best_t = c, ti
                if best_t >= 0:
                    row.append((nbr, best, best_t))
            table.append(row)
        return table


def shortest_path(table: list, src, dst, zero: set[int] | frozenset = frozenset()) -> tuple[float, list[int]] | None:
    """Dijkstra from src to dst (a city, or a tuple of cities: any of them); tracks in `zero` cost
    nothing. Returns (cost, track indices)."""
    sources = src if isinstance(src, tuple) else (src,)
    targets = dst if isinstance(dst, tuple) else (dst,)
    if any(s in targets for s in sources):
        return 0.0, []
    dist = dict.fromkeys(sources, 0.0)
    prev: dict[int, tuple[int, int]] = {}
    heap = [(0.0, s) for s in sources]
    done = set()
    while heap:
        d, city = heapq.heappop(heap)
        if city in done:
            continue
        if city in targets:
            path = []
            while city in prev:  # sources have no predecessor (costs are never negative)
                city, ti = prev[city]
                path.append(ti)
            return d, path
        done.add(city)
        for nbr, c, ti in table[city]:
            if nbr in done:
                continue
            nd = d + (0.0 if ti in zero else c)
            if nd < dist.get(nbr, INF):
                dist[nbr] = nd
                prev[nbr] = (city, ti)
                heapq.heappush(heap, (nd, nbr))
    return None


class Plan:
    """Tracks to claim so that a set of tickets is completed, and what that costs."""

    __slots__ = ("cost", "done", "impossible", "planned", "tracks", "trains")

    def __init__(self) -> None:
        self.tracks: list[int] = []  # missing (not yet owned) track indices, in ticket order
        self.cost = 0.0  # weighted cost of the missing tracks
        self.trains = 0  # trains the missing tracks need
        self.done: list[Ticket] = []  # already connected
        self.planned: list[Ticket] = []  # reachable
        self.impossible: list[Ticket] = []  # no path left


def make_plan(board: Board, tickets: Iterable[Ticket], table: list, start: Sequence[int] = ()) -> Plan:
    """Greedy Steiner tree: tickets in order, each by the cheapest path where own and already
    planned tracks cost nothing."""
    plan = Plan()
    zero = set(start)
    tracks = board.m.tracks
    for ticket in tickets:
        if board.connected(ticket):
            plan.done.append(ticket)
            continue
        found = _ticket_path(table, ticket, zero)
        if found is None:
            plan.impossible.append(ticket)
            continue
        cost, path = found
        plan.planned.append(ticket)
        plan.cost += cost
        for ti in path:
            if ti not in zero and board.owner[ti] != board.me:
                zero.add(ti)
                plan.tracks.append(ti)
                plan.trains += tracks[ti].length
    return plan


def _ticket_path(table: list, ticket: Ticket, zero: set[int]) -> tuple[float, list[int]] | None:
    """The cheapest path for a ticket; for a ticket with several destinations (Switzerland's
    countries) the destination with the best points for its cost."""
    if not ticket.destinations:
        return shortest_path(table, ticket.a, ticket.b, zero)
    best, best_value = None, None
    for _place, nodes, points in ticket.destinations:
        found = shortest_path(table, tuple(ticket.a_nodes), tuple(nodes), zero)
        if found is not None and (best_value is None or points - found[0] > best_value):
            best, best_value = found, points - found[0]
    return best


def color_needs(board: Board, track_indices: Iterable[int]) -> list[int]:
    """Cards of each color the given tracks still need beyond the hand (gray tracks take the
    color the hand has most of, after the colored tracks)."""
    need = [0] * NUM_CARD_KINDS
    tracks = board.m.tracks
    grays = []
    for ti in track_indices:
        t = tracks[ti]
        if t.color is None:
            grays.append(t)
        else:
            need[t.color] += t.length - t.ferry
        need[LOCO] += t.ferry
    spare = [board.hand[c] - need[c] for c in range(NUM_CARD_KINDS)]
    for t in sorted(grays, key=lambda t: -t.length):
        c = max(range(LOCO), key=lambda k: spare[k])
        need[c] += t.length - t.ferry
        spare[c] -= t.length - t.ferry
    return [max(0, need[c] - board.hand[c]) for c in range(NUM_CARD_KINDS)]
