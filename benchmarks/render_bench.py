"""Board rendering benchmark: a late-game public board on each map (5 players, 3 on Switzerland and Nordic, Märklin's
stacks and passengers included).

    python benchmarks/render_bench.py [--repeat 15]
    python benchmarks/render_bench.py --game [--seed 3] [--ai strong] [MAP ...]


Times are process CPU time (the machine is shared; wall clock would count the others' work).
For each map: median cold time (empty caches: layout, static layer, palette, sprites, then render
and encode), median warm time (render + encode with caches filled), the bare encode
(`rendering.draw.WEBP_OPTIONS`, lossless WebP) of the 256-color picture that is posted, the
warm/bare ratio and the bytes of the posted file (and those of the heaviest variant: Chinese
city names in color-blind mode).
Goals (issues 4, 17): warm <= 3x a bare encode, warm <= 250 ms, a late-game board <= 200 KB.
Figures go in docs/rendering.md.

--game: the bytes a channel receives over one seeded game per map (4 AIs, 3 on Switzerland and
Nordic, their maximum; `--ai` their level), as the bot posts them (bot.table_message.board_due:
the map alone, at most one board a round, when the map changed), each board lighting the turns
since the board before (`since=`), and the final image: the total of the game (issue 34: <= 3 MiB)
and the median CPU time of a board.
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

from bot.table_message import board_due, map_state  # noqa: E402
from engine.mapdata import load_map  # noqa: E402
from i18n import translator  # noqa: E402
from rendering import default_players, render_board, render_final  # noqa: E402
from rendering.draw import WEBP_OPTIONS  # noqa: E402


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
    import rendering.badges as badges
    import rendering.board as board
    import rendering.draw as draw
    import rendering.fonts as fonts
    import rendering.geometry as geometry
    import rendering.marklin as marklin
    import rendering.terrain as terrain

    marklin._SPOTS.clear()
    board._TRACK_BOXES.clear()
    for fn in (
        geometry._geometry,
        board._static_map,
        board._overlay_sprites,
        board._track_sprite,
        board._station_sprite,
        board._palette,
        board._badge_sprite,
        board._station_tag,
        terrain.geography,
        badges._badges,
        badges._station_badges,
        draw.disc,
        fonts._font,
        fonts.coverage,
        fonts.cap_height,
    ):
        fn.cache_clear()


NAMES = ["Alice", "Борис", "李小龍", "Zoë", "Train Fan"]
MAPS = ("usa", "europe", "nederland", "switzerland", "nordic", "marklin")


def bare(img: Image.Image) -> bytes:
    """The encoder alone, as `rendering.draw.encode` calls it."""
    buf = io.BytesIO()
    img.save(buf, **WEBP_OPTIONS)
    return buf.getvalue()


def game_bytes(seed: int, map_id: str, level: str) -> float:
    """Play a seeded game between AIs of `level`, rendering the channel's board whenever the bot
    posts one (`bot.table_message.board_due`, at the end of a turn) and the final image; the
    game's bytes in MiB."""
    from ai import ask
    from cli.app import ai_player
    from engine import Game

    m = load_map(map_id)
    seats = min(4, m.rules.max_players)
    players = default_players(NAMES[:seats])
    ais = [ai_player(level, f"{seed}:{s}", replayable=True) for s in range(seats)]  # the same game every run
    game = Game.new(map_id, seats=seats, seed=seed)
    boards, cpu, sizes = [], [], []
    last: tuple[tuple[int, ...], int] | None = None
    posted = None
    while not game.is_over():
        seat = game.to_move()[0]
        playing = game.phase == "playing"
        game.apply(seat, ask(ais[seat], game, seat))
        view = game.view(None)
        turn_ended = (playing or game.phase == "playing") and game.stage is None
        if game.is_over() or not turn_ended or not board_due(view, last):
            continue
        t = time.process_time()
        r = render_board(view, m, players, since=posted, panel=False)
        cpu.append(time.process_time() - t)
        boards.append(len(r.data))
        sizes.append((r.width, r.height))
        posted, last = view["plies"], (map_state(view), view["round"])
    final = len(render_final(game.view(None), m, players).data)
    total = (sum(boards) + final) / 2**20
    rounds = game.view(None)["round"]
    print(f"{map_id}, {seats} {level} AIs, seed {seed}: {len(game.log)} plies, {rounds} rounds, {len(boards)} boards")
    print(
        f"  boards {sizes[-1][0]}x{sizes[-1][1]}: median {statistics.median(boards):.0f} bytes, max {max(boards)}, "
        f"final image {final}; the game {total:.2f} MiB; render + encode median "
        f"{statistics.median(cpu) * 1000:.0f} ms CPU"
    )
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--game", action="store_true", help="a channel's bytes over one seeded game per map")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--ai", default="strong", help="with --game: the AI level that plays every seat")
    ap.add_argument("maps", nargs="*", default=MAPS, help="with --game: the maps (default: all)")
    args = ap.parse_args()
    print(f"Python {platform.python_version()}, Pillow {Image.__version__}, {WEBP_OPTIONS}")
    if args.game:
        totals = {map_id: game_bytes(args.seed, map_id, args.ai) for map_id in args.maps}
        print("per game: " + ", ".join(f"{map_id} {mib:.2f} MiB" for map_id, mib in totals.items()))
        return
    players = default_players(NAMES)
    print(
        f"{'map':<11} {'view':<9} {'claims':>6} {'size':>10} {'cold ms':>8} {'warm ms':>8} "
        f"{'bare ms':>7} {'w/bare':>6} {'bytes':>10} {'zh cb bytes':>11}"
    )
    for map_id in MAPS:
        m = load_map(map_id)
        view, source = late_view(map_id)
        cold, warm, encodes = [], [], []
        for _ in range(max(3, args.repeat // 3)):
            clear_caches()
            t = time.process_time()
            render_board(view, m, players)
            cold.append(time.process_time() - t)
        posted = Image.open(io.BytesIO(render_board(view, m, players).data))
        posted.load()  # its 256 colors, as posted
        for _ in range(args.repeat):  # interleaved, so load from other processes hits all alike
            t = time.process_time()
            r = render_board(view, m, players)
            warm.append(time.process_time() - t)
            t = time.process_time()
            bare(posted)
            encodes.append(time.process_time() - t)
        c, w, b = (statistics.median(x) * 1000 for x in (cold, warm, encodes))
        # the heaviest variant: Chinese city names and color-blind letters, badges and numbers
        worst = len(render_board(view, m, players, t=translator("zh", "translated"), colorblind=True).data)
        print(
            f"{map_id:<11} {source:<9} {len(view['claims']):>6} {r.width:>4}x{r.height:<5} {c:>8.0f} {w:>8.0f} "
            f"{b:>7.0f} {w / b:>6.2f} {len(r.data):>10} {worst:>11}"
        )


if __name__ == "__main__":
    main()
