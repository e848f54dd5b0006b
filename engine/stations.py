"""Stations at the end of the game (docs/rules.md §3): each station a seat built borrows at most one
rival track at its city; the seat takes the choice worth the most ticket points, then completed
tickets (the first such when each station's options are tried in order, no track first, the later
stations varying fastest). tests/engine/test_scoring_stations.py checks it against trying every
assignment.

The algorithm: a depth-first walk of the choices, station by station (`_best_choice`), on the
seat's network shrunk to its components, cutting what cannot change the answer. The bit sets:
- a component a borrowed track could touch has one bit (`component_bit`: its first city -> its bit);
- an option is (track, `a_bit`: its first end's component, `b_bit`: its second end's, both bits);
- a pair is the bit set of an open ticket's two components, with its key in `keys` (the tickets'
  points and count between those two components as one int, `_POINT`);
- a group is the bit set of the components the tracks chosen so far join into one; `reach`,
  `touched`, `ahead(s)`: the components some (later) station's options touch.
The bound: at most (options + 1) ^ stations choices (Europe: 3 stations, up to 10 tracks at a city, 1,331);
options that join nothing new, dead ends (`_drop_dead_ends`) and subtrees whose best possible gain
(a pass over the pairs) cannot beat the best so far are not walked, and the last station is one
pass over the pairs per set of groups left.

The searches are closures that call themselves, and each drops its closure when done: a closure
referring to itself is a reference cycle, which would leave all its search's data to the garbage
collector (its collections were about 15 % of the costliest Europe scorings' CPU time)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.network import adjacency_of, components_of
from engine.outcome import TicketResult
from engine.tickets import ordinary_result, places_result

if TYPE_CHECKING:
    from engine.mapdata import Track


#: The station choice keys (points, completed) as one int: points times this (above any count of tickets) plus the count.
_POINT = 1 << 16


def _joined(joins: Iterable[int]) -> list[int]:
    """The groups (bit sets of components) that joins (bit sets of two components each) make."""
    groups: list[int] = []
    for joined in joins:
        apart = []
        for group in groups:
            if group & joined:
                joined |= group
            else:
                apart.append(group)
        apart.append(joined)
        groups = apart
    return groups


def _regrouped(find, component_bit: dict[int, int], groups: Sequence[int]):
    """`find` once each group (a bit set of the components `component_bit` names) is joined into one."""
    label = {x: -group for x, b in component_bit.items() for group in groups if group & b}  # (< 0: no component's name)

    def regrouped(city: int) -> int:
        c = find(city)
        return label.get(c, c)

    return regrouped


def best_station_use(
    own: list[Track], tickets: Sequence, station_options: list[list[Track]], component: dict[int, int] | None = None
) -> tuple[tuple[TicketResult, ...], tuple[Track, ...]]:
    """docs/rules.md §3: each station borrows at most one adjacent opponent track; pick the choice
    that maximizes ticket points, then completed tickets (the first such choice when trying each
    station's options in order, no track first, the later stations varying fastest). `component`:
    the own network's components (`components_of`), when the caller has them.

    The choices are tried on the own network's components (one bit each), and only those that can
    make a difference: a borrowed track inside one component, or joining the same two components as
    an earlier option of its station, or ending in a component no other station reaches and no
    ticket still needs (an open ticket needs its ends' components only if station tracks reach
    both), changes nothing that an earlier choice did not, so it is never the first best choice
    and is left out. Only the tickets the borrowed tracks join change their results."""
    if component is None:
        component = components_of(adjacency_of(own))[0]
    get = component.get

    def find(city: int) -> int:
        return get(city, city)

    # Every ticket's result on the own network, in one pass; the open ordinary tickets (position,
    # their ends' components) and the country tickets' positions (more borrowed track may change them).
    results: list[TicketResult] = []
    opened = []
    places: list[int] = []
    for t in tickets:
        if t.destinations:
            places.append(len(results))
            results.append(places_result(find, t))
        else:
            ca, cb = get(t.a, t.a), get(t.b, t.b)
            if ca != cb:
                opened.append((len(results), ca, cb))
            results.append(ordinary_result(t.id, t.points, ca == cb))
    if not opened and not places:
        return tuple(results), ()
    component_bit: dict[int, int] = {}
    options = []  # per station, its options (track, bit of one end's component, the other's, both)
    for opts in station_options:
        kept, met = [], []
        for t in opts:
            ra, rb = get(t.a, t.a), get(t.b, t.b)
            if ra != rb:
                a_bit = component_bit.get(ra) or component_bit.setdefault(ra, 1 << len(component_bit))
                b_bit = component_bit.get(rb) or component_bit.setdefault(rb, 1 << len(component_bit))
                both = a_bit | b_bit
                if both not in met:
                    met.append(both)
                    kept.append((t, a_bit, b_bit, both))
        if kept:
            options.append(kept)
    # An open ordinary ticket changes only if both its ends' components are joined by some option,
    # so only then are they needed.
    needed = 0
    joinable = []  # (bit set of the ticket's two components, its position)
    for p, ca, cb in opened:
        a_bit = component_bit.get(ca)
        if a_bit:
            b_bit = component_bit.get(cb)
            if b_bit:
                needed |= a_bit | b_bit
                joinable.append((a_bit | b_bit, p))
    for p in places:
        t = tickets[p]
        for n in (*t.a_nodes, *(n for _, nodes, _ in t.destinations for n in nodes)):
            needed |= component_bit.get(find(n), 0)
    reach = _drop_dead_ends(options, needed)
    # Tickets between the same two components count together (`_POINT`).
    keys: dict[int, int] = {}
    for both, p in joinable:
        if both & reach == both:
            keys[both] = keys.get(both, 0) + tickets[p].points * (2 * _POINT) + 1
    if not options or not keys and not places:
        return tuple(results), ()
    chosen = _best_choice(options, keys, [tickets[p] for p in places], find, component_bit)
    if not chosen:
        return tuple(results), ()
    borrowed = tuple([c[0] for c in chosen])
    joins = [c[3] for c in chosen]
    groups = _joined(joins)
    without = [_joined(joins[:i] + joins[i + 1 :]) for i in range(len(joins))]
    # Per borrowed track, the group of its first end without it: a ticket the borrowed tracks
    # complete needs it when that group holds one of its two components only.
    sides = []
    for (_, a_bit, _, _), rest in zip(chosen, without):
        side = a_bit
        for group in rest:
            if group & a_bit:
                side = group
        sides.append(side)
    covered = 0
    for join in joins:
        covered |= join
    vias = {}  # per pair of components inside a group, the borrowed tracks its tickets need
    for both in keys:
        if both & covered == both:
            for group in groups:
                if both & group == both:
                    vias[both] = tuple([b.id for b, side in zip(borrowed, sides) if 0 != side & both != both])
                    break
    if vias:
        for both, p in joinable:
            needs = vias.get(both)
            if needs:
                t = tickets[p]
                results[p] = TicketResult(t.id, t.points, True, needs)
    if places:
        joined = _regrouped(find, component_bit, groups)
        for p in places:
            t = tickets[p]
            r = places_result(joined, t)
            if r.completed:
                needs = tuple(
                    b.id
                    for b, rest in zip(borrowed, without)
                    if not places_result(_regrouped(find, component_bit, rest), t).completed
                )
                r = TicketResult(r.id, r.points, True, needs, r.reached)
            results[p] = r
    return tuple(results), borrowed


def _best_choice(options: list[list[tuple]], keys: dict[int, int], places: list, find, component_bit: dict[int, int]):
    """The first best choice of options (track, a_bit, b_bit, both bits) (one option or none per station,
    the later stations varying fastest), or () when none beats borrowing nothing. `keys`: the
    ordinary tickets' key per bit set of their two components; `places`: the country tickets.

    The choices are walked as a tree, station by station, each joining two groups of components on
    the way down. A group is a bit set of the components the stations' tracks reach; what joining
    two groups adds is the key of the pairs of components between them (a pass over the pairs,
    cheaper than keeping what every group is worth), and an option touching no group adds its own
    pair's key. A key (points, completed) is one int (`_POINT`), counted from borrowing nothing.
    Left out, as they never hold a better choice than one met before: a track joining nothing new
    (or the same two groups as an earlier option of its station), which leads to the same groups as
    borrowing nothing there. Without country tickets, a group no later station's track touches is
    dropped (nothing can change it), so the last station's first best option depends on the groups
    left only, and is found once per such groups; and a track whose new group no later station
    touches leads to the same choices ahead as borrowing nothing there, so each step returns at most
    what its choices add and that subtree is walked again only if its most, plus the track's gain,
    beats the best so far; below the first station, with few pairs (`_FEW_PAIRS`: with more, it
    almost never cuts), a walk stops when even joining every pair apart whose two groups later
    tracks reach would not beat it. The last station's options (tracks at one city) share a
    component, so each joins that component's group (the hub) to another group: one pass over the
    pairs touching the hub gives what each option adds (options sharing none, never on a map, are
    walked as with country tickets). The country tickets (none on maps with stations) are scored
    at each full choice.
    Cost: at most the product of (options + 1) over the stations, less what the cuts above leave out."""
    pairs = list(keys.items())
    touched = [0] * len(options)  # per station, the components it and the later stations touch
    reach = 0
    for station in range(len(options) - 1, -1, -1):
        for option in options[station]:
            reach |= option[3]
        touched[station] = reach
    best = [0, ()]
    chosen: list = []
    last = len(options) - 1
    final = options[last]
    joins: dict[tuple[int, ...], tuple] = {}  # groups left -> the last station's gain, and per group it joins
    befores = [places_result(find, t) for t in places] if places else ()

    def score(_: int, groups: tuple[int, ...], value: int) -> int:
        """A full choice (`chosen`, making `groups`) worth `value` (before country tickets)."""
        joined = _regrouped(find, component_bit, groups)
        for t, before in zip(places, befores):
            after = places_result(joined, t)
            points = (after.points if after.completed else -after.points) - (
                before.points if before.completed else -before.points
            )
            value += points * _POINT + after.completed - before.completed
        if value > best[0]:
            best[0], best[1] = value, tuple(chosen)
        return 0

    def finish(_: int, groups: tuple[int, ...], value: int) -> int:
        """The last station's choice, without country tickets: its first best option; what it adds.
        Its options join the group of the component they share (the hub) to another group."""
        if value > best[0]:
            best[0], best[1] = value, tuple(chosen)
        found = joins.get(groups)
        if found is None:
            hub = common
            for group in groups:
                if group & common:
                    hub = group
                    break
            gains: dict[int, int] = {}  # per group (or component) an option joins to the hub, the pairs' key
            gain = 0
            for both, key in pairs if hub != common else spokes:
                other = both & ~hub
                if other != both and other:
                    for group in groups:
                        if group & other:
                            other = group
                            break
                    if other & reached:
                        more = gains[other] = gains.get(other, 0) + key
                        if more > gain:
                            gain = more
            found = joins[groups] = (gain, gains)
        gain, gains = found
        if value + gain > best[0]:
            for option in final:
                other = option[3] & ~common
                for group in groups:
                    if group & other:
                        other = group
                        break
                if gains.get(other) == gain:
                    best[0], best[1] = value + gain, (*chosen, option)
                    break
        return gain

    def visit(station: int, groups: tuple[int, ...], value: int) -> int:
        """This station's choices and the later ones'; what they add at most (without country tickets)."""
        # `groups`: the groups of several components (one per track chosen at most).
        below, ahead, then = station + 1, aheads[station], thens[station]
        kept = groups
        for group in groups:
            if not group & ahead:
                kept = tuple([g for g in groups if g & ahead])
                break
        if groups and few:  # at most: joining every pair apart whose two groups later tracks reach
            reach = touched[station]
            for group in groups:
                reach |= group
            bound = 0
            for both, key in pairs:
                if both & reach == both:
                    for group in groups:
                        if both & group == both:
                            break
                    else:
                        bound += key
            if value + bound <= best[0]:
                return bound
        most = rest = then(below, kept, value)
        covered = 0
        for group in groups:
            covered |= group
        met = []
        for option in options[station]:
            _, a_bit, b_bit, joined = option
            if joined & covered:  # (else it joins two components no group holds, unlike any other option)
                group_a, group_b = a_bit, b_bit
                for group in groups:
                    if group & a_bit:
                        group_a = group
                    if group & b_bit:
                        group_b = group
                joined = group_a | group_b
                if group_a == group_b or joined in met:
                    continue
                met.append(joined)
                more = 0
                for both, key in pairs:
                    if both & group_a and both & group_b:
                        more += key
            else:
                more = keys.get(joined, 0)
            if joined & ahead:
                after = (joined,)
                for group in kept:
                    if not group & joined:
                        after += (group,)
                chosen.append(option)
                more += then(below, after, value + more)
                chosen.pop()
            else:  # (nor do its two groups: the same choices ahead as borrowing nothing here, shifted)
                if value + more + rest > best[0]:
                    chosen.append(option)
                    then(below, kept, value + more)
                    chosen.pop()
                more += rest
            if more > most:
                most = more
        return most

    few = len(pairs) <= _FEW_PAIRS and not places
    common = -1  # a component every option of the last station touches (0: none)
    for option in final:
        common &= option[3]
    common &= -common
    spokes = [(both, key) for both, key in pairs if both & common]  # (the pairs the hub joins while alone)
    reached = touched[last]
    whole = places or not common  # (then every station is walked, and `score` takes each full choice)
    # Per station, the components the later stations touch (a group touching none is dropped, -1:
    # none is) and the next step.
    aheads = [-1] * len(options) if places else [*touched[1:], 0]
    thens = [visit] * last + [score] if whole else [*[visit] * (last - 1), finish]
    (visit if last or whole else finish)(0, (), 0)
    thens = None  # (no cycle left: see the module docstring)
    return best[1]


#: The station choice bounds a walk (a pass over the pairs of components to join) only with at most
#: this many pairs (see `_best_choice`).
_FEW_PAIRS = 3


def _drop_dead_ends(options: list[list[tuple]], needed: int) -> int:
    """Leave out borrowed tracks ending in a component no open ticket needs and no other
    station's track reaches (a dead end, whatever the other stations borrow), until none is left;
    the components (bit set) the stations' tracks still reach.
    Cost: a pass over the options per round, and a round only after some option was dropped."""
    while True:
        reach = shared = 0  # the components some station's tracks reach, and those two stations' do
        for kept in options:
            here = 0
            for option in kept:
                here |= option[3]
            shared |= reach & here
            reach |= here
        dead = reach & ~(needed | shared)
        if not dead:
            return reach
        options[:] = [alive for kept in options if (alive := [c for c in kept if not c[3] & dead])]
