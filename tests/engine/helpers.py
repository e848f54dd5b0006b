"""Helpers that put a game into a chosen situation while keeping all 110 cards accounted for."""

from __future__ import annotations

import random
from collections import Counter

from engine import Game, GameOptions, parse_action
from engine.cards import CARD_NAMES, NUM_CARD_KINDS, card_index, standard_deck
from engine.events import Event


def started(map_id: str = "usa", seats: int = 3, seed: int = 7, **options) -> Game:
    """A game past the starting ticket choice (each seat keeps its default), seat 0 to move."""
    game = Game.new(map_id, seats, seed, GameOptions(first_seat=0, **options))
    for seat in range(seats):
        game.apply(seat, game.default_action(seat))
    assert game.phase == "playing" and game.current == 0
    return game


def play(game: Game, seat: int | None, *moves: str) -> list[Event]:
    """Make moves as a player types them (`play(game, 0, "claim Paris-Dieppe orange")`), each
    through parse_action and Game.apply, so a test reaches a stage by playing to it; the events."""
    events: list[Event] = []
    for text in moves:
        events += game.apply(seat, parse_action(game, seat, text))
    return events


def cards(spec: str) -> list[int]:
    """'red red loco' -> card indices."""
    return [card_index(word) for word in spec.split()]


def arrange(
    game: Game,
    hands: dict[int, str] | None = None,
    market: str | None = None,
    deck_top: str = "",
    discard: str | None = None,
) -> None:
    """Give seats exact hands, set the market and the top of the deck (first card drawn first).

    Seats not named keep no cards; all other cards go under the deck, so the total stays 110.
    With `discard` given, those cards form the discard pile and the deck holds only `deck_top`
    plus whatever remains unless `discard` is given as the rest (see tests).
    """
    pool = Counter(standard_deck())
    new_hands = [[0] * NUM_CARD_KINDS for _ in range(game.seats)]
    for seat, spec in (hands or {}).items():
        for c in cards(spec):
            new_hands[seat][c] += 1
            pool[c] -= 1
    new_market = cards(market) if market is not None else []
    for c in new_market:
        pool[c] -= 1
    top = cards(deck_top)
    for c in top:
        pool[c] -= 1
    pile = cards(discard) if discard is not None else []
    for c in pile:
        pool[c] -= 1
    assert all(n >= 0 for n in pool.values()), f"more cards asked for than the deck has: {pool}"
    rest = sorted(pool.elements())
    random.Random(0).shuffle(rest)
    if discard is not None:
        # Everything not placed elsewhere goes to the discard; the deck is exactly `deck_top`.
        pile += rest
        rest = []
    game.hands = new_hands
    game.market = new_market + [-1] * (5 - len(new_market))
    game.deck = rest + list(reversed(top))
    game.discard = pile
    game.tunnel = None
    assert game._card_total() == 110


def hand_of(game: Game, seat: int) -> dict[str, int]:
    return {CARD_NAMES[k]: n for k, n in enumerate(game.hands[seat]) if n}


def track_between(game: Game, a: str, b: str, color: str | None = None):
    """The track joining cities a and b (by name), of the given color if it is a double."""
    m = game.map
    ca, cb = m.find_city(a), m.find_city(b)
    tracks = m.tracks_between[(min(ca.index, cb.index), max(ca.index, cb.index))]
    if color is not None:
        wanted = None if color == "gray" else card_index(color)
        tracks = [t for t in tracks if t.color == wanted]
    return tracks[0]


def give_route(game: Game, seat: int, a: str, b: str, color: str | None = None) -> None:
    """Place a route for `seat` without a turn (to build a network for scoring tests)."""
    t = track_between(game, a, b, color)
    assert game.owner[t.index] == -1
    game.owner[t.index] = seat
    game.track_claimed(t.index)
    game.trains[seat] -= t.length
    game.score[seat] += game.map.rules.route_points[t.length]


def random_game(
    map_id: str, seats: int, seed: int, max_plies: int = 5000, collapse: bool = True, variants: dict | None = None
):
    """Play a random legal game; yields (game, seat, action) before each action is applied."""
    game = Game.new(map_id, seats, seed, GameOptions(variants=dict(variants or {})))
    rng = random.Random(seed)
    for _ in range(max_plies):
        if game.is_over():
            return
        movers = game.to_move()
        seat = rng.choice(movers)
        action = rng.choice(game.legal_actions(seat, collapse_payments=collapse))
        yield game, seat, action
        game.apply(seat, action)
    raise AssertionError(f"game did not end within {max_plies} plies")
