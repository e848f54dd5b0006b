"""AI tournaments: N games per map, player count and pairing; win rates with 95% (Wilson)
intervals, scores, tickets, game length and time per decision.

    python -m ai.tournament                                  # 200 two-player games per map and pairing
    python -m ai.tournament --games 50 --maps usa --seats 2,3 --pairs strong:baseline --jobs 2

A pairing "A:B" puts one A against seats-1 B players; A's seat rotates from game to game
(game i: A in seat i mod seats), both see the same seeds; with --mirror every seed is played once
with A in each seat (game i: seed i div seats), so two players that decide alike tie exactly. A
player may carry parameters for experiments: "strong(ROLLOUTS=0,SPARE=8)". A win is A ranked
first alone; a shared first place is a tie. Goals (two-player games, each map): baseline beats
random in >= 95% of games, strong beats baseline in >= 65%; strong averages <= 50 ms per decision
and never takes > 1 s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from ai import make_ai
from ai.match import play_game
from engine import Game, GameOptions, available_maps

DEFAULT_PAIRS = ("baseline:random", "strong:random", "strong:baseline")
GOALS = {  # pairing -> minimum win rate in two-player games
    "baseline:random": 0.95,
    "strong:baseline": 0.65,
}
GOAL_MEAN_MS = 50.0
GOAL_MAX_MS = 1000.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Side:
    """Totals for one AI of a pairing over the games played."""

    name: str
    games: int = 0  # seat-games (an AI filling 3 seats in a game counts 3)
    score: float = 0.0
    completed: float = 0.0
    failed: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    times: list = field(default_factory=list, repr=False)  # every decision's seconds (percentiles)

    def add(self, total: int, completed: int, held: int, times: Sequence[float]) -> None:
        self.games += 1
        self.score += total
        self.completed += completed
        self.failed += held - completed
        self.decisions += len(times)
        self.seconds += sum(times)
        self.max_seconds = max(self.max_seconds, max(times, default=0.0))
        self.times.extend(times)

    @property
    def mean_ms(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@dataclass
class Pairing:
    map: str
    seats: int
    a: str
    b: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    rounds: float = 0.0
    plies: float = 0.0
    seconds: float = 0.0
    margin: float = 0.0  # A's points ahead of the best other seat, summed over the games
    margin_sq: float = 0.0  # ... and their squares (for the standard error)
    sides: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.a}:{self.b}"

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> tuple[float, float]:
        """A's mean points ahead of the best other seat, and that mean's standard error."""
        n = self.games
        if n < 2:
            return (self.margin / n if n else 0.0), 0.0
        mean = self.margin / n
        variance = max(0.0, (self.margin_sq - n * mean * mean) / (n - 1))
        return mean, math.sqrt(variance / n)


def _options(map_id: str) -> GameOptions:
    return GameOptions()


_SPEC = re.compile(r"([a-z_]+)(?:\((.*)\))?")


def split_specs(text: str) -> list[str]:
    """Comma-separated items, where a comma inside parentheses does not split."""
    return [item for item in re.split(r",(?![^()]*\))", text) if item]


def parse_level(spec: str) -> tuple[str, dict[str, int | float | str | None]]:
    """ "strong(ROLLOUTS=0,CONFIDENCE=2.5)" -> ("strong", {"ROLLOUTS": 0, "CONFIDENCE": 2.5})."""
    found = _SPEC.fullmatch(spec.strip())
    if found is None:
        raise ValueError(f"not a player: {spec!r} (a name, optionally with (KEY=VALUE,...))")
    name, inner = found.groups()
    params: dict[str, int | float | str | None] = {}
    for item in split_specs(inner or ""):
        key, sep, raw = item.partition("=")
        if not sep or not key.strip().isupper():
            raise ValueError(f"not a parameter: {item!r} in {spec!r} (KEY=VALUE, the key in capitals)")
        params[key.strip()] = _value(raw.strip())
    return name, params


def _value(raw: str) -> int | float | str | None:
    if raw == "None":
        return None
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def make_player(spec: str, seed: str):
    """The player a spec names, with its parameters (TypeError for one it does not have)."""
    name, params = parse_level(spec)
    return make_ai(name, seed, **params)


def run_one(task: tuple) -> dict:
    """One game (a process-pool task): returns a small summary."""
    map_id, seats, a, b, index, base_seed, mirror = task
    seed = base_seed + (index // seats if mirror else index)
    a_seat = index % seats
    names = [a if s == a_seat else b for s in range(seats)]
    lineup = [make_player(n, f"{seed}:{s}") for s, n in enumerate(names)]
    start = time.perf_counter()
    _game, r = play_game(map_id, lineup, seed=seed, options=_options(map_id))
    return {
        "names": names,
        "a_seat": a_seat,
        "totals": r.totals,
        "ranks": r.ranks,
        "completed": r.completed,
        "tickets": r.tickets,
        "rounds": r.rounds,
        "plies": r.plies,
        "times": r.times,
        "seconds": time.perf_counter() - start,
    }


def max_seats(map_id: str) -> int:
    for seats in (5, 4, 3):
        try:
            Game.new(map_id, seats, 0)
            return seats
        except ValueError:
            continue
    return 2


def run(
    maps: Sequence[str],
    seat_counts: Sequence[int],
    pairs: Sequence[str],
    games: int,
    jobs: int = 1,
    base_seed: int = 0,
    progress=None,
    mirror: bool = False,
) -> list[Pairing]:
    tasks, results = [], []
    for map_id in maps:
        top = max_seats(map_id)
        for seats in seat_counts:
            if seats > top:
                continue
            for pair in pairs:
                a, b = pair.split(":")
                results.append(Pairing(map_id, seats, a, b, sides={a: Side(a), b: Side(b)} if a != b else {a: Side(a)}))
                tasks.extend((map_id, seats, a, b, i, base_seed, mirror) for i in range(games))
    by_key = {(p.map, p.seats, p.a, p.b): p for p in results}

    def absorb(task, out):
        map_id, seats, a, b = task[:4]
        p = by_key[(map_id, seats, a, b)]
        p.games += 1
        s = out["a_seat"]
        ahead = out["totals"][s] - max(t for seat, t in enumerate(out["totals"]) if seat != s)
        p.margin += ahead
        p.margin_sq += ahead * ahead
        best = min(out["ranks"])
        if out["ranks"][s] == best:
            if out["ranks"].count(best) == 1:
                p.wins += 1
            else:
                p.ties += 1
        p.rounds += out["rounds"]
        p.plies += out["plies"]
        p.seconds += out["seconds"]
        for seat, name in enumerate(out["names"]):
            side = p.sides[name]
            side.add(out["totals"][seat], out["completed"][seat], out["tickets"][seat], out["times"][seat])
        if progress:
            progress(p)

    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for task, out in zip(tasks, pool.map(run_one, tasks, chunksize=4)):
                absorb(task, out)
    else:
        for task in tasks:
            absorb(task, run_one(task))
    return results


def report(results: Iterable[Pairing]) -> str:
    lines = [
        (
            "| map | seats | pairing | games | A wins (95% CI) | ties | avg score A / B | tickets done A / B "
            "| failed A / B | rounds | plies | ms/decision A mean (max) | B mean (max) |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in results:
        lo, hi = wilson(p.wins, p.games)
        A = p.sides[p.a]
        B = p.sides[p.b]
        lines.append(
            f"| {p.map} | {p.seats} | {p.a} vs {p.b} | {p.games} | {100 * p.rate:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}) "
            f"| {p.ties} | {A.score / max(1, A.games):.1f} / {B.score / max(1, B.games):.1f} "
            f"| {A.completed / max(1, A.games):.2f} / {B.completed / max(1, B.games):.2f} "
            f"| {A.failed / max(1, A.games):.2f} / {B.failed / max(1, B.games):.2f} "
            f"| {p.rounds / max(1, p.games):.1f} | {p.plies / max(1, p.games):.0f} "
            f"| {A.mean_ms:.2f} ({1000 * A.max_seconds:.0f}) | {B.mean_ms:.2f} ({1000 * B.max_seconds:.0f}) |"
        )
    return "\n".join(lines)


def check_goals(results: Iterable[Pairing]) -> list[str]:
    """Lines 'PASS'/'FAIL' for each goal that these results measure."""
    out = []
    times: dict[str, list[Side]] = {}
    for p in results:
        for side in p.sides.values():
            times.setdefault(side.name, []).append(side)
        goal = GOALS.get(p.key)
        if goal is not None and p.seats == 2:
            ok = p.rate >= goal
            out.append(
                f"{'PASS' if ok else 'FAIL'} {p.map}: {p.a} beats {p.b} in {100 * p.rate:.1f}% of {p.games} (goal >= {100 * goal:.0f}%)"
            )
    if "strong" in times:
        sides = times["strong"]
        decisions = sum(s.decisions for s in sides)
        mean = 1000 * sum(s.seconds for s in sides) / max(1, decisions)
        worst = 1000 * max(s.max_seconds for s in sides)
        out.append(
            f"{'PASS' if mean <= GOAL_MEAN_MS else 'FAIL'} strong: {mean:.2f} ms per decision on average (goal <= {GOAL_MEAN_MS:.0f} ms)"
        )
        out.append(
            f"{'PASS' if worst <= GOAL_MAX_MS else 'FAIL'} strong: slowest decision {worst:.0f} ms (goal <= {GOAL_MAX_MS:.0f} ms)"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.tournament", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per map, player count and pairing (default 200)")
    ap.add_argument("--maps", default=",".join(available_maps()), help="comma-separated map ids (default: all)")
    ap.add_argument("--seats", default="2", help="comma-separated player counts (default 2)")
    ap.add_argument(
        "--pairs",
        default=",".join(DEFAULT_PAIRS),
        help=f"comma-separated A:B pairings (default {','.join(DEFAULT_PAIRS)})",
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; timings are cleanest with 1)")
    ap.add_argument("--seed", type=int, default=0, help="first game seed (game i uses seed + i)")
    ap.add_argument(
        "--mirror", action="store_true", help="play every seed with A in each seat (game i: seed i div seats)"
    )
    ap.add_argument("--json", default=None, help="also write the results as JSON to this file")
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    seat_counts = [int(s) for s in args.seats.split(",") if s]
    pairs = split_specs(args.pairs)
    started = time.perf_counter()
    print(
        f"{args.games} games per map, player count and pairing; maps {', '.join(maps)}; seats {args.seats}; "
        f"jobs {args.jobs}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs",
        flush=True,
    )
    results = run(maps, seat_counts, pairs, args.games, args.jobs, args.seed, mirror=args.mirror)
    print(report(results))
    print()
    for line in check_goals(results):
        print(line)
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{**asdict(p), "rate": p.rate, "ci95": wilson(p.wins, p.games)} for p in results], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
