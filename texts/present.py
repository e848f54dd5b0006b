"""Words for what happened: engine events and views turned into short lines a phone shows well,
in the reader's language (every function takes that reader's `Translator`).

Everything shown in a channel comes from public events (`event.for_viewer(None)`) or the
spectator view, worded with the channel's translator; private texts take the seat's own view and
the player's translator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine import Game
from engine.cards import ALL_CARD_NAMES
from engine.events import (
    CardDrawn,
    Event,
    LastRoundStarted,
    LoanTaken,
    NeutralRouteClaimed,
    NeutralStopped,
    NeutralTicketRevealed,
    Passed,
    RouteClaimed,
    SeatLeft,
    StationBuilt,
    TicketsKept,
    TicketsOffered,
    TollPaid,
    TunnelDeclined,
    TunnelRevealed,
)
from engine.mapdata import MapData, Track
from engine.marklin import PassengerMoved, PassengerPlaced
from engine.scoring import TicketResult, tickets_now
from i18n import N_, NC_, Translator

#: Each card's mark in text: Unicode squares (the terminal game), or the bot's own emojis once
#: it has them (`use_card_emojis`, at its start-up: "<:ttr_red:1234…>", a small drawn card).
UNICODE_CARD_EMOJI = {
    "pink": "🟪",
    "white": "⬜",
    "blue": "🟦",
    "yellow": "🟨",
    "orange": "🟧",
    "black": "⬛",
    "red": "🟥",
    "green": "🟩",
    "loco": "🌈",
    "gray": "◻️",
    "loco4": "🚂",
    "passenger": "🧳",
}
CARD_EMOJI = dict(UNICODE_CARD_EMOJI)


def use_card_emojis(marks: Mapping[str, str]) -> None:
    """This process's card marks: `marks` by card name (Discord's custom emoji markup), Unicode
    for the cards it leaves out ({}: Unicode again). Buttons take the same markup as their emoji."""
    CARD_EMOJI.clear()
    CARD_EMOJI.update(UNICODE_CARD_EMOJI, **marks)


Names = Callable[[int], str]

#: End-of-game bonuses by the engine's name (engine.scoring, engine.nederland); the longest path's
#: is worded with its length (`final_fields`).
BONUSES = {
    "globetrotter": N_("globetrotter {points}"),
    "toll_bonus": N_("toll bonus {points}"),
    "loans": N_("loans {points}"),
    "merchandise": N_("merchandise {points}"),
}


def card(t: Translator, index: int) -> str:
    """A card with its color's emoji: '🟥 red'."""
    return f"{CARD_EMOJI[ALL_CARD_NAMES[index]]} {t.card(index)}"


def route_name(t: Translator, m: MapData, track: Track) -> str:
    """'Dieppe – Paris'; a track of a double (or Märklin's triple) route is told apart in words
    players use, never by a number: its color when no other track there has it ('Budapest – Wien
    (red)'), else the first is the route and the next 'the other track' (or second, third)."""
    name = f"{t.city(m.cities[track.a])} – {t.city(m.cities[track.b])}"
    if track.double is None:
        return name
    alike = [s for s in _parallel(m, track) if s.color == track.color]
    if len(alike) == 1:
        return t.gettext("{route} ({color})", route=name, color=route_color(t, track))
    return _nth_track(t, name, alike.index(track), len(alike))


def _parallel(m: MapData, track: Track) -> list[Track]:
    """The tracks of one route (a double's two, Märklin's three), in map order."""
    found, current = [track], m.tracks[track.double] if track.double is not None else track
    while current is not track:
        found.append(current)
        current = m.tracks[current.double] if current.double is not None else track
    return sorted(found, key=lambda s: s.index)


def _nth_track(t: Translator, name: str, position: int, count: int) -> str:
    if position == 0:
        return name
    if count == 2:
        return t.gettext("{route} (the other track)", route=name)
    return (
        t.gettext("{route} (second track)", route=name)
        if position == 1
        else t.gettext("{route} (third track)", route=name)
    )


def route_color(t: Translator, track: Track) -> str:
    """A route's color: a card color, or gray (any one color)."""
    return t.pgettext("route", "gray") if track.color is None else t.card(track.color)


def route_choice_label(t: Translator, m: MapData, track: Track) -> str:
    """Autocomplete label: 'Dieppe – Paris · 1 · pink', with tunnel/ferry marks."""
    extras = []
    if track.tunnel:
        extras.append(t.pgettext("route", "tunnel"))
    if track.ferry:
        extras.append(t.gettext("ferry {n}🌈", n=track.ferry))
    # The color follows: it tells a double route's tracks apart when they differ.
    plain = f"{t.city(m.cities[track.a])} – {t.city(m.cities[track.b])}"
    colored = track.double is not None and [s.color for s in _parallel(m, track)].count(track.color) == 1
    name = plain if track.double is None or colored else route_name(t, m, track)
    return " · ".join([name, str(track.length), route_color(t, track), *extras])


def colored_cards(t: Translator, color: int, n: int) -> str:
    """'4 blue' (n cards of one color)."""
    return t.ngettext("{n} {color}", "{n} {color}", n, color=t.card(color))


def locos(t: Translator, n: int) -> str:
    return t.ngettext("{n} loco", "{n} locos", n)


def payment_text(t: Translator, color: int | None, loco_count: int, total: int) -> str:
    """'2 red + 1 loco'."""
    parts = []
    if color is not None and total - loco_count:
        parts.append(colored_cards(t, color, total - loco_count))
    if loco_count:
        parts.append(locos(t, loco_count))
    return " + ".join(parts)


def claim_payment_label(t: Translator, game: Game, claim) -> str:
    """'2 white + 1 loco'; with substitute cards (Nordic) '1 white + 1 loco + 3 others (blue, green and red)'."""
    track = game.map.track_by_id[claim.track]
    subs = getattr(claim, "subs", ())
    per_card = track.substitute or 3  # Nordic: any 4 cards for a missing card on Murmansk-Lieksa, 3 for a ferry loco
    covered = len(subs) // per_card if subs else 0
    colored = track.length - claim.locos - covered
    parts = []
    if claim.color is not None and colored > 0:
        parts.append(colored_cards(t, claim.color, colored))
    if claim.locos:
        parts.append(locos(t, claim.locos))
    if subs:
        parts.append(
            t.ngettext("{n} other ({cards})", "{n} others ({cards})", len(subs), cards=t.join(t.card(c) for c in subs))
        )
    return " + ".join(parts)


def tolls_on(game: Game) -> bool:
    """Nederland with bridge tolls: claims pay the printed toll (the variant can switch it off)."""
    return bool(game.hooks.public_view(game).get("tolls"))


def claim_choice_label(t: Translator, game: Game, claim, seat: int | None = None) -> str:
    """A claim as a choice: 'Amsterdam – Utrecht · 2 red · toll 1', with the tunnel mark; for `seat`,
    a toll it cannot pay says it means a Loan (Nederland: money is the seat's secret)."""
    track = game.map.track_by_id[claim.track]
    parts = [route_name(t, game.map, track), claim_payment_label(t, game, claim)]
    if track.tunnel:
        parts.append(t.pgettext("route", "tunnel"))
    toll = toll_note(t, game, track, seat)
    if toll:
        parts.append(toll)
    return " · ".join(parts)


def toll_note(t: Translator, game: Game, track, seat: int | None = None) -> str | None:
    """A route's toll when tolls are on (Nederland): 'toll 1'; for `seat`, a toll it cannot pay
    says it means a Loan (money is the seat's secret, shown to it alone)."""
    if not (track.toll and tolls_on(game)):
        return None
    money = game.hooks.private_state(game, seat).get("money") if seat is not None else None
    if money is None or money >= track.toll:
        return t.gettext("toll {n}", n=track.toll)
    return t.gettext("toll {n}: a Loan (you have {money})", n=track.toll, money=money)


def _toll(
    t: Translator, game: Game, events: list[Event], claim: RouteClaimed, names: Names, viewer: int | None = None
) -> str | None:
    """A claim's toll (Nederland) and who received it, for the claim's line; None without one. The
    toll is printed on the board, so naming it tells nobody's money. Paid to `viewer`: "to you"."""
    toll = game.map.track_by_id[claim.track].toll
    if not toll or not tolls_on(game):
        return None
    paid = next(
        (e for e in events if isinstance(e, TollPaid) and e.track == claim.track and e.payer == claim.seat), None
    )
    if paid is None:  # could not pay: the Loan's line follows
        return t.gettext("toll {n}", n=toll)
    if paid.payee is None:
        return t.gettext("toll {n} to the bank", n=toll)
    if paid.payee == viewer:
        return t.gettext("toll {n} to you", n=toll)
    return t.gettext("toll {n} to **{name}**", n=toll, name=names(paid.payee))


def _neutral_ticket(t: Translator, m: MapData, e: NeutralTicketRevealed, names: Names) -> str:
    if e.route is None:
        return t.gettext("Neutral ticket: no route → nothing happens")
    route = f"{t.city(m.city_by_id[e.route[0]])} – {t.city(m.city_by_id[e.route[1]])}"
    if e.outcome == "built":
        return t.gettext("Neutral ticket: {route} → already built: nothing happens", route=route)
    if e.outcome == "taken":
        return t.gettext("Neutral ticket: {route} → no free track: nothing happens", route=route)
    if e.outcome == "choose":
        return t.gettext("Neutral ticket: {route} → {name} picks the track", route=route, name=names(e.holder))
    if e.outcome == "claimed":
        return t.gettext("Neutral ticket: {route} → the neutral player builds it", route=route)
    if e.outcome == "stopped":
        return t.gettext("Neutral ticket: {route} → the neutral player is out of trains", route=route)
    return t.gettext("Neutral ticket: {route} → nothing happens", route=route)


def _tunnel(t: Translator, m: MapData, e: TunnelRevealed, name: str) -> str:
    route = route_name(t, m, m.track_by_id[e.track])
    if not e.revealed:
        return t.gettext(
            "**{name}** dug the tunnel {route}: revealed nothing (no cards left) → no extra cost",
            name=name,
            route=route,
        )
    shown = t.join(card(t, c) for c in e.revealed)
    if not e.surcharge:
        return t.gettext(
            "**{name}** dug the tunnel {route}: revealed {cards} → no extra cost", name=name, route=route, cards=shown
        )
    return t.ngettext(
        "**{name}** dug the tunnel {route}: revealed {cards} → {n} more card to pay",
        "**{name}** dug the tunnel {route}: revealed {cards} → {n} more cards to pay",
        e.surcharge,
        name=name,
        route=route,
        cards=shown,
    )


def _tickets_offered(t: Translator, m: MapData, e: TicketsOffered, name: str) -> str:
    """A ticket draw; on Märklin with the mix the player named (public: the long tickets are told
    apart from the unredacted event's ids, which only the drawing seat's own view shows)."""
    if "marklin" not in m.rules.hooks or e.ids is None:
        return t.ngettext(
            "**{name}** drew {n} destination ticket", "**{name}** drew {n} destination tickets", e.count, name=name
        )
    long = sum(m.ticket_by_id[i].long for i in e.ids)
    return t.ngettext(
        "**{name}** drew {n} destination ticket (long: {long}, short: {short})",
        "**{name}** drew {n} destination tickets (long: {long}, short: {short})",
        e.count,
        name=name,
        long=long,
        short=e.count - long,
    )


def _passenger_moved(t: Translator, m: MapData, e: PassengerMoved, name: str) -> str:
    """'**Ann** moved a passenger Kiel → Hamburg → Bremen (1 passenger card): tokens 2 + 3 → +5'."""
    path = " → ".join(t.city(m.city_by_id[c]) for c in e.path)
    tokens = " + ".join(map(str, e.tokens)) or "0"
    return t.ngettext(
        "**{name}** moved a passenger {path} ({n} passenger card): tokens {tokens} → +{points}",
        "**{name}** moved a passenger {path} ({n} passenger cards): tokens {tokens} → +{points}",
        e.cards,
        name=name,
        path=path,
        tokens=tokens,
        points=sum(e.tokens),
    )


def describe(t: Translator, game: Game, events: list[Event], names: Names, viewer: int | None = None) -> list[str]:
    """Public lines for one action's events (redacted for spectators), in the past tense. Cards
    drawn are left out: `drawn` collects them and `merge_turn` words a turn's draws as one
    sentence. The game's end has no line: the final message's heading says it once. Told to one
    `viewer` (the terminal's one person, who is "you"), a toll paid to them is paid "to you"."""
    m = game.map
    lines: list[str] = []
    for raw in events:
        e = raw.for_viewer(None)
        if isinstance(e, RouteClaimed):
            track = m.track_by_id[e.track]
            line = t.gettext(
                "**{name}** claimed {route} with {payment} · +{points}",
                name=names(e.seat),
                route=route_name(t, m, track),
                payment=payment_text(t, e.color, e.locos, track.length),
                points=e.points,
            )
            toll = _toll(t, game, events, e, names, viewer)
            lines.append(f"{line} · {toll}" if toll else line)
        elif isinstance(e, TollPaid) and e.payer is None and e.payee is not None:  # the bank covers a Loan
            route, n = route_name(t, m, m.track_by_id[e.track]), m.track_by_id[e.track].toll
            lines.append(
                "💸 "
                + (
                    t.gettext("The bank paid you the toll of {route}: {n}.", route=route, n=n)
                    if e.payee == viewer
                    else t.gettext(
                        "The bank paid **{name}** the toll of {route}: {n}.", name=names(e.payee), route=route, n=n
                    )
                )
            )
        elif isinstance(e, TunnelRevealed):
            lines.append(_tunnel(t, m, e, names(e.seat)))
        elif isinstance(e, TunnelDeclined):
            lines.append(
                t.gettext(
                    "**{name}** declined the tunnel {route}",
                    name=names(e.seat),
                    route=route_name(t, m, m.track_by_id[e.track]),
                )
            )
        elif isinstance(e, TicketsOffered):
            lines.append(_tickets_offered(t, m, raw, names(e.seat)))
        elif isinstance(e, PassengerPlaced):
            lines.append(
                "🧳 "
                + t.gettext(
                    "**{name}** put a passenger in {city}", name=names(e.seat), city=t.city(m.city_by_id[e.city])
                )
            )
        elif isinstance(e, PassengerMoved):
            lines.append("🧳 " + _passenger_moved(t, m, e, names(e.seat)))
        elif isinstance(e, TicketsKept) and game.phase != "choosing":
            lines.append(
                t.ngettext("**{name}** kept {n} ticket", "**{name}** kept {n} tickets", e.kept, name=names(e.seat))
            )
        elif isinstance(e, StationBuilt):
            cost = len(game.stations[e.seat])
            lines.append(
                t.gettext(
                    "**{name}** built a station in {city} ({payment})",
                    name=names(e.seat),
                    city=t.city(m.city_by_id[e.city]),
                    payment=payment_text(t, e.color, e.locos, cost),
                )
            )
        elif isinstance(e, Passed):
            lines.append(
                t.gettext("**{name}** was skipped", name=names(e.seat))
                if e.skipped
                else t.gettext("**{name}** passed (no legal move)", name=names(e.seat))
            )
        elif isinstance(e, SeatLeft):
            lines.append(
                t.gettext("**{name}** resigned", name=names(e.seat))
                if e.reason == "resigned"
                else t.gettext("**{name}** was removed from the game", name=names(e.seat))
            )
        elif isinstance(e, LastRoundStarted):
            lines.append(
                "🔔 "
                + t.ngettext(
                    "**Last round!** {name} has {n} train left: everyone gets one more turn.",
                    "**Last round!** {name} has {n} trains left: everyone gets one more turn.",
                    e.trains,
                    name=names(e.seat),
                )
            )
        elif isinstance(e, LoanTaken):
            lines.append(
                "💸 "
                + t.gettext(
                    "**{name}** couldn't pay the toll and took a Loan ({loans} now)", name=names(e.seat), loans=e.loans
                )
            )
        elif isinstance(e, NeutralTicketRevealed):
            lines.append("🤖 " + _neutral_ticket(t, m, e, names))
        elif isinstance(e, NeutralRouteClaimed):
            lines.append(
                "🤖 "
                + t.ngettext(
                    "The neutral player built {route} ({n} neutral train left)",
                    "The neutral player built {route} ({n} neutral trains left)",
                    e.trains_left,
                    route=route_name(t, m, m.track_by_id[e.track]),
                )
            )
        elif isinstance(e, NeutralStopped):
            lines.append(
                "🤖 "
                + (
                    t.gettext("The neutral player stopped (out of trains).")
                    if e.reason == "trains"
                    else t.gettext("The neutral player stopped (no tickets left).")
                )
            )
    return lines


def drawn(events: list[Event]) -> list[int | None]:
    """The cards one action drew, as everyone saw them: a face-up card's index, None from the deck."""
    return [e.card if e.slot is not None else None for e in events if isinstance(e, CardDrawn)]


def _draws(t: Translator, draws: list[int | None], name: str) -> str:
    """A turn's draws (one or two cards) as one sentence."""
    first = draws[0]
    if len(draws) == 1:
        if first is None:
            return t.gettext("**{name}** drew a card from the deck", name=name)
        return t.gettext("**{name}** drew a face-up {card}", name=name, card=card(t, first))
    second = draws[1]
    if first is None and second is None:
        return t.gettext("**{name}** drew 2 cards from the deck", name=name)
    if second is None:
        return t.gettext("**{name}** drew a face-up {card} and a card from the deck", name=name, card=card(t, first))
    if first is None:
        return t.gettext("**{name}** drew a card from the deck and a face-up {card}", name=name, card=card(t, second))
    return t.gettext(
        "**{name}** drew a face-up {card} and a face-up {second}",
        name=name,
        card=card(t, first),
        second=card(t, second),
    )


#: One card with its article, by engine card index ("an orange card"): English's a/an and the
#: case other languages give the object of "drew" are the translator's, per card.
ONE_CARD: tuple[str, ...] = (
    NC_("one card", "a pink card"),
    NC_("one card", "a white card"),
    NC_("one card", "a blue card"),
    NC_("one card", "a yellow card"),
    NC_("one card", "an orange card"),
    NC_("one card", "a black card"),
    NC_("one card", "a red card"),
    NC_("one card", "a green card"),
    NC_("one card", "a locomotive"),
    NC_("one card", "a +4 locomotive"),
    NC_("one card", "a passenger card"),
)


def one_card(t: Translator, index: int) -> str:
    """'an orange card', 'a locomotive' (the object of a sentence)."""
    return t.pgettext("one card", ONE_CARD[index])


def my_draws(t: Translator, events: list[Event], seat: int) -> str | None:
    """The cards `seat` itself drew in one action, named even from the deck (its private reply):
    'You drew an orange card from the deck' (no full stop, like every line of an account)."""
    lines = []
    for e in events:
        if isinstance(e, CardDrawn) and e.seat == seat and e.card is not None:
            lines.append(
                t.gettext("You drew {card} from the deck", card=one_card(t, e.card))
                if e.slot is None
                else t.gettext("You drew {card} from the face-up cards", card=one_card(t, e.card))
            )
    return "\n".join(lines) or None


def merge_turn(t: Translator, notes: list[str], draws: list[int | None], seat: int, names: Names) -> str:
    """One account of a whole turn: the cards drawn in its steps as one sentence, then the rest."""
    parts = [_draws(t, draws, names(seat))] if draws else []
    parts.extend(notes)
    return "\n".join(parts)


def hand_text(t: Translator, view: dict) -> str:
    """'🟥 red ×3  🌈 locomotive ×1' (a seat's own view)."""
    hand = view["you"]["hand"]
    if not hand:
        return t.gettext("no cards")
    return "  ".join(f"{card(t, ALL_CARD_NAMES.index(c))} ×{n}" for c, n in hand.items())


def ticket_text(t: Translator, m: MapData, ticket_id: int, reached: int | None = None) -> str:
    """'Boston – Miami (12)'; a country ticket (Switzerland) lists its destinations, or the one
    it scored once the game is over (`reached`)."""
    ticket = m.ticket_by_id[ticket_id]
    if ticket.destinations:
        return t.ticket(m, ticket, reached)
    return f"{t.city(m.cities[ticket.a])} – {t.city(m.cities[ticket.b])} ({ticket.points})"


def ticket_line(
    t: Translator, m: MapData, ticket: dict, result: TicketResult | None = None, stations: Sequence[int] = ()
) -> str:
    """'✅ #12 Boston – Miami (12)' with its progress (`result`, none for an offer); a ticket only
    the seat's `stations` (city indices) complete says through which: '· via your station in Wien'."""
    mark = "" if result is None else ("✅ " if result.completed else "⬜ ")
    line = f"{mark}#{ticket['id']} {ticket_text(t, m, ticket['id'])}"
    if result is None or not result.via:
        return line
    at = []
    for track in map(m.track_by_id.__getitem__, result.via):
        city = track.a if track.a in stations else track.b
        if city not in at:
            at.append(city)
    cities = t.join(t.city(m.cities[c]) for c in at)
    return f"{line} · " + t.ngettext(
        "via your station in {cities}", "via your stations in {cities}", len(at), cities=cities
    )


def tickets_done(game: Game, seat: int) -> dict[int, TicketResult]:
    """Each of a seat's tickets as the final scoring would count it now, the routes its stations
    would borrow included (engine.scoring.tickets_now), by ticket id."""
    tickets = [game.map.ticket_by_id[i] for i in game.tickets[seat]]
    results = tickets_now(game.map, game.owner, seat, game.seats, game.stations[seat], tickets)
    return {r.id: r for r in results}


def private_summary(t: Translator, game: Game, seat: int) -> str:
    """The seat's hand and tickets with progress (for a DM or an ephemeral reply); for a seat that
    has left, what leaving meant instead of an empty hand (its tickets still count)."""
    view = game.view(seat)
    done = tickets_done(game, seat)
    left = game.left[seat]
    if left is not None:
        lines = [
            t.gettext("You resigned from this game.")
            if left == "resigned"
            else t.gettext("You were removed from this game."),
            t.gettext(
                "Your routes stay on the board and your tickets are scored with you at the end "
                "(an unfinished one costs its points)."
            ),
        ]
    else:
        lines = [t.gettext("**Your hand:** {cards}", cards=hand_text(t, view))]
    if view["you"]["tickets"]:
        lines.append(t.gettext("**Your tickets:**"))
        lines.extend(
            ticket_line(t, game.map, ticket, done.get(ticket["id"]), game.stations[seat])
            for ticket in view["you"]["tickets"]
        )
    if left is not None:
        return "\n".join(lines)
    player = view["players"][seat]
    facts = [t.gettext("Trains left: {n}", n=player["trains"])]
    if game.map.rules.stations:
        facts.append(t.gettext("stations left: {n}", n=player["stations_left"]))
    if "money" in view["you"]:
        facts.append(t.gettext("money: {n} (secret)", n=view["you"]["money"]))
    if player.get("loans"):
        facts.append(t.gettext("loans: {n}", n=player["loans"]))
    if "passengers" in player:
        facts.append(passengers_text(t, game.map, player))
    lines.append(" · ".join(facts))
    return "\n".join(lines)


def passengers_text(t: Translator, m: MapData, player: dict) -> str:
    """A Märklin player's passengers and tokens: 'passengers to place: 1 · waiting in Kiel · tokens 2 + 3 (5)'."""
    parts = [t.gettext("passengers to place: {n}", n=player["passengers"])]
    if player["passengers_placed"]:
        parts.append(
            t.gettext(
                "waiting in {cities}", cities=t.join(t.city(m.city_by_id[c]) for c in player["passengers_placed"])
            )
        )
    if player["tokens"]:
        parts.append(
            t.gettext(
                "tokens {tokens} ({points})",
                tokens=" + ".join(map(str, player["tokens"])),
                points=sum(player["tokens"]),
            )
        )
    return " · ".join(parts)


#: Why a seat left the game (the view's `left`).
LEFT = {"resigned": N_("resigned"), "removed": N_("removed")}


def seat_figures(t: Translator, m: MapData, player: dict) -> list[str]:
    """A seat's public figures from the view, each in words: points, trains, cards, tickets, then
    what only some games have (stations left, Nederland's loans taken, having left). The channel's table and
    the terminal game list the seats with these."""
    figures = [
        t.ngettext("{n} point", "{n} points", player["score"]),
        t.ngettext("{n} train", "{n} trains", player["trains"]),
        t.ngettext("{n} card", "{n} cards", player["hand_size"]),
        t.ngettext("{n} ticket", "{n} tickets", player["tickets"]),
    ]
    if m.rules.stations:
        figures.append(t.ngettext("{n} station left", "{n} stations left", player["stations_left"]))
    if player.get("loans"):
        figures.append(t.ngettext("{n} loan", "{n} loans", player["loans"]))
    if player["left"]:
        figures.append(t.gettext(LEFT[player["left"]]))
    return figures


MINUS = "−"


def signed(points: int) -> str:
    """'+5', '−5' (a minus sign, as typeset: never a hyphen next to '+'), '+0'."""
    return format(points, "+d").replace("-", MINUS)


def final_fields(t: Translator, game: Game, names: Names) -> list[tuple[str, str]]:
    """End-of-game breakdown per player, best first, every ticket revealed: (title, body) pairs,
    a body at most 1,024 characters."""
    m = game.map
    fields = []
    for score in sorted(game.final, key=lambda s: (s.rank, s.seat)):
        parts = [
            t.gettext("routes {points}", points=score.route_points),
            t.gettext("tickets {points}", points=signed(score.ticket_points)),
        ]
        if m.rules.stations:
            parts.append(
                t.ngettext(
                    "stations +{points} ({n} unused)",
                    "stations +{points} ({n} unused)",
                    score.station_points // m.rules.station_points if m.rules.station_points else 0,
                    points=score.station_points,
                )
            )
        bonus = score.bonuses.get("longest_path")
        parts.append(
            t.ngettext("longest path ({n} train)", "longest path ({n} trains)", score.longest)
            if bonus is None
            else t.ngettext(
                "longest path ({n} train) {bonus}",
                "longest path ({n} trains) {bonus}",
                score.longest,
                bonus=signed(bonus),
            )
        )
        parts += [
            t.gettext(BONUSES[name], points=signed(points))
            if name in BONUSES
            else f"{name.replace('_', ' ')} {signed(points)}"
            for name, points in score.bonuses.items()
            if name != "longest_path"
        ]
        lines = [" · ".join(parts)]
        left = game.left[score.seat]
        if left is not None:  # a leaver takes no end bonus (docs/rules.md §1.8): said with the scores
            lines.insert(
                0, t.gettext("Resigned: no end bonus.") if left == "resigned" else t.gettext("Removed: no end bonus.")
            )
        for result in score.tickets:
            label = ticket_text(t, m, result.id, result.reached)
            lines.append(
                f"{'✅' if result.completed else '❌'} {label} → {signed(result.points if result.completed else -result.points)}"
            )
        body = "\n".join(lines)
        if len(body) > 1024:
            body = body[:1020] + " …"
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(score.rank, f"{score.rank}.")
        fields.append((f"{medal} {names(score.seat)} — {str(score.total).replace('-', MINUS)}", body))
    return fields
