"""The terminal game: scripted sessions play whole games against AIs; printed scores are the engine's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from ai import make_ai
from cli.app import Completer, Controller, human_move, main, play
from engine import Game, GameOptions, format_action, parse_action

ROOT = Path(__file__).resolve().parents[2]
FINAL = re.compile(r"^(\d+)\. seat (\d+) (.+?): (-?\d+) points?$", re.MULTILINE)


def scripted(lines, then="1"):
    """An input function: the given lines, then `then` forever."""
    queue = list(lines)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return queue.pop(0) if queue else then

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


def printed_scores(text: str) -> dict[int, int]:
    return {int(seat) - 1: int(total) for _, seat, _, total in FINAL.findall(text)}


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
    assert printed_scores(text) == {s.seat: s.total for s in game.final}
    # The same seed and the same keystrokes give the same game.
    out2: list[str] = []
    main(["--map", "usa", "--seed", "21", "--no-images"], read=scripted(["help", "moves", "board", "nonsense", "999", "claim Nowhere-Else"]), write=out2.append)
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
    controllers = [Controller("ann"), Controller("bot", make_ai("baseline", 1)), Controller("base", make_ai("baseline", 2))]
    play(game, controllers, read, out.append)
    assert game.is_over()
    text = "\n".join(out)
    assert printed_scores(text) == {s.seat: s.total for s in game.final}
    assert "your tickets:" in text and "market" in text
    # Replaying the log gives the same final scores.
    again = Game.replay("europe", 3, 5, None, game.log)
    assert [s.total for s in again.final] == [s.total for s in game.final]


def test_nederland_neutral_and_hot_seat(tmp_path):
    out: list[str] = []
    log = tmp_path / "n.log"
    main(["--map", "nederland", "--hot-seat", "--variant", "neutral=on", "--seed", "4", "--no-images",
          "--names", "Ann,Bob", "--log", str(log)], read=scripted([]), write=out.append)
    text = "\n".join(out)
    assert "others look away" in text and "neutral player" in text
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
    assert printed_scores(text) == {s.seat: s.total for s in game.final}


def test_quit_resigns_and_the_ais_finish_with_images(tmp_path):
    image = tmp_path / "board.png"
    out: list[str] = []
    main(["--map", "usa", "--seats", "3", "--ai", "random", "--seed", "2", "--image", str(image)],
         read=scripted(["1", "quit"]), write=out.append)
    text = "\n".join(out)
    assert "resigns" in text and "game over" in text
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"board image: {image}" in text


def test_human_move_reads_numbers_and_notation():
    game = Game.new("usa", 2, 1, GameOptions(first_seat=0))
    for seat in (0, 1):
        game.apply(seat, game.default_action(seat))
    out: list[str] = []
    controllers = [Controller("you"), Controller("ai", make_ai("random"))]
    assert human_move(game, 0, controllers, scripted(["draw deck"]), out.append) == parse_action(game, 0, "draw deck")
    moves = game.legal_actions(0, collapse_payments=True)
    assert human_move(game, 0, controllers, scripted(["2"]), out.append) == moves[1]
    assert "1. draw market 1" in "\n".join(out)


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
        input="1\n" * 3000, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    game = replay_log(log)
    assert printed_scores(proc.stdout) == {s.seat: s.total for s in game.final}
