"""Which cards pay for a track, a station or a tunnel surcharge (RULES.md §1, §3).

A payment is (color, locos): `length - locos` cards of `color` plus `locos` locomotives;
color is None only for an all-locomotive payment.
"""

from __future__ import annotations

from engine.cards import CARD_NAMES, COLORS, LOCO

Payment = tuple[int | None, int]


def payment_options(
    hand: list[int], length: int, color: int | None, ferry: int = 0, collapse: bool = False
) -> list[Payment]:
    """Every payment for `length` cards of `color` (None: any one color) with at least `ferry` locos.

    With `collapse`, one payment per color (the fewest locomotives), and all-locomotive only
    when no color fits: the move list a typical engine offers.
    """
    locos = hand[LOCO]
    options: list[Payment] = []
    for c in range(len(COLORS)) if color is None else (color,):
        have = hand[c]
        if not have:
            continue
        low = length - have
        if low < ferry:
            low = ferry
        high = length - 1 if locos >= length - 1 else locos
        if low > high:
            continue
        if collapse:
            options.append((c, low))
        else:
            options.extend((c, k) for k in range(low, high + 1))
    if locos >= length and not (collapse and options):
        options.append((None, length))
    return options


def payment_error(
    hand: list[int], length: int, color: int | None, ferry: int, pay_color: int | None, locos: int, what: str
) -> str | None:
    """Why (pay_color, locos) cannot pay for `what`, or None if it can."""
    if locos < 0 or locos > length:
        return f"{what} costs {length} cards; {locos} locomotives is not a payment for it"
    if pay_color is None and locos != length:
        return f"{what} costs {length} cards: name a color for the {length - locos} non-locomotive cards"
    if pay_color is not None and locos == length:
        pay_color = None
    if pay_color is not None and color is not None and pay_color != color:
        return f"{what} is {COLORS[color]}: it cannot be paid with {COLORS[pay_color]} cards"
    if locos < ferry:
        return f"{what} is a ferry: it needs at least {ferry} locomotive{'s' if ferry > 1 else ''}, not {locos}"
    missing = []
    if pay_color is not None and hand[pay_color] < length - locos:
        missing.append(f"{length - locos - hand[pay_color]} more {CARD_NAMES[pay_color]} (you have {hand[pay_color]})")
    if hand[LOCO] < locos:
        missing.append(f"{locos - hand[LOCO]} more loco (you have {hand[LOCO]})")
    if missing:
        return f"not enough cards for {what}: you need " + " and ".join(missing)
    return None


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
