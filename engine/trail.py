"""The longest trail (docs/rules.md §1): the longest walk along a seat's tracks using each track once
(cities may repeat), and the first such of a plain search, so that ties always give the same trail.
tests/engine/test_speed_equivalence.py checks it against trying every walk from every city, and
tests/engine/test_scoring_trail.py forces each search below onto every network.

The algorithm, cheapest first (`longest_trail_in` picks one):
- sparse networks: the plain depth-first search from the cities a longest trail may start at
  (odd cities, or a closed component's first city); bound: about starts x 2 ^ independent cycles
  trails (`_PLAIN_WORK`);
- else runs of tracks through cities of two tracks are one step (a chain, `_chains`), and the
  bridges (chains whose removal splits the network) cut it into blocks (`_bridges`): when each
  block holds at most `_MEMO_RANK` independent cycles, each state's longest continuation is kept
  (`_memo_trail`; a state is a city and the chains used in its block);
- else a search for a trail reaching a target, lowered pass by pass from the highest upper bound
  (`_block_bounds`: a trail through a block leaves unused at least the lightest pairing of the
  block's other odd cities, a T-join), cutting starts and bridges whose bound is below the target,
  states met before, and states that used a chain of every leftover their block may keep unused
  (`_leftovers`).
The bit sets: a chain is one bit (in `_chains`' order; `chain` in the loops), so `used_chains`
(the chains walked), `bridges` (the bridge chains), a block's `inside` chains and a leftover (the
chains a trail may leave unused) are bit sets of chains; a pairing's mask is a bit set of a block's
group cities (`city_bit` 1 << i: `group[i]`); the plain search's `used_tracks` has bit i for
`tracks[i]`; a search state is `used_chains << shift | city` (`shift`: the highest city's bits).

The searches are closures that call themselves, and each drops its closure when done: a closure
referring to itself is a reference cycle, which would leave all its search's data to the garbage
collector (its collections were about 15 % of the costliest Europe scorings' CPU time)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.network import adjacency_of, components_of

if TYPE_CHECKING:
    from engine.mapdata import Track


#: Networks whose starts times 2 to the power of their independent cycles (about the trails a
#: plain search tries) are at most this are searched plainly; the bounds below cost more there.
_PLAIN_WORK = 12


#: Networks whose blocks have at most this many independent cycles each are searched with a
#: memo of every state's longest continuation (`_memo_trail`); its states multiply with the cycles.
_MEMO_RANK = 1


#: Above this many odd or attachment cities in a block, its bounds are its weight: the pairing's
#: masks grow exponentially (16 cities about 3 ms, 18 about 10), but without the pairing a block of
#: 11 or 12 walked 2-20 ms where pairing it costs 0.4, and a network of 45 trains holds about 12.
_MAX_PAIRED = 16


#: Past this many leftovers a block entry is walked without them (`_leftovers`): the walk filters
#: them whenever a step uses one of their chains, and so many mean the target is far below what
#: the block holds.
_MAX_LEFTOVERS = 24


#: A pass lists leftovers only once it has walked this many states: a shorter walk costs less.
_LIST_AFTER = 16


#: Farther than any distance in a network.
_FAR = 1 << 30


class _Found(Exception):
    """The search met a trail as long as the target: the first such trail is the answer."""


def longest_trail(tracks: Sequence[Track]) -> tuple[int, tuple[Track, ...]]:
    """Longest trail (cities may repeat, each track used once) by total length; docs/rules.md §1.

    The answer is the first longest trail of a plain search that tries every start city (in
    order of first appearance in `tracks`), at each city its tracks in order. This search
    gives that same trail with less work, since what it leaves out never holds a longer trail:
    - a longest trail uses every track at both its ends (else it could be extended), so in a
      component with odd cities it runs between two of them, and a component without is one
      closed trail from its first city: only those starts are tried (a sparse network is
      then searched plainly);
    - in a denser network, runs of tracks through cities of two tracks (chains) are walked as
      one step; when no block (what is left joined once the bridges, the chains whose removal
      splits the network, are taken out) holds more than `_MEMO_RANK` cycles, every state's
      longest continuation is kept (`_memo_trail`);
    - else the search looks for a trail at least as long as a target, first the
      highest bound (`_block_bounds`): a start, or a bridge (a trail crosses it once and never
      comes back), whose bound is below the target
      is not walked, nor a state met before in the same pass (the same city with the same
      chains used), nor one that has used a chain of every leftover (`_leftovers`) its block
      may keep unused for the target. The first trail reaching the target is the first longest
      one; when there is none, the next target is the highest bound or length the pass left out
      (one below the target for a state cut by its leftovers; for a block entry without any, the
      most `_leftovers` learned it keeps, so passes that could not reach it are skipped).
    """
    adjacency = adjacency_of(tracks)
    return longest_trail_in(tracks, adjacency, components_of(adjacency)[1])


def longest_trail_in(
    tracks: Sequence[Track], adjacency: dict, closed: dict[int, bool]
) -> tuple[int, tuple[Track, ...]]:
    """`longest_trail` on the network's adjacency and closed components (`components_of`), which
    final scoring finds once for the station choice too.
    Cost: a pass walks each state (a city and the chains used) at most once (`seen`), and each pass lowers
    the target to the highest bound or length the one before left out, so there are at most as many passes
    as the highest bound exceeds the answer (usually one or two)."""
    if not tracks:
        return 0, ()
    starts = [c for c, out in adjacency.items() if len(out) & 1 or closed.get(c)]
    if len(starts) << (len(tracks) - len(adjacency) + len(closed)) <= _PLAIN_WORK:
        return _plain_trail(tracks, adjacency, starts)
    nodes = {c for c, out in adjacency.items() if len(out) != 2} | closed.keys()
    links = _chains(tracks, adjacency, nodes)
    bridges, block, rank = _bridges(links)
    shift = max(adjacency).bit_length()
    if rank <= _MEMO_RANK:
        return _memo_trail(tracks, links, bridges, starts, shift)
    bounds, reach, cores, exits = _block_bounds(links, bridges, block, starts)
    path: list[tuple[int, ...]] = []  # runs of track indices, backwards
    seen: set[int] = set()
    target = max(bounds.values())
    below = 0  # the highest length or bound left out by this pass
    lists: dict[tuple[int, int, int], tuple[int, ...] | int | None] = {}
    learned: dict[tuple[int, int], int] = {}
    listing = _LIST_AFTER  # once reached, the later passes list from their first state

    def leftovers(via: int, city: int, need: int) -> tuple[int, ...] | int | None:
        """`_leftovers` of the block entered at `city` (by the bridge `via`), kept for later passes
        (the most an entry keeps, once learned, for every need above it)."""
        key = (via, city, need)
        if key not in lists:
            core = cores.get(block[city])
            most = learned.get(key[:2])
            if core is None:
                lists[key] = None
            elif most is not None and most < need:
                lists[key] = most
            else:
                lists[key] = most = _leftovers(links, bridges, core, exits.get(block[city], ()), reach, via, city, need)
                if isinstance(most, int):
                    learned[key[:2]] = most
        return lists[key]

    def walk(
        city: int, total: int, used_chains: int, left: tuple[int, ...] | None, entry: tuple[int, int, int] | None
    ) -> None:
        """The search on from `city`; `left`: the block's leftovers still open, after their union
        (`_open`; None: not listed, nor yet to list from `entry` once the search has walked
        `_LIST_AFTER` states in a pass). The trail reaching the target is gathered into `path`
        backwards, as `_Found` passes each step (a step costs no list to keep)."""
        nonlocal below, listing
        if total > below:
            below = total
        if entry is not None and len(seen) > listing:
            listing = -1
            left = leftovers(*entry)
            if isinstance(left, int):  # no leftover keeps the need: the entry keeps at most `left`
                if target - entry[2] + left > below:
                    below = target - entry[2] + left
                return
            if left and left[0] & used_chains:
                left = _open(left[1:], used_chains)
            if left == ():  # no leftover reaching the target is left
                if target - 1 > below:
                    below = target - 1
                return
            entry = None
        for chain, nxt, length, run in links[city]:
            if used_chains & chain:
                continue
            if chain & bridges:
                bound = total + reach[chain, nxt]
                if bound < target:
                    if bound > below:
                        below = bound
                    continue
            state = (used_chains | chain) << shift | nxt
            if state in seen:
                continue
            seen.add(state)
            if chain & bridges:
                after, into = None, (chain, nxt, target - total - length)
            elif left is None or not left[0] & chain:
                after, into = left, entry
            else:
                after, into = _open(left[1:], chain), None
                if not after:
                    if target - 1 > below:
                        below = target - 1
                    continue
            if total + length >= target:
                path.append(run)
                raise _Found
            try:
                walk(nxt, total + length, used_chains | chain, after, into)
            except _Found:
                path.append(run)
                raise

    try:
        while True:
            below = 0
            seen.clear()
            try:
                for city in starts:
                    if bounds[city] >= target:
                        walk(city, 0, 0, None, (0, city, target))
                    elif bounds[city] > below:
                        below = bounds[city]
            except _Found:
                return target, tuple(tracks[i] for run in reversed(path) for i in run)
            target = below
    finally:
        walk = None  # (no cycle left: see the module docstring)


def _memo_trail(
    tracks: Sequence[Track], links: dict, bridges: int, starts: list[int], shift: int
) -> tuple[int, tuple[Track, ...]]:
    """The chain search with each state's longest continuation kept (the state: a city and the
    chains used), so no state is walked twice. Past a bridge the chains used before lie behind it,
    out of reach, so its state is the bridge alone: a tree is walked once, whatever the start.
    The answer is then followed from the first start reaching the longest length, taking at each
    city its first chain that still reaches it, as the plain search meets that trail first.
    Cost: each state once; a state is a city and the chains used in its block, so at most cities x 2 ^ (a
    block's chains), few with at most `_MEMO_RANK` cycles a block."""
    memo: dict[int, int] = {}

    def best(city: int, used_chains: int) -> int:
        """The longest continuation from `city` with the chains `used_chains` (a state not yet in the memo)."""
        value = 0
        for chain, nxt, length, _ in links[city]:
            if not used_chains & chain:
                after = chain if chain & bridges else used_chains | chain
                key = after << shift | nxt
                more = memo.get(key)
                if more is None:
                    more = memo[key] = best(nxt, after)
                if length + more > value:
                    value = length + more
        return value

    longest = city = 0
    for start in starts:
        value = memo.get(start)
        if value is None:
            value = memo[start] = best(start, 0)
        if value > longest:
            longest, city = value, start
    best = None  # (no cycle left: see the module docstring)
    trail: list[Track] = []
    used_chains = total = 0
    while total < longest:
        for chain, nxt, length, run in links[city]:
            if not used_chains & chain:
                after = chain if chain & bridges else used_chains | chain
                if total + length + memo[after << shift | nxt] == longest:
                    trail.extend(tracks[i] for i in run)
                    city, used_chains, total = nxt, after, total + length
                    break
    return longest, tuple(trail)


def _plain_trail(tracks: Sequence[Track], adjacency: dict, starts: list[int]) -> tuple[int, tuple[Track, ...]]:
    """The plain search from `starts` (a sparse network: every trail is cheap to try).
    Cost: every trail from each start, about starts x 2 ^ (independent cycles) trails walked track by track;
    used where that is at most `_PLAIN_WORK`."""
    best_len = 0
    best_path: list[int] = []
    path: list[int] = []
    lengths = [t.length for t in tracks]

    def walk(city: int, total: int, used_tracks: int) -> None:
        nonlocal best_len, best_path
        if total > best_len:
            best_len, best_path = total, path.copy()
        for i, nxt in adjacency[city]:
            if not used_tracks >> i & 1:
                path.append(i)
                walk(nxt, total + lengths[i], used_tracks | 1 << i)
                path.pop()

    for city in starts:
        walk(city, 0, 0)
    walk = None  # (no cycle left: see the module docstring)
    return best_len, tuple(tracks[i] for i in best_path)


def _chains(tracks: Sequence[Track], adjacency: dict, nodes: set[int]) -> dict[int, list[tuple]]:
    """Per node city, its chains in the order of their first tracks there: (its bit, the node at the
    other end, total length, the track indices walked). A chain back to its own node is listed
    from both ends, with one bit. A chain is walked from the first of its nodes in `adjacency`
    order; its other end is kept until that node lists it, keyed by its last track and which of
    that track's cities it ends at (read off the adjacency, no track attribute to fetch).
    Cost: one pass over the adjacency, each track walked once."""
    links: dict[int, list[tuple]] = {}
    ends: dict[int, tuple] = {}  # 2 * track at a node + (1 if the node is its higher city) -> chain from there
    next_bit = 1  # the bit of the next chain found
    for start, out in adjacency.items():
        if start not in nodes:
            continue
        here = links[start] = []
        for first, city in out:
            chain = ends.pop(first * 2 + (start > city), None)
            if chain is None:
                length = tracks[first].length
                if city in nodes:  # (most chains are one track)
                    run = (first,)
                    ends[first * 2 + (city > start)] = (next_bit, start, length, run)
                else:
                    walked, prev, before = [first], first, start
                    while city not in nodes:
                        (i0, c0), (i1, c1) = adjacency[city]
                        before = city
                        prev, city = (i1, c1) if i0 == prev else (i0, c0)
                        walked.append(prev)
                        length += tracks[prev].length
                    run = tuple(walked)
                    ends[prev * 2 + (city > before)] = (next_bit, start, length, run[::-1])
                chain = (next_bit, city, length, run)
                next_bit <<= 1
            here.append(chain)
    return links


def _bridges(links: dict) -> tuple[int, dict[int, int], int]:
    """The bridge chains (as a bit set), each node's block: its component once the bridges are
    removed (named by one of its nodes), and the most independent cycles of a block (its chains
    beyond a spanning tree: the chains met back to a node already on the search's path). One
    depth-first pass: a block is the nodes still on the stack past a bridge, closed when the search
    crosses it back.
    Cost: one depth-first pass over the chains."""
    order: dict[int, int] = {}
    stack: list[int] = []
    block: dict[int, int] = {}
    bridges = rank = back = 0  # back: twice the back chains met in the blocks still open

    def visit(u: int, via: int) -> int:
        """Searches on from `u` (reached by the chain `via`); the earliest node it reaches back to."""
        nonlocal bridges, rank, back
        here = least = order[u] = len(order)
        stack.append(u)
        for chain, v, _, _ in links[u]:
            if chain == via:
                continue
            seen = order.get(v)
            if seen is None and len(links[v]) == 1:  # a leaf: a bridge to a block of its own
                bridges |= chain
                order[v], block[v] = here, v
                continue
            if seen is None:
                depth, before = len(stack), back
                seen = visit(v, chain)
                if seen > here:  # nothing past it reaches back: a bridge, and a block to close
                    bridges |= chain
                    block.update(dict.fromkeys(stack[depth:], v))
                    del stack[depth:]
                    if back - before > 2 * rank:
                        rank = (back - before) // 2
                    back = before
            elif seen < here:  # a chain back to an ancestor (counted from this end only)
                back += 2
            elif seen == here:  # a chain back to this node (met from both ends)
                back += 1
            if seen < least:
                least = seen
        return least

    for c in links:
        if c not in order:
            visit(c, 0)
            block.update(dict.fromkeys(stack, c))
            stack.clear()
            if back > 2 * rank:
                rank = back // 2
            back = 0
    visit = None  # (no cycle left: see the module docstring)
    return bridges, block, rank


def _block_bounds(
    links: dict, bridges: int, block: dict[int, int], starts: list[int]
) -> tuple[dict[int, int], dict[tuple[int, int], int], dict[int, tuple], dict[int, list[tuple]]]:
    """At least the length of any trail from each start, and of any trail's part from crossing each
    bridge on (keyed by its bit and the node it leads to). A trail crosses a bridge once, so it
    runs through a path of blocks, entering and leaving each at most once: inside a block from
    city a to city b it keeps at most the block's weight less the lightest tracks left unused
    for the block's other odd cities to become even (the odd cities paired by shortest paths, a
    T-join; connectivity aside), and it ends in a block only at an odd city or where it came in.
    Also returns, per block whose cities were paired, what `_leftovers` reads (its weight, odd
    cities, the pairing and its distances, its chains), and per block but a leaf its bridges.
    Cost: per paired block, a shortest-path pass from each of its group cities (`_pairing`) and the pairings
    the bounds read; each start's and bridge side's bound once (`reach`)."""
    exits: dict[int, list[tuple]] = {}  # block but a leaf -> its bridges: (chain, node in it, node beyond, length)
    # block -> its bridges: (chain, key in reach, length, the bit of its node in the block's pairing or 0)
    sides: dict[int, list[tuple]] = {}
    # entry city (a start or attachment) -> (its block's weight, closed bound, the pairing's mask for
    # the odd cities it leaves, the pairing, the block's sides): inside from it to a bridge at the
    # pairing's city `gate`, a trail keeps at most the weight less the mask's pairing with `gate`
    inner: dict[int, tuple] = {}
    # block with chains inside -> [twice its weight, even starts or attachments, odd cities, chains];
    # the odd cities are all starts or attachments (odd in all, or beside some bridges)
    cores: dict[int, list] = {}
    near: dict[int, list[tuple[int, int]]] = {}  # city -> its chains inside its block (other end, length)
    startset = set(starts)
    alone = {0: 0}  # the pairing of a block with no odd city to pair
    for c, out in links.items():
        if len(out) == 1:  # a leaf: a block of its own past a bridge
            chain, y, length, _ = out[0]
            sides[c] = out = [(chain, (chain, y), length, 0)]
            inner[c] = (0, 0, 0, alone, out)
            continue
        root = block[c]
        weight = inside = 0
        around = []
        attached = False
        for chain, y, length, _ in out:
            if chain & bridges:
                if root in exits:
                    exits[root].append((chain, c, y, length))
                    sides[root].append((chain, (chain, y), length, 0))
                else:
                    exits[root] = [(chain, c, y, length)]
                    sides[root] = [(chain, (chain, y), length, 0)]
                attached = True
            else:
                around.append((y, length))
                weight += length
                inside |= chain
        if not weight:  # a block of one city (in a tree): nothing to keep inside
            inner[c] = (0, 0, 0, alone, sides[root])
            continue
        near[c] = around
        core = cores.get(root)
        if core is None:
            core = cores[root] = [0, [], [], 0]
        core[0] += weight
        core[3] |= inside
        if len(around) & 1:
            core[2].append(c)
        elif attached or c in startset:
            core[1].append(c)
    paired: dict[int, tuple] = {}
    for root, (weight, even, odd, inside) in cores.items():
        weight //= 2  # each chain is listed at both ends
        # The even ones first: the bounds' masks differ by them, and the pairing pairs its lowest
        # city first, so what remains is shared (a third fewer masks to pair).
        group = even + odd
        if len(group) > _MAX_PAIRED:
            weights = (weight, weight, 0, alone, sides.get(root, ()))
            for c in group:
                inner[c] = weights
            continue
        pairing, rows = _pairing(near, group)
        index = {c: 1 << i for i, c in enumerate(group)}
        odd_mask = (1 << len(group)) - (1 << len(even))
        paired[root] = (weight, odd_mask, index, group, pairing, rows, inside)
        closed = weight - pairing[odd_mask]
        out = sides[root] = [(chain, (chain, y), length, index[x]) for chain, x, y, length in exits.get(root, ())]
        for c, mask in index.items():
            # Leaving the block by a bridge at a city (the rest paired with it; back here, all odd
            # cities: the closed bound), or ending anywhere: at an odd city other than this one
            # (one city of the rest left unpaired), or back here.
            inner[c] = (weight, closed, odd_mask ^ mask, pairing, out)
    reach: dict[tuple[int, int], int] = {}

    def onward(c: int, via: int) -> int:
        """The bound from `c`, in its block, leaving it by any bridge but `via`."""
        weight, best, rest, pairing, out = inner[c]
        if weight - pairing[rest] > best:
            best = weight - pairing[rest]
        for chain, key, length, gate in out:
            if chain != via:
                beyond = reach.get(key)
                if beyond is None:
                    beyond = reach[key] = length + onward(key[1], chain)
                beyond += weight - pairing[rest ^ gate]
                if beyond > best:
                    best = beyond
        return best

    bounds = {s: onward(s, 0) for s in starts}
    for out in sides.values():
        for chain, key, length, _ in out:
            if key not in reach:
                reach[key] = length + onward(key[1], chain)
    onward = None  # (no cycle left: see the module docstring)
    return bounds, reach, paired, exits


class _Pairing(dict):
    """The lightest pairing of a mask of a block's group cities, found on first use (a dict rather
    than a closure calling itself: nothing keeps it past its search, and a known mask is one lookup)."""

    __slots__ = ("pairs",)  # per city of the group (its bit), each later one (its bit, their distance), nearest first

    def __missing__(self, mask: int) -> int:
        """The lightest pairing of `mask`, from those of smaller masks: its lowest city paired with each
        partner in turn (nearest first), or left unpaired when the count is odd. Cost: each mask
        once, a pass over one city's partners: at most 2 ^ (group cities) masks, hence `_MAX_PAIRED`."""
        low = mask & -mask
        rest = mask ^ low
        # A mask of an odd count leaves one city unpaired: this one, or one of the rest.
        value = self[rest] if mask.bit_count() & 1 else _FAR
        for length, city_bit in self.pairs[low]:
            if length >= value:
                break
            if rest & city_bit:
                more = length + self[rest ^ city_bit]
                if more < value:
                    value = more
        self[mask] = value
        return value


def _pairing(near: dict[int, list[tuple[int, int]]], group: list[int]) -> tuple[_Pairing, list[list[int]]]:
    """The lightest pairing, by shortest paths in one block (`near`: each city's chains inside
    it, as the city at the other end and the length), of a set of the cities `group` (as a bit mask);
    of an odd count, one city is left unpaired. Also the distances from each city of the group but
    the last to every city of the block (a list indexed by city).
    Cost: one shortest-path pass (first in, first out) from each city of the group but the last."""
    size = max(near) + 1
    far = _FAR
    rows = []
    pairing = _Pairing.fromkeys([1 << i for i in range(len(group))], 0)  # a city alone is left unpaired
    pairing[0] = 0
    pairing.pairs = pairs = {}
    low = 1
    for source in group[:-1]:  # (the pairing reads a distance from its pair's first city)
        d = [far] * size
        d[source] = 0
        todo = [source]  # first in, first out (a block is a few cities: relaxing again costs less than a heap)
        for u in todo:
            x = d[u]
            for v, length in near[u]:
                length += x
                if length < d[v]:
                    d[v] = length
                    todo.append(v)
        rows.append(d)
        later = pairs[low] = []
        city_bit = low
        for city in group[low.bit_length() :]:
            city_bit <<= 1
            pairing[low | city_bit] = length = d[city]  # two cities: their distance
            later.append((length, city_bit))
        later.sort()
        low <<= 1
    return pairing, rows


def _leftovers(
    links: dict, bridges: int, core: tuple, out: list[tuple], reach: dict, via: int, city: int, need: int
) -> tuple[int, ...] | int | None:
    """The chains of `city`'s block a trail entering it there (by the bridge `via`, or starting
    there) may leave unused and still keep `need` inside it and beyond (`out`: the block's
    bridges): each such leftover (a bit set of chains, in `_open`'s form), or None past `_MAX_LEFTOVERS` of
    them, or, when none keeps `need`, the most such a trail keeps (an int below `need`). A trail
    from `city` to an end or a bridge at `x` leaves unused a T-join of the block's odd cities,
    `city` and `x` (what it keeps has only those two ends odd), at most the block's weight (plus
    the bridge's onward bound) less the need; a T-join holds a forest one, a union of
    chain-disjoint paths between those cities, so only those are listed (every path whose length,
    plus the lightest pairing of the rest, fits): one left out is longer than the budget by at
    least the least excess the listing met. The walk drops a leftover once it uses one of its
    chains: with none left, the trail can no longer reach `need`. Bit sets: `ends` the group cities
    still to pair (bit i: `group[i]`), `unused` and a leftover the chains left unused.
    Cost: the paths listed stop at `_MAX_LEFTOVERS` leftovers (None past it), and a path is extended only
    while its length plus the distance left (`rows`) fits its budget."""
    weight, odd, index, group, pairing, rows, chains = core
    found: dict[tuple[int, int], int] = {}  # (leftover, the bridge's city or -1) -> the most budget
    gate, budget = -1, weight - need  # where the trail ends or leaves the block, what it may leave there
    least = _FAR  # the least a path or pairing left out went past its room

    def pair_up(ends: int, room: int, unused: int) -> bool:
        """Adds every leftover holding `unused` that pairs `ends` (one may be the trail's end
        when their count is odd) in `room` more; False past the limit."""
        nonlocal least
        if not ends:
            if found.get((unused, gate), -1) < budget:
                found[unused, gate] = budget
            return len(found) <= _MAX_LEFTOVERS
        low = ends & -ends
        rest = others = ends ^ low
        if ends.bit_count() & 1:
            if pairing[rest] <= room:
                if not pair_up(rest, room, unused):
                    return False
            elif pairing[rest] - room < least:
                least = pairing[rest] - room
        if not rest:
            return True
        goal = group[low.bit_length() - 1]
        to = rows[low.bit_length() - 1]
        blocked = unused | bridges
        while others:
            city_bit = others & -others
            others ^= city_bit
            after = rest ^ city_bit
            start = group[city_bit.bit_length() - 1]
            fits = room - pairing[after]
            if to[start] <= fits:
                if not extend(start, goal, to, 0, fits, blocked, after, room):
                    return False
            elif to[start] - fits < least:
                least = to[start] - fits
        return True

    def extend(at: int, goal: int, to: dict, length: int, fits: int, blocked: int, ends: int, room: int) -> bool:
        """Every path from `at` on (`length` long, `blocked`: the chains it may not take) to `goal`
        within `fits`, each then with `ends` paired in what is left of `room`; False past the limit."""
        nonlocal least
        for chain, y, n, _ in links[at]:
            if chain & blocked:
                continue
            n += length
            if y == goal:
                if n > fits:
                    if n - fits < least:
                        least = n - fits
                elif not pair_up(ends, room - n, (blocked | chain) & ~bridges):
                    return False
            elif n + to[y] <= fits:
                if not extend(y, goal, to, n, fits, blocked | chain, ends, room):
                    return False
            elif n + to[y] - fits < least:
                least = n + to[y] - fits
        return True

    ends = odd ^ index[city]
    try:
        if pairing[ends] > budget:  # ending in the block
            least = pairing[ends] - budget
        elif not pair_up(ends, budget, 0):
            return None
        for chain, gate, y, _ in out:  # or leaving it by a bridge
            if chain != via:
                budget = weight + reach[chain, y] - need
                if pairing[ends ^ index[gate]] <= budget:
                    if not pair_up(ends ^ index[gate], budget, 0):
                        return None
                elif pairing[ends ^ index[gate]] - budget < least:
                    least = pairing[ends ^ index[gate]] - budget
    finally:
        pair_up = extend = None  # (no cycle left: see the module docstring)
    # The trail's part in the block is connected: what a leftover cuts off from `city` is left
    # too, so the part reached from `city` alone must keep what the budget does not leave.
    kept = set()
    most = need - least
    reached: dict[int, tuple[int, int, set[int]]] = {}
    for (unused, gate), budget in found.items():
        if unused not in reached:
            skip = unused | bridges
            length = 0
            stack, cities = [city], {city}
            while stack:
                for chain, y, n, _ in links[stack.pop()]:
                    if not chain & skip:
                        skip |= chain
                        length += n
                        if y not in cities:
                            cities.add(y)
                            stack.append(y)
            reached[unused] = (chains & ~skip | unused, weight - length, cities)
        left, apart, cities = reached[unused]
        if gate < 0 or gate in cities:
            if apart <= budget:
                kept.add(left)
            elif need + budget - apart > most:
                most = need + budget - apart
    return _open(kept, 0) if kept else most


def _open(leftovers: Iterable[int], used: int) -> tuple[int, ...]:
    """The leftovers using no chain of `used`, after their union (so that a step using none of
    their chains keeps them as they are); empty when none is left."""
    kept = [f for f in leftovers if not f & used]
    union = 0
    for f in kept:
        union |= f
    return (union, *kept) if kept else ()
