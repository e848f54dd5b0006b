"""Tournament images: the standings (with their tie-breaks) and the bracket (every round's tables).

Plain data in (the bot fills it from storage.tournaments), drawn like the league images
(rendering/standings.py): 800 px wide, body text 26 px, the board's palette and fonts, any Unicode
name. Rows beyond `MAX_ROWS` and rounds beyond `MAX_ROUNDS` are left out with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from i18n import Translator
from rendering import fonts
from rendering.draw import encode_small
from rendering.standings import FS, MARGIN, MAX_ROWS, WIDTH, _header, _row_start
from rendering.style import BACKGROUND, GOOD, INK, MUTED, PANEL, PANEL_LINE, RenderedImage
from rendering.words import clauses, translator_or_english

MAX_ROUNDS = 4  # bracket columns that fit 800 px legibly


@dataclass(frozen=True)
class TournamentRow:
    place: int
    name: str
    points: float
    score: int
    strength: float
    tables: int
    dropped: bool = False
    highlight: bool = False


@dataclass(frozen=True)
class BracketTable:
    round: int
    number: int
    players: Sequence[tuple[str, int | None]]  # (name, place at the table; None: not played yet)
    advanced: Sequence[bool] = ()  # knockout: who went on


def render_tournament_standings(
    rows: Sequence[TournamentRow], *, title: str, subtitle: str = "", t: Translator | None = None
) -> RenderedImage:
    """Place, player, points, game score, opponents' strength (the tie-breaks, in order), tables."""
    t = translator_or_english(t)
    shown = list(rows[:MAX_ROWS])
    extra = len(rows) - len(shown)
    row_h = 54
    height = 40 + 52 + (36 if subtitle else 0) + 10 + 40 + max(1, len(shown)) * row_h + 24 + (34 if extra else 0) + 10
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    y = _header(d, title, subtitle, 0)
    d.rounded_rectangle(
        (MARGIN / 2, y, WIDTH - MARGIN / 2, y + 40 + max(1, len(shown)) * row_h + 10),
        radius=14,
        fill=PANEL,
        outline=PANEL_LINE,
        width=2,
    )
    right = WIDTH - MARGIN
    cols = {"points": right - 330, "score": right - 220, "strength": right - 100, "tables": right}
    name_x = MARGIN + 58
    hs = 20
    fonts.draw_text(d, (MARGIN + 6, y + 30), "#", hs, MUTED)
    fonts.draw_text(d, (name_x, y + 30), fonts.fit(t.gettext("Player"), hs, cols["points"] - 110 - name_x), hs, MUTED)
    for key, label in (
        ("points", t.gettext("Points")),
        ("score", t.gettext("Score")),
        ("strength", t.gettext("Opp.")),
        ("tables", t.gettext("Tables")),
    ):
        label, size, style = fonts.squeeze(label, hs, 96)
        fonts.draw_text(d, (cols[key], y + 30), label, size, MUTED, style=style, anchor="rs")
    y += 40
    if not shown:
        fonts.draw_text(d, (WIDTH / 2, y + row_h / 2), t.gettext("No results yet"), FS, MUTED, anchor="mm")
    for i, row in enumerate(shown):
        top = y + i * row_h
        mid = top + row_h / 2
        _row_start(d, top, row_h, i, row.place, highlight=row.highlight)
        name = fonts.fit(
            row.name, FS, cols["points"] - 110 - name_x, "bold", fallback=t.gettext("Player {n}", n=row.place)
        )
        fonts.draw_text(d, (name_x, mid), name, FS, MUTED if row.dropped else INK, style="bold", anchor="lm")
        fonts.draw_text(d, (cols["points"], mid), f"{row.points:g}", FS + 2, INK, style="bold", anchor="rm")
        fonts.draw_text(d, (cols["score"], mid), str(row.score), FS, INK, anchor="rm")
        fonts.draw_text(d, (cols["strength"], mid), f"{row.strength:.2f}", FS, INK, anchor="rm")
        fonts.draw_text(d, (cols["tables"], mid), str(row.tables), FS, INK, anchor="rm")
    y += max(1, len(shown)) * row_h + 24
    if extra:
        fonts.draw_text(d, (MARGIN, y + 22), t.ngettext("… and {n} more", "… and {n} more", extra), 20, MUTED)
        y += 34
    img = img.crop((0, 0, WIDTH, min(img.height, round(y + 12))))
    listed = clauses(
        t,
        [
            t.gettext(
                "{place}. {player} {points:g} ({score}, {strength:.2f})",
                place=r.place,
                player=fonts.clean_text(r.name) or t.gettext("Player"),
                points=r.points,
                score=r.score,
                strength=r.strength,
            )
            for r in shown
        ],
    )
    alt = t.gettext("{title}: {ladder}.", title=title, ladder=listed or t.gettext("no results yet"))
    return RenderedImage(encode_small(img), alt[:1024], img.width, img.height)


def render_bracket(
    tables: Sequence[BracketTable], *, title: str, subtitle: str = "", t: Translator | None = None
) -> RenderedImage:
    """One column per round (the last `MAX_ROUNDS`), one box per table: its players by place,
    the winner in bold, those who went on marked."""
    t = translator_or_english(t)
    rounds = sorted({tb.round for tb in tables})[-MAX_ROUNDS:]
    columns = [[tb for tb in tables if tb.round == r] for r in rounds]
    col_w = (WIDTH - MARGIN) / max(1, len(columns))
    line = 34
    box_h = [max((44 + line * len(tb.players) for tb in col), default=0) for col in columns]
    body = max((sum(h + 14 for _ in col) for col, h in zip(columns, box_h)), default=60)
    img = Image.new("RGB", (WIDTH, int(40 + 52 + (36 if subtitle else 0) + 10 + 40 + body + 20)), BACKGROUND)
    d = ImageDraw.Draw(img)
    y0 = _header(d, title, subtitle, 0)
    for c, (number, col) in enumerate(zip(rounds, columns)):
        x = MARGIN / 2 + c * col_w
        fonts.draw_text(
            d,
            (x + 8, y0 + 26),
            fonts.fit(t.gettext("Round {n}", n=number), 22, col_w - 16, "bold"),
            22,
            MUTED,
            style="bold",
        )
        y = y0 + 40
        for tb in col:
            d.rounded_rectangle(
                (x + 4, y, x + col_w - 8, y + box_h[c]), radius=12, fill=PANEL, outline=PANEL_LINE, width=2
            )
            fonts.draw_text(
                d, (x + 16, y + 28), fonts.fit(t.gettext("Table {n}", n=tb.number), 20, col_w - 40), 20, MUTED
            )
            order = sorted(range(len(tb.players)), key=lambda i: (tb.players[i][1] or 99, i))
            for k, i in enumerate(order):
                name, place = tb.players[i]
                went_on = bool(tb.advanced) and tb.advanced[i]
                text = fonts.fit(f"{place}. {name}" if place else name, 22, col_w - 48, "bold")
                fonts.draw_text(
                    d,
                    (x + 16, y + 44 + line * k + 22),
                    text,
                    22,
                    GOOD if went_on else INK,
                    style="bold" if place == 1 else "regular",
                )
            y += box_h[c] + 14
    if not columns:
        fonts.draw_text(d, (WIDTH / 2, y0 + 60), t.gettext("No tables yet"), FS, MUTED, anchor="mm")
    listed = [
        t.gettext(
            "round {round}, table {n}: {players}",
            round=tb.round,
            n=tb.number,
            players=", ".join(fonts.clean_text(n) for n, _ in sorted(tb.players, key=lambda p: p[1] or 99)),
        )
        for tb in tables
        if tb.round in rounds
    ]
    alt = t.gettext("{title}: {tables}.", title=title, tables=clauses(t, listed) or t.gettext("no tables yet"))
    return RenderedImage(encode_small(img), alt[:1024], img.width, img.height)
