"""The profile's rating history: this season's rating after each game, overall and per map, and
the rating each of the league's seasons ended on."""

from __future__ import annotations

from rendering.standings import ProfileCard, render_profile
from rendering.style import DEFAULT_PLAYER_COLORS, lighter
from tests.rendering.conftest import decode

COLOR = DEFAULT_PLAYER_COLORS[0]
USA, EUROPE = DEFAULT_PLAYER_COLORS[1], DEFAULT_PLAYER_COLORS[2]  # the first map colours after the player's


def card(**changes) -> ProfileCard:  # type: ignore[no-untyped-def]
    base = dict(
        name="Anna",
        league="Club",
        season="Winter",
        rating=11.5,
        place=1,
        ranked=4,
        games=4,
        wins=3,
        average_score=90,
        ticket_rate=0.8,
        longest_bonuses=1,
        history=[3.0, 6.0, 4.0, 11.5],
        color=COLOR,
    )
    return ProfileCard(**{**base, **changes})


def colors(image) -> set:  # type: ignore[no-untyped-def]
    return {c for _, c in decode(image.data).getcolors(maxcolors=1 << 20)}


def test_each_map_has_its_line_and_each_season_its_bar() -> None:
    image = render_profile(
        card(
            map_history=[("USA", [(0, 3.0), (1, 6.0)]), ("Europe", [(2, 2.0), (3, 7.0)])],
            seasons=[("Autumn", 8.25), ("Winter", 11.5)],
        )
    )
    seen = colors(image)
    assert {USA, EUROPE, COLOR, lighter(COLOR, 0.5)} <= seen
    assert image.alt_text.endswith("1 longest-path bonus, by season Autumn 8.2 · Winter 11.5.")


def test_without_maps_or_earlier_seasons_only_the_overall_line() -> None:
    image = render_profile(card(seasons=[("Winter", 11.5)]))
    seen = colors(image)
    assert COLOR in seen and not {USA, EUROPE, lighter(COLOR, 0.5)} & seen
    assert "by season" not in image.alt_text


def test_negative_season_ratings_draw_below_a_middle_baseline() -> None:
    image = render_profile(card(seasons=[("Spring", -4.0), ("Summer", 2.0), ("Autumn", -1.0)]))
    assert lighter(COLOR, 0.5) in colors(image)
    assert "by season Spring -4.0 · Summer 2.0 · Autumn -1.0" in image.alt_text
