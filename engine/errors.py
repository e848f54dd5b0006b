"""One exception family, so callers can tell bad syntax from an illegal or ambiguous action.

All are ValueError (as python-chess does): a caller that does not care catches ValueError.
Messages name exactly what is wrong, in plain English; `code` and `details` carry the same facts
as data for callers (the bot, translations) that build their own wording.
"""

from __future__ import annotations


class ActionError(ValueError):
    """Base class: the action was not applied and nothing changed."""

    code = "action_error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.details = details


class InvalidActionError(ActionError):
    """The text could not be parsed as an action (unknown word, city, route or card)."""

    code = "invalid"


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid right now (not your turn, route taken, ...)."""

    code = "illegal"


class AmbiguousActionError(ActionError):
    """The text fits several legal actions; `details['options']` lists them."""

    code = "ambiguous"
