"""The terminal game: a person plays against AI seats (or several people share one terminal).

Each turn it prints a text summary (market, scores, your hand and tickets) and the numbered moves
you may make; type a number or the engine's notation (`claim Paris-Dieppe pink`, `draw deck`,
`tickets keep 12 31`; tab completion where readline exists). After every turn the public board is
re-rendered to a PNG file (path printed) and, on your turn, your own board with the routes you may
claim. Commands: `help`, `moves` (list again), `board` (summary again), `quit` (resign and stop).

The loop takes an input function and an output function, so tests drive whole games with scripts.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ai import GameInfo, Player, ask, make_ai
from ai import players as ai_players
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
    parse_action,
)

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

COMMANDS = ("help", "moves", "board", "quit")
HELP = """Type the number of a move, or the move itself in the engine's notation:
  draw deck | draw market 3 | claim Denver-Omaha pink | claim Dieppe-London/2 red loco=1
  tickets draw | tickets keep 12 31 | station Paris red | tunnel pay | tunnel decline
  neutral claim Amsterdam-Rotterdam/2 | pass
Left out, a payment takes the fewest locomotives and a colored route's own color.
Commands: help, moves (list the numbered moves again), board (the summary again), quit (resign)."""


@dataclass
class Controller:
    """Who plays a seat: a person at this terminal (ai is None) or an AI."""

    name: str
    ai: Player | None = None

    @property
    def human(self) -> bool:
        return self.ai is None


# ---------------------------------------------------------------------- text


def _city(game: Game, city_id: str) -> str:
    return game.map.city_by_id[city_id].name


def _ticket_text(game: Game, t: dict) -> str:
    return f"#{t['id']} {_city(game, t['a'])}-{_city(game, t['b'])} ({t['points']})"


def _connected(game: Game, view: dict, ticket: dict) -> bool:
    """Whether the viewer's own routes join the ticket (a country ticket: any destination)."""
    from ai.board import Board

    board = Board(view, GameInfo.from_game(game, view["viewer"]))
    return board.connected(game.map.ticket_by_id[ticket["id"]])


def summary(game: Game, seat: int | None, controllers: Sequence[Controller]) -> str:
    """Market, scores and (for a seat) hand, tickets and offer, as plain text."""
    view = game.view(seat)
    lines = []
    if view["phase"] == "choosing":
        lines.append(f"== {game.map.name}: choosing starting tickets ==")
    else:
        who = controllers[view["current"]].name if view["current"] is not None else "-"
        badge = "  LAST ROUND" if view["last_round"] else ""
        lines.append(f"== {game.map.name}, round {view['round']}: seat {view['current'] + 1} ({who}) to move{badge} ==")
    market = ", ".join(f"{i + 1}:{c or '-'}" for i, c in enumerate(view["market"]))
    lines.append(f"market  {market}   deck {view['deck_size']}  tickets left {view['ticket_deck_size']}")
    extra_station = game.map.rules.stations > 0
    for p in view["players"]:
        s = p["seat"]
        flags = []
        if extra_station:
            flags.append(f"stations {p['stations_left']}")
        if "loans" in p:
            flags.append(f"loans {p['loans']}")
        if p["left"]:
            flags.append(p["left"])
        mark = ">" if view["current"] == s else " "
        lines.append(
            f"{mark} seat {s + 1} {controllers[s].name:<12} {p['score']:>4} pts  {p['trains']:>2} trains  "
            f"{p['hand_size']:>2} cards  {p['tickets']} tickets" + (("  " + "  ".join(flags)) if flags else "")
        )
    if view.get("neutral"):
        n = view["neutral"]
        lines.append(f"  neutral player: {n['trains']} trains, marker with seat {n['marker'] + 1 if n['marker'] is not None else '-'}")
    if view["tunnel"]:
        t = view["tunnel"]
        lines.append(f"tunnel {t['track']}: revealed {', '.join(t['revealed']) or 'nothing'}; extra cost {t['surcharge']}")
    you = view["you"]
    if you is not None:
        hand = ", ".join(f"{n} {c}" for c, n in you["hand"].items()) or "no cards"
        lines.append(f"your hand: {hand}" + (f"   money {you['money']}" if "money" in you else ""))
        if you["tickets"]:
            lines.append("your tickets:")
            for t in you["tickets"]:
                done = "done" if _connected(game, view, t) else "open"
                lines.append(f"  {_ticket_text(game, t)} [{done}]")
        if you["offer"]:
            offer = "; ".join(_ticket_text(game, t) for t in you["offer"])
            lines.append(f"ticket offer (keep at least {you['keep_at_least']}): {offer}")
    return "\n".join(lines)


def final_text(game: Game, controllers: Sequence[Controller]) -> str:
    lines = [f"== game over ({game.end_reason}) =="]
    for s in sorted(game.final, key=lambda s: (s.rank, s.seat)):
        bonus = ", ".join(f"{k} {v:+d}" for k, v in s.bonuses.items())
        lines.append(
            f"{s.rank}. seat {s.seat + 1} {controllers[s.seat].name}: {s.total} points "
            f"(routes {s.route_points}, tickets {s.ticket_points:+d} with {s.completed}/{len(s.tickets)} completed"
            + (f", stations {s.station_points}" if game.map.rules.stations else "")
            + (f", {bonus}" if bonus else "") + ")"
        )
    return "\n".join(lines)


def moves_text(game: Game, moves: Sequence[Action]) -> str:
    labels = [f"{i + 1:>3}. {format_action(game, a)}" for i, a in enumerate(moves)]
    width = max(len(x) for x in labels) + 2
    per_line = max(1, 100 // width)
    rows = [labels[i : i + per_line] for i in range(0, len(labels), per_line)]
    return "\n".join("".join(x.ljust(width) for x in row).rstrip() for row in rows)


def public_text(game: Game, seat: int, action: Action) -> str:
    """What everyone may know of a move (kept ticket ids are secret)."""
    if isinstance(action, KeepTickets):
        return f"keeps {len(action.ids)} ticket{'s' if len(action.ids) != 1 else ''}"
    return format_action(game, action)


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
    completer: Completer | None = None,
) -> Action:
    moves = game.legal_actions(seat, collapse_payments=True)
    if completer is not None:
        completer.set_moves(game, seat)
    write(summary(game, seat, controllers))
    write(moves_text(game, moves))
    while True:
        try:
            text = read(f"seat {seat + 1} ({controllers[seat].name})> ").strip()
        except EOFError:
            raise Quit() from None
        if not text:
            continue
        low = text.lower()
        if low in ("help", "?"):
            write(HELP)
            continue
        if low == "moves":
            write(moves_text(game, moves))
            continue
        if low == "board":
            write(summary(game, seat, controllers))
            continue
        if low in ("quit", "exit", "resign"):
            raise Quit()
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(moves):
                return moves[n - 1]
            write(f"choose a move from 1 to {len(moves)}, or type one")
            continue
        try:
            action = parse_action(game, seat, text)
        except ActionError as error:
            write(f"? {error}")
            continue
        if not game.is_legal(seat, action) or isinstance(action, Resign):
            try:
                game.check(seat, action)  # the engine's message says why
                write("? that move is not possible now")
            except ActionError as error:
                write(f"? {error}")
            continue
        return action


def render(game: Game, controllers: Sequence[Controller], image: Path | None, write: OutputFn, seat: int | None = None) -> None:
    if image is None:
        return
    try:
        from rendering import default_players, render_board, render_player_board
    except ImportError as error:  # Pillow missing: play on without pictures
        write(f"(no board image: {error})")
        return
    styles = default_players([c.name for c in controllers])
    if seat is None:
        img = render_board(game.view(None), game.map, styles)
        path = image
    else:
        claimable = {a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)}
        img = render_player_board(game.view(seat), game.map, styles, claimable_tracks=claimable)
        path = image.with_name(f"{image.stem}-seat{seat + 1}{image.suffix}")
    path.write_bytes(img.png)
    write(f"board image: {path}")


def play(
    game: Game,
    controllers: Sequence[Controller],
    read: InputFn = input,
    write: OutputFn = print,
    image: Path | None = None,
    completer: Completer | None = None,
) -> Game:
    """Run the game to its end (or until a person quits: that seat resigns)."""
    infos = {s: GameInfo.from_game(game, s) for s, c in enumerate(controllers) if not c.human}
    humans = [s for s, c in enumerate(controllers) if c.human]
    hot_seat = len(humans) > 1
    render(game, controllers, image, write)
    while not game.is_over():
        seat = game.to_move()[0]
        c = controllers[seat]
        if c.human:
            if hot_seat:
                write(f"\n--- seat {seat + 1} ({c.name}): your move; others look away ---")
            if game.phase == "playing" and game.stage is None:
                render(game, controllers, image, write, seat=seat)
            try:
                action = human_move(game, seat, controllers, read, write, completer)
            except Quit:
                write(f"seat {seat + 1} ({c.name}) resigns")
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
        write(f"seat {seat + 1} ({c.name}): {public_text(game, seat, action)}")
        if game.phase == "playing" and (before != (game.phase, game.current) or game.is_over()):
            render(game, controllers, image, write)
    write(final_text(game, controllers))
    render(game, controllers, image, write)
    return game


# ---------------------------------------------------------------------- command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m cli", description="Ticket to Ride in a terminal, against AI seats or hot-seat.")
    p.add_argument("--map", default="usa", choices=available_maps())
    p.add_argument("--seats", type=int, default=2, help="players in all (2-5; default 2)")
    p.add_argument("--humans", type=int, default=1, help="people at this terminal, seats 1..N (default 1; 0 = watch AIs)")
    p.add_argument("--hot-seat", action="store_true", help="every seat is a person (same as --humans SEATS)")
    p.add_argument("--ai", default="baseline", choices=sorted(ai_players), help="strength of the AI seats (default baseline)")
    p.add_argument("--seed", type=int, default=None, help="game seed (default: random, printed)")
    p.add_argument("--deck", default=None, help="ticket deck (USA: base, 1910, mega, bigcities)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=on|off", help="map variant, e.g. neutral=on, tolls=off (Nederland)")
    p.add_argument("--first-seat", type=int, default=None, help="who starts (1-based; default drawn from the seed)")
    p.add_argument("--names", default="", help="comma-separated names of the people, in seat order")
    p.add_argument("--image", default="ttr-board.png", help="board image file, re-rendered after each turn (default ttr-board.png)")
    p.add_argument("--no-images", action="store_true", help="do not render board images")
    p.add_argument("--log", default=None, help="write the game's moves in notation to this file at the end")
    return p.parse_args(argv)


def _variants(items: Sequence[str]) -> dict:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if value.lower() not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
            raise SystemExit(f"--variant {item}: write NAME=on or NAME=off")
        out[name] = value.lower() in ("on", "true", "yes", "1")
    return out


def write_log(game: Game, path: str | Path, header: dict) -> None:
    lines = [f"# {k}: {v}" for k, v in header.items()]
    for seat, action in game.log:
        lines.append(f"{'-' if seat is None else seat + 1} {format_action(game, action)}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None, read: InputFn | None = None, write: OutputFn = print) -> int:
    args = parse_args(argv)
    seats = args.seats
    humans = seats if args.hot_seat else args.humans
    if not 0 <= humans <= seats:
        raise SystemExit(f"--humans is 0 to {seats}")
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    options = GameOptions(
        deck=args.deck,
        first_seat=None if args.first_seat is None else args.first_seat - 1,
        variants=_variants(args.variant),
    )
    try:
        game = Game.new(args.map, seats, seed, options)
    except (ValueError, KeyError) as error:
        raise SystemExit(f"cannot start this game: {error}") from None
    names = [n.strip() for n in args.names.split(",") if n.strip()]
    controllers = []
    for s in range(seats):
        if s < humans:
            controllers.append(Controller(names[s] if s < len(names) else ("you" if humans == 1 else f"player {s + 1}")))
        else:
            controllers.append(Controller(f"{args.ai} AI", make_ai(args.ai, f"{seed}:{s}")))
    image = None if args.no_images else Path(args.image)
    write(f"Ticket to Ride: {game.map.name}, {seats} seats, seed {seed} (replay with --seed {seed}). Type 'help' for help.")
    completer = None
    if read is None:
        read = input
        if sys.stdin.isatty():
            completer = install_completer()
    play(game, controllers, read, write, image, completer)
    if args.log:
        write_log(game, args.log, {"map": args.map, "seats": seats, "seed": seed, "options": options.to_json()})
        write(f"moves written to {args.log}")
    return 0
