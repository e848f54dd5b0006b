"""Issue 34's words: a player's own moves in the second person, one tense in the turn accounts,
'Game over' said once, tickets a station completes shown as completed, case-free Russian."""

from __future__ import annotations

from i18n import translator
from tests.engine.helpers import give_route, started
from texts.present import private_summary

EN, RU, ZH = translator("en"), translator("ru"), translator("zh")


def test_a_ticket_a_station_completes_reads_completed_with_the_station():
    """docs/rules.md §3.4: Budapest–Sofia through a rival's Sarajevo–Sofia and the seat's station in
    Sarajevo is completed now, and says through which station."""
    game = started("europe", seats=2)
    give_route(game, 0, "Budapest", "Sarajevo")
    give_route(game, 1, "Sarajevo", "Sofia")
    game.tickets[0] = [14]
    assert "⬜ #14 Budapest – Sofia (5)\n" in private_summary(EN, game, 0)
    game.stations[0].append(game.map.find_city("Sarajevo").index)
    assert "✅ #14 Budapest – Sofia (5) · via your station in Sarajevo\n" in private_summary(EN, game, 0)
    assert "✅ #14 Budapest – Sofia (5) · через вашу станцию в городе Sarajevo\n" in private_summary(RU, game, 0)
    assert "✅ #14 Budapest – Sofia (5) · 经由你在 Sarajevo 的车站\n" in private_summary(ZH, game, 0)
