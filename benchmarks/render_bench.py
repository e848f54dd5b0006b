"""Board rendering benchmark: a late-game public board on each map (5 players, 3 on Switzerland and Nordic).

    python benchmarks/render_bench.py [--repeat 15]

For each map: median cold time (empty caches: layout, static layer, palette, sprites, then render
and encode), median warm time (render + encode with caches filled), the bare PNG encode of the
same picture in full color (what every board cost before the palette: PNG, compress level 6) and
the bare encode of the 256-color image that is posted, the warm/bare ratios and the PNG bytes.
Goals (issues 4, 17): warm <= 3x a bare encode, warm <= 250 ms, a late-game board <= 200 KB.
Figures go in docs/rendering.md.
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from engine.mapdata import load_map  # noqa: E402
from rendering import default_players, render_board  # noqa: E402
from rendering.draw import PNG_OPTIONS, encode  # noqa: E402


def late_view(map_id: str) -> tuple[dict, str]:
    """A late-game spectator view (5 players, or the map's maximum): an engine game where the
    engine runs the map, else a synthetic one from the map data."""
    from rendering.sample import played_game, synthetic_view

    seats = min(5, load_map(map_id).rules.max_players)
    try:
        game = played_game(map_id, seats=seats, seed=7)
        # back up to a position before the end with most trains placed
        plies = len(game.log)
        return played_game(map_id, seats=seats, seed=7, plies=max(0, plies - 12)).view(None), "engine"
    except Exception:
        return synthetic_view(load_map(map_id), seats=seats, seed=1), "synthetic"


def clear_caches() -> None:
    import rendering.board as board
    import rendering.draw as draw
    import rendering.fonts as fonts
    import rendering.geometry as geometry

    for fn in (geometry._geometry, board._static_map, board._overlay_sprites, board._track_sprite,
               board._station_sprite, board._palette, draw.disc, fonts._font, fonts.coverage, fonts.cap_height):
        fn.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    names = ["Alice", "Борис", "李小龍", "Zoë", "Train Fan"]
    players = default_players(names)
    print(f"Python {platform.python_version()}, Pillow {Image.__version__}, {PNG_OPTIONS}")
    print(f"{'map':<11} {'view':<9} {'claims':>6} {'size':>10} {'cold ms':>8} {'warm ms':>8} {'RGB ms':>7} "
          f"{'P ms':>6} {'w/RGB':>6} {'w/P':>5} {'RGB bytes':>10} {'PNG bytes':>10}")
    for map_id in ("usa", "europe", "nederland", "switzerland", "nordic"):
        m = load_map(map_id)
        view, source = late_view(map_id)
        cold, warm, bare_rgb, bare_p = [], [], [], []
        for _ in range(max(3, args.repeat // 3)):
            clear_caches()
            t = time.perf_counter()
            render_board(view, m, players)
            cold.append(time.perf_counter() - t)
        posted = Image.open(io.BytesIO(render_board(view, m, players).png))
        posted.load()
        rgb = posted.convert("RGB")  # the same picture in full color (within the palette's difference)
        for _ in range(args.repeat):  # interleaved, so load from other processes hits all alike
            t = time.perf_counter()
            r = render_board(view, m, players)
            warm.append(time.perf_counter() - t)
            t = time.perf_counter()
            rgb_bytes = len(encode(rgb))
            bare_rgb.append(time.perf_counter() - t)
            t = time.perf_counter()
            encode(posted)
            bare_p.append(time.perf_counter() - t)
        c, w, b, p = (statistics.median(x) * 1000 for x in (cold, warm, bare_rgb, bare_p))
        print(f"{map_id:<11} {source:<9} {len(view['claims']):>6} {r.width:>4}x{r.height:<5} {c:>8.0f} {w:>8.0f} {b:>7.0f} "
              f"{p:>6.0f} {w / b:>6.2f} {w / p:>5.2f} {rgb_bytes:>10} {len(r.png):>10}")


if __name__ == "__main__":
    main()
