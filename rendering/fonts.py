"""Fonts shipped in rendering/fonts (Noto, SIL OFL 1.1) and text drawing with per-glyph fallback.

Pillow draws a string with one font, so a name mixing scripts is split into runs, each drawn with
the first font of the chain that has its characters (Noto Sans, then Noto Sans CJK SC). Characters
no font has (emoji, scripts we do not ship) and invisible control or format characters are
dropped, never drawn as boxes; `clean_text` returns what will actually be drawn.
"""

from __future__ import annotations

import struct
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

#: style -> font files, first choice first; the CJK subset is the fallback for every style.
CHAINS: dict[str, tuple[str, ...]] = {
    "regular": ("NotoSans-Regular.ttf", "NotoSansCJKsc-Regular-subset.otf"),
    "bold": ("NotoSans-Bold.ttf", "NotoSansCJKsc-Regular-subset.otf"),
    "label": ("NotoSans-CondensedSemiBold.ttf", "NotoSansCJKsc-Regular-subset.otf"),
}

MAX_MARKS = 2  # combining marks kept per base character (stacked "zalgo" text stays in its box)


def _cmap_codepoints(data: bytes) -> frozenset[int]:
    """Code points mapped by an OpenType font's cmap (formats 4 and 12): enough to pick a font."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_offset = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_offset = offset
    if cmap_offset is None:
        return frozenset()
    points: set[int] = set()
    count = struct.unpack_from(">H", data, cmap_offset + 2)[0]
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHI", data, cmap_offset + 4 + 8 * i)
        if platform not in (0, 3):
            continue
        base = cmap_offset + sub
        fmt = struct.unpack_from(">H", data, base)[0]
        if fmt == 4:
            seg_x2 = struct.unpack_from(">H", data, base + 6)[0]
            ends = struct.unpack_from(f">{seg_x2 // 2}H", data, base + 14)
            starts = struct.unpack_from(f">{seg_x2 // 2}H", data, base + 16 + seg_x2)
            deltas = struct.unpack_from(f">{seg_x2 // 2}h", data, base + 16 + 2 * seg_x2)
            range_base = base + 16 + 3 * seg_x2
            offsets = struct.unpack_from(f">{seg_x2 // 2}H", data, range_base)
            for k, (start, end) in enumerate(zip(starts, ends)):
                if start == 0xFFFF:
                    continue
                for c in range(start, end + 1):
                    if offsets[k] == 0:
                        glyph = (c + deltas[k]) & 0xFFFF
                    else:
                        at = range_base + 2 * k + offsets[k] + 2 * (c - start)
                        glyph = struct.unpack_from(">H", data, at)[0]
                        glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                    if glyph:
                        points.add(c)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, base + 12)[0]
            for g in range(groups):
                start, end, glyph = struct.unpack_from(">III", data, base + 16 + 12 * g)
                points.update(range(start + (glyph == 0), end + 1))
    return frozenset(points)


@cache
def coverage(file_name: str) -> frozenset[int]:
    return _cmap_codepoints((FONT_DIR / file_name).read_bytes())


@cache
def _font(file_name: str, size: int) -> ImageFont.FreeTypeFont:
    # BASIC layout: identical output whether or not Pillow was built with libraqm (golden tests).
    return ImageFont.truetype(str(FONT_DIR / file_name), size, layout_engine=ImageFont.Layout.BASIC)


def font(size: int, style: str = "regular") -> ImageFont.FreeTypeFont:
    """The primary font of a style at a pixel size."""
    return _font(CHAINS[style][0], size)


def _drawable(ch: str) -> bool:
    return unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


@lru_cache(maxsize=8192)
def clean_text(text: str, style: str = "regular") -> str:
    """The text as it will be drawn: NFC, no control/format characters, no characters that no
    font of the chain has, at most MAX_MARKS combining marks per character, spaces collapsed.
    Kept per text: a board cleans the same city names and labels every time it is drawn."""
    chain = CHAINS[style]
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", str(text)):
        if ch.isspace():
            ch = " "
        elif not _drawable(ch):
            continue
        if unicodedata.combining(ch):
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        if ch != " " and not any(ord(ch) in coverage(f) for f in chain):
            continue
        if ch == " " and (not out or out[-1] == " "):
            continue
        out.append(ch)
    return "".join(out).strip()


@lru_cache(maxsize=8192)
def runs(text: str, size: int, style: str = "regular") -> tuple[tuple[ImageFont.FreeTypeFont, str], ...]:
    """Split already-clean text into (font, substring) runs; marks stay with their base (kept
    per text, size and style, as `clean_text`)."""
    chain = CHAINS[style]
    result: list[tuple[int, list[str]]] = []
    for ch in text:
        if ch == " " and ord(ch) in coverage(chain[0]):
            idx = 0
        elif unicodedata.combining(ch):
            idx = result[-1][0] if result else 0
            if unicodedata.combining(ch) and ord(ch) not in coverage(chain[idx]):
                idx = next((i for i, f in enumerate(chain) if ord(ch) in coverage(f)), idx)
        else:
            idx = next((i for i, f in enumerate(chain) if ord(ch) in coverage(f)), 0)
        if result and result[-1][0] == idx:
            result[-1][1].append(ch)
        else:
            result.append((idx, [ch]))
    return tuple((_font(chain[i], size), "".join(chars)) for i, chars in result)


@dataclass(frozen=True, slots=True)
class Text:
    """Clean text at a size and style, measured once."""

    text: str
    size: int
    style: str = "regular"

    @property
    def parts(self) -> tuple[tuple[ImageFont.FreeTypeFont, str], ...]:
        return runs(self.text, self.size, self.style)

    @property
    def width(self) -> float:
        return sum(f.getlength(s) for f, s in self.parts)

    def ink_box(self, x: float, baseline: float) -> tuple[float, float, float, float]:
        """Bounding box of the drawn glyphs for text starting at x on the given baseline."""
        left, top, right, bottom = x, baseline, x, baseline
        cx = x
        for f, s in self.parts:
            x0, y0, x1, y1 = f.getbbox(s, anchor="ls")
            left, top = min(left, cx + x0), min(top, baseline + y0)
            right, bottom = max(right, cx + x1), max(bottom, baseline + y1)
            cx += f.getlength(s)
        return left, top, right, bottom


def measure(text: str, size: int, style: str = "regular") -> float:
    """The width of what draw_text draws of this text."""
    return Text(clean_text(text, style), size, style).width


def fit(text: str, size: int, max_width: float, style: str = "regular", fallback: str = "?") -> str:
    """The text, or its beginning with an ellipsis, so that what draw_text draws of it is at most
    max_width pixels wide (fallback when nothing of it can be drawn). The characters are kept as
    given (draw_text cleans them), so a test recording draw_text sees the text it was given."""
    if not clean_text(text, style):
        text = fallback
    if measure(text, size, style) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + "…", size, style) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return (text[:lo].rstrip() + "…") if lo else "…"


def wrap(items: list[str], sep: str, size: int, width: float, lines: int, style: str = "regular") -> list[str]:
    """Items joined by `sep` in at most `lines` lines of `width` (the last one cut with "…")."""
    out = [""]
    for item in items:
        joined = f"{out[-1]}{sep}{item}" if out[-1] else item
        if out[-1] and measure(joined, size, style) > width and len(out) < lines:
            out.append(item)
        else:
            out[-1] = joined
    return [fit(line, size, width, style) for line in out]


def squeeze(
    text: str, size: int, max_width: float, style: str = "regular", min_size: int | None = None, fallback: str = "?"
) -> tuple[str, int, str]:
    """(text, size, style) that fit max_width: the text as it is, or a little smaller (90 %); else
    in the condensed face, down to min_size (default 80 %); else cut with an ellipsis. For labels
    in a fixed slot (column titles, names under cards), which other languages make longer."""
    if not clean_text(text, style):
        text = fallback
    low = min_size or max(1, round(size * 0.8))
    for s in range(size, max(low, round(size * 0.9)) - 1, -1):
        if measure(text, s, style) <= max_width:
            return text, s, style
    for s in range(size, low - 1, -1):
        if measure(text, s, "label") <= max_width:
            return text, s, "label"
    return fit(text, low, max_width, "label", fallback), low, "label"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill,
    *,
    style: str = "regular",
    anchor: str = "ls",
    stroke: int = 0,
    stroke_fill=None,
) -> float:
    """Draw text (cleaned first: see clean_text) with font fallback; anchor is l/m/r + s (baseline)
    or m (middle of the primary font's cap height). Returns the drawn width. Every text of every
    image is drawn here (a test can record them all)."""
    t = Text(clean_text(text, style), size, style)
    width = t.width
    x, y = xy
    if anchor[0] == "m":
        x -= width / 2
    elif anchor[0] == "r":
        x -= width
    if anchor[1] == "m":
        y += cap_height(size, style) / 2
    for f, s in t.parts:
        draw.text((x, y), s, font=f, fill=fill, anchor="ls", stroke_width=stroke, stroke_fill=stroke_fill)
        x += f.getlength(s)
    return width


@cache
def cap_height(size: int, style: str = "regular") -> float:
    return -font(size, style).getbbox("H", anchor="ls")[1]
