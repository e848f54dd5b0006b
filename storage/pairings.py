"""Tournament pairings and standings: pure and deterministic (no SQL, no clock, no randomness), so
storage.tournaments can replay a tournament from its stored tables and every process agrees.

Formats (docs/leagues.md, "Tournaments"):
- `swiss`: every round, the players still in are seated by standing into tables of `smallest` to
  `largest` players (as few tables as possible, sizes as even as possible), avoiding opponents met
  before where a swap can (greedy by standing, then table-to-table swaps that lower the repeats).
- `elimination`: tables by seed, spread like a snake (1st, 2nd, 3rd seeds at different tables); the
  top `advance` of each table go on, until one table (the final) is left.
- `groups`: pods of about `group_size` (snake by seed) play `rounds` Swiss rounds among themselves;
  the top `advance` of each pod go on to an elimination stage (one final table when they fit).

Standings, best first: tournament points (a table's 1st gets 3, its last 0, the places between
evenly spaced; tied players share their places' points; a seat that resigned, was removed or never
played takes the last place), then total game score, then opponents' strength (the average points
of everyone met, each meeting counted), then seed (sign-up order). In a knockout stage the round
reached and the rank at that table come first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from storage.ratings import SeatResult, rating_places

SWISS, ELIMINATION, GROUPS = "swiss", "elimination", "groups"
FORMATS = (SWISS, ELIMINATION, GROUPS)
#: A round's stage: Swiss rounds, a pod's rounds, knockout rounds (the last one, alone, is the final).
STAGE_SWISS, STAGE_GROUP, STAGE_KNOCKOUT = "swiss", "group", "knockout"
#: Points of a table's winner (its last gets 0).
TOP_POINTS = 3.0


class PairingError(ValueError):
    """The players cannot be seated with these table sizes (too few of them)."""


@dataclass(frozen=True)
class Rules:
    format: str = SWISS
    smallest: int = 3
    largest: int = 4
    rounds: int = 3  # Swiss rounds; in `groups`, the rounds each pod plays
    advance: int = 1  # knockout: how many of each table (or pod) go on
    group_size: int = 8


@dataclass(frozen=True)
class TableResult:
    """A finished table: its players (seat order), each one's place in it (competition ranks, ties
    shared, leavers last: `places`) and game score."""

    round: int
    stage: str
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    group: int | None = None


@dataclass(frozen=True)
class PlannedTable:
    players: tuple[int, ...]
    group: int | None = None


@dataclass(frozen=True)
class Plan:
    """The next round to open."""

    number: int
    stage: str
    tables: tuple[PlannedTable, ...]

    @property
    def final(self) -> bool:
        return self.stage == STAGE_KNOCKOUT and len(self.tables) == 1


@dataclass(frozen=True)
class Standing:
    place: int
    user_id: int
    points: float
    score: int
    strength: float  # opponents' average points
    tables: int
    wins: int
    dropped: bool = False
    reached: int = 0  # knockout: the last round played in that stage
    group: int | None = None


@dataclass
class _Tally:
    points: float = 0.0
    score: int = 0
    tables: int = 0
    wins: int = 0
    met: list[int] = field(default_factory=list)
    reached: int = 0
    last_rank: int = 0


# ---------------------------------------------------------------------------- a table's result


def places(seats: Sequence[SeatResult]) -> tuple[int, ...]:
    """A finished game's places for the tournament (seat order): the league's rule, the same for
    ratings (storage.ratings.rating_places): those who stayed by rank, every leaver shares the last."""
    return tuple(rank for _, rank in rating_places(seats))


def table_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """Tournament points per seat: place p of n earns 3·(n−p)/(n−1); tied seats share the mean of
    the places they cover (two tied winners of four: (3 + 2) / 2 each)."""
    n = len(ranks)
    if n < 2:
        return (TOP_POINTS,) * n

    def worth(place: int) -> float:
        return TOP_POINTS * (n - place) / (n - 1)

    shared = Counter(ranks)
    return tuple(sum(worth(p) for p in range(r, r + shared[r])) / shared[r] for r in ranks)


# ---------------------------------------------------------------------------- standings


def standings(
    entrants: Sequence[int],
    results: Iterable[TableResult],
    *,
    dropped: Iterable[int] = (),
    groups: dict[int, int] | None = None,
) -> list[Standing]:
    """Everyone signed up (in seed order), best first, by the tie-breaks of the module docstring.
    Equal on every tie-break (seed aside) shares a place."""
    seed = {user: i for i, user in enumerate(entrants)}
    tally = {user: _Tally() for user in entrants}
    for table in results:
        points = table_points(table.ranks)
        for user, rank, score, got in zip(table.players, table.ranks, table.scores, points):
            if user not in tally:
                continue
            t = tally[user]
            t.points += got
            t.score += score
            t.tables += 1
            t.wins += rank == 1
            t.met.extend(u for u in table.players if u != user)
            if table.stage == STAGE_KNOCKOUT and table.round >= t.reached:
                t.reached, t.last_rank = table.round, rank
    out = set(dropped)

    def strength(user: int) -> float:
        met = [tally[u].points for u in tally[user].met if u in tally]
        return round(sum(met) / len(met), 6) if met else 0.0

    def key(user: int) -> tuple:
        t = tally[user]
        return (-t.reached, t.last_rank, -round(t.points, 6), -t.score, -strength(user))

    ordered = sorted(entrants, key=lambda u: (key(u), seed[u]))
    rows: list[Standing] = []
    for i, user in enumerate(ordered):
        t = tally[user]
        place = rows[-1].place if rows and key(ordered[i - 1]) == key(user) else i + 1
        rows.append(
            Standing(
                place=place,
                user_id=user,
                points=round(t.points, 2),
                score=t.score,
                strength=round(strength(user), 2),
                tables=t.tables,
                wins=t.wins,
                dropped=user in out,
                reached=t.reached,
                group=(groups or {}).get(user),
            )
        )
    return rows


# ---------------------------------------------------------------------------- seating


def table_sizes(players: int, smallest: int, largest: int) -> list[int]:
    """As few tables as possible, sizes as even as possible, larger first (10 in 3–4: 4, 3, 3).
    When no split fits (5 players in 3–4), the smallest size gives way, down to 2 (3, 2)."""
    if players < 2 or smallest > largest:
        raise PairingError(f"{players} players cannot fill tables of {smallest}-{largest}")
    tables = -(-players // largest)
    if tables * smallest > players:
        if smallest <= 2:
            raise PairingError(f"{players} players cannot fill tables of {smallest}-{largest}")
        return table_sizes(players, smallest - 1, largest)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def meetings(results: Iterable[TableResult]) -> Counter[tuple[int, int]]:
    """How often each pair (smaller id first) sat at one table."""
    met: Counter[tuple[int, int]] = Counter()
    for table in results:
        met.update(combinations(sorted(table.players), 2))
    return met


def repeats(table: Sequence[int], met: Counter[tuple[int, int]]) -> int:
    return sum(met[pair] for pair in combinations(sorted(table), 2))


def swiss_tables(
    order: Sequence[int], met: Counter[tuple[int, int]], smallest: int, largest: int
) -> list[tuple[int, ...]]:
    """Seat `order` (best standing first) into tables by standing, fewest repeat meetings where a
    different seating allows it: each table starts with the best player left and takes, one by
    one, the next best who met its players least; then swaps between tables that lower the total
    repeats are made (first found, in standing order) until none is left."""
    rank = {user: i for i, user in enumerate(order)}
    left = list(order)
    tables: list[list[int]] = []
    for size in table_sizes(len(order), smallest, largest):
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda u: (sum(met[tuple(sorted((u, v)))] for v in table), rank[u]))
            left.remove(pick)
            table.append(pick)
        tables.append(table)
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            before = repeats(tables[i], met) + repeats(tables[j], met)
            for a in list(tables[i]):
                for b in list(tables[j]):
                    ti = [b if u == a else u for u in tables[i]]
                    tj = [a if u == b else u for u in tables[j]]
                    if repeats(ti, met) + repeats(tj, met) < before:
                        tables[i], tables[j], improved = ti, tj, True
                        break
                if improved:
                    break
            if improved:
                break
    return [tuple(sorted(table, key=rank.__getitem__)) for table in tables]


def snake(order: Sequence[int], sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """Deal `order` (best seed first) to tables of `sizes` like a snake (1, 2, …, k, k, …, 2, 1),
    skipping full tables, so the strongest seeds meet as late as possible."""
    tables: list[list[int]] = [[] for _ in sizes]
    lanes = list(range(len(sizes)))
    i, forward = 0, True
    for user in order:
        while len(tables[lanes[i]]) >= sizes[lanes[i]]:
            i, forward = _step(i, forward, len(lanes))
        tables[lanes[i]].append(user)
        i, forward = _step(i, forward, len(lanes))
    return [tuple(t) for t in tables]


def _step(i: int, forward: bool, n: int) -> tuple[int, bool]:
    if forward:
        return (i + 1, True) if i + 1 < n else (i, False)
    return (i - 1, False) if i > 0 else (i, True)


def group_of(entrants: Sequence[int], rules: Rules) -> dict[int, int]:
    """Pods (numbered from 1) for `groups`: as few pods of at most `group_size` as possible, by snake."""
    pods = -(-len(entrants) // max(rules.group_size, 1))
    base, extra = divmod(len(entrants), pods)
    sizes = [base + 1] * extra + [base] * (pods - extra)
    return {user: n for n, pod in enumerate(snake(entrants, sizes), start=1) for user in pod}


# ---------------------------------------------------------------------------- the next round


def next_round(
    rules: Rules, entrants: Sequence[int], results: Sequence[TableResult], *, dropped: Iterable[int] = ()
) -> Plan | None:
    """The round after `results` (all of its tables finished), or None when the tournament is over.
    `entrants` in seed order; dropped players are not seated again."""
    out = set(dropped)
    active = [u for u in entrants if u not in out]
    played = max((r.round for r in results), default=0)
    number = played + 1
    if rules.format == SWISS:
        if played >= rules.rounds:
            return None
        order = [s.user_id for s in standings(active, results)]
        return Plan(
            number,
            STAGE_SWISS,
            tuple(PlannedTable(t) for t in swiss_tables(order, meetings(results), rules.smallest, rules.largest)),
        )
    knockout = [r for r in results if r.stage == STAGE_KNOCKOUT]
    if rules.format == GROUPS and not knockout and played < rules.rounds:
        pods = group_of(entrants, rules)
        tables: list[PlannedTable] = []
        for pod in sorted(set(pods.values())):
            mine = [r for r in results if r.group == pod]
            order = [s.user_id for s in standings([u for u in active if pods[u] == pod], mine)]
            tables.extend(
                PlannedTable(t, pod) for t in swiss_tables(order, meetings(mine), rules.smallest, rules.largest)
            )
        return Plan(number, STAGE_GROUP, tuple(tables))
    if knockout:
        last = max(r.round for r in knockout)
        final = [r for r in knockout if r.round == last]
        if len(final) == 1:
            return None
        going = [u for table in final for u in _top(table, rules.advance, out)]
    elif rules.format == GROUPS:
        pods = group_of(entrants, rules)
        going = []
        for pod in sorted(set(pods.values())):
            table = standings(
                [u for u in entrants if pods[u] == pod], [r for r in results if r.group == pod], dropped=out
            )
            going.extend([s.user_id for s in table if not s.dropped][: rules.advance])
    else:
        going = active
    if len(going) < 2:
        return None
    seeds = [s.user_id for s in standings(entrants, results) if s.user_id in set(going)] if results else going
    if len(going) <= rules.largest:
        return Plan(number, STAGE_KNOCKOUT, (PlannedTable(tuple(seeds)),))
    sizes = table_sizes(len(going), rules.smallest, rules.largest)
    return Plan(number, STAGE_KNOCKOUT, tuple(PlannedTable(t) for t in snake(seeds, sizes)))


def _top(table: TableResult, advance: int, out: set[int]) -> list[int]:
    """A knockout table's qualifiers: the best `advance` by place, then game score, then seat
    (the seat order is the seeding), dropped players skipped."""
    seated = sorted(range(len(table.players)), key=lambda i: (table.ranks[i], -table.scores[i], i))
    return [table.players[i] for i in seated if table.players[i] not in out][:advance]
