"""What the terminal game shows: the heading and the seats, the summary of a turn (market, hand,
tickets, Märklin's merchandise), the numbered moves, help with examples from the map played, and
the final scores — wrapped to the terminal's width between words, in the player's language.
Who plays each seat (`Controller`) decides whether a line says "you"."""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from ai import Player
from engine import (
    Action,
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    Game,
    format_action,
)
from engine.actions import Move, NeutralClaim
from engine.cards import ALL_CARD_NAMES
from engine.phases import SECOND_CARD
from i18n import (
    N_,
    Translator,
    translator,
)
from texts import present

OutputFn = Callable[[str], None]

ENGLISH = translator()
COMMANDS = ("help", "moves", "board", "quit")
MOVES_ALL = "moves all"
#: Columns when the terminal's width is unknown (an 80×24 terminal).
SCREEN_WIDTH = 80
#: Why the game ended (engine Game.end_reason), as the heading of the final scores.
END_REASONS = {
    "last_round": N_("game over (the last round is played)"),
    "all_passed": N_("game over (nobody could move)"),
    "too_few_seats": N_("game over (too few players left)"),
}


@dataclass
class Controller:
    """Who plays a seat: a person at this terminal (ai is None) or an AI."""

    name: str
    ai: Player | None = None
    #: The name where a sentence speaks of the player (images: "Ходит …"), when `name` is a pronoun
    #: ("you" for the one person at the terminal).
    third_person: str | None = None

    @property
    def human(self) -> bool:
        return self.ai is None

    @property
    def you(self) -> bool:
        """The one person at the terminal, spoken to as "you"."""
        return self.third_person is not None


# ---------------------------------------------------------------------- text


def _width(text: str) -> int:
    """Columns a terminal gives the text (Chinese characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def screen_width() -> int:
    """The terminal's columns (COLUMNS, then the terminal itself; 80 when neither says)."""
    return shutil.get_terminal_size((SCREEN_WIDTH, 24)).columns


def fold(text: str, width: int, indent: int = 2, sep: str = " ") -> list[str]:
    """A line cut into lines of at most `width` columns at its `sep`s, never inside a word (one
    longer than a line stands alone, and `moves all` is one word); the lines after the first
    indented by `indent`."""
    glued = MOVES_ALL.replace(" ", "\0")  # a command is never cut
    body = text.lstrip(" ").replace(MOVES_ALL, glued)
    lines: list[str] = []
    line = text[: len(text) - len(body)]
    start = len(line)  # where the first line's words begin
    for word in body.split(sep):
        if len(line) > start and _width(line) + _width(sep) + _width(word) > width:
            lines.append(line)
            line, start = " " * indent + word, indent
        else:
            line = f"{line}{sep}{word}" if len(line) > start else line + word
    lines.append(line)
    return [line.replace("\0", " ") for line in lines]


def folding(write: OutputFn) -> OutputFn:
    """`write` with every line cut between words at the terminal's width (what a terminal would
    cut mid-word)."""

    def folded(text: str) -> None:
        width = screen_width()
        write("\n".join(part for line in text.split("\n") for part in fold(line, width)))

    return folded


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells in aligned columns (the last cell of a row is left as it is)."""
    widths: dict[int, int] = {}
    for row in rows:
        for i, cell in enumerate(row[:-1]):
            widths[i] = max(widths.get(i, 0), _width(cell))
    return [
        "  ".join([*(cell + " " * (widths[i] - _width(cell)) for i, cell in enumerate(row[:-1])), row[-1]]).rstrip()
        for row in rows
    ]


def player_name(seat: int, controllers: Sequence[Controller]) -> str:
    """How the terminal names a player: 'you', a person's name, 'strong AI 2'."""
    return controllers[seat].name


def _heading(t: Translator, game: Game, view: dict, controllers: Sequence[Controller]) -> str:
    if view["phase"] == "choosing":
        return t.gettext("{map}: choosing starting tickets", map=t.map_name(game.map))
    current = controllers[view["current"]]
    params = {"map": t.map_name(game.map), "round": view["round"], "player": current.name}
    if current.you:
        if view["last_round"]:
            return t.gettext("{map}, round {round}: your move  LAST ROUND", **params)
        return t.gettext("{map}, round {round}: your move", **params)
    if view["last_round"]:
        return t.gettext("{map}, round {round}: {player} to move  LAST ROUND", **params)
    return t.gettext("{map}, round {round}: {player} to move", **params)


def _seat_rows(t: Translator, game: Game, view: dict, controllers: Sequence[Controller]) -> list[str]:
    """One aligned line per seat: score, trains, cards, tickets (and stations, loans, leaving)."""
    rows = []
    for p in view["players"]:
        s = p["seat"]
        figures = present.seat_figures(t, game.map, p)
        mark = ">" if view["current"] == s else " "
        rows.append([f"{mark} {controllers[s].name}", *figures[:4], "  ".join(figures[4:])])
    lines = _table(rows)
    if "passengers" in view["players"][0]:  # Märklin: each seat's passengers and tokens under its row
        for i, p in reversed(list(enumerate(view["players"]))):
            lines.insert(i + 1, "      " + present.passengers_text(t, game.map, p))
    return lines


def _merchandise(t: Translator, game: Game, view: dict, width: int) -> list[str]:
    """Märklin: the cities by the token on top of their stack ('7 Berlin · 4 Erfurt, Kassel · …'),
    the many 2s counted rather than named, so it takes a few lines."""
    by_top: dict[int, list[str]] = {}
    for city, stack in view["merchandise"].items():
        if stack["stack"]:
            by_top.setdefault(stack["stack"][0], []).append(t.city(game.map.city_by_id[city]))
    items = []
    for top in sorted(by_top, reverse=True):
        names = sorted(by_top[top])
        items.append(
            f"{top}: {', '.join(names)}"
            if len(names) <= 12
            else t.ngettext("{top}: {n} city", "{top}: {n} cities", len(names), top=top)
        )
    text = t.gettext("merchandise (top token):") + " " + " · ".join(items)
    return fold(text, width) if items else []


def move_points(view: dict, path: Sequence[str]) -> int:
    """The token points a passenger move collects (the top token of each city on it, once)."""
    stacks = view.get("merchandise", {})
    return sum((stacks.get(c, {}).get("stack") or [0])[0] for c in dict.fromkeys(path))


def summary(
    game: Game,
    seat: int | None,
    controllers: Sequence[Controller],
    t: Translator = ENGLISH,
    width: int | None = None,
) -> str:
    """Market, scores and (for a seat) hand, tickets and offer, as plain text `width` columns wide
    (the terminal's by default)."""
    width = width or screen_width()
    view = game.view(seat)
    m = game.map
    lines = [f"== {_heading(t, game, view, controllers)} =="]
    market = " ".join(f"{i + 1}:{t.card(ALL_CARD_NAMES.index(c)) if c else '-'}" for i, c in enumerate(view["market"]))
    if "ticket_decks" in view:  # Märklin's short and long decks
        market_line = t.gettext(
            "market  {cards}   deck {deck}  tickets left {short} short, {long} long",
            cards=market,
            deck=view["deck_size"],
            **view["ticket_decks"],
        )
    else:
        market_line = t.gettext(
            "market  {cards}   deck {deck}  tickets left {tickets}",
            cards=market,
            deck=view["deck_size"],
            tickets=view["ticket_deck_size"],
        )
    lines += fold(market_line, width, sep="  ")  # between the cards, the deck and the tickets
    lines += _seat_rows(t, game, view, controllers)
    if "merchandise" in view:
        lines += _merchandise(t, game, view, width)
    if view.get("neutral"):
        n = view["neutral"]
        if n["marker"] is None:
            lines.append("  " + t.ngettext("neutral player: {n} train", "neutral player: {n} trains", n["trains"]))
        else:
            lines.append(
                "  "
                + t.ngettext(
                    "neutral player: {n} train, marker with {player}",
                    "neutral player: {n} trains, marker with {player}",
                    n["trains"],
                    player=player_name(n["marker"], controllers),
                )
            )
    if view["tunnel"]:
        tunnel = view["tunnel"]
        route = t.route(m, m.track_by_id[tunnel["track"]])
        if tunnel["revealed"]:
            cards = t.join(t.card(ALL_CARD_NAMES.index(c)) for c in tunnel["revealed"])
            lines.append(
                t.gettext(
                    "tunnel {route}: revealed {cards}; extra cost {n}", route=route, cards=cards, n=tunnel["surcharge"]
                )
            )
        else:
            lines.append(
                t.gettext("tunnel {route}: revealed nothing; extra cost {n}", route=route, n=tunnel["surcharge"])
            )
    you = view["you"]
    if you is not None:
        hand = present.hand_text(t, view)
        if "money" in you:
            hand_line = t.gettext("your hand: {cards}   money {money}", cards=hand, money=you["money"])
        else:
            hand_line = t.gettext("your hand: {cards}", cards=hand)
        lines += fold(hand_line, width, indent=2, sep="  ")  # a card is "🟥 red ×3": cut between cards
        if you["tickets"]:
            done = present.tickets_done(game, seat)
            lines.append(t.gettext("your tickets:"))
            lines += [
                "  " + present.ticket_line(t, m, ticket, done.get(ticket["id"]), game.stations[seat])
                for ticket in you["tickets"]
            ]
        if you["offer"]:
            lines.append(t.gettext("ticket offer (keep at least {n}):", n=you["keep_at_least"]))
            lines += ["  " + present.ticket_line(t, m, ticket) for ticket in you["offer"]]
    return "\n".join(lines)


def final_text(game: Game, controllers: Sequence[Controller], t: Translator = ENGLISH, width: int | None = None) -> str:
    """The final scores, best first, each with the bot's breakdown (points by kind, every ticket)."""
    width = width or screen_width()
    lines = [f"== {t.gettext(END_REASONS[game.end_reason])} =="]
    ranked = sorted(game.final, key=lambda s: (s.rank, s.seat))  # the order of present.final_fields
    for score, (_title, body) in zip(ranked, present.final_fields(t, game, lambda s: controllers[s].name)):
        lines.append(
            t.ngettext(
                "{rank}. {name}: {total} point",
                "{rank}. {name}: {total} points",
                abs(score.total),
                rank=score.rank,
                name=controllers[score.seat].name,
                total=score.total,
            )
        )
        for line in body.splitlines():
            lines += fold("   " + line, width, indent=5)
    if not longest_bonus(game):
        lines.append(t.gettext("No longest-route bonus on this map."))
    return "\n".join(lines)


def longest_bonus(game: Game) -> int:
    """The points of the longest-route bonus in this game (0: the map or its variant has none)."""
    return game.hooks.end_bonuses(game, game.deck_rules)[0]


def numbered_moves(game: Game, seat: int, plan: Collection[str] = ()) -> dict[int, Action]:
    """The moves a person picks from, by number. Draws keep the market's numbers (face-up card N
    is N, the deck the number after the market), so no number changes meaning between the first
    and the second card; the other moves follow with one payment per color: tickets and the
    like, then claims (routes on the `plan` for the tickets first, longest first; Märklin's claims
    placing a passenger after all the others), stations last."""
    moves = game.legal_actions(seat, collapse_payments=True)
    slots = len(game.view(None)["market"])
    numbered: dict[int, Action] = {}
    for action in moves:
        if isinstance(action, DrawMarket):
            numbered[action.slot + 1] = action
        elif isinstance(action, DrawDeck):
            numbered[slots + 1] = action

    starred = planned_routes(game, plan)

    def order(action: Action) -> tuple:
        if isinstance(action, Claim):
            track = game.map.track_by_id[action.track]
            route = game.map.route_name(track)
            return (1, action.passenger is not None, route not in starred, -track.length, route, action.locos)
        return (2 if isinstance(action, BuildStation) else 0,)

    rest = sorted((a for a in moves if not isinstance(a, (DrawMarket, DrawDeck))), key=order)
    first = slots + 2 if numbered else 1
    numbered.update(enumerate(rest, start=first))
    return numbered


def planned_routes(game: Game, plan: Collection[str]) -> set[str]:
    """The routes (either track of a double one) with a track on the ticket plan: any of their
    tracks serves the tickets."""
    return {game.map.route_name(game.map.track_by_id[track]) for track in plan}


def _wrapped(head: str, items: Sequence[str], indent: int, width: int, most: int | None = None) -> list[str]:
    """`head` then the items, two spaces apart, wrapped at `width`; with `most`, at most that many lines."""
    lines, line = [], head
    for item in items:
        if _width(line) + _width(item) > width and line.strip():
            lines.append(line.rstrip())
            line = " " * indent
        line += item + "  "
    lines.append(line.rstrip())
    return lines if most is None else lines[:most]


def moves_text(
    game: Game,
    moves: Mapping[int, Action],
    t: Translator = ENGLISH,
    everything: bool = False,
    width: int | None = None,
    plan: Collection[str] = (),
    seat: int | None = None,
) -> str:
    """The moves, one line per notation verb ('draw  1 market 1  2 market 2 …  6 deck'), each item
    its number and the rest of its notation, so the verb and the item typed together are the move.
    Unless `everything`, claims are the routes that can be paid (one number each: its first
    payment; ⭐ on the ticket `plan` first, then longest, a few lines at most) and stations one line;
    `moves all` numbers every move. A route's toll (Nederland) is told beside it."""
    width = width or screen_width()
    groups: dict[str, list[str]] = {}
    routes: dict[str, str] = {}  # route name -> its numbered item, for the short list
    claims = stations = 0
    station_example = None
    passengers = False
    public = game.view(None)
    starred = planned_routes(game, plan)
    for n, action in moves.items():
        verb, _, rest = format_action(game, action).partition(" ")
        if isinstance(action, Move):
            rest += f" (+{move_points(public, action.path)})"
        passengers = passengers or bool(getattr(action, "passenger", None))
        if isinstance(action, Claim):
            track = game.map.track_by_id[action.track]
            name = game.map.route_name(track)
            star = "⭐ " if name in starred else ""
            toll = present.toll_note(t, game, track, seat)
            if not everything:
                claims += 1
                details = ", ".join(filter(None, [str(track.length), toll]))
                routes.setdefault(name, f"{n} {star}{name} ({details})")
                continue
            rest = f"{star}{rest}" + (f" ({toll})" if toll else "")
        if not everything and isinstance(action, BuildStation):
            stations += 1
            station_example = station_example or f"{n} {verb} {rest}"
            continue
        groups.setdefault(verb, []).append(f"{n} {rest}".rstrip())
    label = max([len(v) for v in groups] + [len("station")]) + 2
    lines = []
    for verb, items in groups.items():
        lines += _wrapped(f"  {verb:<{label}}", items, label + 2, width)
    if any(isinstance(a, (DrawMarket, DrawDeck)) for a in moves.values()):
        lines += _unavailable_slots(game, moves, t)
    if routes:
        head = "  " + t.ngettext("claim: {n} route can be paid", "claim: {n} routes can be paid", len(routes))
        names = list(routes.values())
        shown = _wrapped(" " * (label + 2), names, label + 2, width - 12, most=3)  # room for "+N more"
        listed = sum(line.count("(") for line in shown)
        if listed < len(names):
            shown[-1] += "  " + t.gettext("+{n} more", n=len(names) - listed)
        lines += [head, *shown]
    if stations:
        cities = len({a.city for a in moves.values() if isinstance(a, BuildStation)})
        lines.append(
            "  "
            + t.ngettext(
                "station: {n} city is free, e.g. {example}",
                "station: {n} cities are free, e.g. {example}",
                cities,
                example=station_example,
            )
        )
    if routes and passengers:
        lines.append(
            "  "
            + t.gettext("(add {passenger} to a claim to put a passenger on that end city)", passenger="passenger=City")
        )
    if any(
        isinstance(a, Claim) and game.map.route_name(game.map.track_by_id[a.track]) in starred for a in moves.values()
    ):
        lines.append("  " + t.gettext("(⭐: on the shortest way to complete your tickets)"))
    if claims or stations:
        lines.append("  " + t.gettext("({all}: every move by number)", all=MOVES_ALL))
    return "\n".join(line for part in lines for line in fold(part, width, indent=label + 2, sep="  "))


def _unavailable_slots(game: Game, moves: Mapping[int, Action], t: Translator) -> list[str]:
    """Why a face-up card has no number now: a locomotive cannot be the second card."""
    if game.stage is not SECOND_CARD:
        return []
    return [
        "  "
        + t.gettext(
            "({n}: a face-up {card} cannot be your second card)",
            n=slot + 1,
            card=present.card(t, ALL_CARD_NAMES.index(name)),
        )
        for slot, name in enumerate(game.view(None)["market"])
        if name is not None and slot + 1 not in moves
    ]


def notation_examples(game: Game) -> list[str]:
    """Moves in notation for the help text, on the map being played: typed input, so shown as it
    is in every language."""
    m = game.map
    plain = [track for track in m.tracks if track.color is not None and not track.tunnel and not track.ferry] or list(
        m.tracks
    )
    track = min(plain, key=lambda tr: (-min(tr.length, 3), len(m.route_name(tr)), tr.id))
    claim = format_action(game, Claim(track.id, track.color, 0))
    tickets = sorted(m.ticket_by_id)[:2]
    lines = [
        f"draw deck | draw market 3 | {claim} | {claim} loco=1",
        f"tickets draw | tickets keep {' '.join(map(str, tickets))}",
    ]
    city = m.cities[track.a]
    if m.rules.stations:
        lines[-1] += " | " + format_action(game, BuildStation(city.id, track.color, 0))
    if any(tr.tunnel for tr in m.tracks):
        lines[-1] += " | tunnel pay | tunnel decline"
    if "nederland" in m.rules.hooks:
        lines.append(format_action(game, NeutralClaim(track.id)) + " | pass")
    if "marklin" in m.rules.hooks:
        lines.append(
            " | ".join(
                [
                    format_action(game, Claim(track.id, track.color, 0, passenger=city.id)),
                    "tickets draw long=2",
                    format_action(game, Move((city.id, m.cities[track.b].id), 1)),
                ]
            )
        )
    return ["  " + line for line in lines]


def help_text(t: Translator, game: Game, width: int | None = None) -> str:
    """How to type a move, with examples on the map played, and the map's missing longest-route bonus."""
    width = width or screen_width()
    examples = notation_examples(game)
    lines = [
        t.gettext(
            "Type the number of a move, or the move itself in the engine's notation (the list shows each move's "
            "first word once, then the rest of each move with its number):\n{examples}\n"
            "Left out, a payment takes the fewest locomotives and a colored route's own color.\n"
            "Commands: {help}, {moves} (the moves again; {all}: every move by number), {board} (the summary "
            "again), {quit} (resign, after a question).",
            examples="\n".join(examples),
            all=MOVES_ALL,
            **{c: c for c in COMMANDS},
        )
    ]
    if not longest_bonus(game):
        lines.append(t.gettext("No longest-route bonus on this map."))
    return "\n".join(
        part
        for line in "\n".join(lines).splitlines()
        for part in (fold(line, width, 4, " | ") if line in examples else fold(line, width, 0))
    )
