"""The terminal game: scripted sessions play whole games against AIs; printed scores are the engine's."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ai import make_ai
from ai.ticket_plan import ticket_tracks
from cli.app import Completer, human_move, main, play
from cli.screen import SCREEN_WIDTH, Controller, moves_text, numbered_moves, summary
from engine import Claim, DrawMarket, Game, GameOptions, format_action, parse_action

ROOT = Path(__file__).resolve().parents[2]
FINAL = re.compile(r"^(\d+)\. (.+?): (-?\d+) points?$", re.MULTILINE)


def scripted(lines, then=("1", "6", "2", "3", "4", "5", "7")):
    """An input function: the given lines, then the `then` lines in turn forever, each tried until
    one is a move (1 is the first move or the first face-up card; 6 the deck when a face-up
    locomotive cannot be the second card; 7 the first move after the draws when none is left)."""
    queue = list(lines)
    prompts = []
    turn = itertools.cycle(then)

    def read(prompt):
        prompts.append(prompt)
        return queue.pop(0) if queue else next(turn)

    read.prompts = prompts
    return read


def replay_log(path: Path) -> Game:
    header, moves = {}, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            header[key] = value
        else:
            moves.append(line)
    game = Game.new(header["map"], int(header["seats"]), int(header["seed"]))
    for line in moves:
        seat_text, _, text = line.partition(" ")
        seat = None if seat_text == "-" else int(seat_text) - 1
        game.apply(seat, parse_action(game, seat, text))
    return game


def printed_scores(text: str) -> dict[str, int]:
    """The final scores by player name."""
    return {name: int(total) for _, name, total in FINAL.findall(text)}


def scores(game: Game, names: list[str]) -> dict[str, int]:
    return {names[s.seat]: s.total for s in game.final}


def test_full_game_against_an_ai_prints_the_engines_scores(tmp_path):
    out: list[str] = []
    log = tmp_path / "game.log"
    read = scripted(["help", "moves", "board", "nonsense", "999", "claim Nowhere-Else"])
    assert main(["--map", "usa", "--seed", "21", "--no-images", "--log", str(log)], read=read, write=out.append) == 0
    text = "\n".join(out)
    assert "seed 21" in text and "game over" in text
    assert "Type the number of a move" in text  # help
    assert "choose a move from 1 to" in text  # 999
    assert text.count("? ") >= 2  # nonsense and the unknown route
    game = replay_log(log)
    assert game.is_over()
    assert printed_scores(text) == scores(game, ["you", "baseline AI"])
    # The same seed and the same keystrokes give the same game.
    out2: list[str] = []
    main(
        ["--map", "usa", "--seed", "21", "--no-images"],
        read=scripted(["help", "moves", "board", "nonsense", "999", "claim Nowhere-Else"]),
        write=out2.append,
    )
    assert out2[-1] == out[-2]  # the last score line (before "moves written to")


def test_a_person_typing_notation_plays_a_whole_europe_game_against_two_ais():
    game = Game.new("europe", 3, 5)
    shadow = make_ai("baseline", 9)
    from ai import GameInfo, legal_for

    def read(prompt):  # a person who types what the baseline AI would play, in notation
        seat = game.to_move()[0]
        action = shadow.choose(game.view(seat), legal_for(game, seat), GameInfo.from_game(game, seat))
        return format_action(game, action)

    out: list[str] = []
    controllers = [
        Controller("ann"),
        Controller("bot", make_ai("baseline", 1)),
        Controller("base", make_ai("baseline", 2)),
    ]
    play(game, controllers, read, out.append)
    assert game.is_over()
    text = "\n".join(out)
    assert printed_scores(text) == scores(game, ["ann", "bot", "base"])
    assert "your tickets:" in text and "market" in text
    # Replaying the log gives the same final scores.
    again = Game.replay("europe", 3, 5, None, game.log)
    assert [s.total for s in again.final] == [s.total for s in game.final]


def test_nederland_neutral_and_hot_seat(tmp_path):
    out: list[str] = []
    log = tmp_path / "n.log"
    main(
        [
            "--map",
            "nederland",
            "--hot-seat",
            "--variant",
            "neutral=on",
            "--seed",
            "4",
            "--no-images",
            "--names",
            "Ann,Bob",
            "--log",
            str(log),
        ],
        read=scripted([]),
        write=out.append,
    )
    text = "\n".join(out)
    assert "others look away" in text and "neutral player" in text
    assert "No longest-route bonus on this map.\nmoves written to" in text  # under the final scores
    header = {}
    for line in log.read_text().splitlines():
        if line.startswith("# "):
            k, _, v = line[2:].partition(": ")
            header[k] = v
    assert header["options"].find("'neutral': True") >= 0
    game = Game.new("nederland", 2, 4, GameOptions(variants={"neutral": True}))
    for line in log.read_text().splitlines():
        if not line.startswith("#"):
            s, _, t = line.partition(" ")
            game.apply(int(s) - 1, parse_action(game, int(s) - 1, t))
    assert printed_scores(text) == scores(game, ["Ann", "Bob"])


def test_quit_resigns_and_the_ais_finish_with_images(tmp_path):
    folder = tmp_path / "pictures"
    image = folder / "ttr-board.webp"
    out: list[str] = []
    main(
        ["--map", "usa", "--seats", "3", "--ai", "random", "--seed", "2", "--images", str(folder)],
        read=scripted(["1", "quit", "n", "quit", "y"]),
        write=out.append,
    )
    text = "\n".join(out)
    assert text.count("You resigned") == 1 and "game over" in text  # the first quit was not confirmed
    assert "random AI 1" in text and "random AI 2" in text  # two AIs told apart
    assert image.read_bytes()[8:12] == b"WEBP"
    words = " ".join(text.split())  # a long path has a line of its own
    assert words.count(f"board image: {image}") == 1  # named once, not after every AI move
    final = folder / "ttr-board-final.webp"
    assert final.read_bytes()[8:12] == b"WEBP" and f"final scores image: {final}" in words


def test_human_move_reads_numbers_and_notation():
    game = Game.new("usa", 2, 1, GameOptions(first_seat=0))
    for seat in (0, 1):
        game.apply(seat, game.default_action(seat))
    out: list[str] = []
    controllers = [Controller("you"), Controller("ai", make_ai("random"))]
    assert human_move(game, 0, controllers, scripted(["draw deck"]), out.append) == parse_action(game, 0, "draw deck")
    moves = numbered_moves(game, 0, ticket_tracks(game, 0))
    assert human_move(game, 0, controllers, scripted(["2"]), out.append) == moves[2] == DrawMarket(1)
    assert "draw     1 market 1  2 market 2" in "\n".join(out)
    out.clear()
    claim = next(n for n, a in moves.items() if isinstance(a, Claim))
    assert human_move(game, 0, controllers, scripted(["moves all", str(claim)]), out.append) == moves[claim]
    route = format_action(game, moves[claim]).removeprefix("claim ")
    assert re.search(rf"\b{claim} (⭐ )?{re.escape(route)}\b", "\n".join(out))


def test_completion_lists_moves_in_notation():
    game = Game.new("europe", 2, 1, GameOptions(first_seat=0))
    for seat in (0, 1):
        game.apply(seat, game.default_action(seat))
    c = Completer()
    c.set_moves(game, 0)
    assert "draw deck" in c.words and "tickets draw" in c.words and "quit" in c.words
    assert any(w.startswith("claim ") for w in c.words)


def test_python_dash_m_cli_with_piped_stdin(tmp_path):
    log = tmp_path / "g.log"
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "--seed", "8", "--no-images", "--log", str(log)],
        input="1\n6\n" * 1500,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    game = replay_log(log)
    assert printed_scores(proc.stdout) == scores(game, ["you", "baseline AI"])


def test_europes_first_turn_fits_an_80_by_24_terminal():
    """169-198 numbered moves (mostly stations) used to take 132 lines: now the summary and the
    grouped moves fit one screen, and `moves all` still numbers every move."""
    for seed in range(5):
        game = Game.new("europe", 3, seed, GameOptions(first_seat=0))
        for seat in range(3):
            game.apply(seat, game.default_action(seat))
        controllers = [Controller("you"), Controller("a", make_ai("random")), Controller("b", make_ai("random"))]
        moves = numbered_moves(game, 0)
        lines = (
            summary(game, 0, controllers, width=SCREEN_WIDTH) + "\n" + moves_text(game, moves, width=SCREEN_WIDTH)
        ).splitlines()
        assert len(lines) <= 23 and max(map(len, lines)) <= SCREEN_WIDTH, "\n".join(lines)
        everything = moves_text(game, moves, everything=True)
        assert f"{max(moves)} " in everything and "station" in everything


@pytest.mark.slow
def test_seeded_games_with_strong_ais_replay_exactly(tmp_path, monkeypatch):
    """With --seed the strong AI thinks by playout count, not by the clock: a clock that jumps an hour
    at every reading changes nothing."""
    import time

    from cli import app

    made = []
    original = app.ai_player
    monkeypatch.setattr(app, "ai_player", lambda *a, **k: made.append(original(*a, **k)) or made[-1])
    logs = []
    for run in range(2):
        if run:
            ticks = iter(range(0, 10**9, 3600))
            monkeypatch.setattr(time, "perf_counter", lambda ticks=ticks: next(ticks))
        log = tmp_path / f"{run}.log"
        main(
            ["--map", "usa", "--humans", "0", "--ai", "strong", "--seed", "3", "--no-images", "--log", str(log)],
            read=scripted([]),
            write=lambda text: None,
        )
        logs.append(log.read_text())
    assert logs[0] == logs[1] and all(p.BUDGET is None for p in made)


def test_quit_and_ctrl_c_ask_first_and_still_write_the_log(tmp_path):
    log = tmp_path / "stopped.log"
    out: list[str] = []
    answers = iter(["1", "1", "quit", "n"])
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        text = next(answers, None)
        if text is None:
            raise KeyboardInterrupt  # Ctrl-C at the prompt, then at the question
        return text

    main(["--map", "usa", "--seed", "5", "--no-images", "--log", str(log)], read=read, write=out.append)
    text = "\n".join(out)
    assert sum("resign and leave the game?" in p for p in prompts) == 2 and "You resigned" in text
    assert log.exists() and len(log.read_text().splitlines()) > 4


def test_hot_seat_waits_for_enter_and_clears_before_each_persons_cards():
    cleared = []
    out: list[str] = []
    game = Game.new("usa", 2, 4, GameOptions(first_seat=0))
    read = scripted([])
    play(game, [Controller("Ann"), Controller("Bob")], read, out.append, clear=lambda: cleared.append(len(out)))
    assert game.is_over()
    waits = [p for p in read.prompts if "press Enter" in p]
    assert len(waits) >= 10 and len(cleared) == 2 * len(waits)
    first_hand = next(i for i, line in enumerate(out) if "your hand" in line)
    assert cleared[0] <= cleared[1] <= first_hand


def test_every_tunnel_reveal_is_shown_the_ais_too():
    out: list[str] = []
    game = Game.new("europe", 2, 7)
    play(
        game,
        [Controller("a", make_ai("baseline", 1)), Controller("b", make_ai("baseline", 2))],
        scripted([]),
        out.append,
    )
    tunnels = [a for _, a in game.log if isinstance(a, Claim) and game.map.track_by_id[a.track].tunnel]
    assert tunnels and sum("dug the tunnel" in line for line in out) >= len(tunnels)


def test_a_person_plays_a_whole_marklin_game_mixing_tickets_placing_and_moving_passengers():
    """The person names a starting mix, claims with a passenger where it may go and moves a
    passenger whenever one can travel, all typed in notation."""
    from engine import DrawTickets
    from engine.actions import Move

    game = Game.new("marklin", 2, 3, GameOptions(first_seat=0))
    shadow = make_ai("baseline", 9)
    from ai import GameInfo, legal_for

    def read(prompt):
        seat = game.to_move()[0]
        legal = legal_for(game, seat)
        moves = [a for a in legal if isinstance(a, Move)]
        if all(isinstance(a, DrawTickets) for a in legal):
            return "tickets draw long=1"
        if moves:
            return format_action(game, moves[-1])
        with_passenger = [a for a in legal if isinstance(a, Claim) and a.passenger]
        action = shadow.choose(game.view(seat), legal, GameInfo.from_game(game, seat))
        return format_action(game, with_passenger[0] if with_passenger and isinstance(action, Claim) else action)

    out: list[str] = []
    controllers = [Controller("ann"), Controller("bot", make_ai("baseline", 1))]
    play(game, controllers, read, out.append)
    assert game.is_over()
    text = "\n".join(out)
    assert printed_scores(text) == scores(game, ["ann", "bot"])
    assert "Name your ticket mix" in text and re.search(r"You drew \d destination tickets \(long: 1, short: \d\)", text)
    assert "merchandise (top token): 7: Berlin" in text and re.search(r"tickets left \d+ short, \d+ long", text)
    assert re.search(r"You claimed .+\n🧳 You put a passenger in ", text)
    assert re.search(r"🧳 You moved a passenger \S+ → ", text)
    assert "passengers to place: 0" in text and "merchandise +" in text
    again = Game.replay("marklin", 2, 3, GameOptions(first_seat=0), game.log)
    assert [s.total for s in again.final] == [s.total for s in game.final]
