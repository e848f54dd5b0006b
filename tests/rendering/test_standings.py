"""League images: the standings and the profile card render, fit a phone, and say what they show."""

from __future__ import annotations

from rendering.standings import (
    MAX_ROWS,
    WIDTH,
    LadderRow,
    ProfileCard,
    RecentRow,
    render_profile,
    render_standings,
)
from tests.rendering.conftest import decode


def ladder(n: int) -> list[LadderRow]:
    names = ["Anna", "Bartholomew the Very Long Named Conductor", "陈伟", "Dirk", "Émilie\u200b", "🚂"]
    return [
        LadderRow(i + 1, names[i % len(names)], 12.5 - 3.3 * i, 6 + i, max(0, 4 - i), highlight=i == 1)
        for i in range(n)
    ]


def test_standings_render_with_medals_long_names_and_a_note() -> None:
    image = render_standings(
        ladder(6), title="Club · Standings", subtitle="Season 1 · overall", note="1 more player with fewer than 3 games"
    )
    img = decode(image.data)
    assert img.size == (WIDTH, image.height) and img.width == 800
    assert image.alt_text.startswith("Club · Standings: 1. Anna 12.5 (6 games, 4 wins); 2. Bartholomew")
    assert "-4.0" in image.alt_text  # negative ratings are shown as they are
    # the medal color of first place is drawn left of the first row
    colors = {c for _, c in img.getcolors(maxcolors=1 << 20)}
    assert (0xE0, 0xA1, 0x00) in colors


def test_standings_cut_long_ladders_and_say_so() -> None:
    image = render_standings(ladder(MAX_ROWS + 5), title="Big league")
    assert image.alt_text.count(";") == MAX_ROWS - 1
    assert decode(image.data).height < 54 * (MAX_ROWS + 8) + 200


def test_empty_standings() -> None:
    image = render_standings([], title="Club · Standings")
    assert "no rated games yet" in image.alt_text
    decode(image.data)


def test_profile_card_with_history_and_recent_games() -> None:
    card = ProfileCard(
        name="Anna",
        league="Club",
        season="Season 1",
        rating=11.53,
        place=1,
        ranked=4,
        games=4,
        wins=4,
        average_score=87.5,
        ticket_rate=0.71,
        longest_bonuses=2,
        map_ratings=[("USA", 9.2), ("Europe", 4.1)],
        history=[3.1, 6.2, 8.9, 11.53],
        recent=[RecentRow("Nov 29", "USA", 1, 4, 102, 2.6), RecentRow("Nov 28", "Europe", 2, 3, 88, -0.8)],
    )
    image = render_profile(card)
    img = decode(image.data)
    assert img.width == WIDTH and 700 < img.height < 1100
    assert image.alt_text == (
        "Anna, Club Season 1: rating 11.5, 1st of 4; 4 games, 4 wins, average score 88, "
        "tickets completed 71%, 2 longest-path bonuses."
    )


def test_profile_card_of_a_player_without_games_or_below_the_minimum() -> None:
    empty = render_profile(
        ProfileCard(
            name="",
            league="Club",
            season="S",
            rating=None,
            place=None,
            ranked=0,
            games=0,
            wins=0,
            average_score=None,
            ticket_rate=None,
            longest_bonuses=0,
        )
    )
    assert "rating –, no rated games yet" in empty.alt_text and empty.alt_text.startswith("Player,")
    short = render_profile(
        ProfileCard(
            name="Bob",
            league="Club",
            season="S",
            rating=1.5,
            place=None,
            ranked=3,
            games=1,
            wins=0,
            average_score=40,
            ticket_rate=0.5,
            longest_bonuses=0,
            min_games=3,
            history=[1.5],
        )
    )
    assert "2 more games to rank" in short.alt_text
