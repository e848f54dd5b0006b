"""Rebuild the font subsets shipped in this folder (a maintainer tool; never imported at run time).

Needs fontTools (`pip install fonttools`) and Debian's `fonts-noto-core`, `fonts-noto-extra`
(Noto fonts 20201225) and `fonts-noto-cjk` (20220127), all SIL Open Font License 1.1 (OFL.txt).
`fonts-noto-extra` is large: `apt-get download fonts-noto-extra && dpkg-deb -x fonts-noto-extra_*.deb X`
and pass `--extra X/usr/share/fonts/truetype/noto` instead of installing it. `--cjk` rebuilds only
the CJK subset (needs only `fonts-noto-cjk`): do that when a Chinese translation or a map's Chinese
city name uses a character the subset lacks (tests/rendering/test_languages.py says which).

    python rendering/fonts/subset.py [--extra DIR] [--cjk]

Golden images depend on these exact files: after rebuilding them, regenerate the goldens
(docs/rendering.md).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")

# Latin (with Vietnamese), Greek, Cyrillic, combining marks, punctuation, currency, arrows, shapes.
LATIN_RANGES = (
    "U+0020-007E,U+00A0-036F,U+0370-03FF,U+0400-052F,U+1C80-1C8F,U+1E00-1FFF,U+2000-206F,"
    "U+20A0-20CF,U+2100-215F,U+2190-21FF,U+2212,U+2460-24FF,U+25A0-25FF,U+2600-26FF,U+2C60-2C7F,"
    "U+2DE0-2DFF,U+A640-A69F,U+A720-A7FF,U+FB00-FB06,U+FFFD"
)


def cjk_text() -> str:
    """Kana, CJK punctuation, fullwidth forms, and the common Han and Hangul repertoires:
    GB 2312 levels 1 and 2 (6,763 hanzi), JIS X 0208 level 1 kanji, KS X 1001 hangul; and every
    character of the Chinese catalogs and of the maps' city names (`our_text`)."""
    chars: set[str] = set()
    chars.update(chr(c) for c in range(0x3000, 0x3100))  # CJK punctuation, hiragana, katakana
    chars.update(chr(c) for c in range(0x3130, 0x3190))  # Hangul compatibility jamo
    chars.update(chr(c) for c in range(0x31F0, 0x3200))  # katakana extensions
    chars.update(chr(c) for c in range(0xFF00, 0xFFF0))  # fullwidth and halfwidth forms
    for hi in range(0xB0, 0xF8):  # GB 2312 hanzi: level 1 (rows 16-55) and level 2 (rows 56-87)
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    for hi in range(0xB0, 0xD0):  # JIS X 0208 rows 16-47 (level-1 kanji)
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    for hi in range(0xB0, 0xC9):  # KS X 1001 hangul syllables
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("euc_kr"))
            except UnicodeDecodeError:
                pass
    chars.update(ch for ch in our_text() if ord(ch) >= 0x2E80)  # Latin and Cyrillic come from Noto Sans
    return "".join(sorted(chars))


def our_text() -> str:
    """The Chinese catalogs' translations and the maps' translated city names (all languages)."""
    text = []
    for po in sorted((ROOT / "i18n" / "locales" / "zh").glob("*.po")):
        text += re.findall(r'^msgstr(?:\[\d+\])? "(.*)"$', po.read_text(encoding="utf-8"), re.MULTILINE)
    for path in sorted((ROOT / "engine" / "maps").glob("*.json")):
        text += [
            name for c in json.loads(path.read_text(encoding="utf-8"))["cities"] for name in c.get("names", {}).values()
        ]
    return "".join(text)


def run(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "fontTools.subset", *args], check=True)


def main() -> None:
    extra = Path(sys.argv[sys.argv.index("--extra") + 1]) if "--extra" in sys.argv else NOTO
    common = ["--layout-features=kern,liga,ccmp,locl,mark,mkmk", "--no-hinting"]
    if "--cjk" not in sys.argv:
        for style in ("Regular", "Bold"):
            run(
                str(NOTO / f"NotoSans-{style}.ttf"),
                f"--unicodes={LATIN_RANGES}",
                f"--output-file={HERE / f'NotoSans-{style}.ttf'}",
                *common,
            )
        run(
            str(extra / "NotoSans-CondensedSemiBold.ttf"),
            f"--unicodes={LATIN_RANGES}",
            f"--output-file={HERE / 'NotoSans-CondensedSemiBold.ttf'}",
            *common,
        )
    text = HERE / "cjk-chars.txt"
    text.write_text(cjk_text(), encoding="utf-8")
    try:
        run(
            str(CJK),
            "--font-number=2",
            f"--text-file={text}",  # 2 = Noto Sans CJK SC
            f"--output-file={HERE / 'NotoSansCJKsc-Regular-subset.otf'}",
            *common,
        )
    finally:
        text.unlink()


if __name__ == "__main__":
    main()
