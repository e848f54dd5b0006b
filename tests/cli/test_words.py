"""What the terminal game says (issue 34): the table's words, your own moves in the second person,
numbers that keep their meaning, starred claims, examples from the map played, refusals that offer
only what is possible, lines cut between words."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from ai import make_ai
from ai.ticket_plan import ticket_tracks
from cli.app import IMAGES, Narrator, human_move
from cli.screen import Controller, fold, help_text, moves_text, notation_examples, numbered_moves, summary
from engine import Claim, DeclineTunnel, DrawDeck, DrawMarket, Game, GameOptions, parse_action
from engine.cards import ALL_CARD_NAMES, card_index
from i18n import translator
from tests.cli.test_cli import ROOT, scripted
from tests.engine.helpers import arrange, started, track_between

EN = translator("en")


def begun(map_id: str):
    """A two-seat game past its starting choices (Märklin's take several steps)."""
    game = Game.new(map_id, 2, 7, GameOptions(first_seat=0))
    while game.phase != "playing":
        seat = game.to_move()[0]
        game.apply(seat, game.default_action(seat))
    return game


def people(game) -> list[Controller]:
    """You at seat 1, random AIs at the others."""
    return [Controller("you", third_person="player 1")] + [
        Controller(f"random AI {s}", make_ai("random", s)) for s in range(1, game.seats)
    ]


def test_your_draws_are_told_to_you_with_their_cards_and_the_others_draws_as_the_table_tells_them():
    game = started("europe", seats=2)
    arrange(game, hands={0: "red"}, market="pink red loco blue green", deck_top="orange white black yellow")
    narrator = Narrator(EN, people(game))
    shown, public = narrator.tell(game, 0, game.apply(0, DrawDeck()))
    assert shown == ["You drew an orange card from the deck"] and public == []  # told with the second card
    shown, public = narrator.tell(game, 0, game.apply(0, DrawMarket(0)))
    assert shown == ["You drew a pink card from the face-up cards"]
    assert public == ["You drew a card from the deck and a face-up 🟪 pink"]  # what the others may know
    assert narrator.tell(game, 1, game.apply(1, DrawDeck())) == ([], [])
    shown, public = narrator.tell(game, 1, game.apply(1, DrawDeck()))
    assert shown == public == ["Random AI 1 drew 2 cards from the deck"]


def test_a_face_up_locomotive_keeps_its_number_and_cannot_be_the_second_card():
    game = started("europe", seats=2)
    arrange(game, hands={0: "red"}, market="pink red loco blue green", deck_top="orange white")
    first = numbered_moves(game, 0)
    game.apply(0, DrawDeck())
    second = numbered_moves(game, 0)
    assert sorted(second) == [1, 2, 4, 5, 6]
    assert all(second[n] == first[n] for n in second)  # the same number, the same card
    text = moves_text(game, second, EN, width=80)
    assert "(3: a face-up 🌈 locomotive cannot be your second card)" in text
    out: list[str] = []
    assert human_move(game, 0, people(game), scripted(["3", "4"]), out.append) == DrawMarket(3)
    assert "? A face-up locomotive cannot be your second card" in out


def test_every_claim_shown_has_its_number_and_routes_on_your_tickets_are_starred_first():
    game = started("usa", seats=2)
    arrange(game, hands={0: "loco " * 6})  # pays any route
    plan = ticket_tracks(game, 0)
    moves = numbered_moves(game, 0, plan)
    text = moves_text(game, moves, EN, plan=plan, seat=0, width=100)
    listed = re.findall(r"(\d+) (⭐ )?([\w .'-]+?) \((\d)\)", text.split("claim:")[1])
    assert listed and listed[0][1]  # a planned route first
    planned = {game.map.route_name(game.map.track_by_id[track]) for track in plan}
    for number, star, route, length in listed:
        action = moves[int(number)]
        track = game.map.track_by_id[action.track]
        assert isinstance(action, Claim) and game.map.route_name(track) == route and track.length == int(length)
        assert bool(star) == (route in planned)
    everything = moves_text(game, moves, EN, everything=True, plan=plan, seat=0)
    assert all(f"{n} " in everything for n in moves) and "⭐ " in everything
    assert "(⭐: on the shortest way to complete your tickets)" in text


def test_nederland_tolls_are_told_beside_the_route_and_in_the_claim():
    game = started("nederland", seats=2)
    arrange(game, hands={0: "loco " * 6})
    moves = numbered_moves(game, 0)
    n, claim = next((n, a) for n, a in moves.items() if isinstance(a, Claim) and game.map.track_by_id[a.track].toll)
    track = game.map.track_by_id[claim.track]
    assert f"({track.length}, toll {track.toll})" in moves_text(game, moves, EN, seat=0, width=200)
    shown, _ = Narrator(EN, people(game)).tell(game, 0, game.apply(0, claim))
    assert shown[0].startswith("You claimed ") and f"· toll {track.toll} to the bank" in shown[0]


def test_a_toll_an_ai_pays_you_is_paid_to_you():
    """In Russian "you" cannot stand where a name does ("игроку **вы**"): the toll is paid "вам"."""
    ru = translator("ru")
    game = started("nederland", seats=2)
    first = next(t for t in game.map.tracks if t.toll and t.double is not None)
    second = game.map.tracks[first.double]
    arrange(game, hands={0: "loco " * first.length})
    narrator = Narrator(ru, [Controller(ru.gettext("you"), third_person="игрок 1"), *people(game)[1:]])
    narrator.tell(game, 0, game.apply(0, Claim(first.id, None, first.length)))
    for seat in (1, 1, 0, 0):
        narrator.tell(game, seat, game.apply(seat, DrawDeck()))
    arrange(game, hands={1: "loco " * second.length})
    shown, public = narrator.tell(game, 1, game.apply(1, Claim(second.id, None, second.length)))
    assert shown == public and shown[0].startswith("Random AI 1 ")
    assert shown[0].endswith(f"· пошлина {second.toll} — вам")


def test_a_tunnel_you_cannot_pay_is_refused_with_decline_only():
    game = started("europe", seats=2)
    arrange(game, hands={0: "green green"}, deck_top="green red red")
    game.apply(0, Claim(track_between(game, "Venezia", "Zürich").id, card_index("green"), 0))
    out: list[str] = []
    assert human_move(game, 0, people(game), scripted(["draw deck", "tunnel decline"]), out.append) == DeclineTunnel()
    refusal = next(line for line in out if line.startswith("? "))
    assert "decline it (tunnel decline)" in refusal and "pay" not in refusal.replace("cannot pay", "")


def test_help_shows_examples_from_the_map_played_and_a_missing_longest_route_bonus():
    for map_id in ("usa", "europe", "nederland", "marklin", "switzerland", "nordic"):
        game = begun(map_id)
        examples = notation_examples(game)
        claim = re.search(r"claim (\S+) (\w+)", examples[0]).group(0)
        assert parse_action(game, 0, claim)  # a route of this map, in the notation
        if game.map.rules.stations:
            city = re.search(r"station (\S+)", "".join(examples)).group(1)
            assert city in {c.name.replace(" ", "_") for c in game.map.cities}
        text = help_text(EN, game, width=200)
        assert ("No longest-route bonus on this map." in text) == (map_id in ("nederland", "marklin", "nordic"))


def test_long_lines_are_cut_between_words_at_the_terminals_width():
    game = begun("marklin")
    game.hands[0] = [1] * len(ALL_CARD_NAMES)  # one of every card, Märklin's +4 locomotive and passenger too
    for width in (40, 60):
        lines = summary(game, 0, people(game), EN, width=width).splitlines()
        hand = "\n".join(lines[lines.index(next(line for line in lines if line.startswith("your hand"))) :])
        assert "+4 locomotive ×1" in hand and "🧳 passenger ×1" in hand  # no card cut in two
        assert max(len(line) for line in hand.splitlines()) <= width
    assert fold("one two three four", 9) == ["one two", "  three", "  four"]
    assert fold("a verylongword b", 5) == ["a", "  verylongword", "  b"]


def test_the_board_images_go_to_a_folder_git_ignores():
    assert f"{IMAGES}/" in Path(ROOT, ".gitignore").read_text().splitlines()


def test_hot_seat_shows_the_next_person_what_everyone_saw_never_the_cards_a_blind_draw_gave():
    from cli.app import play

    game = Game.new("usa", 2, 4, GameOptions(first_seat=0))
    out: list[str] = []
    cleared: list[int] = []
    play(game, [Controller("Ann"), Controller("Bob")], scripted([]), out.append, clear=lambda: cleared.append(len(out)))
    assert game.is_over()
    shown = []  # what the screen shows after a person pressed Enter, before their own summary
    for start in cleared[1::2]:
        shown += itertools.takewhile(lambda line: not line.startswith("=="), out[start:])
    assert any(re.match(r"(Ann|Bob) drew a card from the deck", line) for line in shown)
    assert not any(line.startswith("You ") for line in shown)  # nobody's own words, no card a blind draw gave
    assert any(line.startswith("You drew ") and line.endswith("from the deck") for line in out)  # told to the drawer
