"""Pure Ticket to Ride rules engine: no I/O, no Discord, no database, no Pillow.

    from engine import Game, parse_action, format_action
    game = Game.new("europe", seats=3, seed=42)
    game.apply(0, parse_action(game, 0, "tickets keep 3 17"))
"""

#: Bumped whenever a rules fix can change the outcome of a logged game (docs/engine.md).
RULES_VERSION = 1

from engine.actions import (  # noqa: E402
    Action,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    NeutralClaim,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    Skip,
    Undo,
)
from engine.errors import (  # noqa: E402
    ActionError, AmbiguousActionError, GameOptionsError, IllegalActionError, InvalidActionError,
)
from engine.game import Game, GameOptions  # noqa: E402
from engine.mapdata import available_maps, load_map  # noqa: E402
from engine.notation import format_action, parse_action  # noqa: E402
import engine.nederland  # noqa: E402,F401  (registers the "tolls" rule hook)
import engine.nordic  # noqa: E402,F401  (registers the "nordic" rule hook)
import engine.switzerland  # noqa: E402,F401  (registers the "switzerland" rule hook)

__all__ = [
    "RULES_VERSION", "Action", "BuildStation", "Claim", "DeclineTunnel", "DrawDeck", "DrawMarket",
    "DrawTickets", "KeepTickets", "NeutralClaim", "Pass", "PayTunnel", "Remove", "Resign", "Skip", "Undo", "ActionError",
    "AmbiguousActionError", "GameOptionsError", "IllegalActionError", "InvalidActionError", "Game", "GameOptions",
    "available_maps", "load_map", "format_action", "parse_action",
]
