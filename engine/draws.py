"""Drawing: train cards from the deck and the face-up market (docs/rules.md §1: the second
card, face-up locomotives, reshuffles, market resets) and destination tickets (offers, keeping).
Part of the Game (engine/game.py), as a base class of it.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from engine.actions import (
    Action,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
)
from engine.cards import LOCO
from engine.errors import (
    IllegalActionError,
    ListRef,
)
from engine.events import (
    CardDrawn,
    DeckReshuffled,
    Event,
    MarketRefilled,
    MarketReset,
    TicketsKept,
    TicketsOffered,
)
from engine.phases import CHOOSING, PLAYING, SECOND_CARD, TICKETS

MARKET_SIZE = 5
MAX_MARKET_RESETS = 3

#: The moves that carry no choice, built once (actions are immutable values).
DRAW_MARKET = tuple(DrawMarket(slot) for slot in range(MARKET_SIZE))


DRAW_DECK = DrawDeck()


DRAW_TICKETS = DrawTickets()


_card_drawn = cache(CardDrawn)


_market_refilled = cache(MarketRefilled)


class Draws:
    """The Game's card and ticket draws, checked and applied (a base class of Game)."""

    __slots__ = ()

    def _keep_choices(self, seat: int) -> list[Action]:
        offer = sorted(self.offers[seat])
        out: list[Action] = []
        for size in range(self.offer_keep[seat], len(offer) + 1):
            out.extend(KeepTickets(ids) for ids in combinations(offer, size))
        return out

    def _can_draw_blind(self) -> bool:
        return bool(self.deck or self.discard)

    def _can_draw_second(self) -> bool:
        """Whether `_second_card_actions` lists anything (without building the list)."""
        free = self._free_locos
        return bool(self.deck or self.discard) or any(c >= 0 and (free or c != LOCO) for c in self.market)

    def _second_card_actions(self) -> list[Action]:
        free = self._free_locos
        market = self.market
        if -1 in market:
            actions: list[Action] = [DRAW_MARKET[i] for i, c in enumerate(market) if c >= 0 and (free or c != LOCO)]
        elif free or LOCO not in market:
            actions = list(DRAW_MARKET)
        else:
            actions = [DRAW_MARKET[i] for i, c in enumerate(market) if c != LOCO]
        if self._can_draw_blind():
            actions.append(DRAW_DECK)
        return actions

    def _check_draw_deck(self, seat: int, action: DrawDeck) -> None:
        self.check_turn(seat, self.stage if self.stage in (None, SECOND_CARD) else None, action)
        if not self._can_draw_blind():
            raise IllegalActionError(
                "the deck and the discard pile are both empty: take a face-up card or do something else"
            )

    def _check_draw_market(self, seat: int, action: DrawMarket) -> None:
        self.check_turn(seat, self.stage if self.stage in (None, SECOND_CARD) else None, action)
        if not 0 <= action.slot < MARKET_SIZE:
            raise IllegalActionError(
                "there is no face-up card {slot}; the market has 1 to {size}", slot=action.slot + 1, size=MARKET_SIZE
            )
        card = self.market[action.slot]
        if card < 0:
            raise IllegalActionError("face-up slot {slot} is empty", slot=action.slot + 1)
        if self.stage is SECOND_CARD and card == LOCO and not self._free_locos:
            raise IllegalActionError("a face-up locomotive cannot be your second card")

    def _check_tickets(self, seat: int, action: DrawTickets) -> None:
        self.check_turn(seat, None, action)
        if not self.ticket_deck and not (self.ticket_discard and self.returned_policy == "discard"):
            raise IllegalActionError("no destination tickets are left to draw")

    def _check_keep(self, seat: int, action: KeepTickets) -> None:
        if self.phase is PLAYING:
            self.check_turn(seat, TICKETS, action)
        elif not self.offers[seat]:
            raise IllegalActionError("you have already chosen your starting tickets")
        offer = self.offers[seat]
        ids = action.ids
        unknown = [i for i in ids if i not in offer]
        if unknown:
            offered = ListRef(tuple(sorted(offer)))
            if len(unknown) > 1:
                raise IllegalActionError(
                    "tickets {tickets} are not among the tickets offered to you ({offered})",
                    tickets=ListRef(tuple(unknown)),
                    offered=offered,
                )
            raise IllegalActionError(
                "ticket {ticket} is not among the tickets offered to you ({offered})",
                ticket=unknown[0],
                offered=offered,
            )
        if len(set(ids)) != len(ids):
            raise IllegalActionError("each ticket can be kept only once")
        if len(ids) < self.offer_keep[seat]:
            raise IllegalActionError(
                "keep at least {keep} of the {offered} tickets", keep=self.offer_keep[seat], offered=len(offer)
            )

    def _draw_card(self, events: list[Event]) -> int | None:
        """Top card of the deck, reshuffling the discard when the deck is empty (docs/rules.md §1)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng("reshuffle").shuffle(self.deck)
            events.append(DeckReshuffled(len(self.deck)))
        return self.deck.pop()

    def _refill(self, slot: int, events: list[Event]) -> None:
        card = self.deck.pop() if self.deck else self._draw_card(events)
        market = self.market
        market[slot] = -1 if card is None else card
        events.append(_market_refilled(slot, card))
        if market.count(LOCO) >= 3:
            self._check_market(events)

    def _check_market(self, events: list[Event]) -> None:
        """3+ face-up locomotives: discard all five and deal five (at most 3 times in a row)."""
        if not self.hooks.market_resets:
            return
        for _ in range(MAX_MARKET_RESETS):
            if self.market.count(LOCO) < 3:
                return
            if len(self.deck) - self.deck.count(LOCO) + len(self.discard) - self.discard.count(LOCO) < 3:
                return
            old = tuple(c for c in self.market if c >= 0)
            self.discard.extend(old)
            for slot in range(MARKET_SIZE):
                card = self._draw_card(events)
                self.market[slot] = -1 if card is None else card
            events.append(MarketReset(old, tuple(None if c < 0 else c for c in self.market)))

    def _apply_draw_deck(self, seat: int, action: DrawDeck, events: list[Event]) -> None:
        card = self.deck.pop() if self.deck else self._draw_card(events)
        self.hands[seat][card] += 1
        events.append(_card_drawn(seat, card, None))
        self._after_card(seat, False, events)

    def _apply_draw_market(self, seat: int, action: DrawMarket, events: list[Event]) -> None:
        card = self.market[action.slot]
        self.hands[seat][card] += 1
        events.append(_card_drawn(seat, card, action.slot))
        self._refill(action.slot, events)
        self._after_card(seat, card == LOCO and not self._free_locos, events)

    def _after_card(self, seat: int, face_up_loco: bool, events: list[Event]) -> None:
        if self.stage is SECOND_CARD or face_up_loco:
            self.end_turn(events)
            return
        self.stage = SECOND_CARD
        if not self._can_draw_second():  # only one card could be drawn: the turn ends
            self.end_turn(events)

    def _apply_draw_tickets(self, seat: int, action: DrawTickets, events: list[Event]) -> None:
        offer = []
        for _ in range(self.deck_rules.draw_count):
            if not self.ticket_deck:
                if self.returned_policy != "discard" or not self.ticket_discard:
                    break
                self.ticket_deck, self.ticket_discard = self.ticket_discard, []
                self.rng("ticket-reshuffle").shuffle(self.ticket_deck)
            offer.append(self.ticket_deck.pop())
        self.offers[seat] = offer
        self.offer_keep[seat] = min(self.deck_rules.draw_keep, len(offer))
        self.stage = TICKETS
        events.append(TicketsOffered(seat, len(offer), tuple(offer), self.offer_keep[seat]))

    def _apply_keep(self, seat: int, action: KeepTickets, events: list[Event]) -> None:
        offer = self.offers[seat]
        kept = sorted(action.ids)
        returned = [i for i in offer if i not in kept]
        self.tickets[seat].extend(kept)
        self.offers[seat] = []
        self.offer_keep[seat] = 0
        starting = self.phase is CHOOSING
        self._return_tickets(returned, self.deck_rules.start_returned if starting else self.returned_policy)
        events.append(TicketsKept(seat, len(kept), len(returned), tuple(kept)))
        if starting:
            self._maybe_start_play(events)
        else:
            self.end_turn(events)

    def _return_tickets(self, ids: list[int], policy: str) -> None:
        self.hooks.return_tickets(self, ids, policy)  # "box": out of the game
