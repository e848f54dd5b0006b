"""The terminal game: a person plays against AI seats (or several people share one terminal).

Each turn it prints a text summary (market, scores, your hand and tickets) and the numbered moves
you may make; type a number or the engine's notation (`claim Paris-Dieppe pink`, `draw deck`,
`tickets keep 12 31`; tab completion where readline exists). After every turn the public board is
re-rendered to a PNG file (path printed) and, on your turn, your own board with the routes you may
claim. Commands: `help`, `moves` (list again), `board` (summary again), `quit` (resign and stop).

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
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ai import GameInfo, Player, ask, make_ai
from ai import players as ai_players
from texts import present
from texts.error_text import describe_error
from engine import (
    Action,
    ActionError,
    Claim,
    Game,
    GameOptions,
    KeepTickets,
    Resign,
    available_maps,
    format_action,
    load_map,
    parse_action,
)
from engine.cards import CARD_NAMES
from engine.errors import GameOptionsError
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

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

ENGLISH = translator()
COMMANDS = ("help", "moves", "board", "quit")
#: Moves in notation for the help text: typed input, so shown as it is in every language.
NOTATION_EXAMPLES = """  draw deck | draw market 3 | claim Denver-Omaha pink | claim Dieppe-London/2 red loco=1
  tickets draw | tickets keep 12 31 | station Paris red | tunnel pay | tunnel decline
  neutral claim Amsterdam-Rotterdam/2 | pass"""

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
    return ["  ".join([*(cell + " " * (widths[i] - _width(cell)) for i, cell in enumerate(row[:-1])), row[-1]]).rstrip()
            for row in rows]


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
        rows.append([f"{mark} " + t.gettext("seat {n}", n=s + 1), controllers[s].name,
                     t.ngettext("{n} point", "{n} points", p["score"]), t.ngettext("{n} train", "{n} trains", p["trains"]),
                     t.ngettext("{n} card", "{n} cards", p["hand_size"]),
                     t.ngettext("{n} ticket", "{n} tickets", p["tickets"]), "  ".join(flags)])
    return _table(rows)


def summary(game: Game, seat: int | None, controllers: Sequence[Controller], t: Translator = ENGLISH) -> str:
    """Market, scores and (for a seat) hand, tickets and offer, as plain text."""
    view = game.view(seat)
    m = game.map
    lines = [f"== {_heading(t, game, view, controllers)} =="]
    market = ", ".join(f"{i + 1}:{t.card(CARD_NAMES.index(c)) if c else '-'}" for i, c in enumerate(view["market"]))
    lines.append(t.gettext("market  {cards}   deck {deck}  tickets left {tickets}", cards=market,
                           deck=view["deck_size"], tickets=view["ticket_deck_size"]))
    lines += _seat_rows(t, game, view, controllers)
    if view.get("neutral"):
        n = view["neutral"]
        if n["marker"] is None:
            lines.append("  " + t.ngettext("neutral player: {n} train", "neutral player: {n} trains", n["trains"]))
        else:
            lines.append("  " + t.ngettext("neutral player: {n} train, marker with {player}",
                                           "neutral player: {n} trains, marker with {player}", n["trains"],
                                           player=_seat(t, n["marker"], controllers)))
    if view["tunnel"]:
        tunnel = view["tunnel"]
        route = t.route(m, m.track_by_id[tunnel["track"]])
        if tunnel["revealed"]:
            cards = t.join(t.card(CARD_NAMES.index(c)) for c in tunnel["revealed"])
            lines.append(t.gettext("tunnel {route}: revealed {cards}; extra cost {n}", route=route, cards=cards,
                                   n=tunnel["surcharge"]))
        else:
            lines.append(t.gettext("tunnel {route}: revealed nothing; extra cost {n}", route=route, n=tunnel["surcharge"]))
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
        lines.append(t.ngettext("{rank}. seat {seat} {name}: {total} point", "{rank}. seat {seat} {name}: {total} points",
                                abs(score.total), rank=score.rank, seat=score.seat + 1,
                                name=controllers[score.seat].name, total=score.total))
        lines += ["   " + line for line in body.splitlines()]
    return "\n".join(lines)


def moves_text(game: Game, moves: Sequence[Action]) -> str:
    """The numbered moves in notation (what a player may type instead of the number)."""
    labels = [f"{i + 1:>3}. {format_action(game, a)}" for i, a in enumerate(moves)]
    width = max(len(x) for x in labels) + 2
    per_line = max(1, 100 // width)
    rows = [labels[i : i + per_line] for i in range(0, len(labels), per_line)]
    return "\n".join("".join(x.ljust(width) for x in row).rstrip() for row in rows)


def public_text(game: Game, seat: int, action: Action, controllers: Sequence[Controller], t: Translator = ENGLISH) -> str:
    """What everyone may know of a move, in notation (kept ticket ids are secret)."""
    player = _seat(t, seat, controllers)
    if isinstance(action, KeepTickets):
        return t.ngettext("{player}: keeps {n} ticket", "{player}: keeps {n} tickets", len(action.ids), player=player)
    return t.gettext("{player}: {move}", player=player, move=format_action(game, action))


def help_text(t: Translator) -> str:
    return t.gettext(
        "Type the number of a move, or the move itself in the engine's notation:\n{examples}\n"
        "Left out, a payment takes the fewest locomotives and a colored route's own color.\n"
        "Commands: {help}, {moves} (list the numbered moves again), {board} (the summary again), {quit} (resign).",
        examples=NOTATION_EXAMPLES, **{c: c for c in COMMANDS})


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
            self.matches = [w[len(prefix):] for w in self.words if w.lower().startswith(line.lower())]
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
    pass


def human_move(
    game: Game, seat: int, controllers: Sequence[Controller], read: InputFn, write: OutputFn,
    completer: Completer | None = None, t: Translator = ENGLISH,
) -> Action:
    moves = game.legal_actions(seat, collapse_payments=True)
    if completer is not None:
        completer.set_moves(game, seat)
    write(summary(game, seat, controllers, t))
    write(moves_text(game, moves))

    def refusal(error: ActionError) -> str:
        return f"? {describe_error(t, error, game, lambda s: controllers[s].name)}"

    while True:
        try:
            text = read(t.gettext("{player}> ", player=_seat(t, seat, controllers))).strip()
        except EOFError:
            raise Quit() from None
        if not text:
            continue
        low = text.lower()
        if low in ("help", "?"):
            write(help_text(t))
            continue
        if low == "moves":
            write(moves_text(game, moves))
            continue
        if low == "board":
            write(summary(game, seat, controllers, t))
            continue
        if low in ("quit", "exit", "resign"):
            raise Quit()
        if text.isdigit():
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


def render(game: Game, controllers: Sequence[Controller], image: Path | None, write: OutputFn, seat: int | None = None,
           t: Translator = ENGLISH) -> None:
    if image is None:
        return
    try:
        from rendering import default_players, render_board, render_player_board
    except ImportError as error:  # Pillow missing: play on without pictures
        write(t.gettext("(no board image: {error})", error=error))
        return
    styles = default_players([c.name for c in controllers])
    if seat is None:
        img = render_board(game.view(None), game.map, styles, t=t)
        path = image
    else:
        claimable = {a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)}
        img = render_player_board(game.view(seat), game.map, styles, claimable_tracks=claimable, t=t)
        path = image.with_name(f"{image.stem}-seat{seat + 1}{image.suffix}")
    path.write_bytes(img.png)
    write(t.gettext("board image: {path}", path=path))


def play(
    game: Game,
    controllers: Sequence[Controller],
    read: InputFn = input,
    write: OutputFn = print,
    image: Path | None = None,
    completer: Completer | None = None,
    t: Translator = ENGLISH,
) -> Game:
    """Run the game to its end (or until a person quits: that seat resigns)."""
    infos = {s: GameInfo.from_game(game, s) for s, c in enumerate(controllers) if not c.human}
    humans = [s for s, c in enumerate(controllers) if c.human]
    hot_seat = len(humans) > 1
    render(game, controllers, image, write, t=t)
    while not game.is_over():
        seat = game.to_move()[0]
        c = controllers[seat]
        if c.human:
            if hot_seat:
                write("\n--- " + t.gettext("{player}: your move; others look away", player=_seat(t, seat, controllers))
                      + " ---")
            if game.phase == "playing" and game.stage is None:
                render(game, controllers, image, write, seat=seat, t=t)
            try:
                action = human_move(game, seat, controllers, read, write, completer, t)
            except Quit:
                write(t.gettext("{player} resigns", player=_seat(t, seat, controllers)))
                game.apply(seat, Resign())
                if not any(controllers[s].human and game.left[s] is None for s in range(game.seats)):
                    while not game.is_over():  # the AIs finish the game
                        s = game.to_move()[0]
                        game.apply(s, ask(controllers[s].ai, game, s, infos.get(s)))
                continue
        else:
            action = ask(c.ai, game, seat, infos[seat])
        before = (game.phase, game.current)
        game.apply(seat, action)
        write(public_text(game, seat, action, controllers, t))
        if game.phase == "playing" and (before != (game.phase, game.current) or game.is_over()):
            render(game, controllers, image, write, t=t)
    write(final_text(game, controllers, t))
    render(game, controllers, image, write, t=t)
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
    p.add_argument("--language", default=environment_language(), choices=[*LANGUAGES, PSEUDO], metavar="en|ru|zh",
                   help=t.gettext("language of the game's text (default: from LANG / LC_ALL)"))
    p.add_argument("--city-names", default="printed", choices=CITY_NAMES,
                   help=t.gettext("city names as printed on the board, or translated (USA, Europe; default printed)"))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options, with the help in the language they choose (read first, on their own)."""
    first = argparse.ArgumentParser(add_help=False)
    _language_options(first, ENGLISH)
    chosen, _ = first.parse_known_args(argv)
    t = translator(chosen.language, chosen.city_names)
    p = argparse.ArgumentParser(prog="python -m cli", description=t.gettext("Ticket to Ride in a terminal, against AI seats or hot-seat."))
    _language_options(p, t)
    p.add_argument("--map", default="usa", choices=available_maps())
    p.add_argument("--seats", type=int, default=2, help=t.gettext("players in all (2-5; default 2)"))
    p.add_argument("--humans", type=int, default=1, help=t.gettext("people at this terminal, seats 1..N (default 1; 0 = watch AIs)"))
    p.add_argument("--hot-seat", action="store_true", help=t.gettext("every seat is a person (same as --humans SEATS)"))
    p.add_argument("--ai", default="baseline", choices=sorted(ai_players), help=t.gettext("strength of the AI seats (default baseline)"))
    p.add_argument("--seed", type=int, default=None, help=t.gettext("game seed (default: random, printed)"))
    p.add_argument("--deck", default=None, help=t.gettext("ticket deck (USA: base, 1910, mega, bigcities)"))
    p.add_argument("--variant", action="append", default=[], metavar="NAME=on|off",
                   help=t.gettext("map variant, e.g. neutral=on, tolls=off (Nederland)"))
    p.add_argument("--first-seat", type=int, default=None, help=t.gettext("who starts (1-based; default drawn from the seed)"))
    p.add_argument("--names", default="", help=t.gettext("comma-separated names of the people, in seat order"))
    p.add_argument("--image", default="ttr-board.png",
                   help=t.gettext("board image file, re-rendered after each turn (default ttr-board.png)"))
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
            raise SystemExit(t.gettext("{option} {item}: write {on} or {off}", option="--variant", item=item,
                                        on="NAME=on", off="NAME=off"))
        out[name] = value.lower() in ("on", "true", "yes", "1")
    return out


def _new_game(t: Translator, args: argparse.Namespace, seats: int, seed: int, options: GameOptions) -> Game:
    """The game, or the reason it cannot start in the player's words."""
    m = load_map(args.map)
    if args.deck is not None and args.deck not in m.rules.decks:
        raise SystemExit(t.gettext("{option} {deck}: the {map} map's ticket decks are {decks}", option="--deck", deck=args.deck,
                                   map=t.map_name(m), decks=t.join(m.rules.decks, style="or")))
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
        if s < humans:
            default = t.gettext("you") if humans == 1 else t.gettext("player {n}", n=s + 1)
            controllers.append(Controller(names[s] if s < len(names) else default))
        else:
            name = t.gettext("{level} AI", level=t.pgettext("AI level", args.ai))
            controllers.append(Controller(name, make_ai(args.ai, f"{seed}:{s}")))
    image = None if args.no_images else Path(args.image)
    replay = f"--seed {seed}"
    write(t.ngettext("Ticket to Ride: {map}, {n} seat, seed {seed} (replay with {replay}). Type '{help}' for help.",
                     "Ticket to Ride: {map}, {n} seats, seed {seed} (replay with {replay}). Type '{help}' for help.", seats,
                     map=t.map_name(game.map), seed=seed, replay=replay, help="help"))
    completer = None
    if read is None:
        read = input
        if sys.stdin.isatty():
            completer = install_completer()
    play(game, controllers, read, write, image, completer, t)
    if args.log:
        write_log(game, args.log, {"map": args.map, "seats": seats, "seed": seed, "options": options.to_json()})
        write(t.gettext("moves written to {path}", path=args.log))
    return 0
