"""Drawing primitives: anti-aliased sprites (drawn 4x and reduced), cards, encoding."""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering import fonts
from rendering.style import INK, RGB, ROUTE_COLORS, darker, lighter, text_on

SS = 4  # supersampling factor of sprites

#: Settings of every image (and of the benchmark's bare encode): lossless WebP, which Discord shows
#: inline like a PNG for about two thirds of the 256-color PNG's bytes; Pillow's default effort
#: (quality 80, method 4: 100 or a higher method saves 1-3 % for 2-8 times the time).
WEBP_OPTIONS = {"format": "WEBP", "lossless": True, "quality": 80, "method": 4}


def encode(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """The image file's bytes. With a palette (`palette_for`), the picture is mapped onto its 256
    colors first: the anti-aliased edges' thousands of mixtures cost a third more bytes."""
    if palette is not None and img.mode == "RGB":
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, **WEBP_OPTIONS)
    return buf.getvalue()


def encode_small(img: Image.Image) -> bytes:
    """The file of a picture drawn once (hand, offer, league cards): its own 256 colors."""
    return encode(img, img.quantize(256, method=Image.Quantize.FASTOCTREE))


def blends(colors: Sequence[RGB], grounds: Sequence[RGB], steps: int = 4) -> list[RGB]:
    """Each color, and its anti-aliased edges over each ground (`steps` - 1 mixtures)."""
    out = []
    for c in colors:
        out.append(c)
        for g in grounds:
            out += [tuple(round(g[i] + (c[i] - g[i]) * k / steps) for i in range(3)) for k in range(1, steps)]
    return out


def palette_for(base: Image.Image, exact: Sequence[RGB], extra: Sequence[RGB]) -> Image.Image:
    """A 256-color palette for pictures drawn over `base`: the `exact` colors (players', the
    glow, the panel's: never merged with a near route color), then the base's most telling colors
    and the `extra` mixtures (edges of what is drawn on top), reduced together."""
    exact = list(dict.fromkeys(exact))[:128]
    strip = Image.new("RGB", (max(1, len(extra)), 1))
    strip.putdata(list(extra) or [base.getpixel((0, 0))])
    scale = 2  # a reduced copy keeps the colors and their weights
    small = base.resize((base.width // scale, base.height // scale), Image.Resampling.NEAREST)
    both = Image.new("RGB", (small.width, small.height + 8))
    both.paste(small, (0, 0))
    both.paste(strip.resize((small.width, 8), Image.Resampling.NEAREST), (0, small.height))
    rest = both.quantize(256 - len(exact), method=Image.Quantize.FASTOCTREE).getpalette()[: 3 * (256 - len(exact))]
    flat = [v for c in exact for v in c] + rest
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


def sprite(
    box: tuple[float, float, float, float], paint: Callable[[ImageDraw.ImageDraw, Callable], None]
) -> tuple[Image.Image, tuple[int, int]]:
    """An RGBA patch covering box (image coordinates), painted at SS x and reduced with
    premultiplied alpha; paint(draw, tr) gets a function mapping image points to patch points."""
    x0, y0 = math.floor(box[0]) - 1, math.floor(box[1]) - 1
    x1, y1 = math.ceil(box[2]) + 1, math.ceil(box[3]) + 1
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)

    def tr(points):
        return [((x - x0) * SS, (y - y0) * SS) for x, y in points]

    paint(d, tr)
    small = big.convert("RGBa").resize((w, h), Image.Resampling.BOX).convert("RGBA")
    return small, (x0, y0)


def paste(canvas: Image.Image, item: tuple[Image.Image, tuple[int, int]]) -> None:
    img, pos = item
    canvas.paste(img, pos, img)


@lru_cache(maxsize=256)
def disc(r: float, fill: RGB, outline: RGB | None, width: float = 0, ring_only: bool = False) -> Image.Image:
    """An anti-aliased disc (or ring) sprite of radius r centered in its patch."""

    def paint(d, tr):
        (ax, ay), (bx, by) = tr([(-r, -r), (r, r)])
        if ring_only:
            d.ellipse((ax, ay, bx, by), outline=fill, width=max(1, round(width * SS)))
        else:
            d.ellipse((ax, ay, bx, by), fill=outline or fill)
            if outline:
                k = width * SS
                d.ellipse((ax + k, ay + k, bx - k, by - k), fill=fill)

    img, _ = sprite((-r, -r, r, r), paint)
    return img


def paste_centered(canvas: Image.Image, img: Image.Image, x: float, y: float) -> None:
    canvas.paste(img, (round(x - img.width / 2), round(y - img.height / 2)), img)


def card(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    name: str | None,
    *,
    letter: str = "",
    letter_size: int = 0,
    radius: int = 6,
) -> None:
    """A standard train card: a rounded rectangle in the card color (locomotive: stripes of every
    color); an empty market slot is a dashed outline. Color-blind mode passes the card's `letter`
    to write, at least `letter_size` (the image's smallest text size). Cards of every kind,
    Märklin's too: `rendering.cards.card`."""
    x0, y0, x1, y1 = box
    if name is None:
        draw.rounded_rectangle(box, radius=radius, outline=(170, 163, 150), width=2)
        return
    if name == "loco":
        draw.rounded_rectangle(box, radius=radius, fill=(250, 250, 250), outline=INK, width=2)
        stripes = ["red", "orange", "yellow", "green", "blue", "pink"]
        inner = (x0 + 4, y0 + 4, x1 - 4, y1 - 4)
        h = (inner[3] - inner[1]) / len(stripes)
        for k, c in enumerate(stripes):
            draw.rectangle((inner[0], inner[1] + k * h, inner[2], inner[1] + (k + 1) * h), fill=ROUTE_COLORS[c])
    else:
        color = ROUTE_COLORS[name]
        draw.rounded_rectangle(
            box, radius=radius, fill=color, outline=darker(color, 0.55) if name != "black" else (90, 90, 90), width=2
        )
        draw.rounded_rectangle(
            (x0 + 5, y0 + 5, x1 - 5, y1 - 5), radius=max(2, radius - 3), outline=lighter(color, 0.45), width=1
        )
    if letter:
        size = max(letter_size, 10, int(min(y1 - y0, (x1 - x0) * 1.3) * 0.36))
        color = ROUTE_COLORS[name] if name != "loco" else (250, 250, 250)
        fonts.draw_text(
            draw,
            ((x0 + x1) / 2, y0 + min((y1 - y0) / 2, size * 0.9)),
            letter,
            size,
            text_on(color) if name != "loco" else INK,
            style="bold",
            anchor="mm",
            stroke=2 if name == "loco" else 0,
            stroke_fill=(255, 255, 255),
        )


def mark(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ok: bool, color: RGB) -> None:
    """A check mark (ok) or a cross in a disc of radius r centered at (x, y), drawn with lines so
    it needs no glyph."""
    draw.ellipse((x - r, y - r, x + r, y + r), fill=color)
    w = max(2, round(r / 3.5))
    if ok:
        draw.line([(x - r * 0.5, y), (x - r * 0.1, y + r * 0.4), (x + r * 0.5, y - r * 0.4)], fill="white", width=w)
    else:
        k = r * 0.45
        draw.line([(x - k, y - k), (x + k, y + k)], fill="white", width=w)
        draw.line([(x - k, y + k), (x + k, y - k)], fill="white", width=w)
