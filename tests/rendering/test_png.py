"""The strip-wise PNG writer: exact pictures, strictly valid files, strips compressed once."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from rendering.png import STRIP_ROWS, StripCache, write_palette_png


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The file's chunks, each CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        found.append((kind, body))
        at += 12 + length
    return found


def picture(width: int, height: int, data: bytes, colors: int) -> Image.Image:
    img = Image.new("P", (width, height))
    img.putdata([b % colors for b in (data * (width * height // max(1, len(data)) + 1))[: width * height]])
    img.putpalette([(i * 37 + k * 91) % 256 for i in range(colors) for k in range(3)])
    return img


@given(
    width=st.integers(1, 90),
    height=st.integers(1, 3 * STRIP_ROWS + 5),
    data=st.binary(min_size=1, max_size=300),
    colors=st.integers(1, 256),
)
def test_the_file_is_the_picture(width: int, height: int, data: bytes, colors: int) -> None:
    img = picture(width, height, data, colors)
    png = write_palette_png(img, StripCache())
    kinds = [kind for kind, _ in chunks(png)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    idat = dict(chunks(png))[b"IDAT"]
    rows = zlib.decompress(idat)  # zlib checks the stream's Adler-32 too
    assert rows == b"".join(b"\x00" + img.tobytes()[y * width : (y + 1) * width] for y in range(height))
    back = Image.open(io.BytesIO(png))
    back.load()
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.getpalette()[: 3 * colors] == img.getpalette()[: 3 * colors]


def test_a_picture_drawn_again_compresses_only_its_changed_strips() -> None:
    cache = StripCache()
    width, height = 200, 5 * STRIP_ROWS
    first = picture(width, height, bytes(range(7, 250, 3)), 200)
    write_palette_png(first, cache)
    assert (cache.hits, cache.misses) == (0, 5)
    second = first.copy()
    second.putpixel((50, 2 * STRIP_ROWS + 3), 199)  # one pixel in the third strip
    png = write_palette_png(second, cache)
    assert (cache.hits, cache.misses) == (4, 6)
    assert Image.open(io.BytesIO(png)).tobytes() == second.tobytes()


def test_the_kept_strips_stay_within_their_bytes() -> None:
    cache = StripCache(keep_bytes=3000)
    for seed in range(40):
        write_palette_png(picture(120, 2 * STRIP_ROWS, bytes((seed * 13 + i * i) % 256 for i in range(97)), 256), cache)
        assert cache.kept <= 3000
    assert cache.misses == 80
    first = picture(120, 2 * STRIP_ROWS, bytes((i * i) % 256 for i in range(97)), 256)
    write_palette_png(first, cache)  # long dropped: compressed again
    assert cache.misses == 82


def transparent() -> Image.Image:
    img = Image.new("P", (4, 4))
    img.info["transparency"] = 0
    return img


@pytest.mark.parametrize("img", [Image.new("RGB", (4, 4)), transparent()], ids=["full color", "transparent"])
def test_only_opaque_palette_pictures(img: Image.Image) -> None:
    with pytest.raises(ValueError):
        write_palette_png(img, StripCache())
