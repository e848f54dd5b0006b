"""What the languages cost: loading the catalogs, a lookup, and a board image per language.

    python benchmarks/i18n_bench.py [--repeat 15]

Prints the cold load of each language's catalogs (parse the .po files with Babel and compile them
in memory, done once per process), the time of one `gettext` / `ngettext` call with placeholders
(English, Russian, Chinese), and the median warm render + encode of a late-game Europe board in each
language with translated city names, as a ratio to English (and the first render in a language,
which lays out its labels and draws its static layer once). Figures go in docs/i18n.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from i18n import translator  # noqa: E402
from i18n.translator import Translator, _translations  # noqa: E402
from rendering import render_board  # noqa: E402
from rendering.sample import played_game  # noqa: E402

LANGUAGES = ("en", "ru", "zh")


def catalog_load_ms(language: str) -> float:
    _translations.cache_clear()
    start = time.perf_counter()
    Translator(language)
    return (time.perf_counter() - start) * 1000


def lookup_us(t: Translator, number: int = 20000) -> tuple[float, float]:
    one = (
        timeit.timeit(lambda: t.gettext("{route} is already taken by {owner}", route="A-B", owner="ann"), number=number)
        / number
        * 1e6
    )
    plural = timeit.timeit(lambda: t.ngettext("{n} ticket kept", "{n} tickets kept", 5), number=number) / number * 1e6
    return one, plural


def render_ms(t: Translator, view: dict, m, repeat: int) -> tuple[float, float]:
    """(first render in this language: its label layout and static layer are built; warm median)."""
    start = time.perf_counter()
    render_board(view, m, t=t)
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        render_board(view, m, t=t)
        times.append((time.perf_counter() - start) * 1000)
    return first, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print("catalog load (cold, ms):", ", ".join(f"{lang} {catalog_load_ms(lang):.1f}" for lang in LANGUAGES))
    for lang in LANGUAGES:
        one, plural = lookup_us(translator(lang))
        print(f"lookup {lang}: gettext with 2 placeholders {one:.2f} µs, ngettext {plural:.2f} µs")
    game = played_game("europe", seats=5, seed=7)
    view, m = game.view(None), game.map
    first, base = render_ms(translator("en"), view, m, args.repeat)
    print(f"Europe board: en first {first:.0f} ms, warm {base:.0f} ms")
    for lang in ("ru", "zh"):
        first, ms = render_ms(translator(lang, "translated"), view, m, args.repeat)
        print(
            f"Europe board, {lang} with translated city names: first {first:.0f} ms, warm {ms:.0f} ms "
            f"= {ms / base:.2f}x en"
        )


if __name__ == "__main__":
    main()
