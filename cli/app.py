"""The terminal game: a person plays against AI seats (or several people share one terminal).

Each turn it prints a text summary (market, scores, your hand and tickets) and your moves, grouped
so they fit an 80×24 screen and wrapped to the terminal's width between words: one line per kind
of move with its numbered moves, the routes you can pay for (⭐ on the shortest way to complete
your tickets, first), and the number of cities free for a station (`moves all` numbers every
move). A number keeps its meaning through a turn: face-up card N is N, the deck the next number.
Type a number or the engine's notation (`claim Paris-Dieppe pink`, `draw deck`, `tickets keep 12
31`; tab completion where readline exists; `help` shows examples on the map played). Moves are told
in the Discord table's words: yours as "You drew an orange card from the deck", the others' as the
table says them, with every tunnel reveal (an AI's too), Nederland's tolls and neutral phase. The
public board is re-rendered to an image file (WebP) in the `--images` folder after every turn, your own
board (with the routes you may claim) on your turn, and the final board with the score table at
the end; each file is named once. Commands: `help`, `moves`, `moves all`, `board`, `quit` (resign,
after a question; Ctrl-C asks the same). The `--log` file is written however the game ends.
Hot-seat: the screen is cleared and the game waits for Enter before each person's cards are shown.
`--seed N` replays a game exactly, AI seats included (the strong AI then thinks by playout count,
not against the clock).

Everything it prints is in one language (`--language`, by default the environment's locale) through
an i18n Translator, with the bot's wording where the bot already says the same thing
(texts/present.py, texts/yours.py, texts/error_text.py). What players type stays the engine's notation and the
commands above; the move list shows the notation so it can be typed back.

The loop takes an input function and an output function, so tests drive whole games with scripts.
What it prints is built in cli/screen.py; this module is the loop, the images and the command line.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ai import GameInfo, Player, ask, make_ai
from ai import players as ai_players
from ai.ticket_plan import ticket_tracks
from cli.screen import (
    COMMANDS,
    ENGLISH,
    MOVES_ALL,
    Controller,
    final_text,
    folding,
    help_text,
    moves_text,
    numbered_moves,
    player_name,
    summary,
)
from engine import (
    Action,
    ActionError,
    Claim,
    DrawMarket,
    DrawTickets,
    Game,
    GameOptions,
    PayTunnel,
    Resign,
    available_maps,
    format_action,
    load_map,
    parse_action,
)
from engine.errors import GameOptionsError
from engine.events import NeutralMarkerPassed, NeutralTicketRevealed, TicketsKept
from engine.nederland import NEUTRAL_FROM_ROUND
from engine.phases import SECOND_CARD, TUNNEL
from i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    PSEUDO,
    Translator,
    language_for_locale,
    translator,
)
from i18n.translator import CITY_NAMES
from texts import present, yours
from texts.error_text import describe_error

#: The folder the board images go to unless `--images` names another (.gitignore covers it).
IMAGES = "ttr-images"
InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

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
    plan = ticket_tracks(game, seat) if game.phase == "playing" and game.stage is None else set()
    moves = numbered_moves(game, seat, plan)
    if completer is not None:
        completer.set_moves(game, seat)
    write(summary(game, seat, controllers, t))
    if all(isinstance(a, DrawTickets) and a.long is not None for a in moves.values()):  # Märklin's starting mix
        write(
            t.gettext(
                "Name your ticket mix: how many of the tickets you draw come from the long deck (the rest are short)."
            )
        )
    write(moves_text(game, moves, t, plan=plan, seat=seat))
    player = player_name(seat, controllers)

    def refusal(error: ActionError) -> str:
        # sentences about a player ("it is … 's turn", "taken by …") take a third-person name, not "you"
        return f"? {describe_error(t, error, game, lambda s: controllers[s].third_person or controllers[s].name)}"

    def why_not(action: Action) -> str:
        if game.stage is TUNNEL and not any(isinstance(a, PayTunnel) for a in moves.values()):
            # the engine's "pay the extra cards or decline" offers what this hand cannot do
            return "? " + t.gettext(
                "decide on the tunnel first: your cards cannot pay the extra cost, so decline it ({decline})",
                decline="tunnel decline",
            )
        try:
            game.check(seat, action)  # the engine's message says why
        except ActionError as error:
            return refusal(error)
        return "? " + t.gettext("that move is not possible now")

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
            write(help_text(t, game))
            continue
        if low == "moves":
            write(moves_text(game, moves, t, plan=plan, seat=seat))
            continue
        if low == MOVES_ALL:
            write(moves_text(game, moves, t, everything=True, plan=plan, seat=seat))
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
            if n in moves:
                return moves[n]
            slots = len(game.view(None)["market"])
            if game.stage is SECOND_CARD and 1 <= n <= slots:  # a face-up locomotive as the second card
                write(why_not(DrawMarket(n - 1)))
            else:
                write(t.gettext("choose a move from 1 to {n}, or type one", n=max(moves)))
            continue
        try:
            action = parse_action(game, seat, text)
        except ActionError as error:
            write(refusal(error))
            continue
        if not game.is_legal(seat, action) or isinstance(action, Resign):
            write(why_not(action))
            continue
        return action


@dataclass
class Images:
    """The board images the terminal game keeps up to date; each file is named once, when first written."""

    path: Path | None  # the public board's file without its extension (the format's, `RenderedImage.filename`)
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
            path = self.path.with_name(img.filename(f"{self.path.name}-final"))
        elif seat is None:
            img = render_board(game.view(None), game.map, styles, t=t)
            path = self.path.with_name(img.filename(self.path.name))
        else:
            claimable = {a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)}
            img = render_player_board(game.view(seat), game.map, styles, claimable_tracks=claimable, t=t)
            path = self.path.with_name(img.filename(f"{self.path.name}-seat{seat + 1}"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(img.data)
        if path not in self.announced:
            self.announced.add(path)
            if game.is_over():
                write(t.gettext("final scores image: {path}", path=path))
            else:
                write(t.gettext("board image: {path}", path=path))


def clear_screen(write: OutputFn) -> None:
    """Erase the terminal (ANSI), so the next player does not see the last one's cards."""
    write("\033[2J\033[H")


@dataclass
class Narrator:
    """How the terminal tells each move, in the Discord table's words (texts/present.py): other
    players' moves in the third person, a turn's two cards as one sentence once the turn is over;
    a person's own moves in the second person with the cards their blind draws gave them
    (texts/yours.py). Every tunnel reveal (an AI's too), Nederland's neutral phase (explained the
    first time it comes) and the tokens a Märklin passenger collects are told as they happen."""

    t: Translator
    controllers: Sequence[Controller]
    draws: list = field(default_factory=list)  # the cards drawn so far this turn, as everyone saw them
    neutral_explained: bool = False

    def name(self, seat: int) -> str:
        return self.controllers[seat].name

    def tell(self, game: Game, seat: int, events: list) -> tuple[list[str], list[str]]:
        """(what the screen shows now, what anyone may see later): the mover's own words for a
        person at the terminal, the public account for everyone else."""
        t = self.t
        draws = present.drawn(events)
        if draws and game.stage is SECOND_CARD and game.to_move()[0] == seat:
            self.draws += draws  # told with the second card
            public = []
        else:
            you = next((s for s, c in enumerate(self.controllers) if c.third_person), None)  # one person: "you"
            notes = present.describe(t, game, events, self.name, viewer=you) + [
                t.ngettext("**{name}** kept {n} ticket", "**{name}** kept {n} tickets", e.kept, name=self.name(e.seat))
                for e in events
                if isinstance(e, TicketsKept) and game.phase == "choosing"  # the table tells the start's once
            ]
            public = present.merge_turn(t, notes, self.draws + draws, seat, self.name).splitlines()
            self.draws = []
        shown = yours.own_lines(t, game, events, seat, self.name) if self.controllers[seat].human else public
        extra = []
        if not self.neutral_explained and any(isinstance(e, NeutralTicketRevealed) for e in events):
            self.neutral_explained = True
            extra.append(
                t.gettext(
                    "Neutral phase: from round {round} on, after every round the holder of the neutral "
                    "marker turns over the top ticket; the route printed at its bottom is built for the "
                    "neutral player (both tracks free: the holder picks one and passes the marker).",
                    round=NEUTRAL_FROM_ROUND,
                )
            )
        extra += [
            t.gettext("the neutral marker passes to {player}", player=self.name(e.seat))
            for e in events
            if isinstance(e, NeutralMarkerPassed)
        ]
        return [_plain(line) for line in shown + extra], [_plain(line) for line in public + extra]


def _plain(line: str) -> str:
    """A Discord line for a terminal: no bold marks, a capital first letter ("you resigned")."""
    line = line.replace("**", "")
    first = next((i for i, ch in enumerate(line) if ch.isalpha()), 0)  # after a leading emoji ("🧳 ")
    return line[:first] + line[first : first + 1].upper() + line[first + 1 :]


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
    write = folding(write)
    infos = {s: GameInfo.from_game(game, s) for s, c in enumerate(controllers) if not c.human}
    humans = [s for s, c in enumerate(controllers) if c.human]
    hot_seat = len(humans) > 1
    images = Images(image)
    narrator = Narrator(t, controllers)
    shown_to: int | None = None  # the person whose cards are on the screen
    since: list[str] = []  # public lines since the screen was last cleared
    images.render(game, controllers, write, t=t)

    def act(seat: int, action: Action) -> None:
        nonlocal since
        shown, public = narrator.tell(game, seat, game.apply(seat, action))
        for line in shown:
            write(line)
        since += public

    def resign(seat: int) -> None:
        act(seat, Resign())

    while not game.is_over():
        seat = game.to_move()[0]
        c = controllers[seat]
        if c.human:
            player = player_name(seat, controllers)
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
                if people and confirm_quit(t, read, t.join(player_name(s, controllers) for s in people)):
                    for s in people:
                        resign(s)
                elif not people:
                    raise
                continue
        before = (game.phase, game.current)
        act(seat, action)
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
        "--images",
        default=IMAGES,
        metavar="DIR",
        help=t.gettext(
            "folder for the board images ({files}), re-rendered after each turn (default {folder})",
            files="ttr-board*.webp",
            folder=IMAGES,
        ),
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
    terminal = write is print and sys.stdout.isatty()
    write = folding(write)
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
            level = t.pgettext("AI level", args.ai)
            name = (
                t.gettext("{level} AI {n}", level=level, n=s - humans + 1)
                if seats - humans > 1
                else t.gettext("{level} AI", level=level)
            )
            controllers.append(Controller(name, ai_player(args.ai, f"{seed}:{s}", replayable=args.seed is not None)))
    image = None if args.no_images else Path(args.images) / "ttr-board"
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
    clear = (lambda: clear_screen(write)) if terminal else None
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
