"""The words every image shares, in the viewer's language: names of cards, cities, tickets and
players, the color-blind letters, the game's status and its last action.

Each public render function takes `t: Translator | None` (None: English); the English strings are
the message ids (i18n/locales/*/rendering.po). The turns since a viewer last looked
(`view["recent"]`, or the last action) are worded from the view's fields as players speak: "took yellow + 1 card from the deck",
"claimed Paris – Dieppe with 2 orange + 1 loco (+4)".
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import ALL_CARD_NAMES, LOCO, card_index
from engine.mapdata import MapData
from i18n import Translator, translator
from i18n.translator import NC_
from rendering import fonts
from rendering.style import PlayerStyle

#: Color-blind mode: a letter on every car and card (by card name; gray routes have none), so no
#: color is told by hue alone. Translated with context "color letter" (each language's color words).
ROUTE_LETTERS: dict[str, str] = {
    "pink": NC_("color letter", "P"),
    "white": NC_("color letter", "W"),
    "blue": NC_("color letter", "B"),
    "yellow": NC_("color letter", "Y"),
    "orange": NC_("color letter", "O"),
    "black": NC_("color letter", "K"),
    "red": NC_("color letter", "R"),
    "green": NC_("color letter", "G"),
    "gray": "",
    "loco": NC_("color letter", "L"),
}


def translator_or_english(t: Translator | None) -> Translator:
    return t if t is not None else translator()


def route_letters(t: Translator) -> dict[str, str]:
    """The color-blind letter of every card name in this language ("" for gray)."""
    return {name: t.pgettext("color letter", letter) if letter else "" for name, letter in ROUTE_LETTERS.items()}


def card_name(t: Translator, name: str) -> str:
    """A card as the images name it (engine card name in): its color, or "loco" for short."""
    index = ALL_CARD_NAMES.index(name) if name in ALL_CARD_NAMES else card_index(name)  # Märklin's two too
    return t.pgettext("card, short", "loco") if index == LOCO else t.card(index)


def city_names(t: Translator, m: MapData) -> tuple[str, ...]:
    """Every city's name on this map for this viewer (printed, or translated when chosen)."""
    return tuple(t.city(c) for c in m.cities)


def city(t: Translator, m: MapData, city_id: str) -> str:
    c = m.city_by_id.get(city_id)
    return t.city(c) if c else city_id


def listing(t: Translator, items: Sequence[str]) -> str:
    """Items (names, scores) one after another: "Alice, Bob" ("Alice、Bob" in Chinese)."""
    return t.pgettext("list separator", ", ").join(items)


def clauses(t: Translator, parts: Sequence[str]) -> str:
    """Clauses of an alt text one after another: "a; b" ("a；b" in Chinese); empty ones left out."""
    return t.pgettext("clause separator", "; ").join(p for p in parts if p)


def player_name(t: Translator, players: Sequence[PlayerStyle], seat: int) -> str:
    """A seat's display name as drawn; "Player N" when nothing of it can be drawn."""
    return fonts.clean_text(players[seat].name, "bold") or seat_name(t, seat)


def seat_name(t: Translator, seat: int) -> str:
    return t.gettext("Player {n}", n=seat + 1)


def ticket_name(t: Translator, m: MapData, ticket: dict, sep: str = " – ") -> str:
    """'Bern – Zürich', or with several destinations (Switzerland's country tickets)
    'Bern – France 5 / Deutschland 6 / Österreich 11 / Italia 8'."""
    dests = ticket.get("destinations")
    if not dests:
        return f"{city(t, m, ticket['a'])}{sep}{city(t, m, ticket['b'])}"
    return f"{city(t, m, ticket['a'])}{sep}" + " / ".join(f"{city(t, m, d['to'])} {d['points']}" for d in dests)


# ---------------------------------------------------------------------------------------------
# The game's status and its last action


def status_text(t: Translator, view: dict, players: Sequence[PlayerStyle]) -> str:
    if view.get("final") is not None or view["phase"] == "over":
        return t.gettext("Game over")
    if view["phase"] == "choosing":
        return t.gettext(
            "Choosing tickets: {players}", players=listing(t, [player_name(t, players, s) for s in view["to_move"]])
        )
    if view["current"] is not None and view["current"] == (view.get("you") or {}).get("seat"):
        return t.gettext("Your turn")
    if view["current"] is not None:
        return t.gettext("{player} to play", player=player_name(t, players, view["current"]))
    return ""


def route_words(t: Translator, m: MapData, track) -> str:
    """A route as players say it: 'Paris – Dieppe' (a country last), never a track id."""
    a, b = m.cities[track.a], m.cities[track.b]
    if a.kind == "border":
        a, b = b, a
    return f"{t.city(a)} – {t.city(b)}"


def cards_words(t: Translator, color: str | None, colored: int, locos: int, others: int = 0) -> str:
    """'2 orange + 1 loco' (translated: 'оранжевый ×2 + 1 локомотив')."""
    parts = []
    if color is not None and colored > 0:
        parts.append(t.ngettext("{n} {color}", "{n} {color}", colored, color=card_name(t, color)))
    if locos:
        parts.append(t.ngettext("{n} loco", "{n} locos", locos))
    if others:
        parts.append(t.ngettext("{n} other card", "{n} other cards", others))
    return " + ".join(parts)


def _claim_payment(m: MapData, track, entry: dict) -> tuple[str | None, int, int, int]:
    """(color, colored cards, locomotives, substitute cards) a claim was paid with."""
    subs = entry.get("subs") or []
    covered = len(subs) // (track.substitute or 3) if subs else 0
    locos = entry.get("locos") or 0
    return entry.get("color"), track.length - locos - covered, locos, len(subs)


def turns(entries: Sequence[dict]) -> list[list[dict]]:
    """Consecutive entries of one seat, one list per turn, oldest first."""
    out: list[list[dict]] = []
    for e in entries:
        if out and out[-1][0]["seat"] == e["seat"]:
            out[-1].append(e)
        else:
            out.append([e])
    return out


def recent_entries(view: dict, since: int | None = None) -> list[dict]:
    """The view's recent public actions after ply `since` (None: one turn of every seat); a view
    without `recent` gives its last action."""
    recent = view.get("recent")
    if recent is None:
        return [dict(view["last_action"], ply=view.get("plies", 0))] if view.get("last_action") else []
    return [e for e in recent if since is None or e["ply"] > since]


def turn_text(t: Translator, m: MapData, view: dict, entries: Sequence[dict]) -> str:
    """One seat's turn in words, as players say it: 'took yellow + 1 card from the deck',
    'claimed Nashville – Pittsburgh with 3 yellow + 1 loco (+7)', 'drew tickets, kept 2'."""
    parts: list[str] = []
    faceup: list[str] = []
    blind = 0
    points = m.rules.route_points
    pending = view.get("tunnel") or {}
    for k, e in enumerate(entries):
        kind = e["kind"]
        track = m.track_by_id.get(e.get("track") or "")
        nxt = entries[k + 1]["kind"] if k + 1 < len(entries) else None
        if kind == "DrawMarket":
            faceup.append(card_name(t, e["card"]) if e.get("card") else t.gettext("a face-up card"))
        elif kind == "DrawDeck":
            blind += 1
        elif kind == "Claim" and track is not None:
            if nxt in ("PayTunnel", "DeclineTunnel"):
                continue  # worded with the decision that follows
            if track.tunnel and nxt is None and pending.get("track") == track.id:
                parts.append(t.pgettext("recap", "digging the tunnel {route}", route=route_words(t, m, track)))
                continue
            payment = cards_words(t, *_claim_payment(m, track, e))
            if track.tunnel:
                parts.append(
                    t.pgettext(
                        "recap",
                        "claimed the tunnel {route} with {payment} (+{points})",
                        route=route_words(t, m, track),
                        payment=payment,
                        points=points[track.length],
                    )
                )
            else:
                parts.append(
                    t.pgettext(
                        "recap",
                        "claimed {route} with {payment} (+{points})",
                        route=route_words(t, m, track),
                        payment=payment,
                        points=points[track.length],
                    )
                )
        elif kind == "PayTunnel" and track is not None:
            claim = entries[k - 1] if k and entries[k - 1]["kind"] == "Claim" else {}
            color, colored, locos, others = _claim_payment(m, track, claim) if claim else (e.get("color"), 0, 0, 0)
            payment = cards_words(t, color, colored, locos, others)
            extra = cards_words(t, e.get("color"), 0, e.get("locos") or 0) if e.get("locos") else ""
            if extra:
                payment = (
                    t.pgettext("recap", "{payment}, then {extra} more", payment=payment, extra=extra)
                    if payment
                    else extra
                )
            parts.append(
                t.pgettext(
                    "recap",
                    "claimed the tunnel {route} with {payment} (+{points})",
                    route=route_words(t, m, track),
                    payment=payment,
                    points=points[track.length],
                )
            )
        elif kind == "DeclineTunnel" and track is not None:
            parts.append(t.pgettext("recap", "gave up the tunnel {route}", route=route_words(t, m, track)))
        elif kind == "DrawTickets":
            parts.append(t.pgettext("recap", "drew tickets"))
        elif kind == "KeepTickets":
            parts.append(t.npgettext("recap", "kept {n} ticket", "kept {n} tickets", e["count"]))
        elif kind == "BuildStation" and e.get("city") in m.city_by_id:
            # the n-th station costs n cards; recent holds one turn per seat, so the builder's
            # stations now are those up to this one
            cost = sum(1 for s in view.get("stations", {}).values() if s == e["seat"]) or 1
            payment = cards_words(t, e.get("color"), cost - (e.get("locos") or 0), e.get("locos") or 0)
            parts.append(
                t.pgettext(
                    "recap", "built a station in {city} with {payment}", city=city(t, m, e["city"]), payment=payment
                )
            )
        elif kind == "Move" and (moved := _moved_path(m, e["text"])):
            path, cards = moved
            where = t.pgettext("path", " – ").join(city(t, m, c) for c in path)
            if cards:
                parts.append(
                    t.npgettext(
                        "recap",
                        "moved a passenger {path} with {n} passenger card",
                        "moved a passenger {path} with {n} passenger cards",
                        cards,
                        path=where,
                    )
                )
            else:
                parts.append(t.pgettext("recap", "moved a passenger {path}", path=where))
        elif kind == "NeutralClaim" and track is not None:
            parts.append(t.pgettext("recap", "claimed {route} for the neutral player", route=route_words(t, m, track)))
        elif kind == "Pass":
            parts.append(t.pgettext("recap", "passed"))
        elif kind == "Skip":
            parts.append(t.pgettext("recap", "was skipped"))
        elif kind == "Resign":
            parts.append(t.pgettext("recap", "resigned"))
        elif kind == "Remove":
            parts.append(t.pgettext("recap", "removed {player}", player=seat_name(t, e["removed"])))
    if faceup or blind:
        taken = list(faceup)
        if blind:
            taken.append(t.ngettext("{n} card from the deck", "{n} cards from the deck", blind))
        parts.insert(0, t.pgettext("recap", "took {cards}", cards=" + ".join(taken)))
    return listing(t, parts)


def _moved_path(m: MapData, text: str) -> tuple[list[str], int] | None:
    """A Märklin passenger move's city ids and passenger cards, read from its public notation
    ('move Hamburg-Kiel cards=1', engine/notation.py: the entry carries no other field)."""
    words = text.split()[1:]
    cards = int(words.pop()[6:]) if words and words[-1].startswith("cards=") and words[-1][6:].isdigit() else 0
    found = [m.find_city(name) for name in " ".join(words).split("-")]
    return ([c.id for c in found], cards) if len(found) > 1 and all(found) else None


def recap(
    t: Translator, view: dict, players: Sequence[PlayerStyle], m: MapData, since: int | None = None
) -> list[tuple[int | None, str]]:
    """(seat, 'took yellow + …') for each turn since ply `since` (None: the last turn of every
    seat), oldest first; seat None for the table's actions."""
    out = []
    for entries in turns(recent_entries(view, since)):
        text = turn_text(t, m, view, entries)
        if text:
            out.append((entries[0]["seat"], text))
    return out


def changed(view: dict, m: MapData, since: int | None = None) -> tuple[list[str], list[str]]:
    """Tracks claimed (or being dug as a tunnel) and cities given a station since ply `since`."""
    tracks, cities = [], []
    for e in recent_entries(view, since):
        if e["kind"] in ("Claim", "PayTunnel", "NeutralClaim") and e.get("track"):
            if (
                e["kind"] != "Claim"
                or e["track"] in view["claims"]
                or (view.get("tunnel") or {}).get("track") == e["track"]
            ):
                tracks.append(e["track"])
        elif e["kind"] == "BuildStation" and e.get("city"):
            cities.append(e["city"])
    return list(dict.fromkeys(tracks)), list(dict.fromkeys(cities))


def action_text(t: Translator, m: MapData, action: dict) -> str:
    """One action of a view (`view["last_action"]`) in words."""
    return turn_text(t, m, {}, [action])


def tunnel_text(t: Translator, view: dict, players: Sequence[PlayerStyle], m: MapData) -> str:
    """A tunnel being paid for: the cards revealed and what more it costs."""
    tun = view["tunnel"]
    track = m.track_by_id.get(tun["track"])
    route = route_words(t, m, track) if track is not None else tun["track"]
    player = player_name(t, players, tun["seat"])
    revealed = tun.get("revealed", [])
    more = tun.get("surcharge", 0)
    if not revealed:
        return t.gettext(
            "Tunnel {route} ({player}): revealed nothing — nothing more to pay", route=route, player=player
        )
    cards = listing(t, [card_name(t, c) for c in revealed])
    if more:
        return t.ngettext(
            "Tunnel {route} ({player}): revealed {cards} — {n} more card to pay",
            "Tunnel {route} ({player}): revealed {cards} — {n} more cards to pay",
            more,
            route=route,
            player=player,
            cards=cards,
        )
    return t.gettext(
        "Tunnel {route} ({player}): revealed {cards} — nothing more to pay", route=route, player=player, cards=cards
    )


def acting(t: Translator, view: dict, players: Sequence[PlayerStyle]) -> str | None:
    """Who made the last action: a player, "Table", or None when there is no last action."""
    la = view.get("last_action")
    if not la:
        return None
    return player_name(t, players, la["seat"]) if la.get("seat") is not None else t.gettext("Table")


def decks_text(t: Translator, view: dict) -> str:
    """What is left to draw: 'deck 25 · tickets 4' (Märklin: its short and long ticket decks)."""
    decks = t.gettext("deck {n}", n=view.get("deck_size", 0))
    if "ticket_decks" in view:  # Märklin: a short and a long deck, whose mix each draw names
        return t.gettext(
            "{cards} · {tickets}",
            cards=decks,
            tickets=t.pgettext("deck", "tickets {short} short, {long} long", **view["ticket_decks"]),
        )
    if "ticket_deck_size" in view:
        return t.gettext(
            "{cards} · {tickets}", cards=decks, tickets=t.pgettext("deck", "tickets {n}", n=view["ticket_deck_size"])
        )
    return decks
