"""One exception family, so callers can tell bad syntax from an illegal or ambiguous action.

All are ValueError (as python-chess does): a caller that does not care catches ValueError.

An error is an English message template with named parameters, `IllegalActionError("{route} is
already taken by {owner}", route=RouteRef(...), owner=SeatRef(2))`: `str(error)` is the plain
English (CLI, logs, tests), and texts/error_text.py words the same error in a player's language by
translating the template (the gettext message id; Babel extracts the first argument of these
calls, so it is always a literal) and each parameter. Parameters that name something of the game
are the typed references below; plain ints and strings (text a player typed) stay as they are.
The engine itself knows nothing of languages.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import ALL_CARD_NAMES


def N_(template: str) -> str:
    """Mark an English template that is raised or nested later, so the catalogs extract it."""
    return template


def english(template: str, params: dict) -> str:
    """A template filled with its parameters' English text."""
    return template.format(**params) if params else template


class SeatRef(NamedTuple):
    """A seat (0-based), 'seat 3' in English; the bot shows the player's name."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat + 1}"


class CityRef(NamedTuple):
    """A city of the game's map by index, with its printed name."""

    index: int
    english: str

    def __str__(self) -> str:
        return self.english


class RouteRef(NamedTuple):
    """A track of the game's map by index: 'Paris-Dieppe', or with `numbered` the track's label
    ('Dieppe-London/2', engine.notation.route_label)."""

    track: int
    english: str
    numbered: bool = False

    def __str__(self) -> str:
        return self.english


class MapRef(NamedTuple):
    """A map by its name as the map file spells it ('USA'); the bot shows the translated name."""

    name: str

    def __str__(self) -> str:
        return self.name


class CardRef(NamedTuple):
    """A train card (engine.cards index), by its notation name in English ('blue', 'loco')."""

    card: int

    def __str__(self) -> str:
        return ALL_CARD_NAMES[self.card]


class ListRef(NamedTuple):
    """Several items read as one list: `style` 'standard' (a and b) or 'or' (a or b), joined in
    English with `separator`."""

    items: tuple
    style: str = "standard"
    separator: str = ", "

    def __str__(self) -> str:
        return self.separator.join(map(str, self.items))


class Phrase(NamedTuple):
    """A piece of a message with its own template (marked with N_): a list item, a thing named."""

    template: str
    params: dict

    def __str__(self) -> str:
        return english(self.template, self.params)


def phrase(template: str, /, **params: object) -> Phrase:
    return Phrase(template, params)


def _data(value: object) -> object:
    if isinstance(value, SeatRef):
        return value.seat
    if isinstance(value, ListRef):
        return [_data(item) for item in value.items]
    if isinstance(value, (CityRef, RouteRef, MapRef, CardRef, Phrase, Plural)):
        return str(value)
    return value


class TemplateError(Exception):
    """Every refusal the project words for a player (engine, storage and bot errors alike): an
    English template and its typed parameters, worded in the reader's language in one place
    (texts/error_text.py)."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template)
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return english(self.template, self.params)

    def __reduce__(self):
        return _rebuild, (type(self), self.template, self.params)

    @property
    def details(self) -> dict:
        """The parameters as plain data: a seat as its index, a list as a list, other references
        as their English text (`details['options']` of an AmbiguousActionError: card names)."""
        return {key: _data(value) for key, value in self.params.items()}


def _rebuild(cls: type[TemplateError], template: str, params: dict) -> TemplateError:
    return cls(template, **params)


class ActionError(TemplateError, ValueError):
    """Base class of the engine's errors: the action was not applied and nothing changed."""

    code = "action_error"


class InvalidActionError(ActionError):
    """The text could not be parsed as an action (unknown word, city, route or card)."""

    code = "invalid"


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid right now (not your turn, route taken, ...)."""

    code = "illegal"


class CardsShortError(IllegalActionError):
    """The hand lacks cards for the payment given; the game says which payment would work instead
    when one does."""


class GameOptionsError(ActionError):
    """Options a new game cannot have (a 2-player variant with 3 seats, a variant the map lacks):
    no game was created."""

    code = "options"


class AmbiguousActionError(ActionError):
    """The text fits several legal actions; `details['options']` lists them."""

    code = "ambiguous"


class UnknownMapError(GameOptionsError, KeyError):
    """No shipped map has that id (`load_map`, `Game.new`). Also a KeyError, as a lookup by id is, so
    callers that look a map up and fall back on the map object they hold keep working."""


class SeatCountError(GameOptionsError):
    """The map is not played with that many seats."""


class UnknownDeckError(GameOptionsError):
    """The map has no ticket deck of that id."""


class VariantError(GameOptionsError):
    """A variant the map does not have, a variant value that is not true or false, or variants
    that cannot be combined (with these seats, with each other)."""


class OptionValueError(GameOptionsError):
    """Another option out of range: where returned tickets go, the first seat, a rule hook."""


class Plural(NamedTuple):
    """A piece of a message whose words depend on a number `n` ("1 locomotive", "2 locomotives";
    Russian has three forms): an ngettext pair of English templates (marked where it is made by
    `plural(...)`, which the catalogs extract as singular and plural), `{n}` filled with `n`."""

    singular: str
    plural: str
    n: int
    params: dict

    def __str__(self) -> str:
        return english(self.singular if self.n == 1 else self.plural, {"n": self.n, **self.params})


def plural(singular: str, plural_form: str, n: int, /, **params: object) -> Plural:
    return Plural(singular, plural_form, n, params)
