"""The terminal game: a person plays against AI seats (or several people share one terminal).

Each turn it prints a text summary (market, scores, your hand and tickets) and your moves, grouped
so they fit an 80×24 screen: one line per kind of move with its numbered moves, the routes you can
pay for, and the number of cities free for a station (`moves all` numbers every move). Type a
number or the engine's notation (`claim Paris-Dieppe pink`, `draw deck`, `tickets keep 12 31`; tab
completion where readline exists). Every tunnel reveal (an AI's too) and Nederland's neutral phase
are told as they happen. The public board is re-rendered to a PNG file after every turn, your own
board (with the routes you may claim) on your turn, and the final board with the score table at
the end; each file is named once. Commands: `help`, `moves`, `moves all`, `board`, `quit` (resign,
after a question; Ctrl-C asks the same). The `--log` file is written however the game ends.
Hot-seat: the screen is cleared and the game waits for Enter before each person's cards are shown.
`--seed N` replays a game exactly, AI seats included (the strong AI then thinks by playout count,
not against the clock).

Everything it prints is in one language (`--language`, by default the environment's locale) through
an i18n Translator, with the bot's wording where the bot already says the same thing
(texts/present.py, texts/error_text.py). What players type stays the engine's notation and the
commands above; the move list shows the notation so it can be typed back.

The loop takes an input function and an output function, so tests drive whole games with scripts.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ai import GameInfo, Player, ask, make_ai
from ai import players as ai_players
from engine import (
    Action,
    ActionError,
    BuildStation,
    Claim,
    DrawTickets,
    Game,
    GameOptions,
    KeepTickets,
    Resign,
    available_maps,
    format_action,
    load_map,
    parse_action,
)
from engine.actions import Move
from engine.cards import ALL_CARD_NAMES
from engine.errors import GameOptionsError
from engine.events import (
    NeutralMarkerPassed,
    NeutralRouteClaimed,
    NeutralStopped,
    NeutralTicketRevealed,
    TunnelRevealed,
)
from engine.marklin import PassengerMoved
from engine.nederland import NEUTRAL_FROM_ROUND
from i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    PSEUDO,
    Translator,
    language_for_locale,
    translator,
)
from i18n.translator import CITY_NAMES
from texts import present
from texts.error_text import describe_error

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

ENGLISH = translator()
COMMANDS = ("help", "moves", "board", "quit")
MOVES_ALL = "moves all"
#: Columns the move list is wrapped to (an 80×24 terminal).
SCREEN_WIDTH = 80
#: Moves in notation for the help text: typed input, so shown as it is in every language.
NOTATION_EXAMPLES = """  draw deck | draw market 3 | claim Denver-Omaha pink | claim Dieppe-London/2 red loco=1
  tickets draw | tickets keep 12 31 | station Paris red | tunnel pay | tunnel decline
  neutral claim Amsterdam-Rotterdam/2 | pass
  claim Berlin-Hamburg yellow passenger=Berlin | tickets draw long=2 | move Hamburg-Kiel cards=1"""

#: Why the game ended (engine Game.end_reason), as the heading of the final scores.
END_REASONS = {
    "last_round": N_("game over (the last round is played)"),
    "all_passed": N_("game over (nobody could move)"),
    "too_few_seats": N_("game over (too few players left)"),
}
#: Why a seat left the game (the view's `left`).
LEFT = {"resigned": N_("resigned"), "removed": N_("removed")}


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


# ---------------------------------------------------------------------- text


def _width(text: str) -> int:
    """Columns a terminal gives the text (Chinese characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


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


def _seat(t: Translator, seat: int, controllers: Sequence[Controller]) -> str:
    """'seat 2 (Ann)': how the terminal names a player."""
    return t.gettext("seat {seat} ({name})", seat=seat + 1, name=controllers[seat].name)


def _heading(t: Translator, game: Game, view: dict, controllers: Sequence[Controller]) -> str:
    if view["phase"] == "choosing":
        return t.gettext("{map}: choosing starting tickets", map=t.map_name(game.map))
    params = {"map": t.map_name(game.map), "round": view["round"], "player": _seat(t, view["current"], controllers)}
    if view["last_round"]:
        return t.gettext("{map}, round {round}: {player} to move  LAST ROUND", **params)
    return t.gettext("{map}, round {round}: {player} to move", **params)


def _seat_rows(t: Translator, game: Game, view: dict, controllers: Sequence[Controller]) -> list[str]:
    """One aligned line per seat: score, trains, cards, tickets (and stations, loans, leaving)."""
    rows = []
    for p in view["players"]:
        s = p["seat"]
        flags = []
        if game.map.rules.stations:
            flags.append(t.ngettext("{n} station", "{n} stations", p["stations_left"]))
        if "loans" in p:
            flags.append(t.ngettext("{n} loan", "{n} loans", p["loans"]))
        if p["left"]:
            flags.append(t.gettext(LEFT[p["left"]]))
        mark = ">" if view["current"] == s else " "
        rows.append(
            [
                f"{mark} " + t.gettext("seat {n}", n=s + 1),
                controllers[s].name,
                t.ngettext("{n} point", "{n} points", p["score"]),
                t.ngettext("{n} train", "{n} trains", p["trains"]),
                t.ngettext("{n} card", "{n} cards", p["hand_size"]),
                t.ngettext("{n} ticket", "{n} tickets", p["tickets"]),
                "  ".join(flags),
            ]
        )
    lines = _table(rows)
    if "passengers" in view["players"][0]:  # Märklin: each seat's passengers and tokens under its row
        for i, p in reversed(list(enumerate(view["players"]))):
            lines.insert(i + 1, "      " + present.passengers_text(t, game.map, p))
    return lines


def _merchandise(t: Translator, game: Game, view: dict) -> list[str]:
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
    return textwrap.wrap(text, SCREEN_WIDTH, subsequent_indent="  ") if items else []


def move_points(view: dict, path: Sequence[str]) -> int:
    """The token points a passenger move collects (the top token of each city on it, once)."""
    stacks = view.get("merchandise", {})
    return sum((stacks.get(c, {}).get("stack") or [0])[0] for c in dict.fromkeys(path))


def summary(game: Game, seat: int | None, controllers: Sequence[Controller], t: Translator = ENGLISH) -> str:
    """Market, scores and (for a seat) hand, tickets and offer, as plain text."""
    view = game.view(seat)
    m = game.map
    lines = [f"== {_heading(t, game, view, controllers)} =="]
    market = " ".join(f"{i + 1}:{t.card(ALL_CARD_NAMES.index(c)) if c else '-'}" for i, c in enumerate(view["market"]))
    if "ticket_decks" in view:  # Märklin's short and long decks
        lines.append(
            t.gettext(
                "market  {cards}   deck {deck}  tickets left {short} short, {long} long",
                cards=market,
                deck=view["deck_size"],
                **view["ticket_decks"],
            )
        )
    else:
        lines.append(
            t.gettext(
                "market  {cards}   deck {deck}  tickets left {tickets}",
                cards=market,
                deck=view["deck_size"],
                tickets=view["ticket_deck_size"],
            )
        )
    lines += _seat_rows(t, game, view, controllers)
    if "merchandise" in view:
        lines += _merchandise(t, game, view)
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
                    player=_seat(t, n["marker"], controllers),
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
            lines.append(t.gettext("your hand: {cards}   money {money}", cards=hand, money=you["money"]))
        else:
            lines.append(t.gettext("your hand: {cards}", cards=hand))
        if you["tickets"]:
            done = present.tickets_done(game, seat)
            lines.append(t.gettext("your tickets:"))
            lines += ["  " + present.ticket_line(t, m, ticket, done.get(ticket["id"])) for ticket in you["tickets"]]
        if you["offer"]:
            lines.append(t.gettext("ticket offer (keep at least {n}):", n=you["keep_at_least"]))
            lines += ["  " + present.ticket_line(t, m, ticket) for ticket in you["offer"]]
    return "\n".join(lines)


def final_text(game: Game, controllers: Sequence[Controller], t: Translator = ENGLISH) -> str:
    """The final scores, best first, each with the bot's breakdown (points by kind, every ticket)."""
    lines = [f"== {t.gettext(END_REASONS[game.end_reason])} =="]
    ranked = sorted(game.final, key=lambda s: (s.rank, s.seat))  # the order of present.final_fields
    for score, (_title, body) in zip(ranked, present.final_fields(t, game, lambda s: controllers[s].name)):
        lines.append(
            t.ngettext(
                "{rank}. seat {seat} {name}: {total} point",
                "{rank}. seat {seat} {name}: {total} points",
                abs(score.total),
                rank=score.rank,
                seat=score.seat + 1,
                name=controllers[score.seat].name,
                total=score.total,
            )
        )
        lines += ["   " + line for line in body.splitlines()]
    return "\n".join(lines)


def ordered_moves(game: Game, seat: int) -> list[Action]:
    """The moves a person picks from by number: one payment per color; claims, then stations, last,
    so the numbers of the other moves stay small and the same in the short list and `moves all`."""
    moves = game.legal_actions(seat, collapse_payments=True)
    return sorted(moves, key=lambda a: 2 if isinstance(a, BuildStation) else 1 if isinstance(a, Claim) else 0)


def _wrapped(head: str, items: Sequence[str], indent: int, width: int, most: int | None = None) -> list[str]:
    """`head` then the items, two spaces apart, wrapped at `width`; with `most`, at most that many lines."""
    lines, line = [], head
    for item in items:
        if len(line) + len(item) > width and line.strip():
            lines.append(line.rstrip())
            line = " " * indent
        line += item + "  "
    lines.append(line.rstrip())
    return lines if most is None else lines[:most]


def moves_text(
    game: Game, moves: Sequence[Action], t: Translator = ENGLISH, everything: bool = False, width: int = SCREEN_WIDTH
) -> str:
    """The moves, one line per notation verb ('draw  1 market 1  2 market 2 …  6 deck'), each item
    its number and the rest of its notation, so the verb and the item typed together are the move.
    Unless `everything`, claims are the routes that can be paid (longest first, a few lines at most)
    and stations one line; `moves all` numbers every move."""
    groups: dict[str, list[str]] = {}
    routes: dict[str, int] = {}  # route name -> length, for the short list
    claims = stations = 0
    station_example = None
    passengers = False
    public = game.view(None)
    for n, action in enumerate(moves, start=1):
        verb, _, rest = format_action(game, action).partition(" ")
        if isinstance(action, Move):
            rest += f" (+{move_points(public, action.path)})"
        passengers = passengers or bool(getattr(action, "passenger", None))
        if not everything and isinstance(action, Claim):
            claims += 1
            track = game.map.track_by_id[action.track]
            routes.setdefault(game.map.route_name(track), track.length)
            continue
        if not everything and isinstance(action, BuildStation):
            stations += 1
            station_example = station_example or f"{verb} {rest}"
            continue
        groups.setdefault(verb, []).append(f"{n} {rest}".rstrip())
    label = max([len(v) for v in groups] + [len("station")]) + 2
    lines = []
    for verb, items in groups.items():
        lines += _wrapped(f"  {verb:<{label}}", items, label + 2, width)
    if routes:
        names = [f"{name} ({length})" for name, length in sorted(routes.items(), key=lambda r: (-r[1], r[0]))]
        head = "  " + t.ngettext("claim: {n} route can be paid", "claim: {n} routes can be paid", len(routes))
        shown = _wrapped(" " * (label + 2), names, label + 2, width - 12, most=3)  # room for "+N more"
        listed = sum(line.count("(") for line in shown)
        if listed < len(names):
            shown[-1] += "  " + t.gettext("+{n} more", n=len(names) - listed)
        lines += [head, *shown]
    if stations:
        cities = len({a.city for a in moves if isinstance(a, BuildStation)})
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
    if claims or stations:
        lines.append("  " + t.gettext("({all}: every move by number)", all=MOVES_ALL))
    return "\n".join(lines)


def public_text(
    game: Game, seat: int, action: Action, controllers: Sequence[Controller], t: Translator = ENGLISH
) -> str:
    """What everyone may know of a move, in notation (kept ticket ids are secret)."""
    player = _seat(t, seat, controllers)
    if isinstance(action, KeepTickets):
        return t.ngettext("{player}: keeps {n} ticket", "{player}: keeps {n} tickets", len(action.ids), player=player)
    return t.gettext("{player}: {move}", player=player, move=format_action(game, action))


def help_text(t: Translator) -> str:
    return t.gettext(
        "Type the number of a move, or the move itself in the engine's notation (the list shows each move's first "
        "word once, then the rest of each move with its number):\n{examples}\n"
        "Left out, a payment takes the fewest locomotives and a colored route's own color.\n"
        "Commands: {help}, {moves} (the moves again; {all}: every move by number), {board} (the summary "
        "again), {quit} (resign, after a question).",
        examples=NOTATION_EXAMPLES,
        all=MOVES_ALL,
        **{c: c for c in COMMANDS},
    )


# ---------------------------------------------------------------------- completion


class Completer:
    """readline completion over the current moves in notation (and the commands)."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self.matches: list[str] = []

    def set_moves(self, game: Game, seat: int) -> None:
        self.words = sorted({format_action(game, a) for a in game.legal_actions(seat)}) + list(COMMANDS)

    def __call__(self, text: str, state: int) -> str | None:
        if state == 0:
            import readline

            line = readline.get_line_buffer()
            begin = readline.get_begidx()
            prefix = line[:begin]
            self.matches = [w[len(prefix) :] for w in self.words if w.lower().startswith(line.lower())]
        return self.matches[state] if state < len(self.matches) else None


def install_completer() -> Completer | None:
    try:
        import readline
    except ImportError:  # Windows without pyreadline
        return None
    completer = Completer()
    readline.set_completer(completer)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")
    return completer


# ---------------------------------------------------------------------- the loop


class Quit(Exception):
    """The person confirmed that they stop (typed quit, pressed Ctrl-C or closed the input)."""


def _yes(t: Translator, answer: str) -> bool:
    words = {"y", "yes", t.pgettext("answer", "yes").lower()}
    return answer.strip().lower() in words | {w[:1] for w in words}


def confirm_quit(t: Translator, read: InputFn, player: str) -> bool:
    """Ask before resigning; no more input (end of file, a second Ctrl-C) counts as yes."""
    try:
        answer = read(
            t.gettext(
                "{player}: resign and leave the game? ({yes}/{no}) ",
                player=player,
                yes=t.pgettext("answer", "yes"),
                no=t.pgettext("answer", "no"),
            )
        )
    except (EOFError, KeyboardInterrupt):
        return True
    return _yes(t, answer)


def human_move(
    game: Game,
    seat: int,
    controllers: Sequence[Controller],
    read: InputFn,
    write: OutputFn,
    completer: Completer | None = None,
    t: Translator = ENGLISH,
) -> Action:
    moves = ordered_moves(game, seat)
    if completer is not None:
        completer.set_moves(game, seat)
    write(summary(game, seat, controllers, t))
    if all(isinstance(a, DrawTickets) and a.long is not None for a in moves):  # Märklin's starting mix
        write(
            t.gettext(
                "Name your ticket mix: how many of the tickets you draw come from the long deck (the rest are short)."
            )
        )
    write(moves_text(game, moves, t))
    player = _seat(t, seat, controllers)

    def refusal(error: ActionError) -> str:
        # sentences about a player ("it is … 's turn", "taken by …") take a third-person name, not "you"
        return f"? {describe_error(t, error, game, lambda s: controllers[s].third_person or controllers[s].name)}"

    while True:
        try:
            text = read(t.gettext("{player}> ", player=player)).strip()
        except EOFError:
            raise Quit() from None
        except KeyboardInterrupt:
            text = "quit"
        if not text:
            continue
        low = " ".join(text.lower().split())
        if low in ("help", "?"):
            write(help_text(t))
            continue
        if low == "moves":
            write(moves_text(game, moves, t))
            continue
        if low == MOVES_ALL:
            write(moves_text(game, moves, t, everything=True))
            continue
        if low == "board":
            write(summary(game, seat, controllers, t))
            continue
        if low in ("quit", "exit", "resign"):
            if confirm_quit(t, read, player):
                raise Quit()
            continue
        if text.isascii() and text.isdigit():
            n = int(text)
            if 1 <= n <= len(moves):
                return moves[n - 1]
            write(t.gettext("choose a move from 1 to {n}, or type one", n=len(moves)))
            continue
        try:
            action = parse_action(game, seat, text)
        except ActionError as error:
            write(refusal(error))
            continue
        if not game.is_legal(seat, action) or isinstance(action, Resign):
            try:
                game.check(seat, action)  # the engine's message says why
                write("? " + t.gettext("that move is not possible now"))
            except ActionError as error:
                write(refusal(error))
            continue
        return action


@dataclass
class Images:
    """The board images the terminal game keeps up to date; each file is named once, when first written."""

    path: Path | None
    announced: set = field(default_factory=set)

    def render(
        self,
        game: Game,
        controllers: Sequence[Controller],
        write: OutputFn,
        seat: int | None = None,
        t: Translator = ENGLISH,
    ) -> None:
        if self.path is None:
            return
        try:
            from rendering import (
                default_players,
                render_board,
                render_final,
                render_player_board,
            )
        except ImportError as error:  # Pillow missing: play on without pictures
            write(t.gettext("(no board image: {error})", error=error))
            self.path = None
            return
        styles = default_players([c.third_person or c.name for c in controllers])
        if seat is None and game.is_over():  # the final scores table under the board
            img = render_final(game.view(None), game.map, styles, t=t)
            path = self.path.with_name(f"{self.path.stem}-final{self.path.suffix}")
        elif seat is None:
            img = render_board(game.view(None), game.map, styles, t=t)
            path = self.path
        else:
            claimable = {a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)}
            img = render_player_board(game.view(seat), game.map, styles, claimable_tracks=claimable, t=t)
            path = self.path.with_name(f"{self.path.stem}-seat{seat + 1}{self.path.suffix}")
        path.write_bytes(img.png)
        if path not in self.announced:
            self.announced.add(path)
            if game.is_over():
                write(t.gettext("final scores image: {path}", path=path))
            else:
                write(t.gettext("board image: {path}", path=path))


def clear_screen(write: OutputFn) -> None:
    """Erase the terminal (ANSI), so the next player does not see the last one's cards."""
    write("\033[2J\033[H")


def event_lines(
    t: Translator, game: Game, events: list, controllers: Sequence[Controller], explain_neutral: bool = False
) -> list[str]:
    """What a move's events show that its notation does not: every tunnel reveal (an AI's too), the
    Nederland neutral player's phase, explained the first time it comes, and the tokens a Märklin
    passenger collects."""
    shown = [
        e
        for e in events
        if isinstance(
            e,
            (
                TunnelRevealed,
                NeutralTicketRevealed,
                NeutralRouteClaimed,
                NeutralMarkerPassed,
                NeutralStopped,
                PassengerMoved,
            ),
        )
    ]
    lines = []
    if explain_neutral and any(isinstance(e, NeutralTicketRevealed) for e in shown):
        lines.append(
            t.gettext(
                "Neutral phase: from round {round} on, after every round the holder of the neutral "
                "marker turns over the top ticket; the route printed at its bottom is built for the "
                "neutral player (both tracks free: the holder picks one and passes the marker).",
                round=NEUTRAL_FROM_ROUND,
            )
        )
    for e in shown:
        if isinstance(e, NeutralMarkerPassed):
            lines.append(t.gettext("the neutral marker passes to {player}", player=_seat(t, e.seat, controllers)))
        else:
            lines += present.describe(t, game, [e], lambda s: _seat(t, s, controllers))
    return ["  " + line.replace("**", "") for line in lines]


def play(
    game: Game,
    controllers: Sequence[Controller],
    read: InputFn = input,
    write: OutputFn = print,
    image: Path | None = None,
    completer: Completer | None = None,
    t: Translator = ENGLISH,
    clear: Callable[[], None] | None = None,
) -> Game:
    """Run the game to its end (or until a person quits: that seat resigns and the AIs finish).
    Hot-seat: before each person's turn the screen is cleared (`clear`, when the output is a
    terminal) and the game waits for Enter, then shows what happened since."""
    infos = {s: GameInfo.from_game(game, s) for s, c in enumerate(controllers) if not c.human}
    humans = [s for s, c in enumerate(controllers) if c.human]
    hot_seat = len(humans) > 1
    images = Images(image)
    neutral_explained = False
    shown_to: int | None = None  # the person whose cards are on the screen
    since: list[str] = []  # public lines since the screen was last cleared
    images.render(game, controllers, write, t=t)

    def resign(seat: int) -> None:
        write(t.gettext("{player} resigns", player=_seat(t, seat, controllers)))
        game.apply(seat, Resign())

    while not game.is_over():
        seat = game.to_move()[0]
        c = controllers[seat]
        if c.human:
            player = _seat(t, seat, controllers)
            if hot_seat and seat != shown_to:
                if clear is not None:
                    clear()
                write("\n--- " + t.gettext("{player}: your move; others look away", player=player) + " ---")
                try:
                    read(t.gettext("{player}: press Enter to see your cards ", player=player))
                except EOFError:
                    pass
                except KeyboardInterrupt:
                    if confirm_quit(t, read, player):
                        resign(seat)
                        continue
                if clear is not None:
                    clear()
                    for line in since[-12:]:
                        write(line)
                since = []
                shown_to = seat
            if game.phase == "playing" and game.stage is None:
                images.render(game, controllers, write, seat=seat, t=t)
            try:
                action = human_move(game, seat, controllers, read, write, completer, t)
            except Quit:
                resign(seat)
                shown_to = None
                if not any(controllers[s].human and game.left[s] is None for s in range(game.seats)):
                    while not game.is_over():  # the AIs finish the game
                        s = game.to_move()[0]
                        game.apply(s, ask(controllers[s].ai, game, s, infos.get(s)))
                continue
        else:
            try:
                action = ask(c.ai, game, seat, infos[seat])
            except KeyboardInterrupt:  # Ctrl-C while an AI thinks: the people may stop
                people = [s for s in humans if game.left[s] is None]
                if people and confirm_quit(t, read, t.join(_seat(t, s, controllers) for s in people)):
                    for s in people:
                        resign(s)
                elif not people:
                    raise
                continue
        before = (game.phase, game.current)
        events = game.apply(seat, action)
        lines = [
            public_text(game, seat, action, controllers, t),
            *event_lines(t, game, events, controllers, not neutral_explained),
        ]
        neutral_explained = neutral_explained or any(isinstance(e, NeutralTicketRevealed) for e in events)
        for line in lines:
            write(line)
        since += lines
        if game.phase == "playing" and (before != (game.phase, game.current) or game.is_over()):
            images.render(game, controllers, write, t=t)
    write(final_text(game, controllers, t))
    images.render(game, controllers, write, t=t)
    return game


# ---------------------------------------------------------------------- command line


def environment_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the terminal's locale: the first of LC_ALL, LC_MESSAGES and LANG that is set
    (as POSIX reads them); ru… is Russian, zh… Chinese, anything else English."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(variable):
            return language_for_locale(environ[variable]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def _language_options(p: argparse.ArgumentParser, t: Translator) -> None:
    # qps (the pseudo-locale, for tests) is accepted but not offered
    p.add_argument(
        "--language",
        default=environment_language(),
        choices=[*LANGUAGES, PSEUDO],
        metavar="en|ru|zh",
        help=t.gettext("language of the game's text (default: from LANG / LC_ALL)"),
    )
    p.add_argument(
        "--city-names",
        default="printed",
        choices=CITY_NAMES,
        help=t.gettext("city names as printed on the board, or translated (USA, Europe; default printed)"),
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options, with the help in the language they choose (read first, on their own)."""
    first = argparse.ArgumentParser(add_help=False)
    _language_options(first, ENGLISH)
    chosen, _ = first.parse_known_args(argv)
    t = translator(chosen.language, chosen.city_names)
    p = argparse.ArgumentParser(
        prog="python -m cli", description=t.gettext("Ticket to Ride in a terminal, against AI seats or hot-seat.")
    )
    _language_options(p, t)
    p.add_argument("--map", default="usa", choices=available_maps())
    p.add_argument("--seats", type=int, default=2, help=t.gettext("players in all (2-5; default 2)"))
    p.add_argument(
        "--humans",
        type=int,
        default=1,
        help=t.gettext("people at this terminal, seats 1..N (default 1; 0 = watch AIs)"),
    )
    p.add_argument("--hot-seat", action="store_true", help=t.gettext("every seat is a person (same as --humans SEATS)"))
    p.add_argument(
        "--ai",
        default="baseline",
        choices=sorted(ai_players),
        help=t.gettext("strength of the AI seats (default baseline)"),
    )
    p.add_argument("--seed", type=int, default=None, help=t.gettext("game seed (default: random, printed)"))
    p.add_argument("--deck", default=None, help=t.gettext("ticket deck (USA: base, 1910, mega, bigcities)"))
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=on|off",
        help=t.gettext("map variant, e.g. neutral=on, tolls=off (Nederland)"),
    )
    p.add_argument(
        "--first-seat", type=int, default=None, help=t.gettext("who starts (1-based; default drawn from the seed)")
    )
    p.add_argument("--names", default="", help=t.gettext("comma-separated names of the people, in seat order"))
    p.add_argument(
        "--image",
        default="ttr-board.png",
        help=t.gettext("board image file, re-rendered after each turn (default ttr-board.png)"),
    )
    p.add_argument("--no-images", action="store_true", help=t.gettext("do not render board images"))
    p.add_argument("--log", default=None, help=t.gettext("write the game's moves in notation to this file at the end"))
    args = p.parse_args(argv)
    args.t = translator(args.language, args.city_names)
    return args


def _variants(t: Translator, items: Sequence[str]) -> dict:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if value.lower() not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
            raise SystemExit(
                t.gettext(
                    "{option} {item}: write {on} or {off}", option="--variant", item=item, on="NAME=on", off="NAME=off"
                )
            )
        out[name] = value.lower() in ("on", "true", "yes", "1")
    return out


def _new_game(t: Translator, args: argparse.Namespace, seats: int, seed: int, options: GameOptions) -> Game:
    """The game, or the reason it cannot start in the player's words."""
    m = load_map(args.map)
    if args.deck is not None and args.deck not in m.rules.decks:
        raise SystemExit(
            t.gettext(
                "{option} {deck}: the {map} map's ticket decks are {decks}",
                option="--deck",
                deck=args.deck,
                map=t.map_name(m),
                decks=t.join(m.rules.decks, style="or"),
            )
        )
    if args.first_seat is not None and not 1 <= args.first_seat <= seats:
        raise SystemExit(t.gettext("{option} is 1 to {seats}", option="--first-seat", seats=seats))
    try:
        return Game.new(args.map, seats, seed, options)
    except GameOptionsError as error:
        reason = describe_error(t, error, None, lambda s: t.gettext("seat {n}", n=s + 1))
    except (ValueError, KeyError) as error:  # anything else the engine refuses (its English)
        reason = str(error)
    raise SystemExit(t.gettext("cannot start this game: {reason}", reason=reason))


def write_log(game: Game, path: str | Path, header: dict) -> None:
    lines = [f"# {k}: {v}" for k, v in header.items()]
    for seat, action in game.log:
        lines.append(f"{'-' if seat is None else seat + 1} {format_action(game, action)}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None, read: InputFn | None = None, write: OutputFn = print) -> int:
    args = parse_args(argv)
    t = args.t
    seats = args.seats
    humans = seats if args.hot_seat else args.humans
    if not 0 <= humans <= seats:
        raise SystemExit(t.gettext("{option} is 0 to {seats}", option="--humans", seats=seats))
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    options = GameOptions(
        deck=args.deck,
        first_seat=None if args.first_seat is None else args.first_seat - 1,
        variants=_variants(t, args.variant),
    )
    game = _new_game(t, args, seats, seed, options)
    names = [n.strip() for n in args.names.split(",") if n.strip()]
    controllers = []
    for s in range(seats):
        if s < len(names) and s < humans:
            controllers.append(Controller(names[s]))
        elif s < humans:
            numbered = t.gettext("player {n}", n=s + 1)
            controllers.append(
                Controller(t.gettext("you"), third_person=numbered) if humans == 1 else Controller(numbered)
            )
        else:
            name = t.gettext("{level} AI", level=t.pgettext("AI level", args.ai))
            controllers.append(Controller(name, ai_player(args.ai, f"{seed}:{s}", replayable=args.seed is not None)))
    image = None if args.no_images else Path(args.image)
    replay = f"--seed {seed}"
    write(
        t.ngettext(
            "Ticket to Ride: {map}, {n} seat, seed {seed} (replay with {replay}). Type '{help}' for help.",
            "Ticket to Ride: {map}, {n} seats, seed {seed} (replay with {replay}). Type '{help}' for help.",
            seats,
            map=t.map_name(game.map),
            seed=seed,
            replay=replay,
            help="help",
        )
    )
    completer = None
    if read is None:
        read = input
        if sys.stdin.isatty():
            completer = install_completer()
    clear = (lambda: clear_screen(write)) if write is print and sys.stdout.isatty() else None
    code = 0
    try:
        play(game, controllers, read, write, image, completer, t, clear)
    except KeyboardInterrupt:  # a second Ctrl-C while the AIs finish: stop here
        write(t.gettext("game stopped"))
        code = 130
    finally:
        if args.log:  # also for a game stopped early: the moves so far
            write_log(game, args.log, {"map": args.map, "seats": seats, "seed": seed, "options": options.to_json()})
            write(t.gettext("moves written to {path}", path=args.log))
    return code


def ai_player(name: str, seed: str, replayable: bool) -> Player:
    """An AI seat. With `--seed` the game must replay exactly, so the strong and expert AIs' thinking
    is bounded by their number of playouts rather than by a clock (which depends on the machine's speed)."""
    player = make_ai(name, seed)
    if replayable:
        for clock in ("BUDGET", "THINK"):  # StrongPlayer.BUDGET, ExpertPlayer.THINK
            if hasattr(player, clock):
                setattr(player, clock, None)
    return player
