"""Nederland's toll bonus as an AI can foresee it (docs/rules.md §4.3).

Money is secret, but the tolls are printed on the board and every claim is public, so a seat's
money is known but for one thing: who took a shared double route first (the second pays the
first, the first paid the bank), which `money_from_claims` splits evenly. The bonus goes by rank
among the seats without a Loan; `expected_bonus` gives each seat its expected share when the
money still to be spent is uncertain, so that one coin spent early does not read as a lost rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ai.board import Board


def money_from_claims(board: Board) -> list[float]:
    """Each seat's money as the public claims tell it (its own exactly): the starting money less
    the toll of each track it claimed, half of it where the double's other track is another
    seat's (one of the two paid the bank, the other paid the first)."""
    m = board.m
    start = float(m.rules.extra.get("toll_money", 0))
    money = [start] * board.seats
    for t in m.tracks:
        seat = board.owner[t.index]
        if not 0 <= seat < board.seats:
            continue
        partner = board.owner[t.double] if t.double is not None else -1
        money[seat] -= t.toll / 2 if 0 <= partner < board.seats else t.toll
    if board.money is not None:
        money[board.me] = float(board.money)
    return money


def expected_bonus(
    money: Sequence[float], loans: Sequence[int], table: Sequence[int], penalty: int, spread: float
) -> list[float]:
    """Each seat's expected toll bonus (less its Loans' penalty) if every two seats' final money
    still differs from today's by a normal amount of standard deviation `spread`: a seat's rank
    is one plus the seats without a Loan that end with more, each counted with its chance."""
    seats = len(money)
    eligible = [s for s in range(seats) if not loans[s]]
    out = []
    for s in range(seats):
        if loans[s]:
            out.append(-penalty * loans[s])
            continue
        above = [1.0]  # above[k]: the chance that exactly k seats end with more money
        for o in eligible:
            if o == s:
                continue
            p = ahead(money[o] - money[s], spread)
            above = [a * (1 - p) + (above[k - 1] * p if k else 0.0) for k, a in enumerate(above)] + [above[-1] * p]
        out.append(sum(chance * table[k] for k, chance in enumerate(above) if k < len(table)))
    return out


def ahead(lead: float, spread: float) -> float:
    """The chance that a lead of `lead` today is still a lead at the end."""
    if spread <= 0:
        return 1.0 if lead > 0 else 0.0
    return 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))
