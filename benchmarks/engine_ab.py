"""Engine A/B: random self-play games per CPU second of this tree against another commit.

    python benchmarks/engine_ab.py bf9cbb6                       # USA and Europe, 4 rounds of 25 games
    python benchmarks/engine_ab.py 53e1971 --maps usa --rounds 6 --games 25

The other commit is checked out in a temporary detached worktree (removed at the end). Each
batch is its own subprocess (fresh listing caches, like a new bot process) playing the same
seeds on both engines, batches alternating A/B and B/A per round so load changes on a shared
machine hit both; only the games are timed (process CPU time). The random player is
`engine_bench.play_random`'s: uniform among `legal_actions(seat, collapse_payments=True)`. Each
batch also prints a digest of its games (every action and the final owners, scores and hands),
so "same games" says whether both engines played the very same games.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in the engine's tree: plays the seeds, prints CPU seconds and the games' digest.
CHILD = """
import hashlib, json, random, sys, time
from engine import Game
map_id, first, count, seats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
games = []
start = time.process_time()
for seed in range(first, first + count):
    game = Game.new(map_id, seats, seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    games.append(game)
elapsed = time.process_time() - start
digest = hashlib.sha256()
for game in games:
    for seat, action in game.log:
        defaults = type(action)._field_defaults
        fields = [(k, v) for k, v in action._asdict().items() if k not in defaults or defaults[k] != v]
        digest.update(repr((seat, type(action).__name__, fields)).encode())
    digest.update(repr((game.owner, game.score, game.hands, [p.total for p in game.final])).encode())
print(json.dumps({"cpu": elapsed, "plies": sum(len(g.log) for g in games), "digest": digest.hexdigest()}))
"""

SEATS = {"switzerland": 3, "nordic": 3}


def batch(tree: Path, map_id: str, first: int, count: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, map_id, str(first), str(count), str(SEATS.get(map_id, 4))],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the other commit (any git revision)")
    parser.add_argument("--maps", nargs="+", default=["usa", "europe"])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=25, help="games per batch")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), args.rev], check=True)
        try:
            trees = {"this": ROOT, args.rev: other}
            for map_id in args.maps:
                cpu = dict.fromkeys(trees, 0.0)
                same = True
                for r in range(args.rounds):
                    order = list(trees) if r % 2 == 0 else list(trees)[::-1]
                    results = {name: batch(trees[name], map_id, r * args.games, args.games) for name in order}
                    same &= len({res["digest"] for res in results.values()}) == 1
                    for name, res in results.items():
                        cpu[name] += res["cpu"]
                    print(
                        f"{map_id} round {r + 1}: "
                        + "  ".join(f"{n} {args.games / res['cpu']:.1f}" for n, res in results.items()),
                        flush=True,
                    )
                games = args.rounds * args.games
                rates = {name: games / seconds for name, seconds in cpu.items()}
                print(
                    f"{map_id}: {games} games each, games per CPU second: "
                    + ", ".join(f"{n} {v:.1f}" for n, v in rates.items())
                    + f"; this/{args.rev} = {rates['this'] / rates[args.rev]:.2f}x; same games: {'yes' if same else 'NO'}",
                    flush=True,
                )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=True)


if __name__ == "__main__":
    main()
