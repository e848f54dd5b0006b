"""Switzerland (docs/rules.md §5): the card rules of the Swiss map and its end-bonus variant, the
rule hook "switzerland" that `switzerland.json` names.

Variant `most_tickets` (default off): the 10-point end bonus goes to the most completed tickets
(all tied players score it; nobody when nobody completed one) instead of the longest path.

Everything else is data: 40 trains, 2-3 players (`max_players`), both tracks of a double route
only with 3 players (`doubles_min_players`), tunnels as in Europe, the longest-path bonus, and
the country tickets (a ticket's `destinations`, scored by engine.scoring: the highest completed
value, or minus the lowest when none is completed; countries are reached through their border
points, so no connection passes through a country).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import N_
from engine.hooks import GameState, RuleHooks

if TYPE_CHECKING:
    from engine.mapdata import TicketDeck, Track


class SwitzerlandHooks(RuleHooks):
    name = "switzerland"
    #: Locomotives pay only for tunnels, so a face-up one counts as one card like any other.
    free_locomotive_draws = True
    locomotive_use = "tunnels"
    locomotive_error = N_("locomotives can only be used on tunnels on this map")
    variants = {"most_tickets": False}

    def end_bonuses(self, game: GameState, deck: TicketDeck) -> tuple[int, int]:
        longest, most_tickets = super().end_bonuses(game, deck)
        if self.variant(game, "most_tickets"):
            return 0, longest  # the same points, for the most completed tickets instead
        return longest, most_tickets

    def locomotives_usable(self, track: Track) -> bool:
        return track.tunnel
