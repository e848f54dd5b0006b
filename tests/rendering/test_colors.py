"""Player colors against route colors and each other, and the highlights against route colors: as
everyone sees them and with each of the three dichromacies (simulated with Machado, Oliveira and
Fernandes 2009, severity 1), by CIEDE2000 (Sharma, Wu and Dalal 2005)."""

from __future__ import annotations

import itertools
import math

import pytest

from rendering.style import DEFAULT_PLAYER_COLORS, HIGHLIGHT, NEUTRAL_PLAYER, ROUTE_COLORS

#: Linear-RGB matrices of the simulation (Machado et al. 2009, Table 1, severity 1.0).
VISION = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
#: CIEDE2000 apart, in normal vision and with each simulated deficiency (issue 34): about 1 is a
#: just noticeable difference; 20 tells colors apart at a glance.
MIN_NORMAL, MIN_DEFICIENT = 20.0, 12.0
#: The colors a seat may have: the five of a 5-player game, and Nederland's neutral player.
SEATS = (*DEFAULT_PLAYER_COLORS[:5], NEUTRAL_PLAYER)
ROUTES = {name: c for name, c in ROUTE_COLORS.items() if name != "loco"}  # "loco" is a card, never a route


def _linear(c: int) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb, vision: str = "normal") -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB color as seen with that vision."""
    lin = [_linear(c) for c in rgb]
    m = VISION[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 color difference (kL = kC = kH = 1), as Sharma et al. 2005 state it."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    if c1 * c2 == 0:
        dh = 0.0
    elif abs(h2 - h1) <= 180:
        dh = h2 - h1
    else:
        dh = h2 - h1 - 360 if h2 > h1 else h2 - h1 + 360
    dh_big = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * c_mean
    sh = 1 + 0.015 * c_mean * t
    rt = (
        -2
        * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh_big / sh) ** 2 + rt * (dc / sc) * (dh_big / sh))


def delta_e(a, b, vision: str = "normal") -> float:
    return ciede2000(lab(a, vision), lab(b, vision))


def minimum(vision: str) -> float:
    return MIN_NORMAL if vision == "normal" else MIN_DEFICIENT


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu and Dalal 2005, Table 1 (pairs 1, 7, 17, 18, 19, 20, 25)
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
        ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
        ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_the_published_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_simulation_confuses_what_it_should():
    """Red and green come close with protanopia and deuteranopia, blue and green with tritanopia;
    none does in normal vision; white stays white."""
    red, green, blue = (220, 50, 40), (60, 150, 40), (40, 110, 220)
    assert delta_e(red, green) > 40
    assert delta_e(red, green, "protanopia") < 20 and delta_e(red, green, "deuteranopia") < 20
    assert delta_e((40, 130, 170), (60, 150, 40), "tritanopia") < delta_e((40, 130, 170), (60, 150, 40)) / 2
    assert delta_e(blue, green, "tritanopia") < delta_e(blue, green)
    for vision in VISION:
        assert lab((255, 255, 255), vision)[0] == pytest.approx(100, abs=0.01)


@pytest.mark.parametrize("vision", list(VISION))
def test_player_colors_stand_apart_from_every_route_color(vision):
    for seat, player in enumerate(SEATS):
        for name, route in ROUTES.items():
            assert delta_e(player, route, vision) >= minimum(vision), (seat, name, vision)


@pytest.mark.parametrize("vision", list(VISION))
def test_player_colors_stand_apart_from_each_other(vision):
    for a, b in itertools.combinations(SEATS, 2):
        assert delta_e(a, b, vision) >= minimum(vision), (a, b, vision)


def test_five_seats_and_the_neutral_player():
    assert len(DEFAULT_PLAYER_COLORS) == 5 and len(set(SEATS)) == 6


@pytest.mark.parametrize("vision", list(VISION))
def test_the_highlight_is_no_route_or_seat_color(vision):
    """A lit route (what changed, what your hand could pay for: a glow with or without its dark
    rim) never reads as a route of another color (the gold light read as yellow and orange
    track), nor as a seat's claim."""
    for name, color in [*ROUTES.items(), *enumerate(SEATS)]:
        assert delta_e(HIGHLIGHT, color, vision) >= minimum(vision), (name, vision)


def table() -> list[str]:
    """The distances, for docs/rendering.md: python -m tests.rendering.test_colors"""
    rows = []
    for vision in VISION:
        rows.append(f"{vision}: " + ", ".join(f"{n}" for n in ROUTES))
        for seat, p in enumerate(SEATS):
            ds = [delta_e(p, r, vision) for r in ROUTES.values()]
            name = f"seat {seat + 1}" if seat < 5 else "neutral"
            hexa = "".join(f"{v:02X}" for v in p)
            rows.append(f"  {name:<7} #{hexa}: " + " ".join(f"{d:5.1f}" for d in ds))
        pair = min(delta_e(a, b, vision) for a, b in itertools.combinations(SEATS, 2))
        route = min(delta_e(p, r, vision) for p in SEATS for r in ROUTES.values())
        light = min(delta_e(HIGHLIGHT, r, vision) for r in ROUTES.values())
        rows.append(f"  min player-route {route:.1f}, player-player {pair:.1f}, highlight-route {light:.1f}")
    return rows


if __name__ == "__main__":
    print("\n".join(table()))
