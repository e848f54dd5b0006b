"""The moves at the start of a turn, listed fast: the claims a hand pays for and the stations.

Tracks are grouped by what pays for them (`_ClaimListing`, one per map and card rules), so one
payment check serves every track of a group, and a game keeps each group's free tracks
(`track_claimed`). Part of the Game (engine/game.py), as a base class of it.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from itertools import chain

from engine.actions import (
    Action,
    BuildStation,
    Claim,
    Pass,
)
from engine.cards import LOCO
from engine.draws import DRAW_DECK, DRAW_MARKET, DRAW_TICKETS
from engine.mapdata import MapData, Track
from engine.payments import (
    any_color_options,
    extended_payment_options,
    held_colors,
    payment_options,
    unmixed_options,
)

COLORED_ONLY = "colored"  # claim group: locomotives may not pay (Switzerland's and Nordic's plain routes)
UNMIXED = "unmixed"  # claim group: one color or locomotives only, never both (Nordic tunnels)

#: Card counts the listing's tables cover (beyond: `_turn_start_actions` caps a hand's counts).
_HAND_COUNTS = 32


class _ClaimListing:
    """Tracks grouped by what pays for them (color, length, ferry and the map's card rules for
    the track, None on most maps), so one payment check serves every track of a group when
    listing legal claims, with the caches `_turn_start_actions` fills (all bounded):
    - per group and payment, its Claim for every track (a column); per colored group and
      payment situation met (two counts of the hand), its columns (other groups look theirs up
      per payment: too many lists of payments to keep);
    - the groups worth a payment check, as bit sets (bit n: group n) to combine per turn start:
      `by_locos[locomotives][color][cards of that color]`, the colored groups these cards pay
      for, and `by_locos[locomotives][8][most cards of one color]` the gray ones, with the
      groups under other card rules (their own payment search decides); a ferry also needs its
      locomotives; counts below `_HAND_COUNTS`; `trains[t]`: the groups of length <= t;
    - `where`: per track index, its group's number and its position there (a game keeps each
      group's free track positions, `Game._free`, and the bit set of groups with one,
      `Game._free_mask`)."""

    __slots__ = ("groups", "longest", "where", "trains", "by_locos", "every_position")

    def __init__(self, map_data: MapData, card_rules: tuple) -> None:
        groups: dict[tuple, list] = {}
        for t in map_data.tracks:
            groups.setdefault((t.color, t.length, t.ferry, card_rules[t.index]), []).append((t.index, t.id, t.double))
        self.groups = tuple(
            (*key, tuple(tracks), tuple(double for _, _, double in tracks), {}, {}, number)
            for number, (key, tracks) in enumerate(groups.items())
        )
        self.longest = longest = max(t.length for t in map_data.tracks)
        self.where = {index: (g[-1], pos) for g in self.groups for pos, (index, _, _) in enumerate(g[4])}
        self.every_position = tuple(tuple(range(len(g[4]))) for g in self.groups)
        span = range(longest + 1)

        def reach(color, cards: int, locos: int) -> int:
            mask = 0
            for g in self.groups:
                rules = g[3]
                if g[0] == color and (
                    rules is None and cards + locos >= g[1] and locos >= g[2] or rules is COLORED_ONLY and cards >= g[1]
                ):
                    mask |= 1 << g[-1]
            return mask

        colored = [[[reach(c, n, k) for k in span] for n in span] for c in range(LOCO)]
        other = sum(1 << g[-1] for g in self.groups if g[3] is not None and g[3] is not COLORED_ONLY)
        gray = [[other | reach(None, n, k) for k in span] for n in span]
        self.trains = tuple(sum(1 << g[-1] for g in self.groups if g[1] <= t) for t in span)
        cap = [n if n < longest else longest for n in range(_HAND_COUNTS)]
        self.by_locos = tuple(
            tuple(tuple(table[cap[n]][cap[k]] for n in range(_HAND_COUNTS)) for table in (*colored, gray))
            for k in range(_HAND_COUNTS)
        )


@cache
def _claim_listing(map_data: MapData, card_rules: tuple) -> _ClaimListing:
    return _ClaimListing(map_data, card_rules)


def _claim_columns(tracks: tuple, made: dict, options: list) -> list[tuple]:
    """Per payment option, its Claim for every track of the group (each built once: `made`)."""
    columns = []
    for option in options:
        column = made.get(option)
        if column is None:
            column = made[option] = tuple(Claim(tid, *option) for _, tid, _ in tracks)
        columns.append(column)
    return columns


@cache
def _station_builds(map_data: MapData) -> dict:
    """Per station payment met on the map, its BuildStation for every city."""
    return {}


class ClaimListing:
    """The Game's listing of the moves at the start of a turn (a base class of Game)."""

    __slots__ = ()

    def _card_rules(self) -> None:
        """Per track: None when docs/rules.md §1/§3 payments apply, else the map's card rules
        (locomotives usable, ferry substitute, substitute) from the hooks and the track data."""
        hooks = self.hooks
        self._free_locos = hooks.free_locomotive_draws
        rules = []
        for t in self.map.tracks:
            locos_ok = hooks.locomotives_usable(t)
            ferry_sub = hooks.ferry_substitute if t.ferry else 0
            rules.append(
                None if locos_ok and not ferry_sub and not t.substitute else (locos_ok, ferry_sub, t.substitute)
            )
        self.track_rules = rules
        #: Tunnels paid with one color or with locomotives only (docs/rules.md §6.4, Nordic Countries).
        self._unmixed = frozenset(t.index for t in self.map.tracks if t.tunnel and hooks.unmixed_tunnels)
        # Tracks paid with colored cards only (no locomotives, no substitutes) share the core's
        # fast payment listing, given a hand without its locomotives.
        self._listing = _claim_listing(
            self.map,
            tuple(
                [
                    UNMIXED if i in self._unmixed else COLORED_ONLY if r == (False, 0, 0) else r
                    for i, r in enumerate(rules)
                ]
            ),
        )

    def _turn_start_actions(self, seat: int, collapse: bool) -> list[Action]:
        if self.hooks.lists_turns:
            return self.hooks.turn_actions(self, seat, collapse)
        market = self.market
        if -1 in market:
            actions: list[Action] = [DRAW_MARKET[i] for i, c in enumerate(market) if c >= 0]
        else:
            actions = list(DRAW_MARKET)
        if self.deck or self.discard:
            actions.append(DRAW_DECK)
        if self.ticket_deck or (self.ticket_discard and self.returned_policy == "discard"):
            actions.append(DRAW_TICKETS)
        hand = self.hands[seat]
        locos = hand[LOCO]
        trains = self.trains[seat]
        owner = self.owner
        open_ = self._doubles_open
        no_locos = None
        # Only the groups with a free track that something in the hand may pay for, in group order.
        listing = self._listing
        longest = listing.longest
        try:
            row = listing.by_locos[locos]
            mask = (
                row[0][hand[0]]
                | row[1][hand[1]]
                | row[2][hand[2]]
                | row[3][hand[3]]
                | row[4][hand[4]]
                | row[5][hand[5]]
                | row[6][hand[6]]
                | row[7][hand[7]]
                | row[8][max(hand[:LOCO])]
            )
        except IndexError:  # more cards of a kind than the tables count: their counts capped
            capped = [n if n < longest else longest for n in hand]
            row = listing.by_locos[capped[LOCO]]
            mask = row[8][max(capped[:LOCO])]
            for c in range(LOCO):
                mask |= row[c][capped[c]]
        held = None
        self._free_positions()
        mask &= listing.trains[trains if trains < longest else longest] & self._free_mask
        free = self._free
        groups = listing.groups
        while mask:
            low = mask & -mask
            mask ^= low
            color, length, ferry, card_rules, tracks, doubles, colored, made, number = groups[low.bit_length() - 1]
            positions = free[number]
            if color is not None and (card_rules is None or card_rules is COLORED_ONLY):
                # A colored group's Claim columns are ready for each payment situation met: two
                # counts of the hand (beyond the length they pay nothing more; no locomotives
                # count where they may not pay).
                have = hand[color]
                usable = locos if card_rules is None else 0
                key = (have if have < length else length) * 64 + (usable if usable < length else length) * 2 + collapse
                columns = colored.get(key)
                if columns is None:
                    if card_rules is not None and no_locos is None:
                        no_locos = hand[:LOCO] + [0]
                    columns = colored[key] = _claim_columns(
                        tracks,
                        made,
                        payment_options(hand if card_rules is None else no_locos, length, color, ferry, collapse),
                    )
            else:
                # Other groups meet too many payment situations to key them by a few counts: their
                # columns come from the payments met, one lookup per payment.
                if card_rules is None:  # gray: docs/rules.md §1/§3 payments (every USA, Europe and Nederland track)
                    if collapse:
                        if held is None:
                            held = held_colors(hand)
                        options = any_color_options(held, locos, length, ferry)
                    else:
                        options = payment_options(hand, length, color, ferry)
                elif card_rules is COLORED_ONLY:
                    if no_locos is None:
                        no_locos = hand[:LOCO] + [0]
                    options = payment_options(no_locos, length, color, ferry, collapse)
                elif card_rules is UNMIXED:
                    options = unmixed_options(payment_options(hand, length, color, ferry), length, collapse)
                else:
                    options = self._extended_options(hand, length, color, ferry, card_rules, collapse)
                columns = _claim_columns(tracks, made, options)
            if columns:
                for pos in positions:  # per free track, its Claim per payment
                    double = doubles[pos]
                    if double is None or (partner := owner[double]) < 0 or (open_ and partner != seat):
                        for column in columns:
                            actions.append(column[pos])
        if self.stations_left[seat]:
            cost = self.map.rules.station_costs[len(self.stations[seat])]
            options = payment_options(hand, cost, None, 0, collapse)
            if options:
                columns = self._station_columns(options)
                if len(columns) == 1:
                    actions += columns[0]
                else:  # per free city, each payment
                    actions.extend(chain.from_iterable(zip(*columns)))
        if not actions:
            actions.append(Pass())
        return actions

    def _free_positions(self) -> list[tuple[int, ...]]:
        """Per claim group of `_listing`, the positions of its unowned tracks, in group order, and
        `_free_mask`, the bit set of the groups with one: kept up to date by `track_claimed`,
        rebuilt whenever `owner` is another list (`from_json`)."""
        if self._free_owner is not self.owner:
            owner = self.owner
            if max(owner) < 0:  # a new game: every track free
                self._free = list(self._listing.every_position)
            else:
                self._free = [
                    tuple(pos for pos, (index, _, _) in enumerate(g[4]) if owner[index] < 0)
                    for g in self._listing.groups
                ]
            self._free_mask = sum(1 << number for number, positions in enumerate(self._free) if positions)
            self._free_owner = owner
        return self._free

    def _station_columns(self, options: list) -> list[tuple]:
        """Per payment of `options`, its BuildStation for every city without a station, in city
        order: kept per game until a station is built (each BuildStation made once per map)."""
        owners = self.station_owner
        kept = self._stations_free
        if kept is None or kept[0] is not owners or kept[1] != len(owners):
            free = tuple(i for i in range(len(self.map.cities)) if i not in owners)
            kept = self._stations_free = (owners, len(owners), free, {})
        columns = kept[3]
        out = []
        for option in options:
            column = columns.get(option)
            if column is None:
                made = _station_builds(self.map)
                every = made.get(option)
                if every is None:
                    every = made[option] = tuple(BuildStation(city.id, *option) for city in self.map.cities)
                column = columns[option] = tuple(every[i] for i in kept[2])
            out.append(column)
        return out

    def track_claimed(self, index: int) -> None:
        """Call after setting `owner[index]` outside a move (the engine's claims do), to an owner
        or back to -1: the move listing keeps each claim group's free tracks."""
        if self._free_owner is self.owner:
            number, pos = self._listing.where[index]
            positions = self._free[number]
            at = bisect_left(positions, pos)  # (positions are sorted)
            taken = at < len(positions) and positions[at] == pos
            if self.owner[index] >= 0 and taken:
                positions = positions[:at] + positions[at + 1 :]
            elif self.owner[index] < 0 and not taken:
                positions = (*positions[:at], pos, *positions[at:])
            self._free[number] = positions
            if positions:
                self._free_mask |= 1 << number
            else:
                self._free_mask &= ~(1 << number)

    @staticmethod
    def _extended_options(
        hand: list[int], length: int, color: int | None, ferry: int, card_rules: tuple, collapse: bool
    ) -> list:
        locos_ok, ferry_sub, substitute = card_rules
        return extended_payment_options(
            hand, length, color, ferry, locos_ok=locos_ok, ferry_sub=ferry_sub, substitute=substitute, collapse=collapse
        )

    def track_payments(self, seat: int, track: Track) -> list[tuple[int | None, int, tuple[int, ...]]]:
        """Every payment (color, locos, subs) `seat`'s hand has for `track` under this map's card
        rules, whether or not the track is free: the parser fills in defaults from these and an
        error names one of them."""
        hand = self.hands[seat]
        card_rules = self.track_rules[track.index]
        if card_rules is not None:
            return self._extended_options(hand, track.length, track.color, track.ferry, card_rules, False)
        options = payment_options(hand, track.length, track.color, track.ferry)
        if track.index in self._unmixed:
            options = unmixed_options(options, track.length)
        return [(c, k, ()) for c, k in options]
