"""docs/rules.md §2 USA: the four ticket decks, their deal numbers and bonuses, and the USA ties."""

import pytest

from engine import DrawTickets, Game, GameOptions
from engine.errors import UnknownDeckError
from engine.scoring import final_scores
from tests.engine.helpers import give_route, started


@pytest.mark.parametrize(
    "deck,size,deal,keep,draw,longest,globetrotter",
    [
        ("base", 30, 3, 2, 3, 10, 0),
        ("1910", 35, 3, 2, 3, 0, 15),
        ("bigcities", 35, 4, 2, 4, 0, 0),
        ("mega", 69, 5, 3, 4, 10, 15),
    ],
)
def test_s2_deck_table(deck, size, deal, keep, draw, longest, globetrotter):
    game = Game.new("usa", 2, seed=1, options=GameOptions(deck=deck, first_seat=0))
    assert len(game.offers[0]) == deal and game.offer_keep[0] == keep
    assert len(game.ticket_deck) == size - 2 * deal
    for seat in (0, 1):
        game.apply(seat, game.default_action(seat))
    game.apply(0, DrawTickets())
    assert len(game.offers[0]) == draw and game.offer_keep[0] == 1
    rules = game.deck_rules
    assert (rules.longest_path_bonus, rules.globetrotter_bonus) == (longest, globetrotter)


def test_s2_big_cities_deck_only_tickets_touching_the_seven_cities():
    game = Game.new("usa", 2, seed=1, options=GameOptions(deck="bigcities"))
    big = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}
    m = game.map
    for ticket_id in game.deck_rules.tickets:
        t = m.ticket_by_id[ticket_id]
        assert {m.cities[t.a].name, m.cities[t.b].name} & big


def test_s2_unknown_deck_is_refused_with_the_choices():
    with pytest.raises(UnknownDeckError, match="no ticket deck .nope.*base"):
        Game.new("usa", 2, 1, GameOptions(deck="nope"))


def test_s2_globetrotter_most_completed_tickets_all_tied_score_it():
    game = started("usa", seats=3, deck="1910")
    m = game.map
    chicago_ny = next(
        t for t in m.tickets if t.set == "1910" and {m.cities[t.a].name, m.cities[t.b].name} == {"Chicago", "New York"}
    )
    game.tickets = [[chicago_ny.id], [chicago_ny.id], []]
    for seat in (0, 1):
        for a, b in (("Chicago", "Pittsburgh"), ("Pittsburgh", "New York")):
            track = next(
                t
                for t in m.tracks_between[tuple(sorted((m.find_city(a).index, m.find_city(b).index)))]
                if game.owner[t.index] < 0
            )
            game.owner[track.index] = seat
    scores = {s.seat: s for s in final_scores(game)}
    assert scores[0].bonuses == {"globetrotter": 15} == scores[1].bonuses
    assert scores[2].bonuses == {}


def test_s2_usa_ties_most_tickets_then_longest_then_shared():
    game = started("usa", seats=3)
    game.tickets = [[], [], []]
    give_route(game, 0, "Atlanta", "Charleston")  # 2
    give_route(game, 1, "Raleigh", "Washington")  # 2
    give_route(game, 2, "Kansas City", "Omaha")  # 1
    game.score = [5, 5, 15]
    scores = {s.seat: s for s in final_scores(game)}
    assert [scores[s].total for s in range(3)] == [15, 15, 15]
    # Same tickets (none); longest path 2, 2, 1: seats 0 and 1 share first place.
    assert [scores[s].rank for s in range(3)] == [1, 1, 3]
