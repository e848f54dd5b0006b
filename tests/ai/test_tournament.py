"""The tournament's arithmetic and a tiny run (long runs live in benchmarks/ai_bench.py)."""

from __future__ import annotations

import pytest

from ai.tournament import check_goals, main, report, run, wilson


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
