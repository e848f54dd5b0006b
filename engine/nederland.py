"""Nederland (RULES.md §4): bridge tolls, Loans, the toll bonus and staggered starting scores.
Registered as the rule hook "tolls", which `nederland.json` names.

Variants (`GameOptions(variants=...)`):
- `tolls` (default True): toll money, Loans and the toll bonus; every double route open.
  False: none of these, and with 2–3 players only one track of a double route is used.

State lives here, not in the Game: `money` (secret: only its owner sees it until the end),
`loans` (public), `bank` (net toll money the bank has received; players' money + bank is
always `toll_money` × seats) and `start` (staggered starting scores).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.events import Event, LoanTaken, TollPaid
from engine.hooks import RuleHooks, register

if TYPE_CHECKING:
    from engine.game import Game
    from engine.mapdata import Track
    from engine.scoring import PlayerScore


@register
class NederlandHooks(RuleHooks):
    name = "tolls"
    variants = {"tolls": True}

    # ------------------------------------------------------------------ set-up

    def configure(self, game: "Game") -> None:
        super().configure(game)
        self.tolls = self.variant(game, "tolls")
        extra = game.map.rules.extra
        self.toll_money = int(extra.get("toll_money", 0))
        self.loan_penalty = int(extra.get("loan_penalty", 0))
        self.bonus_table = {int(k): list(v) for k, v in dict(extra.get("toll_bonus", {})).items()}
        if self.tolls and game.seats not in self.bonus_table:
            raise ValueError(f"the {game.map.name} map has no toll bonus row for {game.seats} players")
        self.staggered = bool(extra.get("staggered_start", False))
        self.money = [self.toll_money if self.tolls else 0] * game.seats
        self.loans = [0] * game.seats
        self.bank = 0
        self.start = [0] * game.seats

    def after_setup(self, game: "Game") -> None:
        if self.staggered:  # the player in seat k (the first player is seat 1) starts with k - 1 points
            for k in range(game.seats):
                seat = (game.first + k) % game.seats
                self.start[seat] = k
                game.score[seat] += k

    def doubles_open(self, game: "Game") -> bool:
        return True if self.tolls else super().doubles_open(game)

    # ------------------------------------------------------------------ tolls and Loans

    def after_claim(self, game: "Game", seat: int, track: "Track", events: list[Event]) -> None:
        if not self.tolls:
            return
        toll = track.toll
        partner = game.owner[track.double] if track.double is not None else -1
        payee = partner if partner >= 0 else None  # the first track pays the bank
        if self.money[seat] >= toll:
            self._pay(seat, payee, toll)
            events.append(TollPaid(seat, payee, track.id, toll))
            return
        self.loans[seat] += 1  # pays nothing at all, even if a part could be paid
        events.append(LoanTaken(seat, track.id, self.loans[seat]))
        if payee is not None:
            self._pay(None, payee, toll)
            events.append(TollPaid(None, payee, track.id, toll))

    def _pay(self, payer: int | None, payee: int | None, amount: int) -> None:
        if payer is None:
            self.bank -= amount
        else:
            self.money[payer] -= amount
        if payee is None:
            self.bank += amount
        else:
            self.money[payee] += amount

    # ------------------------------------------------------------------ scoring

    def adjust_final_scores(self, game: "Game", scores: list["PlayerScore"]) -> list["PlayerScore"]:
        if not self.tolls:
            return scores
        table = self.bonus_table[game.seats]
        eligible = [s for s in range(game.seats) if not self.loans[s]]
        out = []
        for s in scores:
            seat = s.seat
            bonuses = dict(s.bonuses)
            rank = 0
            if seat in eligible:  # competition ranking by money among players without a Loan
                rank = 1 + sum(1 for o in eligible if self.money[o] > self.money[seat])
                bonus = table[rank - 1] if rank <= len(table) else 0
                if bonus:
                    bonuses["toll_bonus"] = bonus
            if self.loans[seat]:
                bonuses["loans"] = -self.loan_penalty * self.loans[seat]
            added = sum(bonuses.values()) - sum(s.bonuses.values())
            details = {**s.details, "money": self.money[seat], "loans": self.loans[seat], "toll_rank": rank}
            out.append(replace(s, bonuses=bonuses, total=s.total + added, details=details))
        return out

    # ------------------------------------------------------------------ views and JSON

    def public_state(self, game: "Game", seat: int) -> dict:
        return {"loans": self.loans[seat]} if self.tolls else {}

    def private_state(self, game: "Game", seat: int) -> dict:
        return {"money": self.money[seat]} if self.tolls else {}

    def public_view(self, game: "Game") -> dict:
        return {"tolls": self.tolls}

    def to_json(self, game: "Game") -> dict:
        return {
            "money": self.money,
            "loans": self.loans,
            "bank": self.bank,
            "start": self.start,
        }

    def from_json(self, game: "Game", data: dict) -> None:
        for key in ("money", "loans", "bank", "start"):
            setattr(self, key, data[key])
