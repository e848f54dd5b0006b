"""An engine error (ActionError) in the player's language.

The engine raises errors with an English message template and its parameters; this is where the
bot words them for a player: the template through the catalogs, and each parameter (city, route,
card, seat, list ...) in that player's language and city names.
"""

from __future__ import annotations

from typing import Callable

from engine import Game
from engine.errors import ActionError
from i18n import Translator


def describe_error(t: Translator, error: ActionError, game: Game | None, name: Callable[[int], str]) -> str:
    """The error's message for the player reading it (`name(seat)` names a seat's player)."""
    return str(error)  # replaced by the translated template (issue 10, engine errors part)
