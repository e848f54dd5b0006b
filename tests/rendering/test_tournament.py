"""Tournament images (rendering/tournament.py): they render 800 px wide, grow with their rows and
rounds, and describe themselves (alt text with every name shown)."""

from __future__ import annotations

import io

from PIL import Image

from rendering.tournament import BracketTable, TournamentRow, render_bracket, render_tournament_standings


def test_standings_and_bracket_render_and_describe_themselves():
    rows = [
        TournamentRow(i + 1, name, 9 - i, 100 - i, 2.5, 3, dropped=i == 2)
        for i, name in enumerate(["alice", "Кирилл", "王小明"])
    ]
    small = render_tournament_standings(rows[:1], title="Cup · Standings")
    image = render_tournament_standings(rows, title="Cup · Standings", subtitle="Swiss")
    assert Image.open(io.BytesIO(image.data)).size == (800, image.height) and image.height > small.height
    assert all(name in image.alt_text for name in ("alice", "Кирилл", "王小明"))
    tables = [
        BracketTable(r, n, [(f"p{r}{n}{k}", k + 1) for k in range(4)], [k == 0 for k in range(4)])
        for r in (1, 2)
        for n in (1, 2)
    ]
    bracket = render_bracket(tables, title="Cup · Tables")
    assert bracket.width == 800 and "p121" in bracket.alt_text and "round 2, table 2" in bracket.alt_text
    assert render_bracket([], title="Cup").height < bracket.height
