"""Shared fixtures: late-game views per map (engine games where the engine runs the map,
synthetic views from the map data for the golden images, so they do not move with the rules)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.mapdata import load_map
from rendering.sample import played_game, synthetic_view

MAPS = ("usa", "europe", "nederland", "switzerland", "nordic", "marklin")
PLAYED_MAPS = ("usa", "europe")


def decode(data: bytes) -> Image.Image:
    """An image file's pixels as RGB."""
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


@pytest.fixture(scope="session")
def late_games():
    return {m: played_game(m, seats=5, seed=7, plies=260) for m in PLAYED_MAPS}


@pytest.fixture(scope="session")
def synthetic_views():
    return {m: synthetic_view(load_map(m), seats=min(5, load_map(m).rules.max_players), seed=1) for m in MAPS}
