"""Engine speed: random self-play, legal_actions() latency, end-of-game scoring.

    python benchmarks/engine_bench.py            # full run (every map, a few minutes)
    python benchmarks/engine_bench.py --quick    # a smoke run
    python benchmarks/engine_bench.py usa europe # some maps only

The random player picks uniformly among `legal_actions(seat, collapse_payments=True)`: one
payment per (track, color), as a typical engine lists its moves. Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import Game
from engine.scoring import final_scores, longest_trail

MAPS = ("usa", "europe", "nederland", "switzerland", "nordic")
#: Players per game: 4, or the map's maximum (Switzerland and Nordic Countries take 2-3).
SEATS = {"switzerland": 3, "nordic": 3}


def play_random(map_id: str, seats: int, seed: int) -> Game:
    game = Game.new(map_id, seats, seed)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
    return game


def self_play(map_id: str, games: int) -> dict:
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        plies += len(play_random(map_id, SEATS.get(map_id, 4), seed).log)
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "plies_per_game": plies / games, "actions_per_s": plies / elapsed}


def sampled_states(map_id: str, count: int) -> list[tuple[Game, int]]:
    """States met in seeded random games (every 7th ply), restored from JSON."""
    states = []
    seed = 1000
    while len(states) < count:
        game = Game.new(map_id, SEATS.get(map_id, 4), seed)
        rng = random.Random(seed)
        while not game.is_over() and len(states) < count:
            seat = game.to_move()[0]
            if len(game.log) % 7 == 3:
                states.append((Game.from_json(game.to_json()), seat))
            game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
        seed += 1
    return states


def median_us(fn, repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def legal_actions_latency(map_id: str, count: int) -> dict:
    """Median legal_actions() time over all sampled states, and over turn starts only (the
    costliest decision: every claim, draw, ticket and station move)."""
    states = sampled_states(map_id, count)
    starts = [(g, s) for g, s in states if g.phase == "playing" and g.stage is None]
    collapsed = [median_us(lambda g=g, s=s: g.legal_actions(s, collapse_payments=True)) for g, s in states]
    full = [median_us(lambda g=g, s=s: g.legal_actions(s)) for g, s in states]
    start_times = [median_us(lambda g=g, s=s: g.legal_actions(s, collapse_payments=True)) for g, s in starts]
    return {
        "legal_collapsed_median_us": statistics.median(collapsed),
        "legal_full_median_us": statistics.median(full),
        "legal_turn_start_median_us": statistics.median(start_times),
    }


def scoring_latency(map_id: str, games: int) -> dict:
    finished = [play_random(map_id, SEATS.get(map_id, 4), 500 + seed) for seed in range(games)]
    trail = []
    scoring = []
    for game in finished:
        for seat in range(game.seats):
            owned = [t for t in game.map.tracks if game.owner[t.index] == seat]
            trail.append(median_us(lambda owned=owned: longest_trail(owned), repeat=5))
        scoring.append(median_us(lambda game=game: final_scores(game), repeat=5))
    return {"longest_trail_median_us": statistics.median(trail), "final_scoring_median_us": statistics.median(scoring)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and states")
    parser.add_argument("maps", nargs="*", default=MAPS, help="map ids (default: all)")
    args = parser.parse_args()
    games, states, finished = (20, 100, 5) if args.quick else (300, 1000, 30)
    for map_id in args.maps:
        figures = {**self_play(map_id, games), **legal_actions_latency(map_id, states), **scoring_latency(map_id, finished)}
        print(f"{map_id:9s} " + "  ".join(f"{k}={v:,.1f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
