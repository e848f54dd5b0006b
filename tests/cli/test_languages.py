"""The terminal game in Russian, Chinese and the pseudo-locale (issue 10): scripted games whose every
printed line is translated, apart from what players type (the engine's notation, the commands) and
their names."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from ai import make_ai
from cli import app
from cli.app import environment_language, main
from cli.screen import COMMANDS, MOVES_ALL, Controller, notation_examples, summary
from engine import format_action
from engine.actions import Claim
from engine.cards import card_index
from i18n import translator
from rendering import fonts
from tests.cli.test_cli import ROOT, scripted
from tests.engine.helpers import arrange, started, track_between

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
MARKS = re.compile("[⟦⟧]")  # a name ("⟦baseline ÁÍ⟧") drawn in an image loses its marks
#: What the person types: every kind of refusal and command, then the first move until the end.
SCRIPT = ["help", "moves", "board", "nonsense", "999", "claim Nowhere-Else", "claim Paris-Dieppe"]
#: The notation's verbs, which the engine's refusal of an unknown action lists as they are typed.
VERBS = ("draw", "claim", "tickets", "station", "tunnel", "neutral", "move", "pass", "resign")


class Session:
    """A scripted game through `main`: what it printed and asked, and the texts that stay as they
    are in every language — the notation of every move listed or played, the help's examples,
    the commands, what was typed, the players' names."""

    def __init__(self, monkeypatch, argv: list[str], lines: list[str] = SCRIPT, kept: tuple[str, ...] = ()) -> None:
        self.out: list[str] = []
        notation: set[str] = set()
        original = app.play

        def play(game, controllers, read, *args):
            self.game, self.controllers = game, controllers

            def reading(prompt):
                seat = game.to_move()[0]
                notation.update(format_action(game, a) for a in game.legal_actions(seat, collapse_payments=True))
                return read(prompt)

            return original(game, controllers, reading, *args)

        monkeypatch.setattr(app, "play", play)
        self.read = scripted(lines)
        main(argv, read=self.read, write=self.out.append)
        notation.update(format_action(self.game, action) for _, action in self.game.log)
        # The move list writes each verb once and then the rest of each move; claims as route names.
        notation |= {text.partition(" ")[2] for text in notation}
        notation |= {self.game.map.route_name(track) for track in self.game.map.tracks}
        typed = {word for line in lines for word in re.split(r"[\s\-]+", line)}
        kept = (
            notation
            | typed
            | set(re.split(r"[|\n]", "\n".join(notation_examples(self.game))))
            | {*COMMANDS, *VERBS, MOVES_ALL, "--seed", *kept}
            | {c.name for c in self.controllers}
            | {MARKS.sub("", c.name) for c in self.controllers}
        )
        alternatives = sorted({text.strip() for text in kept if text.strip()}, key=len, reverse=True)
        self.kept = re.compile(r"(?<![A-Za-z])(?:" + "|".join(map(re.escape, alternatives)) + r")(?![A-Za-z])")

    @property
    def texts(self) -> list[str]:
        """Everything printed or asked, one write at a time (a mark may span its lines)."""
        return self.out + self.read.prompts

    def without_kept(self, line: str) -> str:
        return self.kept.sub("", line)


def unmarked_letters(line: str) -> str:
    """Letters that skipped the catalogs: plain ASCII anywhere (the pseudo-locale swaps every letter
    it translates) and any letter outside the ⟦ ⟧ marks."""
    ascii_letters = "".join(LATIN.findall(line))
    previous = None
    while previous != line:
        previous, line = line, MARKED.sub("", line)
    return ascii_letters + "".join(ch for ch in line if ch.isalpha())


@pytest.mark.parametrize("language,script,map_id", [("ru", CYRILLIC, "europe"), ("zh", CJK, "usa")])
def test_a_game_in_russian_and_chinese_prints_no_english(monkeypatch, language, script, map_id):
    """With translated city names nothing Latin is left once notation, commands and names are set aside."""
    s = Session(
        monkeypatch,
        [
            "--map",
            map_id,
            "--seats",
            "3",
            "--seed",
            "4",
            "--language",
            language,
            "--city-names",
            "translated",
            "--no-images",
        ],
    )
    assert s.game.is_over()
    assert s.read.prompts and all(script.search(prompt) for prompt in s.read.prompts)
    english = [text for text in s.texts if LATIN.search(s.without_kept(text))]
    assert not english, english[:10]
    text = "\n".join(s.out)
    assert script.search(text.split("\n")[0])  # the first line already
    assert text.count("? ") >= 3  # nonsense, the unknown city, the unaffordable route
    assert "✅" in text or "❌" in text  # the final breakdown


@pytest.mark.parametrize(
    "argv",
    [
        ["--map", "europe", "--seats", "3", "--seed", "6", "--names", "Ann"],
        ["--map", "nederland", "--hot-seat", "--variant", "neutral=on", "--seed", "4", "--names", "Ann,Bob"],
    ],
)
def test_pseudo_locale_marks_every_printed_line(monkeypatch, argv):
    """Stations (Europe), money, loans, the neutral player and hot-seat (Nederland): every letter
    printed went through the catalogs, apart from notation, commands and names."""
    s = Session(monkeypatch, [*argv, "--language", "qps", "--no-images"])
    assert s.game.is_over()
    leaks = [
        (text, unmarked_letters(s.without_kept(text))) for text in s.texts if unmarked_letters(s.without_kept(text))
    ]
    assert not leaks, leaks[:10]


def test_pseudo_locale_marks_a_pending_tunnel():
    game = started("europe", seats=2)
    arrange(game, hands={0: "green green"}, deck_top="green red red")
    game.apply(0, Claim(track_between(game, "Venezia", "Zürich").id, card_index("green"), 0))
    text = summary(game, 0, [Controller("Ann"), Controller("Bob", make_ai("random"))], translator("qps"))
    assert "⟦ţúññéĺ" in text
    leaks = [line for line in text.splitlines() if unmarked_letters(line.replace("Ann", "").replace("Bob", ""))]
    assert not leaks, leaks


def test_board_images_are_drawn_in_the_chosen_language(monkeypatch, tmp_path):
    drawn: list[str] = []
    original = fonts.draw_text

    def recording(draw, xy, text, *args, **kwargs):
        drawn.append(text)
        return original(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(fonts, "draw_text", recording)
    public, own = tmp_path / "ttr-board.webp", tmp_path / "ttr-board-seat1.webp"
    s = Session(
        monkeypatch,
        ["--map", "usa", "--seed", "2", "--names", "Ann", "--language", "qps", "--images", str(tmp_path)],
        ["1", "1", "quit", "y"],
        kept=(str(public), str(own), str(tmp_path / "ttr-board-final.webp")),
    )
    assert own.exists() and drawn
    leaks = [text for text in s.texts if unmarked_letters(s.without_kept(text))]
    leaks += sorted({text for text in drawn if unmarked_letters(s.without_kept(text))})
    assert not leaks, leaks[:20]


@pytest.mark.parametrize(
    "environ,language",
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
        ({"LC_ALL": "C.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),  # LC_ALL first, as POSIX reads them
        ({"LC_ALL": "", "LANG": "zh_TW.UTF-8"}, "zh"),  # an empty variable counts as unset
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_locale(environ, language):
    assert environment_language(environ) == language


def test_python_dash_m_cli_speaks_the_terminals_language():
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(LANG="ru_RU.UTF-8", PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "--seed", "8", "--no-images"],
        input="quit\n",
        capture_output=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "вы> " in proc.stdout and "Вы сдались" in proc.stdout
    helped = subprocess.run(
        [sys.executable, "-m", "cli", "--language", "zh", "--help"],
        capture_output=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert "城市名称" in helped.stdout


def test_the_one_person_is_you_at_the_terminal_and_a_player_in_images(monkeypatch):
    """'Ходит вы' was wrong: sentences about the player (images) use 'игрок 1', prompts keep 'вы'."""
    s = Session(monkeypatch, ["--map", "usa", "--seed", "3", "--language", "ru", "--no-images"], ["quit", "да"])
    person = s.controllers[0]
    assert (person.name, person.third_person) == ("вы", "игрок 1")
    assert any("Вы сдались" in line for line in s.out)
