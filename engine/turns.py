"""Turn flow: whose turn it is and what the turn waits for, the end of a turn and of a round, the
last round and the end of the game, passes, leaving, undo and the default move on a timeout.
Part of the Game (engine/game.py), as a base class of it.
"""

from __future__ import annotations

from functools import cache

from engine.actions import (
    Action,
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    Skip,
    Undo,
)
from engine.cards import LOCO
from engine.errors import (
    N_,
    IllegalActionError,
    SeatRef,
)
from engine.events import (
    Event,
    GameOver,
    LastRoundStarted,
    Passed,
    SeatLeft,
    TurnStarted,
)
from engine.phases import CHOOSING, OVER, PLAYING, SECOND_CARD, TICKETS, TUNNEL, Termination
from engine.scoring import final_scores

LAST_ROUND_TRAINS = 2

#: Why a turn's action must wait while players choose their starting tickets (error templates).
_WAITING = {
    DrawDeck: N_("players are still choosing their starting tickets; drawing waits for the first turn"),
    DrawMarket: N_("players are still choosing their starting tickets; drawing waits for the first turn"),
    Claim: N_("players are still choosing their starting tickets; claiming waits for the first turn"),
    DrawTickets: N_("players are still choosing their starting tickets; drawing tickets waits for the first turn"),
    KeepTickets: N_("players are still choosing their starting tickets; keeping tickets waits for the first turn"),
    BuildStation: N_("players are still choosing their starting tickets; building a station waits for the first turn"),
    PayTunnel: N_("players are still choosing their starting tickets; paying waits for the first turn"),
    DeclineTunnel: N_("players are still choosing their starting tickets; declining waits for the first turn"),
    Pass: N_("players are still choosing their starting tickets; passing waits for the first turn"),
}


#: Events are immutable values too: the ones most moves make (a few hundred different ones per
#: map: seats, card kinds, market slots) are each made once, a lookup instead of a constructor.
turn_started = cache(TurnStarted)


def effective_log(log: list[tuple[int | None, Action]]) -> list[tuple[int | None, Action]]:
    """The log without undone actions (and without the Undo entries themselves)."""
    effective: list[tuple[int | None, Action]] = []
    for seat, action in log:
        if isinstance(action, Undo):
            effective.pop()
        else:
            effective.append((seat, action))
    return effective


class Turns:
    """The Game's flow of turns (a base class of Game)."""

    __slots__ = ()

    def check_turn(self, seat: int, stage: str | None, action: Action) -> None:
        if self.phase is CHOOSING:
            raise IllegalActionError(_WAITING[type(action)])
        if seat != self.current:
            raise IllegalActionError("it is {current}'s turn, not yours", current=SeatRef(self.current))
        if self.stage is not stage:
            raise self._stage_error()

    def _stage_error(self) -> IllegalActionError:
        """What the seat to move must do first at this stage of its turn."""
        if self.stage in self.hooks.stages:
            return self.hooks.stage_error(self)
        if self.stage is None:
            return IllegalActionError(
                "this is the start of your turn: draw cards, claim a route, draw tickets or build a station"
            )
        if self.stage is SECOND_CARD:
            return IllegalActionError("draw your second card first (a face-up locomotive is not allowed now)")
        if self.stage is TUNNEL:
            return IllegalActionError("decide on the tunnel first: pay the extra cards or decline")
        return IllegalActionError("choose which tickets to keep first")

    def _check_pass(self, seat: int, action: Pass) -> None:
        self.check_turn(seat, None, action)
        if any(not isinstance(a, Pass) for a in self._turn_start_actions(seat, True)):
            raise IllegalActionError("you can only pass when you have no other move")

    def _check_skip(self, seat: None, action: Skip) -> None:
        if self.phase is not PLAYING:
            raise IllegalActionError("there is no turn to skip while players choose their starting tickets")

    def _check_undo(self, seat: int, action: Undo) -> None:
        if not self.log or self.log[-1][0] != seat or not self.undoable:
            raise IllegalActionError(
                "only your own last move can be taken back, right after it, and only a route or a "
                "station that revealed no card"
            )

    def _apply_undo(self, seat: int, action: Undo, events: list[Event]) -> None:
        """Rebuild the state by replaying the effective log without its last action."""
        kept = effective_log(self.log)[:-1]
        fresh = type(self).new(self.map, self.seats, self.seed, self.options)
        for entry_seat, entry in kept:
            fresh.apply(entry_seat, entry)
        for name in type(self).__slots__[:-1]:  # (not __weakref__)
            if name not in ("log", "public_log"):
                setattr(self, name, getattr(fresh, name))
        events.append(turn_started(self.current))

    def _check_resign(self, seat: int, action: Resign) -> None:
        pass

    def _check_remove(self, seat: None, action: Remove) -> None:
        if not 0 <= action.seat < self.seats:
            raise IllegalActionError("seat {seat} is not a seat of this game", seat=action.seat + 1)
        if self.left[action.seat] is not None:
            raise IllegalActionError("{seat} has already left", seat=SeatRef(action.seat))

    def _maybe_start_play(self, events: list[Event]) -> None:
        if self.phase is not CHOOSING or any(
            self.offers[s] or self.hooks.choosing(self, s) for s in self.active_seats()
        ):
            return
        self.phase = PLAYING
        if self.left[self.current] is not None:
            self.current = self._next_seat(self.current)
        events.append(turn_started(self.current))

    def _apply_pass(self, seat: int | None, action: Pass | Skip, events: list[Event]) -> None:
        events.append(Passed(self.current, skipped=isinstance(action, Skip)))
        if self.tunnel is not None:  # a skipped tunnel decision declines
            self._apply_decline(self.current, DeclineTunnel(), [])
            return
        if self.stage is TICKETS:  # a skipped ticket choice keeps the default
            self._apply_keep(self.current, self.default_action(self.current), events)
            return
        if self.stage in self.hooks.stages:  # a skipped hook decision takes its default
            self.hooks.apply_action(self, self.current, self.hooks.default_action(self, self.current), events)
            return
        if self.stage is None:  # a skipped second card is no pass
            self.passes += 1
        self.end_turn(events)

    def _apply_leave(self, seat: int | None, action: Resign | Remove, events: list[Event]) -> None:
        leaver = action.seat if isinstance(action, Remove) else seat
        self.left[leaver] = "removed" if isinstance(action, Remove) else "resigned"
        events.append(SeatLeft(leaver, self.left[leaver]))
        if self.tunnel is not None and leaver == self.current:
            tunnel, self.tunnel = self.tunnel, None
            self.discard_cards(tunnel["paid"])
            self.discard.extend(tunnel["revealed"])
        hand = self.hands[leaver]
        self.discard_cards(hand)
        self.hands[leaver] = [0] * self.hooks.card_kinds
        if self.offers[leaver]:
            policy = self.deck_rules.start_returned if self.phase is CHOOSING else self.returned_policy
            self._return_tickets(self.offers[leaver], policy)
            self.offers[leaver] = []
            self.offer_keep[leaver] = 0
        if self.last_round is not None and leaver in self.last_round:
            self.last_round.remove(leaver)
        if len(self.active_seats()) < 2:
            self._game_over("too_few_seats", events)
            return
        if self.phase is CHOOSING:
            self._maybe_start_play(events)
        elif leaver == self.current:
            self.stage = None
            if self.resume is not None:  # left during a between-rounds decision: the round had ended
                leaver, self.resume = self.resume, None
            elif self._closes_round(leaver):
                self.round += 1
            if self.last_round is not None and not self.last_round:
                self._game_over("last_round", events)
                return
            self.current = self._next_seat(leaver)
            events.append(turn_started(self.current))

    def _next_seat(self, seat: int) -> int:
        nxt = seat + 1 if seat + 1 < self.seats else 0
        if self.left[nxt] is None:
            return nxt
        for step in range(2, self.seats + 1):
            nxt = (seat + step) % self.seats
            if self.left[nxt] is None:
                return nxt
        return seat

    def end_turn(self, events: list[Event]) -> None:
        seat = self.current
        self.stage = None
        if -1 in self.market:  # slots left empty by an exhausted deck
            for slot, card in enumerate(self.market):
                if card < 0 and (self.deck or self.discard):
                    self._refill(slot, events)
        if self.last_round is not None:
            if seat in self.last_round:
                self.last_round.remove(seat)
        elif self.trains[seat] <= LAST_ROUND_TRAINS:
            self.last_round = self.active_seats()
            events.append(LastRoundStarted(seat, self.trains[seat]))
        nxt = self._next_seat(seat)
        if self._closes_round(seat, nxt):
            self.round += 1
            decider = self.hooks.after_round(self, events)  # e.g. Nederland's neutral player phase
            if decider is not None:
                self.resume, self.current = seat, decider
                return
            nxt = None  # (the hook may have changed who plays)
        self._advance(seat, events, nxt)

    def _closes_round(self, seat: int, nxt: int | None = None) -> bool:
        """Whether the end of `seat`'s turn completes a round (the next turn, `nxt`'s, wraps past the first seat)."""
        if nxt is None:
            nxt = self._next_seat(seat)
        return (nxt - self.first) % self.seats <= (seat - self.first) % self.seats

    def resume_turns(self, events: list[Event]) -> None:
        """End a hook's between-rounds decision: the next turn (or the end of the game) follows."""
        seat, self.resume = self.resume, None
        self.stage = None
        self._advance(seat, events)

    def _advance(self, seat: int, events: list[Event], nxt: int | None = None) -> None:
        """After `seat`'s turn (and any between-rounds phase): the end of the game or the next turn
        (`nxt`'s when known)."""
        if self.last_round is not None and not self.last_round:
            self._game_over("last_round", events)
            return
        if self.passes >= self.left.count(None):  # every active seat passed
            self._game_over("all_passed", events)
            return
        self.current = self._next_seat(seat) if nxt is None else nxt
        events.append(turn_started(self.current))

    def _game_over(self, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        self.stage = None
        self.end_reason = Termination(reason)
        self.final = final_scores(self)
        events.append(GameOver(reason))

    def default_action(self, seat: int) -> Action:
        """The forced move when `seat` times out: keep the fewest tickets (lowest points first),
        decline a tunnel, otherwise draw blind (or take a face-up card, or pass)."""
        if self.phase is CHOOSING and self.hooks.choosing(self, seat):
            return self.hooks.default_action(self, seat)
        if self.phase is CHOOSING or self.stage is TICKETS:
            by_points = sorted(self.offers[seat], key=lambda i: (self.map.ticket_by_id[i].points, i))
            return KeepTickets(tuple(sorted(by_points[: self.offer_keep[seat]])))
        if self.stage is TUNNEL:
            return DeclineTunnel()
        if self.stage in self.hooks.stages:
            return self.hooks.default_action(self, seat)
        if self._can_draw_blind():
            return DrawDeck()
        second = self.stage is SECOND_CARD
        for slot, card in enumerate(self.market):
            if card >= 0 and not (second and card == LOCO and not self._free_locos):
                return DrawMarket(slot)
        if self.is_legal(seat, Pass()):
            return Pass()
        return Skip()
