"""PNG writing for palette pictures, in strips compressed once.

A board is mostly the board before it: between two turns only the rows of the routes that
glow and the panel change. Pillow compresses every row of every board again, which is more than
half of a board's CPU time. Here the picture's rows are cut into strips of `STRIP_ROWS`, each
compressed on its own (a raw deflate stream ended by a full flush, so it refers to nothing
before it and ends on a byte boundary), and the strips' compressed bytes are kept by their
content: a strip seen before costs a hash, not a compression. Joined, the strips are one valid
zlib stream, so the file is an ordinary PNG (about 5 % larger than one stream, as each strip
starts without the rows above it).
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

#: Rows per strip: smaller strips are found again more often but compress worse.
STRIP_ROWS = 32
#: The zlib level (Pillow's default, and the one every other image uses).
LEVEL = 6
#: Compressed strips kept, in bytes (a board is about 35 strips, 100 KB).
KEEP_BYTES = 24 * 2**20

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: The zlib stream's header (deflate, 32 KB window, default level) and its final empty block.
ZLIB_HEADER = b"\x78\x9c"
LAST_BLOCK = b"\x03\x00"


class StripCache:
    """Compressed strips by a digest of their bytes, least recently used dropped first."""

    def __init__(self, keep_bytes: int = KEEP_BYTES) -> None:
        self.keep_bytes = keep_bytes
        self.kept = 0
        self.hits = self.misses = 0
        self._strips: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()  # a board drawn in a thread (a worker died) may meet another

    def clear(self) -> None:
        with self._lock:
            self._strips.clear()
            self.kept = 0

    def compressed(self, strip: bytes) -> bytes:
        key = hashlib.blake2b(strip, digest_size=16).digest()
        with self._lock:
            found = self._strips.get(key)
            if found is not None:
                self._strips.move_to_end(key)
                self.hits += 1
                return found
        deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        packed = deflate.compress(strip) + deflate.flush(zlib.Z_FULL_FLUSH)
        with self._lock:
            self.misses += 1
            if key not in self._strips:
                self._strips[key] = packed
                self.kept += len(packed)
                while self.kept > self.keep_bytes:
                    self.kept -= len(self._strips.popitem(last=False)[1])
        return packed


STRIPS = StripCache()


def write_palette_png(img: Image.Image, cache: StripCache = STRIPS) -> bytes:
    """The PNG file of a mode "P" picture (no transparency), rows unfiltered (the usual choice
    for palette pictures, and Pillow's)."""
    if img.mode != "P" or "transparency" in img.info:
        raise ValueError("write_palette_png writes opaque palette pictures")
    width, height = img.size
    # Each PNG row starts with its filter type, 0: a column of zeros to the left gives the rows.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(img, (1, 0))
    raw = rows.tobytes()
    step = (width + 1) * STRIP_ROWS
    data = [ZLIB_HEADER]
    data += [cache.compressed(raw[start : start + step]) for start in range(0, len(raw), step)]
    data.append(LAST_BLOCK + struct.pack(">I", zlib.adler32(raw)))
    palette = bytes(img.getpalette() or [0, 0, 0])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, no interlace
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", palette)
        + _chunk(b"IDAT", b"".join(data))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
