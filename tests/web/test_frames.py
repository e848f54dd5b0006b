"""Frames: every move a page offers is labelled in the viewer's language, on every map and in every
phase (the pseudo-locale marks what went through the catalogs)."""

from __future__ import annotations

import random

import pytest

from bot.web.frames import moves
from engine import Game, GameOptions
from i18n import translator

MAPS = [
    ("usa", {}),
    ("europe", {}),
    ("nederland", {"neutral": True}),
    ("switzerland", {}),
    ("nordic", {}),
    ("marklin", {}),
]


@pytest.mark.parametrize(("map_id", "variants"), MAPS)
def test_every_offered_move_is_labelled_in_the_viewers_language(map_id, variants) -> None:
    pseudo = translator("qps")
    game = Game.new(map_id, 2, 5, GameOptions(variants=variants))
    rng = random.Random(5)
    kinds: set[str] = set()
    for _ in range(400):
        if game.is_over():
            break
        seat = game.to_move()[0]
        offered = moves(pseudo, game, seat)
        for move in offered:
            kinds.add(move["kind"])
            assert "⟦" in move["label"], (move, "a label that skipped the catalogs")
        claims = [m for m in offered if m["kind"] in ("Claim", "Move")]
        pick = rng.choice(claims if claims and rng.random() < 0.5 else offered)
        game.apply(
            seat, next(a for a in game.legal_actions(seat, collapse_payments=True) if _text(game, a) == pick["text"])
        )
    assert {"Claim", "DrawDeck", "KeepTickets"} <= kinds
    assert map_id != "europe" or {"BuildStation", "DeclineTunnel"} <= kinds, kinds  # (a tunnel revealed)


def _text(game: Game, action) -> str:
    from engine.notation import format_action

    return format_action(game, action)
