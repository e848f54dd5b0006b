"""The matchmaking queue's matching, as one pure function: who waits, the leagues' rules, and out
come the tables to make. No I/O and no clock (waiting times are given), so it is deterministic and
tested with hypothesis (tests/storage/test_queue.py); storage/queue.py reads and writes the rows,
bot/cogs/queue.py makes the tables.

The rule, in order:
- Entries are taken longest-waiting first (ties: the lower entry id). Each one not yet seated is
  an *anchor*: the bot tries to make a table around it, largest allowed size first, on its map (or
  each allowed map, starting at one picked from its entry id, when it named none); a map takes
  tables up to its own largest (Nordic Countries: 3).
- A table's ratings may differ by at most the anchor's allowed spread: `spread + widen · minutes
  waited`. The anchor waits longest of anyone still unseated who could join it, so a table's span
  never exceeds the allowed spread of its longest-waiting player.
- Among the players who fit (same league, map and size wishes compatible, not seated yet), every
  window of ratings as wide as the spread that holds the anchor is looked at; a window with enough
  players gives its longest-waiting ones, and the best such choice (longest waits first) wins. So
  if any table around the anchor exists, one is made: nobody is left waiting who could form a table
  with the others left waiting.
- A player in several queues is seated once: their other entries are skipped from then on.
- Seats are in waiting order (the longest-waiting player plays first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Waiting:
    """One queue entry: a player waiting in a league for a table (of a map and size, or any)."""

    entry_id: int
    user_id: int
    league_id: int
    rating: float  # openskill ordinal, mu − 3·sigma (a new player: 0)
    waited: float  # seconds since joining
    map_id: str | None = None  # None: any allowed map
    size: int | None = None  # None: any allowed size


@dataclass(frozen=True)
class Rules:
    """A league's queue rules, already narrowed to what its open season rates."""

    sizes: tuple[int, ...]  # allowed table sizes (2–5)
    maps: tuple[str, ...]  # allowed maps (at least one)
    spread: float  # rating points a table may span at once
    widen: float  # points the spread grows per minute waited
    most: Mapping[str, int] = field(default_factory=dict)  # a map's largest table (e.g. 3), if below 5

    def takes(self, map_id: str, size: int) -> bool:
        """Whether tables of `size` are allowed and fit on the map."""
        return size in self.sizes and map_id in self.maps and size <= self.most.get(map_id, 5)

    def allowed_spread(self, waited: float) -> float:
        return self.spread + self.widen * max(0.0, waited) / 60.0


@dataclass(frozen=True)
class Match:
    """A table to make: its league, map, and the entries seated (in seat order)."""

    league_id: int
    map_id: str
    entries: tuple[Waiting, ...]

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(e.user_id for e in self.entries)


def _priority(entry: Waiting) -> tuple[float, int]:
    return (-entry.waited, entry.entry_id)


def _fits(entry: Waiting, league_id: int, map_id: str, size: int) -> bool:
    return entry.league_id == league_id and entry.map_id in (None, map_id) and entry.size in (None, size)


def _options(anchor: Waiting, rules: Rules) -> list[tuple[int, str]]:
    """(size, map) tables the anchor would sit at, in the order they are tried."""
    sizes = [s for s in sorted(set(rules.sizes), reverse=True) if anchor.size in (None, s)]
    if anchor.map_id is not None:
        maps = [anchor.map_id] if anchor.map_id in rules.maps else []
    else:
        start = anchor.entry_id % len(rules.maps) if rules.maps else 0
        maps = list(rules.maps[start:]) + list(rules.maps[:start])
    return [(size, map_id) for size in sizes for map_id in maps if rules.takes(map_id, size)]


def _best_table(anchor: Waiting, others: Sequence[Waiting], size: int, spread: float) -> tuple[Waiting, ...] | None:
    """The anchor and `size - 1` of `others` (one entry per player, longest-waiting first) whose
    ratings span at most `spread`, preferring the longest waits; None when no such table exists."""
    best: tuple[Waiting, ...] | None = None
    lows = sorted(
        {e.rating for e in (anchor, *others) if e.rating <= anchor.rating and anchor.rating - e.rating <= spread}
    )
    for low in lows:
        inside = [e for e in others if e.rating >= low and e.rating - low <= spread]
        if len(inside) < size - 1:
            continue
        chosen = tuple(inside[: size - 1])
        if best is None or [_priority(e) for e in chosen] < [_priority(e) for e in best]:
            best = chosen
    return None if best is None else (anchor, *best)


def match(waiting: Sequence[Waiting], rules: Mapping[int, Rules]) -> list[Match]:
    """The tables to make now from everyone `waiting`, by each league's `rules` (a league without
    rules makes none). The same entries in any order give the same tables."""
    order = sorted(waiting, key=_priority)
    seated: set[int] = set()
    tables: list[Match] = []
    for anchor in order:
        league = rules.get(anchor.league_id)
        if anchor.user_id in seated or league is None:
            continue
        spread = league.allowed_spread(anchor.waited)
        for size, map_id in _options(anchor, league):
            others: list[Waiting] = []
            seen = {anchor.user_id}
            for entry in order:
                if (
                    entry.user_id not in seen
                    and entry.user_id not in seated
                    and _fits(entry, anchor.league_id, map_id, size)
                ):
                    seen.add(entry.user_id)
                    others.append(entry)
            table = _best_table(anchor, others, size, spread)
            if table is not None:
                ordered = tuple(sorted(table, key=_priority))
                tables.append(Match(anchor.league_id, map_id, ordered))
                seated.update(e.user_id for e in ordered)
                break
    return tables
