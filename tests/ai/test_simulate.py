"""Choosing among candidates by paired playout gains (`ai.simulate.surest`): the heuristic's own
choice comes first and stands unless a rival beats it surely enough."""

from __future__ import annotations

import math
import statistics

from hypothesis import given
from hypothesis import strategies as st

from ai.simulate import surest

samples = st.integers(min_value=1, max_value=8)
gain = st.integers(min_value=-60, max_value=60).map(float)


@st.composite
def paired_gains(draw):
    """Per candidate, its gains over the first on the same samples (the first's are all zero)."""
    n = draw(samples)
    rivals = draw(st.lists(st.lists(gain, min_size=n, max_size=n), min_size=1, max_size=5))
    return [[0.0] * n, *rivals]


@given(paired_gains())
def test_without_confidence_the_best_mean_wins_if_it_beats_the_first(gains):
    means = [statistics.fmean(g) for g in gains]
    chosen = surest(gains, 0.0)
    assert means[chosen] == max(means)
    assert chosen == 0 or means[chosen] > 0


@given(paired_gains(), st.floats(min_value=0.1, max_value=3.0))
def test_a_rival_chosen_with_confidence_beats_the_first_by_that_many_standard_errors(gains, confidence):
    chosen = surest(gains, confidence)
    if chosen:
        g = gains[chosen]
        assert len(g) >= 2
        assert statistics.fmean(g) > confidence * statistics.stdev(g) / math.sqrt(len(g))


def test_a_noisy_lead_does_not_overrule_the_first_but_a_steady_one_does():
    noisy = [[0.0] * 3, [12.0, -9.0, 8.0]]  # mean +3.7, standard error 6.6
    steady = [[0.0] * 3, [4.0, 3.0, 5.0]]  # mean +4, standard error 0.6
    assert surest(noisy, 0.0) == 1 and surest(noisy, 1.0) == 0
    assert surest(steady, 1.0) == 1
    assert surest([[0.0], [30.0]], 1.0) == 0  # one sample tells nothing of its noise
