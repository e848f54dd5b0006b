"""The tournament's arithmetic and a tiny run (long runs live in benchmarks/ai_bench.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai.strong import StrongPlayer
from ai.tournament import check_goals, main, make_player, parse_level, report, run, split_specs, wilson


def test_wilson_interval():
    lo, hi = wilson(95, 100)
    assert lo == pytest.approx(0.8883, abs=1e-3) and hi == pytest.approx(0.9785, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_tiny_tournament_reports_every_figure():
    results = run(["usa"], [2, 3], ["baseline:random"], games=3)
    assert [(p.seats, p.games) for p in results] == [(2, 3), (3, 3)]
    for p in results:
        assert p.wins + p.ties <= p.games
        assert p.sides["baseline"].decisions > 0 and p.sides["random"].games == (p.seats - 1) * p.games
    text = report(results)
    assert "baseline vs random" in text and "%" in text
    goals = check_goals(results)
    assert goals and goals[0].startswith(("PASS usa", "FAIL usa"))


def test_command_line(capsys, tmp_path):
    out = tmp_path / "r.json"
    assert main(["--games", "2", "--maps", "europe", "--pairs", "strong:baseline", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "strong vs baseline" in text and "ms per decision" in text
    assert out.read_text().startswith("[")


def test_a_mirror_plays_every_seed_in_each_seat():
    """Two players that decide alike (the strong AI without its random playouts) tie exactly over
    mirrored games: each seed's two games are the same game with the seats swapped."""
    same = "strong(ROLLOUTS=0):strong(ROLLOUTS=0,SPARE=10)"  # SPARE=10 is the default: the same player
    (p,) = run(["usa"], [2], [same], games=6, mirror=True)
    assert p.games == 6 and 2 * p.wins + p.ties == 6
    assert p.mean_margin[0] == 0.0 and p.margin_sq > 0


_KEYS = st.from_regex(r"[A-Z][A-Z_]{0,11}", fullmatch=True)
_VALUES = st.one_of(
    st.integers(-1000, 1000),
    st.floats(-100, 100, allow_nan=False).filter(lambda x: x != int(x)),
    st.none(),
    st.sampled_from(["baseline", "strong"]),
)


@given(
    st.sampled_from(["random", "gentle", "baseline", "strong", "expert"]), st.dictionaries(_KEYS, _VALUES, max_size=4)
)
def test_a_level_spec_reads_back_what_was_written(name, params):
    spec = name + (f"({','.join(f'{k}={v}' for k, v in params.items())})" if params else "")
    assert parse_level(spec) == (name, params)
    assert split_specs(f"{spec},{spec}:baseline") == [spec, f"{spec}:baseline"]


@pytest.mark.parametrize("bad", ["Strong", "strong(rollouts=0)", "strong(ROLLOUTS)", "strong(", ""])
def test_a_malformed_level_spec_says_what_is_wrong(bad):
    with pytest.raises(ValueError, match="not a"):
        parse_level(bad)


def test_a_spec_builds_the_player_with_its_parameters():
    player = make_player("strong(ROLLOUTS=0,CONTEST=2.5)", "1:0")
    assert isinstance(player, StrongPlayer) and player.ROLLOUTS == 0 and player.CONTEST == 2.5
    with pytest.raises(TypeError, match="unknown parameter NOPE"):
        make_player("strong(NOPE=1)", "1:0")
