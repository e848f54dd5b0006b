"""Nordic Countries (docs/rules.md §6): the card rules of the Nordic map, registered as the rule hook
"nordic" that `nordic.json` names.

- Locomotives pay only for ferries and tunnels; a face-up locomotive counts as one card (it may
  be the second card), and the market is never reset for 3 face-up locomotives.
- Ferries: each required locomotive may be replaced by `ferry_substitute` (3) cards of any
  colors; substitutes never replace a colored card (no chaining).
- Tunnels: the cards paid before the reveal are all of one color or all locomotives, never a mix;
  the extra cards after the reveal may be locomotives.
- Murmansk-Lieksa (data: `substitute: 4`): any 4 colored cards replace one missing card of the
  color paid; handled by engine.payments from the track data.

Data: 40 trains, 2-3 players, both tracks of a double route only with 3 players, 5 starting
tickets (keep 2) and 3 drawn (keep 1), returned tickets out of the game, the Globetrotter bonus
(10) and no longest-path bonus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import N_
from engine.hooks import GameState, RuleHooks

if TYPE_CHECKING:
    from engine.mapdata import Track


class NordicHooks(RuleHooks):
    name = "nordic"
    free_locomotive_draws = True
    market_resets = False
    unmixed_tunnels = True
    locomotive_use = "ferries and tunnels"
    locomotive_error = N_("locomotives can only be used on ferries and tunnels on this map")

    def configure(self, game: GameState) -> None:
        super().configure(game)
        self.ferry_substitute = int(game.map.rules.extra.get("ferry_substitute", 3))

    def locomotives_usable(self, track: Track) -> bool:
        return track.tunnel or track.ferry > 0
