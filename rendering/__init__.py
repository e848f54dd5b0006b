"""Board and hand images with Pillow (docs/rendering.md).

Every function reads an engine view (`game.view(seat)`) and the map data and returns a
`RenderedImage` (PNG bytes, alt text, size); nothing here changes engine state. Public images
(`render_board`, `render_final`) must be given the spectator view `game.view(None)`; the
private ones (`render_hand`, `render_ticket_offer`, `render_player_board`) a seat's view, for
that seat's DMs only. Each takes `t: Translator | None` (keyword, None: English), the language of
its text and alt text. Rendering is synchronous and CPU-bound: the bot runs it off the event loop
(`await asyncio.to_thread(render_board, ..., t=t)`).
"""

from rendering.board import render_board
from rendering.final import render_final
from rendering.private import render_hand, render_player_board, render_ticket_offer
from rendering.style import DEFAULT_PLAYER_COLORS, PlayerStyle, RenderedImage, default_players

__all__ = [
    "render_board",
    "render_final",
    "render_hand",
    "render_player_board",
    "render_ticket_offer",
    "PlayerStyle",
    "RenderedImage",
    "default_players",
    "DEFAULT_PLAYER_COLORS",
]
