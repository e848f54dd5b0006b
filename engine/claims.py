"""Claiming: a route (its payment checked, a tunnel's reveal and surcharge), a station, and the
steps a hook's own claim takes too (`better_payment`, `discard_cards`, `place`). Part of the Game
(engine/game.py), as a base class of it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import (
    BuildStation,
    Claim,
    DeclineTunnel,
    PayTunnel,
)
from engine.cards import LOCO
from engine.errors import (
    N_,
    CardRef,
    CardsShortError,
    CityRef,
    IllegalActionError,
    ListRef,
    MapRef,
    SeatRef,
    phrase,
)
from engine.events import (
    Event,
    RouteClaimed,
    StationBuilt,
    TunnelDeclined,
    TunnelRevealed,
)
from engine.mapdata import Track
from engine.notation import format_action, route_ref
from engine.payments import (
    extended_payment_error,
    payment_error,
    payment_options,
    surcharge_options,
    tunnel_surcharge,
)
from engine.phases import TUNNEL


class Claims:
    """The Game's claims of routes and stations, checked and applied (a base class of Game)."""

    __slots__ = ()

    def _check_claim(self, seat: int, action: Claim) -> None:
        self.check_turn(seat, None, action)
        t = self.track(action.track)
        if self._claim_error(seat, action, t, None) is not None:  # the route's name only for the error
            raise self._claim_error(seat, action, t, route_ref(self.map, t))

    def _claim_error(self, seat: int, action: Claim, t: Track, route: object) -> IllegalActionError | None:
        """Why `seat` may not claim `t` with `action`'s payment (naming the route as `route`), or None."""
        owner = self.owner[t.index]
        if owner >= 0:
            return self.hooks.taken_error(self, route, owner)
        if t.double is not None:
            partner = self.owner[t.double]
            if partner == seat:
                return IllegalActionError("you own the other track of {route}; one player never owns both", route=route)
            if partner >= 0 and not self._doubles_open:
                return IllegalActionError(
                    "the other track of {route} is taken and with {players} players only one track of a "
                    "double route is used",
                    route=route,
                    players=self.seats,
                )
        if t.length > self.trains[seat]:
            return IllegalActionError(
                "{route} needs {length} trains and you have {left} left",
                route=route,
                length=t.length,
                left=self.trains[seat],
            )
        card_rules = self.track_rules[t.index]
        if card_rules is None:
            if action.subs:
                return IllegalActionError("{what} takes no substitute cards", what=route)
            error = payment_error(self.hands[seat], t.length, t.color, t.ferry, action.color, action.locos, route)
        else:
            locos_ok, ferry_sub, substitute = card_rules
            error = extended_payment_error(
                self.hands[seat],
                t.length,
                t.color,
                t.ferry,
                action.color,
                action.locos,
                tuple(action.subs),
                route,
                locos_ok=locos_ok,
                ferry_sub=ferry_sub,
                substitute=substitute,
                no_locos=self.hooks.locomotive_error,
            )
        if error is None and t.index in self._unmixed and 0 < action.locos < t.length:
            error = IllegalActionError(
                "{route} is a tunnel: on the {map} map pay for it with cards of one color or with "
                "locomotives only, not both",
                route=route,
                map=MapRef(self.map.name),
            )
        if isinstance(error, CardsShortError):
            error = self.better_payment(
                seat,
                error,
                action.color,
                self.track_payments(seat, t),
                route,
                lambda c, k, subs: Claim(t.id, c, k, subs),
            )
        return error

    def better_payment(
        self, seat: int, error: CardsShortError, color: int | None, payments: list, what: object, make: Callable
    ) -> IllegalActionError:
        """A payment the hand lacks cards for, when another payment works: name that one (in
        notation, which the player can type), preferring the color asked for and few locomotives."""
        if not payments:
            return error
        c, k, subs = min(payments, key=lambda p: (p[0] != color, p[0] is None, len(p[2]), p[1], p[0] or 0))
        fix = format_action(self.map, make(c, k, subs))
        if color is not None and not self.hands[seat][color]:
            return IllegalActionError(
                "you have no {color} cards: {fix} would pay for {what}", color=CardRef(color), fix=fix, what=what
            )
        return IllegalActionError("your cards do not make that payment for {what}: {fix} would pay", what=what, fix=fix)

    def _check_station(self, seat: int, action: BuildStation) -> None:
        self.check_turn(seat, None, action)
        if not self.map.rules.stations:
            raise IllegalActionError("the {map} map has no stations", map=MapRef(self.map.name))
        city = self.map.city_by_id.get(action.city)
        if city is None:
            raise IllegalActionError(
                "there is no city {city!r} on the {map} map", city=action.city, map=MapRef(self.map.name)
            )
        if not self.stations_left[seat]:
            raise IllegalActionError("you have built all your stations")
        if city.index in self.station_owner:
            raise IllegalActionError(
                "{city} already has a station ({owner})",
                city=CityRef(city.index, city.name),
                owner=SeatRef(self.station_owner[city.index]),
            )
        built = len(self.stations[seat])
        what = phrase(N_("your station no. {number}"), number=built + 1)
        cost = self.map.rules.station_costs[built]
        error = payment_error(self.hands[seat], cost, None, 0, action.color, action.locos, what)
        if isinstance(error, CardsShortError):
            payments = [(c, k, ()) for c, k in payment_options(self.hands[seat], cost, None, 0)]
            error = self.better_payment(
                seat, error, action.color, payments, what, lambda c, k, subs: BuildStation(city.id, c, k)
            )
        if error:
            raise error

    def _check_pay_tunnel(self, seat: int, action: PayTunnel) -> None:
        self.check_turn(seat, TUNNEL, action)
        tunnel = self.tunnel
        options = surcharge_options(self.hands[seat], tunnel["surcharge"], tunnel["color"])
        if action.locos in options:
            return
        n, color = tunnel["surcharge"], tunnel["color"]
        if color is not None:
            if not options:
                raise IllegalActionError(
                    "you cannot pay the tunnel's extra {n} {color} or locomotive cards: decline instead",
                    n=n,
                    color=CardRef(color),
                )
            raise IllegalActionError(
                "the tunnel's extra cost is {n} {color} or locomotive cards; pay with {options} locomotives",
                n=n,
                color=CardRef(color),
                options=ListRef(tuple(options), "or"),
            )
        if not options and n == 1:
            raise IllegalActionError("you cannot pay the tunnel's extra {n} locomotive: decline instead", n=n)
        if not options:
            raise IllegalActionError("you cannot pay the tunnel's extra {n} locomotives: decline instead", n=n)
        if n == 1:
            raise IllegalActionError(
                "the tunnel's extra cost is {n} locomotive; pay with {options} locomotives",
                n=n,
                options=ListRef(tuple(options), "or"),
            )
        raise IllegalActionError(
            "the tunnel's extra cost is {n} locomotives; pay with {options} locomotives",
            n=n,
            options=ListRef(tuple(options), "or"),
        )

    def _check_decline(self, seat: int, action: DeclineTunnel) -> None:
        self.check_turn(seat, TUNNEL, action)

    def _pay(self, seat: int, color: int | None, locos: int, count: int, subs: tuple[int, ...] = ()) -> list[int]:
        """Take `count` cards (`locos` of them locomotives) and the substitute cards out of the
        hand; returns the counts paid by card kind."""
        paid = [0] * self.hooks.card_kinds
        hand = self.hands[seat]
        if color is not None and count > locos:
            paid[color] = count - locos
            hand[color] -= count - locos
        paid[LOCO] = locos
        hand[LOCO] -= locos
        for c in subs:
            paid[c] += 1
            hand[c] -= 1
        return paid

    def discard_cards(self, counts: list[int]) -> None:
        discard = self.discard
        for kind, n in enumerate(counts):
            if n:
                discard += [kind] * n

    def _apply_claim(self, seat: int, action: Claim, events: list[Event]) -> None:
        t = self.map.track_by_id[action.track]
        subs = action.subs
        covered = t.length
        if subs:  # each set of substitute cards stands for one card of the route
            covered -= len(subs) // (self.hooks.ferry_substitute if t.ferry else t.substitute)
        color = action.color if action.locos < covered else None
        paid = self._pay(seat, color, action.locos, covered, subs)
        if t.tunnel:
            revealed = []
            for _ in range(3):
                card = self._draw_card(events)
                if card is None:
                    break
                revealed.append(card)
            surcharge = tunnel_surcharge(revealed, color)
            events.append(TunnelRevealed(seat, t.id, tuple(revealed), surcharge))
            if surcharge:
                self.stage = TUNNEL
                self.tunnel = {
                    "track": t.id,
                    "color": color,
                    "paid": paid,
                    "revealed": revealed,
                    "surcharge": surcharge,
                }
                return
            self.discard.extend(revealed)
        self.discard_cards(paid)
        self.place(seat, t, color, action.locos, events)
        self.end_turn(events)

    def place(self, seat: int, t: Track, color: int | None, locos: int, events: list[Event]) -> None:
        self.owner[t.index] = seat
        self.track_claimed(t.index)
        self.trains[seat] -= t.length
        points = self.map.rules.route_points[t.length]
        self.score[seat] += points
        events.append(RouteClaimed(seat, t.id, color, locos, points))
        self.hooks.after_claim(self, seat, t, events)

    def _apply_pay_tunnel(self, seat: int, action: PayTunnel, events: list[Event]) -> None:
        tunnel, self.tunnel = self.tunnel, None
        extra = self._pay(seat, tunnel["color"], action.locos, tunnel["surcharge"])
        self.discard_cards(tunnel["paid"])
        self.discard_cards(extra)
        self.discard.extend(tunnel["revealed"])
        t = self.map.track_by_id[tunnel["track"]]
        self.place(seat, t, tunnel["color"], tunnel["paid"][LOCO], events)
        self.end_turn(events)

    def _apply_decline(self, seat: int, action: DeclineTunnel, events: list[Event]) -> None:
        tunnel, self.tunnel = self.tunnel, None
        hand = self.hands[seat]
        for kind, n in enumerate(tunnel["paid"]):
            hand[kind] += n
        self.discard.extend(tunnel["revealed"])
        events.append(TunnelDeclined(seat, tunnel["track"]))
        self.end_turn(events)

    def _apply_station(self, seat: int, action: BuildStation, events: list[Event]) -> None:
        city = self.map.city_by_id[action.city]
        cost = self.map.rules.station_costs[len(self.stations[seat])]
        color = action.color if action.locos < cost else None
        self.discard_cards(self._pay(seat, color, action.locos, cost))
        self.station_owner[city.index] = seat
        self.stations[seat].append(city.index)
        self.stations_left[seat] -= 1
        events.append(StationBuilt(seat, city.id, color, action.locos))
        self.end_turn(events)
