"""Option choices several controllers offer (each controller keeps its own others)."""

from __future__ import annotations

from discord import app_commands

from bot.command_translator import locale_format, locale_pstr
from engine import available_maps, load_map

MAP_CHOICES = [app_commands.Choice(name=locale_pstr("map", load_map(m).name), value=m) for m in available_maps()]
#: Every map's ticket decks; a value is "map:deck" (`deck_choice` splits it).
DECK_CHOICES = [
    app_commands.Choice(
        name=locale_format("{map}: {deck}", map=("map", load_map(m).name), deck=("deck", d.name)), value=f"{m}:{d.id}"
    )
    for m in available_maps()
    for d in load_map(m).rules.decks.values()
][:25]


def deck_choice(value: str) -> tuple[str, str]:
    """A DECK_CHOICES value: (the map's id, the deck's id)."""
    map_id, _, deck = value.partition(":")
    return map_id, deck
