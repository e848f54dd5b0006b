"""The strong AI's particular decisions and its sampling of hidden information."""

from __future__ import annotations

import random

from ai import GameInfo
from ai.simulate import determinize
from ai.strong import StrongPlayer
from engine import Game, GameOptions, NeutralClaim


def started(map_id="usa", seats=2, seed=3, **options):
    game = Game.new(map_id, seats, seed, GameOptions(first_seat=0, **options))
    for s in range(seats):
        game.apply(s, game.default_action(s))
    return game


def test_determinized_state_keeps_what_the_seat_sees_and_resamples_the_rest():
    game = started("europe", 3, seed=8)
    for _ in range(12):  # a few turns in
        seat = game.to_move()[0]
        game.apply(seat, game.default_action(seat))
    seat = game.to_move()[0]
    view = game.view(seat)
    info = GameInfo.from_game(game, seat)
    sampled = [determinize(view, info, random.Random(k)) for k in range(4)]
    for g in sampled:
        v = g.view(seat)
        for key in (
            "market",
            "claims",
            "stations",
            "deck_size",
            "discard_size",
            "ticket_deck_size",
            "current",
            "stage",
        ):
            assert v[key] == view[key], key
        assert v["you"]["hand"] == view["you"]["hand"] and v["you"]["tickets"] == view["you"]["tickets"]
        assert [p["hand_size"] for p in v["players"]] == [p["hand_size"] for p in view["players"]]
        assert [p["tickets"] for p in v["players"]] == [p["tickets"] for p in view["players"]]
        assert g._card_total() == 110
    others = [s for s in range(3) if s != seat]
    # Opponents' hands are guesses: they differ between samples (and the real seed is never used).
    assert len({tuple(g.hands[others[0]]) for g in sampled}) > 1
    assert all(g.seed != game.seed for g in sampled)


def test_a_marklin_view_is_sampled_with_its_passengers_merchandise_and_two_ticket_decks():
    """Passengers, tokens, merchandise stacks and the mixes still to name are public and kept; the
    short and long decks are dealt from the unseen tickets of their kind, at their public sizes,
    and a sampled game plays out to its end."""
    from ai import make_ai
    from ai.baseline import BaselinePlayer
    from ai.simulate import playout

    game = Game.new("marklin", 3, 4, GameOptions(first_seat=0))
    players = [make_ai("strong", s) for s in range(3)]
    for _ in range(60):  # into the game: passengers placed, some merchandise collected
        seat = game.to_move()[0]
        game.apply(
            seat, players[seat].choose(game.view(seat), game.legal_actions(seat), GameInfo.from_game(game, seat))
        )
    seat = game.to_move()[0]
    view = game.view(seat)
    assert any(p["passengers_placed"] for p in view["players"])
    sampled = [determinize(view, GameInfo.from_game(game, seat), random.Random(k)) for k in range(3)]
    m = game.map
    for g in sampled:
        v = g.view(seat)
        for key in (
            "market",
            "claims",
            "merchandise",
            "ticket_decks",
            "deck_size",
            "discard_size",
            "current",
            "players",
        ):
            assert v[key] == view[key], key
        assert v["you"]["hand"] == view["you"]["hand"] and v["you"]["tickets"] == view["you"]["tickets"]
        assert g._card_total() == len(game.hooks.train_deck(game))
        assert all(not m.ticket_by_id[i].long for i in g.hooks.short) and all(
            m.ticket_by_id[i].long for i in g.hooks.long
        )
        mine = {t["id"] for t in view["you"]["tickets"]}
        assert not mine & (set(g.hooks.short) | set(g.hooks.long))
        playout(g, [BaselinePlayer(s) for s in range(3)])
        assert g.is_over()
    assert len({tuple(g.hooks.short) for g in sampled}) > 1  # the decks' order is a guess


def test_marklin_ticket_choices_are_played_out_only_when_asked(monkeypatch):
    """Märklin's tickets can be sampled, but its ticket playouts gained the expert nothing within
    the clock (docs/ai.md): both AIs choose by value there unless `MARKLIN_PLAYOUTS` asks."""
    from ai.expert import ExpertPlayer

    played = []
    monkeypatch.setattr(StrongPlayer, "simulate", lambda self, board, candidates, rollouts=None: played.append(1))

    def playouts(player) -> int:
        played.clear()
        game = Game.new("marklin", 2, 2, GameOptions(first_seat=0))
        while game.phase == "choosing":
            seat = game.to_move()[0]
            game.apply(seat, player.choose(game.view(seat), game.legal_actions(seat), GameInfo.from_game(game, seat)))
        return len(played)

    assert playouts(StrongPlayer(2)) == playouts(ExpertPlayer(2)) == 0
    assert playouts(ExpertPlayer(2, MARKLIN_PLAYOUTS=1)) == 2


def test_neutral_choice_is_made_and_legal():
    from ai.match import play_game

    seen = []

    class Watch(StrongPlayer):
        def choose(self, view, legal, info):
            action = super().choose(view, legal, info)
            if isinstance(legal[0], NeutralClaim):
                seen.append((action, list(legal)))
            return action

    for seed in (6, 7):
        play_game(
            "nederland",
            [Watch(seed, ROLLOUTS=2), Watch(seed + 1, ROLLOUTS=2)],
            seed=seed,
            options=GameOptions(variants={"neutral": True}),
        )
    assert seen and all(a in legal for a, legal in seen)


def test_unknown_parameter_is_refused():
    import pytest

    with pytest.raises(TypeError):
        StrongPlayer(0, NOPE=1)


def test_no_ticket_playout_starts_after_the_budget(monkeypatch):
    """A clock that reads one second later each time: with 4 candidates and a 6.5 s budget the
    first sample's 4 playouts run and the second stops after 2 (left out); a budget that ends
    inside the first sample leaves no sample, and the heuristic choice stands (None)."""
    import itertools
    from types import SimpleNamespace

    import ai.simulate
    from ai.board import Board

    game = Game.new("usa", 2, 5, GameOptions(first_seat=0))
    legal = game.legal_actions(0)
    board = Board(game.view(0), GameInfo.from_game(game, 0))
    played = []
    real_playout = ai.simulate.playout
    monkeypatch.setattr(ai.simulate, "playout", lambda g, p, **kw: played.append(1) or real_playout(g, p, **kw))

    def run(budget):
        played.clear()
        clock = itertools.count()
        monkeypatch.setattr("ai.strong.time", SimpleNamespace(perf_counter=lambda: float(next(clock))))
        return StrongPlayer(1, BUDGET=budget).simulate(board, legal[:4])

    assert run(6.5) in legal[:4] and len(played) == 6
    assert run(2.5) is None and len(played) == 2
    assert run(None) in legal[:4] and len(played) == 4 * StrongPlayer.ROLLOUTS


def test_ticket_playouts_overrule_the_best_choice_by_value_only_by_a_sure_margin(monkeypatch):
    """`TICKET_CONFIDENCE`: a lead of the second candidate that its own noise explains leaves the
    first (the best by value) chosen; without it the better mean wins."""
    import ai.simulate
    from ai.board import Board

    game = Game.new("usa", 2, 5, GameOptions(first_seat=0))
    keeps = game.legal_actions(0)[:2]
    board = Board(game.view(0), GameInfo.from_game(game, 0))
    scripted = [0.0, 12.0, 0.0, -9.0, 0.0, 8.0]  # per sample: the first's margin, the second's

    def choose(confidence):
        margins = iter(scripted)
        monkeypatch.setattr(ai.simulate, "margin", lambda game, seat: next(margins))
        return StrongPlayer(1, ROLLOUTS=3, BUDGET=None, TICKET_CONFIDENCE=confidence).simulate(board, keeps)

    assert choose(0.0) == keeps[1]
    assert choose(1.0) == keeps[0]
