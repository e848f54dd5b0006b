"""Nederland (docs/rules.md §4): bridge tolls, Loans, the toll bonus, staggered starting scores and
the neutral player. Registered as the rule hook "tolls", which `nederland.json` names.

Variants (`GameOptions(variants=...)`):
- `tolls` (default True): toll money, Loans and the toll bonus; every double route open.
  False: none of these, and with 2–3 players only one track of a double route is used.
- `neutral` (default False): the neutral player of the 2-player game with tolls.

State lives here, not in the Game: `money` (secret: only its owner sees it until the end),
`loans` (public), `bank` (net toll money the bank has received; players' money + bank is
always `toll_money` × seats), `start` (staggered starting scores) and the neutral player's
trains, marker and pending ticket. The neutral player owns tracks as owner `game.seats`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.actions import Action, NeutralClaim
from engine.errors import (
    IllegalActionError,
    ListRef,
    MapRef,
    RouteRef,
    SeatRef,
    VariantError,
)
from engine.events import (
    Event,
    LoanTaken,
    NeutralMarkerPassed,
    NeutralRouteClaimed,
    NeutralStopped,
    NeutralTicketRevealed,
    TollPaid,
)
from engine.hooks import GameState, RuleHooks
from engine.notation import route_ref
from engine.phases import Stage

if TYPE_CHECKING:
    from engine.mapdata import Track
    from engine.outcome import PlayerScore

NEUTRAL_STAGE = Stage.NEUTRAL
NEUTRAL_FROM_ROUND = 6  # the first 5 rounds have no neutral phase (docs/rules.md §4)


class NederlandHooks(RuleHooks):
    name = "tolls"
    variants = {"tolls": True, "neutral": False}
    action_types = (NeutralClaim,)
    stages = (NEUTRAL_STAGE,)

    # ------------------------------------------------------------------ set-up

    def configure(self, game: GameState) -> None:
        super().configure(game)
        self.tolls = self.variant(game, "tolls")
        self.neutral = self.variant(game, "neutral")
        if self.neutral and game.seats != 2:
            raise VariantError(
                "the neutral player is a 2-player variant; this game has {seats} seats", seats=game.seats
            )
        if self.neutral and not self.tolls:
            raise VariantError("the neutral player is played with bridge tolls: it cannot be combined with tolls off")
        extra = game.map.rules.extra
        self.toll_money = int(extra.get("toll_money", 0))
        self.loan_penalty = int(extra.get("loan_penalty", 0))
        self.bonus_table = {int(k): list(v) for k, v in dict(extra.get("toll_bonus", {})).items()}
        if self.tolls and game.seats not in self.bonus_table:
            raise VariantError(
                "the {map} map has no toll bonus row for {seats} players", map=MapRef(game.map.name), seats=game.seats
            )
        self.staggered = bool(extra.get("staggered_start", False))
        self.money = [self.toll_money if self.tolls else 0] * game.seats
        self.loans = [0] * game.seats
        self.bank = 0
        self.start = [0] * game.seats
        self.neutral_trains = game.map.rules.trains if self.neutral else 0
        self.marker: int | None = None
        self.neutral_active = self.neutral
        self.pending: dict | None = None  # {"ticket": id, "tracks": [track ids]} while the holder chooses

    def after_setup(self, game: GameState) -> None:
        if self.staggered:  # the player in seat k (the first player is seat 1) starts with k - 1 points
            for k in range(game.seats):
                seat = (game.first + k) % game.seats
                self.start[seat] = k
                game.score[seat] += k
        if self.neutral:
            self.marker = (game.first + 1) % game.seats  # the second player starts with the marker

    def doubles_open(self, game: GameState) -> bool:
        return True if self.tolls else super().doubles_open(game)

    # ------------------------------------------------------------------ tolls and Loans

    def after_claim(self, game: GameState, seat: int, track: Track, events: list[Event]) -> None:
        if not self.tolls:
            return
        toll = track.toll
        partner = game.owner[track.double] if track.double is not None else -1
        payee = partner if 0 <= partner < game.seats else None  # first track, or the neutral's: the bank
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

    # ------------------------------------------------------------------ the neutral player

    def after_round(self, game: GameState, events: list[Event]) -> int | None:
        if not self.neutral_active or game.round - 1 < NEUTRAL_FROM_ROUND:
            return None
        holder = self.marker
        if not game.ticket_deck:
            self._stop(game, "tickets", events)
            return None
        ticket = game.map.ticket_by_id[game.ticket_deck.pop()]
        route = ticket.extra.get("neutral_route")
        if route is None:
            return self._reveal(game, holder, ticket.id, None, "blank", events)
        a, b = game.map.city_by_id[route[0]].index, game.map.city_by_id[route[1]].index
        tracks = game.map.tracks_between[(min(a, b), max(a, b))]
        names = (route[0], route[1])
        if any(game.owner[t.index] == game.seats for t in tracks):
            return self._reveal(game, holder, ticket.id, names, "built", events)  # counts as blank
        free = [t for t in tracks if game.owner[t.index] < 0]
        if not free:
            return self._reveal(game, holder, ticket.id, names, "taken", events)
        if free[0].length > self.neutral_trains:
            self._reveal(game, holder, ticket.id, names, "stopped", events)
            self._stop(game, "trains", events)
            return None
        if len(free) > 1:  # both tracks free: the holder chooses, then passes the marker
            self.pending = {"ticket": ticket.id, "tracks": [t.id for t in free]}
            events.append(NeutralTicketRevealed(holder, ticket.id, names, "choose"))
            game.stage = NEUTRAL_STAGE
            return holder
        # One track taken by a player: no choice, the bank pays its owner the toll; the marker stays.
        events.append(NeutralTicketRevealed(holder, ticket.id, names, "claimed"))
        self._place_neutral(game, holder, free[0], events)
        for t in tracks:
            owner = game.owner[t.index]
            if t is not free[0] and 0 <= owner < game.seats:
                self._pay(None, owner, t.toll)
                events.append(TollPaid(None, owner, free[0].id, t.toll))
        game.ticket_discard.append(ticket.id)
        return None

    def _reveal(self, game: GameState, holder: int, ticket: int, route, outcome: str, events: list[Event]) -> None:
        """A ticket that leads to no claim: it goes face up to the discard, the marker stays."""
        events.append(NeutralTicketRevealed(holder, ticket, route, outcome))
        game.ticket_discard.append(ticket)
        return None

    def _place_neutral(self, game: GameState, holder: int, track: Track, events: list[Event]) -> None:
        game.owner[track.index] = game.seats
        game.track_claimed(track.index)
        self.neutral_trains -= track.length
        events.append(NeutralRouteClaimed(holder, track.id, self.neutral_trains))

    def _stop(self, game: GameState, reason: str, events: list[Event]) -> None:
        """No more neutral phases; the discarded tickets are shuffled into a new deck (with any left)."""
        self.neutral_active = False
        self.marker = None
        count = len(game.ticket_discard)
        if count:
            game.ticket_deck = game.ticket_discard + game.ticket_deck
            game.ticket_discard = []
            game.rng("neutral-reshuffle").shuffle(game.ticket_deck)
        events.append(NeutralStopped(reason, count))

    def stage_actions(self, game: GameState, seat: int) -> list[Action]:
        return [NeutralClaim(t) for t in self.pending["tracks"]]

    def _choices(self, game: GameState) -> ListRef:
        """The tracks the neutral player may take now, by label ('Amsterdam-Rotterdam/1 or ...')."""
        tracks = [route_ref(game.map, game.map.track_by_id[t], numbered=True) for t in self.pending["tracks"]]
        return ListRef(tuple(tracks), "or", " or ")

    def stage_error(self, game: GameState) -> IllegalActionError:
        return IllegalActionError(
            "claim a track for the neutral player first: neutral claim {routes}", routes=self._choices(game)
        )

    def check_action(self, game: GameState, seat: int, action: Action) -> None:
        if game.stage != NEUTRAL_STAGE or self.pending is None:
            raise IllegalActionError("there is no neutral player route to claim now")
        if seat != game.current:
            raise IllegalActionError(
                "{current} holds the neutral marker and chooses the track", current=SeatRef(game.current)
            )
        if action.track not in self.pending["tracks"]:
            raise IllegalActionError(
                "the neutral player claims {routes}, not {track}", routes=self._choices(game), track=action.track
            )

    def apply_action(self, game: GameState, seat: int, action: Action, events: list[Event]) -> None:
        pending, self.pending = self.pending, None
        self._place_neutral(game, seat, game.map.track_by_id[action.track], events)
        game.ticket_discard.append(pending["ticket"])
        self.marker = next(s for s in range(game.seats) if s != seat)
        events.append(NeutralMarkerPassed(self.marker))
        game.resume_turns(events)

    def default_action(self, game: GameState, seat: int) -> Action:
        return NeutralClaim(self.pending["tracks"][0])

    def taken_error(self, game: GameState, route: RouteRef, owner: int) -> IllegalActionError:
        if owner == game.seats:
            return IllegalActionError("{route} is already taken by the neutral player", route=route)
        return super().taken_error(game, route, owner)

    # ------------------------------------------------------------------ scoring

    def adjust_final_scores(self, game: GameState, scores: list[PlayerScore]) -> list[PlayerScore]:
        if not self.tolls:
            return scores
        table = self.bonus_table[game.seats]
        eligible = [s for s in range(game.seats) if not self.loans[s] and game.left[s] is None]  # leavers: none
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

    def public_state(self, game: GameState, seat: int) -> dict:
        return {"loans": self.loans[seat]} if self.tolls else {}

    def private_state(self, game: GameState, seat: int) -> dict:
        return {"money": self.money[seat]} if self.tolls else {}

    def public_view(self, game: GameState) -> dict:
        neutral = None
        if self.neutral:
            ticket = None
            if self.pending is not None:
                t = game.map.ticket_by_id[self.pending["ticket"]]
                ticket = {
                    "id": t.id,
                    "a": game.map.cities[t.a].id,
                    "b": game.map.cities[t.b].id,
                    "points": t.points,
                    "route": list(t.extra["neutral_route"]),
                }
            neutral = {
                "owner": game.seats,
                "trains": self.neutral_trains,
                "marker": self.marker,
                "active": self.neutral_active,
                "ticket": ticket,
                "choices": list(self.pending["tracks"]) if self.pending else [],
            }
        return {"tolls": self.tolls, "neutral": neutral}

    def to_json(self, game: GameState) -> dict:
        return {
            "money": self.money,
            "loans": self.loans,
            "bank": self.bank,
            "start": self.start,
            "neutral_trains": self.neutral_trains,
            "marker": self.marker,
            "neutral_active": self.neutral_active,
            "pending": self.pending,
        }

    def from_json(self, game: GameState, data: dict) -> None:
        for key in ("money", "loans", "bank", "start", "neutral_trains", "marker", "neutral_active", "pending"):
            setattr(self, key, data[key])
