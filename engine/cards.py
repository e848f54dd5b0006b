"""Train cards: eight colors and the locomotive, as small ints for speed.

A hand is a list of nine counts indexed by card (colors 0–7, locomotive 8); on Märklin (docs/rules.md
§8.2) eleven, with the "+4" locomotive (9) and the passenger card (10).
"""

from __future__ import annotations

COLORS: tuple[str, ...] = ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")
LOCO = 8
CARD_NAMES: tuple[str, ...] = COLORS + ("loco",)
NUM_CARD_KINDS = 9
LOCO4 = 9
PASSENGER = 10
#: Every card's name, Märklin's two included (CARD_NAMES stays the nine every map has).
ALL_CARD_NAMES: tuple[str, ...] = CARD_NAMES + ("loco4", "passenger")

#: Other spellings players type, mapped to the canonical card name.
CARD_ALIASES = {
    "purple": "pink",
    "violet": "pink",
    "locomotive": "loco",
    "locomotives": "loco",
    "wild": "loco",
    "rainbow": "loco",
}

_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


def card_index(name: str) -> int:
    """Index of a card name (case-insensitive, aliases allowed); KeyError if unknown."""
    key = name.strip().lower()
    return _BY_NAME[CARD_ALIASES.get(key, key)]


def standard_deck(per_color: int = 12, locomotives: int = 14) -> list[int]:
    """The 110-card deck of docs/rules.md §1, unshuffled."""
    deck = [c for c in range(len(COLORS)) for _ in range(per_color)]
    deck.extend([LOCO] * locomotives)
    return deck
