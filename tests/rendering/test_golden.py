"""Golden images: each image, from engine-independent synthetic views, against a stored PNG.

Metric: both images reduced to GOLDEN_WIDTH px wide (LANCZOS) and mapped onto the golden's
256-color palette (how goldens are stored, to keep them small), mean absolute difference over all
RGB channel values (0-255) below MAX_MAE; the full-size dimensions must match exactly.
Regenerate after an intended visual change (and look at the new files):

    UPDATE_GOLDEN=1 python -m pytest tests/rendering/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.mapdata import load_map
from rendering import (
    default_players,
    render_board,
    render_final,
    render_hand,
    render_player_board,
    render_ticket_offer,
)
from rendering.sample import synthetic_final, synthetic_view, with_seat
from tests.rendering.conftest import decode

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_WIDTH = 480
MAX_MAE = 0.2  # identical rendering: 0.0; one claimed track more or less: about 0.3
NAMES = ["Alice", "Борис", "李小龍", "Zoë", "🚂 Train Fan"]


def _view(map_id):
    return synthetic_view(load_map(map_id), seats=min(5, load_map(map_id).rules.max_players), seed=1)


def _claimable(view, m, seat):
    return [t.id for t in m.tracks if t.id not in view["claims"] and t.length <= 3][:12]


CASES = {
    "board_usa": lambda: render_board(_view("usa"), load_map("usa"), default_players(NAMES)),
    "board_europe": lambda: render_board(_view("europe"), load_map("europe"), default_players(NAMES)),
    "board_nederland": lambda: render_board(_view("nederland"), load_map("nederland"), default_players(NAMES)),
    "board_europe_colorblind": lambda: render_board(
        _view("europe"), load_map("europe"), default_players(NAMES), colorblind=True
    ),
    "hand_usa": lambda: render_hand(
        with_seat(_view("usa"), load_map("usa"), 2), load_map("usa"), default_players(NAMES)
    ),
    "offer_europe": lambda: render_ticket_offer(
        with_seat(_view("europe"), load_map("europe"), 1, offer=4), load_map("europe")
    ),
    "player_board_europe": lambda: render_player_board(
        with_seat(_view("europe"), load_map("europe"), 0),
        load_map("europe"),
        default_players(NAMES),
        claimable_tracks=_claimable(_view("europe"), load_map("europe"), 0),
    ),
    "board_switzerland": lambda: render_board(_view("switzerland"), load_map("switzerland"), default_players(NAMES)),
    "board_nordic": lambda: render_board(_view("nordic"), load_map("nordic"), default_players(NAMES)),
    "offer_switzerland": lambda: render_ticket_offer(
        with_seat(_view("switzerland"), load_map("switzerland"), 1, seed=3, offer=5), load_map("switzerland")
    ),
    "final_usa": lambda: render_final(
        synthetic_final(_view("usa"), load_map("usa")), load_map("usa"), default_players(NAMES)
    ),
}


def _small(img: Image.Image) -> Image.Image:
    img = img.convert("RGB")
    return img.resize((GOLDEN_WIDTH, round(img.height * GOLDEN_WIDTH / img.width)), Image.Resampling.LANCZOS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    r = CASES[name]()
    img = decode(r.data)
    path = GOLDEN / f"{name}.png"
    small = _small(img)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        small.info["full_size"] = f"{img.width}x{img.height}"
        from PIL import PngImagePlugin

        meta = PngImagePlugin.PngInfo()
        meta.add_text("full_size", f"{img.width}x{img.height}")
        palette = small.quantize(256, dither=Image.Dither.NONE)
        small.quantize(palette=palette, dither=Image.Dither.NONE).save(path, pnginfo=meta, optimize=True)
        pytest.skip(f"wrote {path.name}")
    assert path.exists(), f"no golden image {path.name}: run UPDATE_GOLDEN=1 python -m pytest {__file__}"
    golden = Image.open(path)
    assert golden.text.get("full_size") == f"{img.width}x{img.height}"
    assert golden.size == small.size
    # goldens are stored with a 256-color palette: map the new image onto the same palette
    small = small.quantize(palette=golden, dither=Image.Dither.NONE).convert("RGB")
    golden = golden.convert("RGB")
    mae = sum(ImageStat.Stat(ImageChops.difference(golden, small)).mean) / 3
    assert mae < MAX_MAE, f"{name}: mean absolute difference {mae:.2f} >= {MAX_MAE}"
