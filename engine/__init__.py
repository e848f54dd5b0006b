"""Pure Ticket to Ride rules engine: no I/O, no Discord, no database, no Pillow.

from engine import Game, parse_action, format_action
game = Game.new("europe", seats=3, seed=42)
game.apply(0, parse_action(game, 0, "tickets keep 3 17"))
"""

from engine.actions import (
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
from engine.errors import (
    ActionError,
    AmbiguousActionError,
    CardsShortError,
    GameOptionsError,
    IllegalActionError,
    InvalidActionError,
    OptionValueError,
    SeatCountError,
    UnknownDeckError,
    UnknownMapError,
    VariantError,
)
from engine.game import Game
from engine.mapdata import available_maps, load_map
from engine.notation import format_action, parse_action
from engine.options import GameOptions
from engine.outcome import Outcome
from engine.phases import Phase, Stage, Termination
from engine.version import RULES_VERSION

__all__ = [
    "RULES_VERSION",
    "Action",
    "BuildStation",
    "Claim",
    "DeclineTunnel",
    "DrawDeck",
    "DrawMarket",
    "DrawTickets",
    "KeepTickets",
    "NeutralClaim",
    "Pass",
    "PayTunnel",
    "Remove",
    "Resign",
    "Skip",
    "Undo",
    "ActionError",
    "AmbiguousActionError",
    "CardsShortError",
    "GameOptionsError",
    "IllegalActionError",
    "InvalidActionError",
    "OptionValueError",
    "SeatCountError",
    "UnknownDeckError",
    "UnknownMapError",
    "VariantError",
    "Game",
    "GameOptions",
    "Outcome",
    "Phase",
    "Stage",
    "Termination",
    "available_maps",
    "load_map",
    "format_action",
    "parse_action",
]
