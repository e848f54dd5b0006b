"""The words of texts.present in Russian and Chinese (issue 10): plurals by each language's rule,
whole-sentence accounts of a turn, and every word through the catalogs (the pseudo-locale)."""

from __future__ import annotations

import random
import re

import pytest

from engine import Claim, DrawDeck, DrawMarket, Game, GameOptions
from engine.cards import card_index
from engine.events import LastRoundStarted, TicketsKept
from i18n import translator
from tests.engine.helpers import arrange, started
from texts.present import (
    claim_choice_label,
    claim_payment_label,
    describe,
    drawn,
    final_fields,
    hand_text,
    merge_turn,
    private_summary,
    route_choice_label,
)

NAMES = ["Anna", "Ben", "Cleo"].__getitem__
RU, ZH, QPS = translator("ru"), translator("zh"), translator("qps")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


def unmarked_letters(text: str) -> str:
    """Letters outside ⟦ ⟧ and the players' names: words that skipped the catalogs."""
    for name in ("Anna", "Ben", "Cleo"):
        text = text.replace(name, "")
    previous = None
    while previous != text:
        previous, text = text, MARKED.sub("", text)
    return "".join(ch for ch in text if ch.isalpha())


def kept(t, n: int) -> str:
    game = started()
    return describe(t, game, [TicketsKept(seat=0, kept=n, returned=0, ids=None)], NAMES)[0]


def last_round(t, n: int) -> str:
    game = started()
    return describe(t, game, [LastRoundStarted(seat=1, trains=n)], NAMES)[0]


@pytest.mark.parametrize("n, word", [(1, "билет"), (2, "билета"), (5, "билетов"), (11, "билетов"), (21, "билет")])
def test_russian_ticket_counts_take_three_forms(n, word):
    assert kept(RU, n) == f"**Anna** оставляет {n} {word}"


@pytest.mark.parametrize(
    "n, words",
    [
        (1, "остался 1 вагон"),
        (2, "осталось 2 вагона"),
        (5, "осталось 5 вагонов"),
        (11, "осталось 11 вагонов"),
        (21, "остался 21 вагон"),
    ],
)
def test_russian_train_counts_take_three_forms(n, words):
    assert last_round(RU, n) == f"🔔 **Последний круг!** Ben: {words} — каждый делает ещё один ход."


@pytest.mark.parametrize("n", [1, 2, 5, 11, 21])
def test_chinese_counts_take_one_form(n):
    assert kept(ZH, n) == f"**Anna** 保留了 {n} 张车票"
    assert last_round(ZH, n) == f"🔔 **最后一轮！** Ben 只剩 {n} 节火车：每人再进行一个回合。"


def test_english_counts_stay_as_they_were():
    en = translator("en")
    assert kept(en, 1) == "**Anna** kept 1 ticket" and kept(en, 3) == "**Anna** kept 3 tickets"
    assert last_round(en, 1).endswith("Ben has 1 train left: everyone gets one more turn.")


def turn(t, game, seat, *actions) -> str:
    notes, draws = [], []
    for action in actions:
        events = game.apply(seat, action)
        notes += describe(t, game, events, NAMES)
        draws += drawn(events)
    return merge_turn(t, notes, draws, seat, NAMES)


def test_a_turn_is_told_in_russian_and_chinese_with_translated_city_names():
    ru_names = translator("ru", "translated")
    zh_names = translator("zh", "translated")
    game = started()
    arrange(game, hands={0: "blue blue blue blue loco"}, market="red blue green white black", deck_top="yellow orange")
    claim = Claim("atlanta-miami", card_index("blue"), 1)
    events = game.apply(0, claim)
    assert describe(ru_names, game, events, NAMES) == [
        "**Anna** прокладывает маршрут Атланта – Майами: синий ×4 + 1 локомотив · +10"
    ]
    assert describe(zh_names, game, events, NAMES) == [
        "**Anna** 用 4 张蓝色 + 1 张火车头 占领了 亚特兰大 – 迈阿密 · +10"
    ]
    assert turn(RU, game, 1, DrawMarket(0), DrawDeck()) == "**Ben** берёт открытую карту (🟥 красный) и карту из колоды"
    assert turn(ZH, game, 2, DrawDeck(), DrawDeck()) == "**Cleo** 从牌堆抽了 2 张牌"


def test_private_summary_in_russian():
    game = started()
    arrange(game, hands={0: "red red loco"})
    text = private_summary(RU, game, 0)
    assert text.startswith("**Ваши карты:** 🟥 красный ×2  🌈 локомотив ×1\n**Ваши билеты:**")
    assert "Осталось вагонов: 45" in text


def play_out(map_id: str, seats: int, seed: int, **options) -> list[str]:
    """A whole game of random legal moves, every step's account worded in the pseudo-locale."""
    rng = random.Random(seed)
    game = Game.new(map_id, seats, seed, GameOptions(**options))
    texts: list[str] = []
    notes, draws = [], []
    while not game.is_over():
        seat = game.to_move()[0]
        actions = game.legal_actions(seat, collapse_payments=True)
        claims = [a for a in actions if isinstance(a, Claim)]
        action = rng.choice(claims) if claims and rng.random() < 0.6 else rng.choice(actions)
        if isinstance(action, Claim):
            texts.append(claim_payment_label(QPS, game, action))
            texts.append(claim_choice_label(QPS, game, action, seat))
            texts.append(route_choice_label(QPS, game.map, game.map.track_by_id[action.track]))
        events = game.apply(seat, action)
        notes += describe(QPS, game, events, NAMES)
        draws += drawn(events)
        if game.stage is None:
            texts.append(merge_turn(QPS, notes, draws, seat, NAMES))
            notes, draws = [], []
        if game.phase == "playing":
            texts.append(private_summary(QPS, game, seat))
            texts.append(hand_text(QPS, game.view(seat)))
    for title, body in final_fields(QPS, game, NAMES):
        texts += [title, body]
    return texts


@pytest.mark.parametrize(
    "map_id, options",
    [
        ("europe", {}),
        ("nederland", {"variants": {"neutral": True}}),
        ("switzerland", {}),
    ],
)
def test_every_word_goes_through_the_catalogs(map_id, options):
    texts = play_out(map_id, 3 if map_id != "nederland" else 2, seed=3, **options)
    assert len(texts) > 100
    leaks = [text for text in texts if unmarked_letters(text)]
    assert not leaks, leaks[:5]
