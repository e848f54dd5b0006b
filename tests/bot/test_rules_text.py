"""`/ttr rules`: built from each map's data and hooks, short enough for one message."""

import pytest

from bot.rules_text import rules_summary
from engine import available_maps


@pytest.mark.parametrize("map_id", available_maps())
def test_every_map_has_a_summary_that_fits_a_message(map_id):
    text = rules_summary(map_id)
    assert 400 < len(text) <= 2000 and "**End:**" in text


def test_summaries_follow_each_maps_rules():
    assert "build a station" in rules_summary("europe") and "station" not in rules_summary("usa")
    assert "Loan" in rules_summary("nederland")
    assert "locomotives only on tunnels" in rules_summary("switzerland")
    assert "any 3 cards" in rules_summary("nordic") and "9→27" in rules_summary("nordic")
    assert "it can't be your second card" in rules_summary("usa")
    assert "it can't be your second card" not in rules_summary("nordic")
