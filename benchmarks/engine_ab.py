"""Engine A/B: random self-play games per CPU second of this tree against another commit.

    python benchmarks/engine_ab.py bf9cbb6                       # USA and Europe, 4 rounds of 25 games
    python benchmarks/engine_ab.py 53e1971 --maps usa --rounds 6 --games 25
    python benchmarks/engine_ab.py bf9cbb6 --rounds 0 --instructions 10  # valgrind's count only

The other commit is checked out in a temporary detached worktree (removed at the end). Each
batch is its own subprocess (fresh listing caches, like a new bot process) playing the same
seeds on both engines, batches alternating A/B and B/A per round so load changes on a shared
machine hit both; only the games are timed (process CPU time). The random player is
`engine_bench.play_random`'s: uniform among `legal_actions(seat, collapse_payments=True)`. Each
batch also makes a digest of its games (every action and the final owners, scores and hands),
so "same games" says whether both engines played the very same games.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in the engine's tree: plays the seeds, prints CPU seconds and the games' digest.
CHILD = """
import hashlib, json, random, sys, time
from engine import Game
from engine.mapdata import load_map

def play(map_id, seats, seed):
    game = Game.new(map_id, seats, seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    return game

def main(map_id, first, count, seats, warm, digested):
    load_map(map_id)  # parsed once per process, outside the timing
    for seed in range(10**6, 10**6 + warm):  # warm-up games (other seeds), untimed
        play(map_id, seats, seed)
    start = time.process_time()
    games = [play(map_id, seats, seed) for seed in range(first, first + count)]
    elapsed = time.process_time() - start
    digest = hashlib.sha256()
    for game in games if digested else ():
        for seat, action in game.log:
            defaults = type(action)._field_defaults
            fields = [(k, v) for k, v in action._asdict().items() if k not in defaults or defaults[k] != v]
            digest.update(repr((seat, type(action).__name__, fields)).encode())
        digest.update(repr((game.owner, game.score, game.hands, [p.total for p in game.final])).encode())
    plies = sum(len(g.log) for g in games)
    print(json.dumps({"cpu": elapsed, "plies": plies, "digest": digest.hexdigest()}))

main(sys.argv[1], *map(int, sys.argv[2:]))
"""

SEATS = {"switzerland": 3, "nordic": 3}


def batch(tree: Path, map_id: str, first: int, count: int, warm: int = 0, valgrind: bool = False) -> dict:
    """One subprocess playing `count` games from seed `first` on the engine in `tree` (after `warm`
    untimed games); under valgrind, also the instructions the whole process ran ("instructions"),
    then without the games' digest."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    seats = SEATS.get(map_id, 4)
    command = [
        sys.executable,
        "-c",
        CHILD,
        map_id,
        str(first),
        str(count),
        str(seats),
        str(warm),
        str(int(not valgrind)),
    ]
    if valgrind:
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command]
    done = subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout)
    if valgrind:
        refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        result["instructions"] = int(refs.group(1).replace(",", ""))
    return result


def instructions_per_game(tree: Path, map_id: str, games: int) -> float:
    """Instructions per game counted by valgrind: games after 3 warm-up games, minus a run of the
    warm-up alone (so start-up and imports cancel out); independent of the machine's load."""
    with_games = batch(tree, map_id, 0, games, warm=3, valgrind=True)["instructions"]
    without = batch(tree, map_id, 0, 0, warm=3, valgrind=True)["instructions"]
    return (with_games - without) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the other commit (any git revision)")
    parser.add_argument("--maps", nargs="+", default=["usa", "europe"])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=25, help="games per batch")
    parser.add_argument(
        "--instructions", type=int, metavar="N", help="also count instructions per game over N games (valgrind)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), args.rev], check=True)
        try:
            trees = {"this": ROOT, args.rev: other}
            for map_id in args.maps:
                cpu = dict.fromkeys(trees, 0.0)
                ratios = []
                same = True
                for r in range(args.rounds):
                    order = list(trees) if r % 2 == 0 else list(trees)[::-1]
                    results = {name: batch(trees[name], map_id, r * args.games, args.games) for name in order}
                    same &= len({res["digest"] for res in results.values()}) == 1
                    for name, res in results.items():
                        cpu[name] += res["cpu"]
                    ratios.append(results[args.rev]["cpu"] / results["this"]["cpu"])
                    print(
                        f"{map_id} round {r + 1}: "
                        + "  ".join(f"{n} {args.games / res['cpu']:.1f}" for n, res in results.items()),
                        flush=True,
                    )
                if args.rounds:
                    games = args.rounds * args.games
                    rates = {name: games / seconds for name, seconds in cpu.items()}
                    print(
                        f"{map_id}: {games} games each, games per CPU second: "
                        + ", ".join(f"{n} {v:.1f}" for n, v in rates.items())
                        + f"; this/{args.rev} = {rates['this'] / rates[args.rev]:.2f}x"
                        + f" (median of the rounds' ratios {statistics.median(ratios):.2f}x)"
                        + f"; same games: {'yes' if same else 'NO'}",
                        flush=True,
                    )
                if args.instructions:
                    counts = {
                        name: instructions_per_game(tree, map_id, args.instructions) for name, tree in trees.items()
                    }
                    print(
                        f"{map_id}: instructions per game (valgrind, {args.instructions} games): "
                        + ", ".join(f"{n} {v / 1e6:.1f} M" for n, v in counts.items())
                        + f"; {args.rev}/this = {counts[args.rev] / counts['this']:.2f}x",
                        flush=True,
                    )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=True)


if __name__ == "__main__":
    main()
