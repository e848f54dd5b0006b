"""Board and hand images with Pillow (docs/rendering.md).

Every function reads an engine view (`game.view(seat)`) and the map data and returns a
`RenderedImage` (PNG bytes, alt text, size); nothing here changes engine state. Public images
(`render_board`, `render_final`) must be given the spectator view `game.view(None)`.
Rendering is synchronous and CPU-bound: the bot runs it off the event loop.
"""

from rendering.board import render_board
from rendering.style import DEFAULT_PLAYER_COLORS, PlayerStyle, RenderedImage, default_players

__all__ = ["render_board", "PlayerStyle", "RenderedImage", "default_players", "DEFAULT_PLAYER_COLORS"]
