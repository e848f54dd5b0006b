"""Replay benchmark: the replay figures in docs/web.md.

    python benchmarks/replay_bench.py              # Europe 2 and 5 players, USA 4, English and Russian

Plays a game to its end with random legal moves (claims first), then builds its replay as the
replay page's steps.json does (bot/web/replay.py `replay_json`: the engine replays the log from the
seed, every step's public view and words) and the last moves the live table rebuilds after a
restart (`last_lines`): the time of each (best of 3) and the bytes one viewer receives, as encoded
and gzipped (the server compresses it, level 6).
"""

from __future__ import annotations

import json
import random
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.web.replay import last_lines, replay_json  # noqa: E402
from engine import Claim, DrawDeck, DrawMarket, Game  # noqa: E402
from i18n import translator  # noqa: E402


def finished(map_id: str, seats: int) -> Game:
    rng = random.Random(3)
    game = Game.new(map_id, seats, 7)
    while not game.is_over():
        seat = game.to_move()[0]
        offered = game.legal_actions(seat, collapse_payments=True)
        claims = [a for a in offered if isinstance(a, Claim)]
        draws = [a for a in offered if isinstance(a, (DrawDeck, DrawMarket))]
        if claims and rng.random() < 0.6:
            game.apply(seat, rng.choice(claims))
        elif draws and rng.random() < 0.9:
            game.apply(seat, rng.choice(draws))
        else:
            game.apply(seat, rng.choice(offered))
    return game


def best(fn) -> tuple[float, object]:
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        out = fn()
        runs.append(time.perf_counter() - start)
    return min(runs) * 1000, out


def main() -> None:
    print("map      seats lang moves  build ms  KiB   gzipped KiB  last moves ms")
    for map_id, seats in (("europe", 2), ("europe", 5), ("usa", 4)):
        game = finished(map_id, seats)
        for language in ("en", "ru"):
            t = translator(language)
            names = lambda s: f"Player {s + 1}"  # noqa: E731
            ms, data = best(lambda: replay_json(t, game, game.log, names))  # noqa: B023
            raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            last, _ = best(lambda: last_lines(t, game, list(game.log), names, 12))  # noqa: B023
            print(
                f"{map_id:8} {seats:5} {language:4} {len(game.log):5} {ms:9.1f} {len(raw) / 1024:6.1f}"
                f" {len(zlib.compress(raw, 6)) / 1024:12.1f} {last:14.1f}"
            )


if __name__ == "__main__":
    main()
