"""Which cards pay for a track, a station or a tunnel surcharge (docs/rules.md §1, §3).

A payment is (color, locos): `length - locos` cards of `color` plus `locos` locomotives;
color is None only for an all-locomotive payment. The `*_error` functions say why a payment
does not fit, as the IllegalActionError to raise; `what` names the thing paid for (a RouteRef,
or a Phrase such as "your station no. 2").
"""

from __future__ import annotations

from operator import itemgetter

from engine.cards import COLORS, LOCO
from engine.errors import CardRef, CardsShortError, IllegalActionError, ListRef, plural

Payment = tuple[int | None, int]
_COLOR_INDICES = tuple(range(len(COLORS)))
_count = itemgetter(1)


def payment_options(
    hand: list[int], length: int, color: int | None, ferry: int = 0, collapse: bool = False
) -> list[Payment]:
    """Every payment for `length` cards of `color` (None: any one color) with at least `ferry` locos.

    With `collapse`, one payment per color (the fewest locomotives), and all-locomotive only
    when no color fits: the move list a typical engine offers.
    """
    locos = hand[LOCO]
    if collapse and color is None:
        return any_color_options(held_colors(hand), locos, length, ferry)
    options: list[Payment] = []
    high = length - 1 if locos >= length - 1 else locos  # at least one card of the color
    for c in _COLOR_INDICES if color is None else (color,):
        have = hand[c]
        if not have:
            continue
        low = length - have
        if low < ferry:
            low = ferry
        if low > high:
            continue
        if collapse:
            options.append((c, low))
        else:
            options.extend([(c, k) for k in range(low, high + 1)])
    if locos >= length and not (collapse and options):
        options.append((None, length))
    return options


def held_colors(hand: list[int]) -> list[tuple[int, int]]:
    """(color, count) of every color the hand holds, in color order."""
    return list(filter(_count, enumerate(hand[:LOCO])))  # (in C: no comprehension frame per turn start)


def any_color_options(held: list[tuple[int, int]], locos: int, length: int, ferry: int = 0) -> list[Payment]:
    """`payment_options(hand, length, None, ferry, collapse=True)` given `held_colors(hand)` and
    its locomotives: one turn start lists several gray routes and stations from one scan of the hand."""
    high = length - 1 if locos >= length - 1 else locos  # at least one card of the color
    options = []
    if ferry <= high:
        for c, have in held:  # (a loop, not a comprehension: no frame of its own)
            if length - have <= high:
                options.append((c, length - have if length - have > ferry else ferry))
    if locos >= length and not options:
        options.append((None, length))
    return options


def payment_error(
    hand: list[int], length: int, color: int | None, ferry: int, pay_color: int | None, locos: int, what: object
) -> IllegalActionError | None:
    """Why (pay_color, locos) cannot pay for `what`, or None if it can."""
    if locos < 0 or locos > length:
        return IllegalActionError(
            "{what} costs {length} cards; {locos} locomotives is not a payment for it",
            what=what,
            length=length,
            locos=locos,
        )
    if pay_color is None and locos != length:
        return IllegalActionError(
            "{what} costs {length} cards: name a color for the {n} non-locomotive cards",
            what=what,
            length=length,
            n=length - locos,
        )
    if pay_color is not None and locos == length:
        pay_color = None
    if pay_color is not None and color is not None and pay_color != color:
        return _wrong_color(what, color, pay_color)
    if locos < ferry:
        if ferry == 1:
            return IllegalActionError(
                "{what} is a ferry: it needs at least {ferry} locomotive, not {locos}",
                what=what,
                ferry=ferry,
                locos=locos,
            )
        return IllegalActionError(
            "{what} is a ferry: it needs at least {ferry} locomotives, not {locos}", what=what, ferry=ferry, locos=locos
        )
    if (pay_color is None or hand[pay_color] >= length - locos) and hand[LOCO] >= locos:
        return None
    need = [0] * len(hand)
    if pay_color is not None:
        need[pay_color] = length - locos
    need[LOCO] = locos
    return _missing_cards(hand, need, what, length, ferry)


def _wrong_color(what: object, color: int, pay_color: int) -> IllegalActionError:
    return IllegalActionError(
        "{what} is {color}: it cannot be paid with {paid} cards",
        what=what,
        color=CardRef(color),
        paid=CardRef(pay_color),
    )


def _missing_cards(
    hand: list[int], need: list[int], what: object, length: int, ferry: int = 0
) -> CardsShortError | None:
    """The hand lacks cards for `need` (counts by card): worded from what the player holds of the
    kinds that payment uses ("you have 3 yellow cards and 1 locomotive: Helena-Seattle needs 6 cards,
    2 short"), or None when nothing is missing."""
    short = sum(need[k] - hand[k] for k in range(len(hand)) if need[k] > hand[k])
    if not short:
        return None
    held = ListRef(tuple(held_cards(k, hand[k]) for k in range(len(hand)) if need[k]), "standard", " and ")
    if ferry > hand[LOCO] and all(need[k] <= hand[k] for k in range(LOCO)):
        return CardsShortError(
            "you have {cards}: {what} is a ferry and needs {locos}",
            cards=held,
            what=what,
            locos=plural("{n} locomotive", "{n} locomotives", ferry),
        )
    return CardsShortError(
        "you have {cards}: {what} needs {needs}, {short} short",
        cards=held,
        what=what,
        needs=plural("{n} card", "{n} cards", length),
        short=short,
    )


def held_cards(card: int, n: int) -> object:
    """'3 yellow cards', '1 locomotive': a count of one card kind, for messages."""
    if card == LOCO:
        return plural("{n} locomotive", "{n} locomotives", n)
    return plural("{n} {card} card", "{n} {card} cards", n, card=CardRef(card))


def unmixed_options(options: list[Payment], length: int, collapse: bool = False) -> list[Payment]:
    """The payments of `options` in one color or locomotives only (Nordic tunnels, docs/rules.md §6.4);
    with `collapse`, all locomotives only when no color pays."""
    pure = [(c, k) for c, k in options if k == 0 or k == length]
    if collapse and any(k == 0 for _, k in pure):
        return [(c, k) for c, k in pure if k == 0]
    return pure


def surcharge_options(hand: list[int], surcharge: int, color: int | None) -> list[int]:
    """Locomotive counts that can pay a tunnel surcharge (the rest in `color`)."""
    locos = hand[LOCO]
    if color is None:
        return [surcharge] if locos >= surcharge else []
    low = max(0, surcharge - hand[color])
    return list(range(low, min(locos, surcharge) + 1))


def tunnel_surcharge(revealed: list[int], color: int | None) -> int:
    """Revealed cards that add to the cost: locomotives, and the paid color unless all-loco."""
    return sum(1 for c in revealed if c == LOCO or (color is not None and c == color))


# ---------------------------------------------------------------------------------------------
# Map rules beyond docs/rules.md §1/§3 (Switzerland, Nordic Countries, docs/rules.md §5–6): where
# locomotives may be used, cards of any colours replacing a ferry's required locomotive, and the
# substitute route (any N cards for one missing card). A payment is then (color, locos, subs):
# `subs` is the sorted tuple of the substitute cards (card indices, never locomotives).

ExtPayment = tuple[int | None, int, tuple[int, ...]]


def canonical_subs(avail: list[int], count: int) -> tuple[int, ...] | None:
    """`count` substitute cards out of `avail` (8 color counts): one at a time from the color
    with the most left (ties: the lower index). The choice the engine lists and the parser
    fills in; any other choice of the same number of cards is just as legal."""
    if count <= 0:
        return ()
    left = list(avail)
    if sum(left) < count:
        return None
    out = []
    kinds = range(1, len(left))
    for _ in range(count):
        best, most = 0, left[0]
        for k in kinds:
            if left[k] > most:
                best, most = k, left[k]
        left[best] -= 1
        out.append(best)
    out.sort()
    return tuple(out)


def extended_payment_options(
    hand: list[int],
    length: int,
    color: int | None,
    ferry: int,
    *,
    locos_ok: bool,
    ferry_sub: int,
    substitute: int,
    collapse: bool = False,
) -> list[ExtPayment]:
    """Every payment for a track under the map's card rules (one canonical choice of substitute
    cards per payment shape). With `collapse`: one per color, preferring no substitutes and the
    fewest locomotives; all-locomotive (or color-free) payments only when no color fits."""
    colors = range(LOCO) if color is None else (color,)
    if not locos_ok and not ferry and not substitute:  # colored cards only (Switzerland, Nordic plain routes)
        return [(c, 0, ()) for c in colors if hand[c] >= length]
    locos = hand[LOCO] if locos_ok else 0
    max_sub = ferry if (ferry and ferry_sub) else 0
    # Quick bounds (most hands pay for few tracks): each set of substitutes covers one space.
    spare = sum(hand[:LOCO]) // ferry_sub if max_sub else 0
    if locos + min(max_sub, spare) < ferry:
        return []
    if not substitute and locos + spare + (max(hand[c] for c in colors) if colors else 0) < length:
        return []
    options: list[ExtPayment] = []
    colorless: list[ExtPayment] = []
    first = colors[0]
    for c in colors:
        have = hand[c]
        if not substitute and have + locos + spare < length and not (c == first and locos + spare >= length):
            continue
        found: list[ExtPayment] = []
        for m in range(0, max_sub + 1):  # required locomotives replaced by `ferry_sub` cards each
            for k in range(max(ferry - m, 0), min(locos, length - m) + 1):
                n = length - k - m
                if n > have:
                    continue
                if n == 0:
                    if c == first:
                        subs = canonical_subs(hand[:LOCO], ferry_sub * m)
                        if subs is not None:
                            colorless.append((None, k, subs))
                    continue
                if m:
                    avail = hand[:LOCO]
                    avail[c] -= n
                    subs = canonical_subs(avail, ferry_sub * m)
                    if subs is None:
                        continue
                else:
                    subs = ()
                found.append((c, k, subs))
                if collapse:  # the first found has the fewest substitutes, then locomotives
                    break
            if collapse and found:
                break
        if substitute and 0 < have < length and not (collapse and found):  # any `substitute` cards per missing card
            avail = hand[:LOCO]
            avail[c] = 0
            subs = canonical_subs(avail, substitute * (length - have))
            if subs is not None:
                found.append((c, 0, subs))
        options.extend(found)
    if colorless and not (collapse and options):
        options.extend([min(colorless, key=lambda p: (len(p[2]), p[1]))] if collapse else colorless)
    return options


def extended_payment_error(
    hand: list[int],
    length: int,
    color: int | None,
    ferry: int,
    pay_color: int | None,
    locos: int,
    subs: tuple[int, ...],
    what: object,
    *,
    locos_ok: bool,
    ferry_sub: int,
    substitute: int,
    no_locos: str,
) -> IllegalActionError | None:
    """Why (pay_color, locos, subs) cannot pay for `what` under the map's card rules, or None.
    `no_locos` is the error (a template) for locomotives where they cannot pay."""
    if locos and not locos_ok:
        return IllegalActionError(no_locos)
    if locos < 0:
        return IllegalActionError(
            "{what} costs {length} cards; {locos} locomotives is not a payment for it",
            what=what,
            length=length,
            locos=locos,
        )
    if any(not 0 <= c < LOCO for c in subs):
        return IllegalActionError("substitute cards are colored cards, never locomotives")
    unit = ferry_sub if ferry else substitute
    if subs and not (unit and (ferry or substitute)):
        return IllegalActionError("{what} takes no substitute cards", what=what)
    if unit and len(subs) % unit:
        return IllegalActionError(
            "substitute cards for {what} come in sets of {unit}, not {count}", what=what, unit=unit, count=len(subs)
        )
    m = len(subs) // unit if unit else 0
    if ferry:
        if m > ferry:
            return _too_many_sets(what, ferry, ferry * unit)
        if locos + m < ferry:
            return _ferry_short(what, ferry, unit, locos, m)
    elif m and locos:
        return IllegalActionError(
            "{what}: substitute cards replace missing cards of the color you pay, not locomotives", what=what
        )
    n = length - locos - m
    if n < 0:
        return IllegalActionError(
            "{what} costs {length} cards; that payment covers {covered}", what=what, length=length, covered=locos + m
        )
    if n == 0 and pay_color is not None and not (ferry and m):
        pay_color = None
    if n and pay_color is None:
        return IllegalActionError(
            "{what} costs {length} cards: name a color for the {n} colored cards", what=what, length=length, n=n
        )
    if pay_color is not None and color is not None and pay_color != color:
        return _wrong_color(what, color, pay_color)
    if not ferry and m:
        if n < 1:
            return IllegalActionError("{what}: play at least one card of the color you pay", what=what)
        if hand[pay_color] != n:
            return IllegalActionError(
                "{what}: substitute cards only replace missing {card} cards (you have {have}, so play {play} of them)",
                what=what,
                card=CardRef(pay_color),
                have=hand[pay_color],
                play=min(hand[pay_color], length),
            )
    need = [0] * len(hand)
    if pay_color is not None:
        need[pay_color] += n
    need[LOCO] += locos
    for c in subs:
        need[c] += 1
    return _missing_cards(hand, need, what, length)  # (substitutes may stand in for a ferry's locomotives)


def _too_many_sets(what: object, ferry: int, most: int) -> IllegalActionError:
    if ferry == 1:
        return IllegalActionError(
            "{what} has {ferry} locomotive space: at most {most} substitute cards", what=what, ferry=ferry, most=most
        )
    return IllegalActionError(
        "{what} has {ferry} locomotive spaces: at most {most} substitute cards", what=what, ferry=ferry, most=most
    )


def _ferry_short(what: object, ferry: int, unit: int, locos: int, sets: int) -> IllegalActionError:
    """A ferry paid with too few locomotives and sets of substitute cards (`sets` < `ferry`)."""
    params = dict(what=what, ferry=ferry, unit=unit, locos=locos, sets=sets)
    if ferry == 1:
        return IllegalActionError(
            "{what} is a ferry: it needs {ferry} locomotive (or {unit} cards of any colors for each), not {locos}",
            **params,
        )
    if not sets:
        return IllegalActionError(
            "{what} is a ferry: it needs {ferry} locomotives (or {unit} cards of any colors for each), not {locos}",
            **params,
        )
    if sets == 1:
        return IllegalActionError(
            "{what} is a ferry: it needs {ferry} locomotives (or {unit} cards of any colors for "
            "each), not {locos} and {sets} set",
            **params,
        )
    return IllegalActionError(
        "{what} is a ferry: it needs {ferry} locomotives (or {unit} cards of any colors for "
        "each), not {locos} and {sets} sets",
        **params,
    )
