"""AI benchmark: the figures in docs/ai.md and docs/performance.md.

    python benchmarks/ai_bench.py                 # gentle and strong against the baseline, 200 games each
    python benchmarks/ai_bench.py --levels gentle,strong --versus baseline --maps usa,marklin --seats 2,3 --games 50
    python benchmarks/ai_bench.py --against 9a7a01b --games 100 --maps usa,europe --jobs 2
    python benchmarks/ai_bench.py --pairs strong:baseline --games 50   # python -m ai.tournament's table
    python benchmarks/ai_bench.py --levels 'strong(ROLLOUTS=0,SPARE=8)' --versus 'strong(ROLLOUTS=0)' --mirror

The win-rate table: each level in `--levels` takes one seat against `--versus` in the others (its
seat rotating, game i with seed `--seed` + i, as `python -m ai.tournament` plays a pairing), on
every map and seat count; a win is first place alone, with its 95% Wilson interval, the fair
share (1 / seats) and the mean margin over the best other seat. `--mirror` plays every seed with
the level in each seat; a level may carry parameters (`strong(ROLLOUTS=0)`). Then each AI's
thinking time per decision (median, p95, max, wall-clock inside the worker, so contention on the
machine shows), over every game it played.

`--against COMMIT` plays today's strong AI on today's engine against the strong AI and engine
of an earlier commit (extracted by `git archive` into a temporary directory and imported as
`engine_old` / `ai_old`), both with their own thinking budget: what the engine's speed bought
the strong AI. Each game runs on both engines in lockstep (every move applied to both, the two
final scores must agree); seat 1 and 2 alternate, game i uses seed i.
"""

from __future__ import annotations

import argparse
import importlib
import io
import math
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import legal_for, make_ai  # noqa: E402
from ai.base import GameInfo  # noqa: E402
from ai.tournament import Pairing, run, split_specs, wilson  # noqa: E402
from ai.tournament import main as tournament  # noqa: E402
from engine import Game, GameOptions, available_maps  # noqa: E402
from engine import actions as new_actions  # noqa: E402

_IMPORT = re.compile(r"\b(from|import) (engine|ai)\b|([\"'])(engine|ai)\.")


def load_commit(commit: str, into: Path) -> tuple:
    """The `engine` and `ai` packages of `commit`, imported as `engine_old` and `ai_old`."""
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "engine", "ai"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    for package in ("engine", "ai"):
        (into / package).rename(into / f"{package}_old")
    for path in into.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(
            _IMPORT.sub(lambda m: f"{m[1]} {m[2]}_old" if m[1] else f"{m[3]}{m[4]}_old.", text), encoding="utf-8"
        )
    sys.path.insert(0, str(into))
    return importlib.import_module("engine_old"), importlib.import_module("ai_old")


def play_against(task: tuple[str, int]) -> dict:
    """One two-player game, today's strong AI in seat `seed % 2` (0-based), the old one in the other."""
    map_id, seed = task
    old_engine, old_ai = sys.modules["engine_old"], sys.modules["ai_old"]
    new_seat = seed % 2
    games = [Game.new(map_id, 2, seed, GameOptions()), old_engine.Game.new(map_id, 2, seed, old_engine.GameOptions())]
    side = [0 if seat == new_seat else 1 for seat in range(2)]  # which engine a seat's player reads
    players = [
        make_ai("strong", f"{seed}:{s}") if side[s] == 0 else old_ai.make_ai("strong", f"{seed}:{s}") for s in range(2)
    ]
    infos = [(GameInfo, old_ai.GameInfo)[side[s]].from_game(games[side[s]], s) for s in range(2)]
    modules = (new_actions, old_engine.actions)
    times: list[list[float]] = [[], []]
    while not games[0].is_over():
        for seat in games[0].to_move():
            k = side[seat]
            game = games[k]
            legal = (legal_for, old_ai.legal_for)[k](game, seat)
            view = game.view(seat)
            start = time.perf_counter()
            action = players[seat].choose(view, legal, infos[seat])
            times[k].append(time.perf_counter() - start)
            for module, g in zip(modules, games):
                g.apply(seat, getattr(module, type(action).__name__)(*action))
            if games[0].is_over() or games[0].phase == "playing":
                break
    new, old = games[0].final, games[1].final
    if [s.total for s in new] != [s.total for s in old]:
        raise AssertionError(f"{map_id} seed {seed}: the two engines scored the game differently")
    mine, theirs = new[new_seat], new[1 - new_seat]
    return {
        "win": mine.rank == 1 and theirs.rank > 1,
        "tie": mine.rank == theirs.rank,
        "margin": mine.total - theirs.total,
        "new_ms": times[0],
        "old_ms": times[1],
    }


def against(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="today's strong AI against an earlier commit's")
    parser.add_argument("--against", required=True, help="the earlier commit (e.g. 9a7a01b)")
    parser.add_argument("--games", type=int, default=100, help="games per map")
    parser.add_argument("--maps", default="usa,europe")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        load_commit(args.against, Path(tmp))
        print(
            f"strong (this tree) against strong at {args.against}, 2 players, {args.games} games per map, "
            f"jobs {args.jobs}",
            flush=True,
        )
        with ProcessPoolExecutor(args.jobs) as pool:  # workers fork with the old packages loaded
            for map_id in [m for m in args.maps.split(",") if m]:
                start = time.perf_counter()
                rows = list(pool.map(play_against, [(map_id, seed) for seed in range(args.games)]))
                wins = sum(r["win"] for r in rows) + 0.5 * sum(r["tie"] for r in rows)
                low, high = wilson(wins, len(rows))
                new_ms = [t * 1000 for r in rows for t in r["new_ms"]]
                old_ms = [t * 1000 for r in rows for t in r["old_ms"]]
                print(
                    f"{map_id:8s} won {wins:g}/{len(rows)} = {wins / len(rows):.1%} (95% CI {low:.1%}-{high:.1%}), "
                    f"ties {sum(r['tie'] for r in rows)}, mean margin {statistics.mean(r['margin'] for r in rows):+.1f}; "
                    f"ms/decision new {statistics.mean(new_ms):.1f} (max {max(new_ms):.0f}), "
                    f"old {statistics.mean(old_ms):.1f} (max {max(old_ms):.0f}); {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    return 0


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values` (sorted here)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def win_table(results: list[Pairing]) -> str:
    lines = [
        "| level | versus | map | seats | games | wins (95% CI) | ties | fair share | avg score level / versus "
        "| margin ± 1.96 SE |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in results:
        low, high = wilson(p.wins, p.games)
        a, b = p.sides[p.a], p.sides.get(p.b, p.sides[p.a])
        margin, se = p.mean_margin
        lines.append(
            f"| {p.a} | {p.b} | {p.map} | {p.seats} | {p.games} | {p.rate:.1%} ({low:.1%}–{high:.1%}) | {p.ties} "
            f"| {1 / p.seats:.0%} | {a.score / max(1, a.games):.1f} / {b.score / max(1, b.games):.1f} "
            f"| {margin:+.1f} ± {1.96 * se:.1f} |"
        )
    return "\n".join(lines)


def time_table(results: list[Pairing]) -> str:
    times: dict[str, list[float]] = {}
    for p in results:
        for side in p.sides.values():
            times.setdefault(side.name, []).extend(side.times)
    lines = ["| AI | decisions | median ms | p95 ms | max ms |", "|---|---|---|---|---|"]
    for name, values in times.items():
        if values:
            ms = [1000 * v for v in values]
            lines.append(
                f"| {name} | {len(ms)} | {statistics.median(ms):.2f} | {percentile(ms, 0.95):.2f} | {max(ms):.0f} |"
            )
    return "\n".join(lines)


def levels(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="win rates of AI levels, and their thinking time per decision")
    parser.add_argument("--levels", default="gentle,strong", help="the AIs measured (default gentle,strong)")
    parser.add_argument("--versus", default="baseline", help="the AI in the other seats (default baseline)")
    parser.add_argument("--maps", default=",".join(available_maps()), help="comma-separated map ids (default: all)")
    parser.add_argument("--seats", default="2", help="comma-separated player counts (default 2)")
    parser.add_argument("--games", type=int, default=200, help="games per level, map and seat count (default 200)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (game i uses seed + i)")
    parser.add_argument("--mirror", action="store_true", help="play every seed with the level in each seat")
    args = parser.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    seats = [int(s) for s in args.seats.split(",") if s]
    pairs = [f"{level}:{args.versus}" for level in split_specs(args.levels)]
    start = time.perf_counter()
    print(
        f"{args.games} games per level, map and seat count; levels {args.levels} against {args.versus}; "
        f"maps {', '.join(maps)}; seats {args.seats}; jobs {args.jobs}; seeds from {args.seed}"
        + ("; every seed in each seat" if args.mirror else ""),
        flush=True,
    )
    results = run(maps, seats, pairs, args.games, args.jobs, args.seed, mirror=args.mirror)
    print(win_table(results))
    print()
    print(time_table(results))
    print(f"\n{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    argv = sys.argv[1:]
    if any(a.startswith("--against") for a in argv):
        sys.exit(against(argv))
    # --pairs: the tournament's own table of pairings (`python -m ai.tournament`, as the older figures were run)
    sys.exit(tournament(argv) if any(a.startswith("--pairs") for a in argv) else levels(argv))
