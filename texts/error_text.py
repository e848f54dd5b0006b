"""A refusal (an engine ActionError, or any TemplateError) in the player's language.

The engine raises errors with an English message template and its parameters (engine/errors.py);
this is where the bot words them for a player: the template through the catalogs, and each
parameter (city, route, map, card, seat, list, nested phrase) in that player's language and city
names. Seats become the players' names, so no message says "seat 2".
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Game
from engine.errors import CardRef, CityRef, ListRef, MapRef, Phrase, Plural, RouteRef, SeatRef, TemplateError
from i18n import Translator
from texts.present import route_name

#: The most characters of a player's own text a refusal quotes back.
QUOTE = 80


def describe_error(
    t: Translator, error: TemplateError, game: Game | None, name: Callable[[int], str], *, sentence: bool = True
) -> str:
    """The error's message for the player reading it (`name(seat)` names a seat's player), as a
    sentence (capitalized) unless `sentence` is False (a reason quoted inside another message).

    Without a game, cities and routes keep their printed English names."""
    text = _text(t, error.template, error.params, game, name)
    return text[:1].upper() + text[1:] if sentence else text


def _text(t: Translator, template: str, params: dict, game: Game | None, name: Callable[[int], str]) -> str:
    return t.gettext(template, **{key: _word(t, value, game, name) for key, value in params.items()})


def _word(t: Translator, value: object, game: Game | None, name: Callable[[int], str]) -> object:
    """One parameter in the reader's words; plain values (numbers, what the player typed) as they are."""
    if isinstance(value, SeatRef):
        return name(value.seat)
    if isinstance(value, CardRef):
        return t.card(value.card)
    if isinstance(value, MapRef):
        return t.map_name(value)
    if isinstance(value, ListRef):
        return t.join([str(_word(t, item, game, name)) for item in value.items], value.style)
    if isinstance(value, Phrase):
        return _text(t, value.template, value.params, game, name)
    if isinstance(value, Plural):
        return t.ngettext(
            value.singular, value.plural, value.n, **{k: _word(t, v, game, name) for k, v in value.params.items()}
        )
    if isinstance(value, CityRef) and game is not None:
        return t.city(game.map.cities[value.index])
    if isinstance(value, RouteRef) and game is not None:
        track = game.map.tracks[value.track]
        return route_name(t, game.map, track) if value.numbered else game.map.route_name(track, t.city)
    if isinstance(value, (CityRef, RouteRef)):
        return str(value)
    if isinstance(value, str) and len(value) > QUOTE:
        return value[: QUOTE - 1] + "…"  # what the player typed, quoted back: never the whole of a long paste
    return value
