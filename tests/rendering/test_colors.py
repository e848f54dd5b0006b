"""Player colors against route colors, as everyone sees them and as the two commonest color
vision deficiencies do (simulated with Machado, Oliveira and Fernandes 2009, severity 1)."""

from __future__ import annotations

import itertools

import pytest

from rendering.style import DEFAULT_PLAYER_COLORS, ROUTE_COLORS

#: Linear-RGB matrices of the simulation (Machado et al. 2009, Table 1, severity 1.0).
VISION = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}
MIN_DELTA_E = 15  # CIE76; about 2.3 is a just noticeable difference, 15 tells colors apart at a glance


def _linear(c: int) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen(rgb, vision: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB color as seen with that vision."""
    lin = [_linear(c) for c in rgb]
    m = VISION[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b, vision: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(seen(a, vision), seen(b, vision))) ** 0.5


def test_simulation_confuses_what_it_should():
    """Red and green, the classic pair, come close with either deficiency and not in normal vision."""
    red, green = (220, 50, 40), (60, 150, 40)
    assert delta_e(red, green, "normal") > 60
    assert delta_e(red, green, "protanopia") < 35 and delta_e(red, green, "deuteranopia") < 35


@pytest.mark.parametrize("vision", list(VISION))
def test_player_colors_stand_apart_from_every_route_color(vision):
    routes = {name: c for name, c in ROUTE_COLORS.items() if name != "loco"}
    for seat, player in enumerate(DEFAULT_PLAYER_COLORS[:5]):
        for name, route in routes.items():
            assert delta_e(player, route, vision) >= MIN_DELTA_E, (seat, name, vision)


@pytest.mark.parametrize("vision", list(VISION))
def test_player_colors_stand_apart_from_each_other(vision):
    for a, b in itertools.combinations(DEFAULT_PLAYER_COLORS[:5], 2):
        assert delta_e(a, b, vision) >= 2 * MIN_DELTA_E, (a, b, vision)
