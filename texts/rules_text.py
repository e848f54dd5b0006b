"""`/ttr rules`: a map's rules in a few lines, built from its data so it never disagrees with it.

Each line is one whole sentence in the catalogs (i18n/locales/*/rules.po) with the map's numbers
as placeholders; which sentence a map gets depends on its data and rule hooks (docs/rules.md §1–6).
"""

from __future__ import annotations

from engine import load_map
from engine.cards import standard_deck
from engine.hooks import hooks_for
from engine.mapdata import MapData, TicketDeck
from engine.turns import LAST_ROUND_TRAINS
from i18n import N_, NC_, Translator, translator

#: The maps' and ticket decks' names as the map files spell them, translated with
#: t.pgettext("map", m.name) and t.pgettext("deck", deck.name) wherever they are shown.
MAP_NAMES = (
    NC_("map", "USA"),
    NC_("map", "Europe"),
    NC_("map", "Nederland"),
    NC_("map", "Switzerland"),
    NC_("map", "Nordic Countries"),
    NC_("map", "Märklin"),
)
DECK_NAMES = (
    NC_("deck", "Base game (30 tickets)"),
    NC_("deck", "USA 1910 (35 new tickets)"),
    NC_("deck", "Mega Game (69 tickets)"),
    NC_("deck", "Big Cities (35 tickets)"),
    NC_("deck", "Base game (6 long + 40 regular tickets)"),
    NC_("deck", "Nederland (44 tickets)"),
    NC_("deck", "Swiss tickets (34 city, 12 country)"),
    NC_("deck", "Nordic tickets"),
    NC_("deck", "Germany tickets (substitute: 55 short, 34 long)"),
)

#: Where locomotives pay, by the hook's `locomotive_use`.
CLAIMING = {
    "any route": N_(
        "**Claiming a route:** as many cards as its length, all of its color (any one color on "
        "gray); locomotives are wild."
    ),
    "tunnels": N_(
        "**Claiming a route:** as many cards as its length, all of its color (any one color on "
        "gray); locomotives only on tunnels."
    ),
    "ferries and tunnels": N_(
        "**Claiming a route:** as many cards as its length, all of its color (any one "
        "color on gray); locomotives only on ferries and tunnels."
    ),
    "any route (+4 locomotives: routes of 4 or more)": N_(
        "**Claiming a route:** as many cards as its length, all of its color (any one color on gray); "
        "locomotives are wild, “+4” locomotives only on routes of 4 or more."
    ),
}

#: Tie-breaks by `rules.tie_breaks`, each list a whole sentence.
TIES = {
    ("tickets",): N_("**Ties:** most completed tickets; then a shared win."),
    ("tickets", "longest"): N_("**Ties:** most completed tickets, then longest path; then a shared win."),
    ("tickets", "fewer_stations", "longest"): N_(
        "**Ties:** most completed tickets, then fewer stations built, then longest path; then a shared win."
    ),
}


def rules_summary(map_id: str, t: Translator | None = None) -> str:
    """The rules of a map in `t`'s language (English by default), short enough for one message."""
    t = t or translator()
    m = load_map(map_id)
    r = m.rules
    hooks = hooks_for(r.hooks)
    tolls = any(track.toll for track in m.tracks)
    lines = [
        t.ngettext(
            "**{map} rules** — {n} train each; {cards} train cards.",
            "**{map} rules** — {n} trains each; {cards} train cards.",
            r.trains,
            map=t.map_name(m),
            cards=_deck_size(m),
        )
    ]
    if r.max_players < 5:
        lines.append(t.gettext("**Players:** 2–{n}.", n=r.max_players))
    marklin = "marklin" in r.hooks
    if marklin:
        lines.append(
            t.gettext("**On your turn, do one:** draw train cards · claim a route · draw tickets · move a passenger.")
        )
    else:
        lines.append(
            t.gettext("**On your turn, do one:** draw train cards · claim a route · draw tickets · build a station.")
            if r.stations
            else t.gettext("**On your turn, do one:** draw train cards · claim a route · draw tickets.")
        )
    lines.append(
        t.gettext("**Drawing cards:** take 2, face up or from the deck; a face-up locomotive counts as one card here.")
        if hooks.free_locomotive_draws
        else t.gettext(
            "**Drawing cards:** take 2, face up or from the deck. A face-up locomotive counts as "
            "both; it can't be your second card."
        )
    )
    lines.append(t.gettext(CLAIMING[hooks.locomotive_use]))
    points = ", ".join(
        f"{k}→{v}" for k, v in sorted(r.route_points.items()) if any(track.length == k for track in m.tracks)
    )
    lines.append(t.gettext("**Route points** (length→points): {points}.", points=points))
    lines.extend(_track_rules(t, m))
    if tolls:
        lines.extend(_toll_rules(t, m))
    elif marklin:
        lines.append(
            t.ngettext(
                "**Double and triple routes:** one track of each per player; with fewer than {n} "
                "player only one is used.",
                "**Double and triple routes:** one track of each per player; with fewer than {n} "
                "players only one is used.",
                r.doubles_min_players,
            )
        )
    elif r.doubles_min_players > 2:
        lines.append(
            t.ngettext(
                "**Double routes:** one player never takes both; with fewer than {n} player "
                "only one of the two is used.",
                "**Double routes:** one player never takes both; with fewer than {n} players "
                "only one of the two is used.",
                r.doubles_min_players,
            )
        )
    if r.stations:
        unbuilt = t.ngettext(
            "Each unbuilt station scores {n} point.", "Each unbuilt station scores {n} points.", r.station_points
        )
        lines.append(
            t.ngettext(
                "**Stations:** {n} each, costing {costs} cards of one color in turn. At the end "
                "each lets you use one opponent route at its city for your tickets. {unbuilt}",
                "**Stations:** {n} each, costing {costs} cards of one color in turn. At the end "
                "each lets you use one opponent route at its city for your tickets. {unbuilt}",
                r.stations,
                costs=", ".join(map(str, r.station_costs)),
                unbuilt=unbuilt,
            )
        )
    if m.borders:
        lines.append(
            t.gettext(
                "**Country tickets:** a ticket to or between countries scores its best connected "
                "country; if none is connected, you lose its lowest value. Routes never pass "
                "through a country."
            )
        )
    if marklin:
        lines.extend(_marklin_rules(t, m))
    else:
        lines.extend(_deck_line(t, deck) for deck in r.decks.values())
    lines.append(
        t.ngettext(
            "**End:** when someone has {n} train or fewer, everyone (them too) plays one last "
            "turn. Completed tickets add, unfinished ones subtract.",
            "**End:** when someone has {n} or fewer trains, everyone (them too) plays one last "
            "turn. Completed tickets add, unfinished ones subtract.",
            LAST_ROUND_TRAINS,
        )
    )
    lines.append(t.gettext(TIES[r.tie_breaks]))
    return "\n".join(lines)


def _track_rules(t: Translator, m: MapData) -> list[str]:
    """Ferries, routes with substitute cards and tunnels, when the map has them."""
    lines = []
    if any(track.ferry for track in m.tracks):
        substitute = int(m.rules.extra.get("ferry_substitute", 0))
        lines.append(
            t.ngettext(
                "**Ferries:** pay one locomotive per locomotive symbol, or any {n} card instead of each.",
                "**Ferries:** pay one locomotive per locomotive symbol, or any {n} cards instead of each.",
                substitute,
            )
            if substitute
            else t.gettext("**Ferries:** pay at least one locomotive per locomotive symbol.")
        )
    for track in m.tracks:
        if track.substitute:
            lines.append(
                t.ngettext(
                    "**{route} ({length}):** any {n} card may replace each missing card of the color you pay.",
                    "**{route} ({length}):** any {n} cards may replace each missing card of the color you pay.",
                    track.substitute,
                    route=t.route(m, track),
                    length=track.length,
                )
            )
    if any(track.tunnel for track in m.tracks):
        lines.append(
            t.gettext(
                "**Tunnels:** after you pay, 3 cards are revealed from the deck; each of your "
                "color (or a locomotive) adds one card to pay — pay it or take your cards back."
            )
        )
    return lines


def _toll_rules(t: Translator, m: MapData) -> list[str]:
    """Nederland's bridge tolls (docs/rules.md §4): money, Loans, double routes, the toll bonus."""
    extra = m.rules.extra
    bonus_rows = {int(k): v for k, v in dict(extra["toll_bonus"]).items()}
    bonus = [b for b in bonus_rows[max(bonus_rows)] if b]
    lines = [
        t.gettext(
            "**Bridge tolls:** every route has a toll; you start with {money} in toll money, kept secret. "
            "The first track of a route pays the bank, the second pays the first track's owner. Can't "
            "pay in full? You pay nothing and take a Loan (−{penalty} at the end).",
            money=extra["toll_money"],
            penalty=extra["loan_penalty"],
        ),
        t.ngettext(
            "**Double routes:** one player never takes both. With tolls both tracks are open with any "
            "number of players; without, with fewer than {n} player only one is used.",
            "**Double routes:** one player never takes both. With tolls both tracks are open with any "
            "number of players; without, with fewer than {n} players only one is used.",
            m.rules.doubles_min_players,
        ),
        t.ngettext(
            "**Toll bonus:** players without a Loan are ranked by the money they have left: {bonus} point "
            "(fewer with fewer players).",
            "**Toll bonus:** players without a Loan are ranked by the money they have left: {bonus} points "
            "(fewer with fewer players).",
            bonus[-1],
            bonus="/".join(map(str, bonus)),
        ),
    ]
    if extra.get("staggered_start"):
        lines.append(t.gettext("**Head start:** the 2nd player starts with 1 point, the 3rd with 2, and so on."))
    lines.append(t.gettext("**Variants:** play without tolls; with 2 players, add the neutral player."))
    return lines


def _deck_size(m: MapData) -> int:
    """Train cards in the deck: the map's own deck (Märklin's 118) or the common 110."""
    counts = m.rules.extra.get("train_deck")
    if counts:
        return 8 * counts["per_color"] + counts["loco"] + counts["loco4"] + counts["passenger"]
    return len(standard_deck())


def _marklin_rules(t: Translator, m: MapData) -> list[str]:
    """Märklin (docs/rules.md §8): its cards, ticket mixes, merchandise, passengers, and which facts
    stand in for the printed edition's (substitutes)."""
    extra = m.rules.extra
    cards, tickets, merch = extra["train_deck"], extra["tickets"], extra["merchandise"]
    stacks = {color: "-".join(map(str, values)) for color, values in merch["stacks"].items()}
    counts = merch["counts"]
    lines = [
        t.gettext(
            "**Cards:** {n} per color, {loco} locomotives, {loco4} “+4” and {passenger} passenger cards (for "
            "passenger moves; taken face up like a colored card).",
            n=cards["per_color"],
            loco=cards["loco"],
            loco4=cards["loco4"],
            passenger=cards["passenger"],
        ),
        t.gettext(
            "**Merchandise:** token stacks on the German cities, highest on top: Berlin {black}; {red_n} "
            "red {red}; {yellow_n} yellow {yellow}; {white_n} white {white}.",
            black=stacks["black"],
            red_n=counts["red"],
            red=stacks["red"],
            yellow_n=counts["yellow"],
            yellow=stacks["yellow"],
            white_n=counts["white"],
            white=stacks["white"],
        ),
        t.gettext(
            "**Passengers:** {n} each; a claim may put one on a German city of its route. As a turn, move "
            "one over claimed routes (yours free, others' 1 passenger card each, no route twice), taking the "
            "top token of each city on its path once, ends included; then it leaves. Tokens score at the end.",
            n=extra["passengers"],
        ),
    ]
    for deck in m.rules.decks.values():
        lines.append(
            t.gettext(
                "**Tickets — {deck}:** a short and a long deck; name how many of {deal} are long, "
                "keep ≥ {keep}; later {draw}, keep ≥ {draw_keep}. {bonus}",
                deck=t.pgettext("deck", deck.name),
                deal=tickets["start_draw"],
                keep=tickets["start_keep"],
                draw=tickets["draw"],
                draw_keep=tickets["draw_keep"],
                bonus=_bonus(t, deck),
            )
        )
    substitutes = []
    if "marklin" not in m.rules.decks:
        substitutes.append(t.gettext("the Märklin tickets → the Germany deck"))
    if not merch.get("printed"):
        substitutes.append(t.gettext("the cities' dots → dealt from the game's seed, shown from the start"))
    if substitutes:
        lines.append(t.gettext("**Substitutes** (in no public source): {facts}.", facts="; ".join(substitutes)))
    return lines


def _bonus(t: Translator, deck: TicketDeck) -> str:
    """A ticket deck's end bonuses."""
    if deck.longest_path_bonus and deck.globetrotter_bonus:
        bonus = t.gettext(
            "Bonuses: longest path +{longest}, most completed tickets (Globetrotter) +{most}.",
            longest=deck.longest_path_bonus,
            most=deck.globetrotter_bonus,
        )
    elif deck.longest_path_bonus:
        bonus = t.gettext("Bonus: longest path +{longest}.", longest=deck.longest_path_bonus)
    elif deck.globetrotter_bonus:
        bonus = t.gettext("Bonus: most completed tickets (Globetrotter) +{most}.", most=deck.globetrotter_bonus)
    else:
        bonus = t.gettext("No longest-path or most-tickets bonus.")
    return bonus


def _deck_line(t: Translator, deck: TicketDeck) -> str:
    """A ticket deck's deal and keep numbers and its end bonuses."""
    numbers = {
        "deck": t.pgettext("deck", deck.name),
        "deal": deck.start_deal,
        "long": deck.start_long,
        "keep": deck.start_keep,
        "draw": deck.draw_count,
        "draw_keep": deck.draw_keep,
        "bonus": _bonus(t, deck),
    }
    if deck.start_long:
        return t.gettext(
            "**Tickets — {deck}:** start with {deal} + {long} long, keep ≥ {keep}; later draw {draw}, "
            "keep ≥ {draw_keep}. {bonus}",
            **numbers,
        )
    return t.gettext(
        "**Tickets — {deck}:** start with {deal}, keep ≥ {keep}; later draw {draw}, keep ≥ {draw_keep}. {bonus}",
        **numbers,
    )
