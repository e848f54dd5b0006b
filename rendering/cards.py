"""A train card of any kind: the standard ones (`draw.card`) and Märklin's two (`marklin.card`).

Kept apart so that draw.py, the primitives every picture uses, knows nothing of any map, and
marklin.py builds on draw.py without draw.py calling back into it.
"""

from __future__ import annotations

from PIL import ImageDraw

from rendering import draw, marklin


def card(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    name: str | None,
    *,
    letter: str = "",
    letter_size: int = 0,
    radius: int = 6,
) -> None:
    """A card (None: an empty market slot); `letter` and `letter_size` as in `draw.card`."""
    if name in marklin.CARDS:
        marklin.card(d, box, name, radius)
    else:
        draw.card(d, box, name, letter=letter, letter_size=letter_size, radius=radius)
