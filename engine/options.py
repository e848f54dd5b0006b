"""What the host picks for a game at `Game.new`: everything else comes from the map."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameOptions:
    """What the host picks at `new`. Everything else comes from the map."""

    deck: str | None = None  # ticket deck id; None = the map's default
    returned_tickets: str | None = None  # "box" | "bottom"; None = the deck's rule
    first_seat: int | None = None  # None = drawn from the seed
    variants: dict = field(default_factory=dict)  # map-hook options (e.g. Nederland tolls)

    def to_json(self) -> dict:
        return {
            "deck": self.deck,
            "returned_tickets": self.returned_tickets,
            "first_seat": self.first_seat,
            "variants": dict(self.variants),
        }

    @classmethod
    def from_json(cls, data: dict) -> GameOptions:
        return cls(
            deck=data.get("deck"),
            returned_tickets=data.get("returned_tickets"),
            first_seat=data.get("first_seat"),
            variants=dict(data.get("variants", {})),
        )
