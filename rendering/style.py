"""Colors, player styles and the result type shared by every image."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


#: Route and card colors (engine card names; "gray" for gray routes).
ROUTE_COLORS: dict[str, RGB] = {
    "pink": hex_rgb("#EE8FC0"),
    "white": hex_rgb("#FAFAF5"),
    "blue": hex_rgb("#2F6FD6"),
    "yellow": hex_rgb("#F5CE1B"),
    "orange": hex_rgb("#F08A24"),
    "black": hex_rgb("#2A2A2A"),
    "red": hex_rgb("#D8312D"),
    "green": hex_rgb("#3C9A3A"),
    "gray": hex_rgb("#B4B1AA"),
    "loco": hex_rgb("#8C8C8C"),
}

#: Hues and lightnesses no route uses, chosen by search so that each is at least 20 CIEDE2000 from
#: every route color and from every other seat's color (Nederland's neutral player included), and
#: at least 12 with simulated protanopia, deuteranopia and tritanopia (tests/rendering/test_colors.py).
#: Their names are the lobby's (bot.messenger.PLAYER_COLORS), in this order.
DEFAULT_PLAYER_COLORS: tuple[RGB, ...] = (
    hex_rgb("#602078"),  # violet
    hex_rgb("#086058"),  # teal (dark: never the green route)
    hex_rgb("#682810"),  # brown (reddish: never the black route)
    hex_rgb("#38E0F8"),  # sky (light: never the blue route)
    hex_rgb("#B8F0A0"),  # lime (pale)
)

#: Nederland's neutral player (a 2-player option): raspberry, unlike any route or seat color.
NEUTRAL_PLAYER = hex_rgb("#B84080")

BACKGROUND = hex_rgb("#EFE9DA")
MAP_EDGE = hex_rgb("#D9CFB6")
INK = hex_rgb("#23211E")
MUTED = hex_rgb("#6B655A")
PANEL = hex_rgb("#F8F5EC")
PANEL_LINE = hex_rgb("#D6CCB4")
CITY_FILL = hex_rgb("#FFFDF6")
HALO = hex_rgb("#FFFDF6")
#: What changed, the routes you can claim or pay for (private board), the longest path: lavender, the
#: one light color no route color comes near (the former gold read as yellow and orange track).
HIGHLIGHT = hex_rgb("#A890F8")
TICKET_CITY = hex_rgb("#E0007A")  # the viewer's ticket cities (private board)
GOOD = hex_rgb("#2E8B3E")
BAD = hex_rgb("#C62828")
ALERT = hex_rgb("#C62828")


@dataclass(frozen=True, slots=True)
class PlayerStyle:
    """How a seat is shown: display name (any Unicode) and color."""

    name: str
    color: RGB


def default_players(names: list[str] | int) -> list[PlayerStyle]:
    """Player styles from names (or a seat count: 'Player 1'…) with the default palette."""
    if isinstance(names, int):
        names = [f"Player {i + 1}" for i in range(names)]
    return [PlayerStyle(n, DEFAULT_PLAYER_COLORS[i % len(DEFAULT_PLAYER_COLORS)]) for i, n in enumerate(names)]


#: The extension of every image `rendering` makes (its format: lossless WebP, `draw.encode`).
EXTENSION = "webp"


@dataclass(frozen=True, slots=True)
class RenderedImage:
    """The encoded picture (lossless WebP, `rendering.draw.encode`) plus a one-line text summary
    of the same state (alt text)."""

    data: bytes
    alt_text: str
    width: int
    height: int

    def filename(self, stem: str) -> str:
        """The file name to attach or save it under: `stem` and the format's extension."""
        return f"{stem}.{EXTENSION}"


def luminance(color: RGB) -> float:
    r, g, b = color
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(color: RGB) -> RGB:
    """Ink that reads on a background of this color."""
    return INK if luminance(color) > 150 else (255, 255, 255)


def darker(color: RGB, f: float = 0.6) -> RGB:
    return tuple(int(c * f) for c in color)  # type: ignore[return-value]


def lighter(color: RGB, f: float = 0.5) -> RGB:
    return tuple(int(c + (255 - c) * f) for c in color)  # type: ignore[return-value]
