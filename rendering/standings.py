"""League images: a season's standings (the ladder) and a player's profile card.

Both take plain data (the bot fills it from `storage.leagues`) and are drawn for a phone: 800 px
wide, body text 26 px (13 px when Discord shows the image 400 px wide, above the 7 px floor of
the board panels), the board's palette and fonts. Names may be any Unicode (font fallback as
everywhere); rows beyond `MAX_ROWS` are left out with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from i18n import Translator
from rendering import fonts
from rendering.draw import encode_small
from rendering.style import (
    BACKGROUND,
    BAD,
    DEFAULT_PLAYER_COLORS,
    GOOD,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_LINE,
    RenderedImage,
    lighter,
)
from rendering.words import clauses, listing, translator_or_english

WIDTH = 800
FS = 26  # body text
MAX_ROWS = 25
MARGIN = 28
MEDALS = {1: (0xE0, 0xA1, 0x00), 2: (0xA8, 0xA8, 0xA8), 3: (0xB8, 0x73, 0x33)}


@dataclass(frozen=True)
class LadderRow:
    place: int
    name: str
    rating: float  # displayed (mu − 3·sigma)
    games: int
    wins: int
    highlight: bool = False  # e.g. the player who asked


@dataclass(frozen=True)
class RecentRow:
    when: str  # e.g. "Nov 29"
    map_name: str
    rank: int
    players: int
    score: int | None
    change: float | None  # displayed rating change


@dataclass(frozen=True)
class ProfileCard:
    name: str
    league: str
    season: str
    rating: float | None  # None: no rated game yet
    place: int | None
    ranked: int  # players in the standings
    games: int
    wins: int
    average_score: float | None
    ticket_rate: float | None  # 0..1
    longest_bonuses: int
    map_ratings: Sequence[tuple[str, float]] = ()
    history: Sequence[float] = ()  # displayed rating after each rated game
    recent: Sequence[RecentRow] = ()
    #: Per map ladder: (map name, [(index in `history`, displayed rating after that game)]).
    map_history: Sequence[tuple[str, Sequence[tuple[int, float]]]] = ()
    #: The league's seasons this player was rated in, oldest first: (season name, overall rating).
    seasons: Sequence[tuple[str, float]] = ()
    min_games: int = 0
    color: tuple[int, int, int] = DEFAULT_PLAYER_COLORS[0]


def _standing(t: Translator, place: int, ranked: int) -> str:
    """'1st of 4' (English ordinals; other languages word the place their own way)."""
    if 10 <= place % 100 <= 20 or place % 10 not in (1, 2, 3):
        return t.gettext("{place}th of {ranked}", place=place, ranked=ranked)
    if place % 10 == 1:
        return t.gettext("{place}st of {ranked}", place=place, ranked=ranked)
    if place % 10 == 2:
        return t.gettext("{place}nd of {ranked}", place=place, ranked=ranked)
    return t.gettext("{place}rd of {ranked}", place=place, ranked=ranked)


def _header(d: ImageDraw.ImageDraw, title: str, subtitle: str, y: float) -> float:
    fonts.draw_text(d, (MARGIN, y + 40), fonts.fit(title, 38, WIDTH - 2 * MARGIN, "bold"), 38, INK, style="bold")
    y += 52
    if subtitle:
        fonts.draw_text(d, (MARGIN, y + 26), fonts.fit(subtitle, 22, WIDTH - 2 * MARGIN), 22, MUTED)
        y += 36
    return y + 10


def _row_start(d: ImageDraw.ImageDraw, top: float, row_h: float, i: int, place: int, *, highlight: bool) -> None:
    """A table row's ground (the reader's own row lit, every other row shaded) and its place's medal."""
    if highlight:
        d.rounded_rectangle(
            (MARGIN / 2 + 6, top + 3, WIDTH - MARGIN / 2 - 6, top + row_h - 3), radius=10, fill=lighter(HIGHLIGHT, 0.72)
        )
    elif i % 2:
        d.rectangle((MARGIN / 2 + 2, top, WIDTH - MARGIN / 2 - 2, top + row_h), fill=lighter(PANEL_LINE, 0.6))
    _medal(d, MARGIN + 14, top + row_h / 2, place)


def _medal(d: ImageDraw.ImageDraw, x: float, y: float, place: int, r: float = 19) -> None:
    color = MEDALS.get(place)
    if color is not None:
        d.ellipse((x - r, y - r, x + r, y + r), fill=color)
        fonts.draw_text(d, (x, y), str(place), 22, (255, 255, 255), style="bold", anchor="mm")
    else:
        fonts.draw_text(d, (x, y), str(place), 24, INK, style="bold", anchor="mm")


def render_standings(
    rows: Sequence[LadderRow], *, title: str, subtitle: str = "", note: str = "", t: Translator | None = None
) -> RenderedImage:
    """The ladder: place (medals for the top three), player, displayed rating, games, wins.
    `title`, `subtitle` and `note` come already in the viewer's language; `t` words the rest."""
    t = translator_or_english(t)
    shown = list(rows[:MAX_ROWS])
    extra = len(rows) - len(shown)
    row_h = 54
    notes = [n for n in (note, t.ngettext("… and {n} more", "… and {n} more", extra) if extra else "") if n]
    height = 40 + 52 + (36 if subtitle else 0) + 10 + 40 + max(1, len(shown)) * row_h + 24 + 34 * len(notes) + 10
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
    cols = {"rating": WIDTH - MARGIN - 230, "games": WIDTH - MARGIN - 110, "wins": WIDTH - MARGIN}
    name_x = MARGIN + 58
    hs = 20
    fonts.draw_text(d, (MARGIN + 6, y + 30), "#", hs, MUTED)
    fonts.draw_text(d, (name_x, y + 30), fonts.fit(t.gettext("Player"), hs, cols["rating"] - 150 - name_x), hs, MUTED)
    for key, label in (("rating", t.gettext("Rating")), ("games", t.gettext("Games")), ("wins", t.gettext("Wins"))):
        label, size, style = fonts.squeeze(label, hs, 104)  # the columns are 110 px apart
        fonts.draw_text(d, (cols[key], y + 30), label, size, MUTED, style=style, anchor="rs")
    y += 40
    if not shown:
        fonts.draw_text(d, (WIDTH / 2, y + row_h / 2), t.gettext("No rated games yet"), FS, MUTED, anchor="mm")
    for i, row in enumerate(shown):
        top = y + i * row_h
        mid = top + row_h / 2
        _row_start(d, top, row_h, i, row.place, highlight=row.highlight)
        name = fonts.fit(
            row.name, FS, cols["rating"] - 150 - name_x, "bold", fallback=t.gettext("Player {n}", n=row.place)
        )
        fonts.draw_text(d, (name_x, mid), name, FS, INK, style="bold", anchor="lm")
        fonts.draw_text(d, (cols["rating"], mid), f"{row.rating:.1f}", FS + 2, INK, style="bold", anchor="rm")
        fonts.draw_text(d, (cols["games"], mid), str(row.games), FS, INK, anchor="rm")
        fonts.draw_text(d, (cols["wins"], mid), str(row.wins), FS, INK, anchor="rm")
    y += max(1, len(shown)) * row_h + 24
    for n in notes:
        fonts.draw_text(d, (MARGIN, y + 22), fonts.fit(n, 20, WIDTH - 2 * MARGIN), 20, MUTED)
        y += 34
    img = img.crop((0, 0, WIDTH, min(img.height, round(y + (12 if notes else 0)))))
    ladder = clauses(
        t,
        [
            t.gettext(
                "{place}. {player} {rating:.1f} ({games}, {wins})",
                place=r.place,
                player=fonts.clean_text(r.name) or t.gettext("Player"),
                rating=r.rating,
                games=t.ngettext("{n} game", "{n} games", r.games),
                wins=t.ngettext("{n} win", "{n} wins", r.wins),
            )
            for r in shown
        ],
    )
    alt = t.gettext("{title}: {ladder}.", title=title, ladder=ladder or t.gettext("no rated games yet"))
    return RenderedImage(encode_small(img), alt[:1024], img.width, img.height)


def _tile(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], value: str, label: str) -> None:
    d.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_LINE, width=2)
    cx = (box[0] + box[2]) / 2
    fonts.draw_text(
        d, (cx, box[1] + 50), fonts.fit(value, 34, box[2] - box[0] - 12, "bold"), 34, INK, style="bold", anchor="ms"
    )
    label, size, style = fonts.squeeze(label, 19, box[2] - box[0] - 12)
    fonts.draw_text(d, (cx, box[1] + 82), label, size, MUTED, style=style, anchor="ms")


def _history_chart(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], card: ProfileCard, caption: str
) -> None:
    """The rating after each game of the season, overall (thick, the player's colour) and per map
    (thin, a colour each, named in the legend); beside it, bars of the rating each season ended on."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_LINE, width=2)
    fonts.draw_text(d, (x0 + 16, y0 + 30), fonts.fit(caption, 19, (x1 - x0) / 2 - 24), 19, MUTED)
    seasons = list(card.seasons[-5:]) if len(card.seasons) >= 2 else []
    split = x1 - 64 * len(seasons) - 16 if seasons else x1
    palette = [c for c in DEFAULT_PLAYER_COLORS if c != card.color]
    series = [(card.color, 4, list(enumerate(card.history)))]
    series += [(palette[i % len(palette)], 3, list(points)) for i, (_, points) in enumerate(card.map_history)]
    legend_x = x0 + (x1 - x0) / 2
    for i, (name, _) in enumerate(card.map_history[:3]):
        color = palette[i % len(palette)]
        d.ellipse((legend_x, y0 + 16, legend_x + 12, y0 + 28), fill=color)
        label = fonts.fit(name, 17, 110)
        fonts.draw_text(d, (legend_x + 16, y0 + 28), label, 17, MUTED)
        legend_x += 16 + fonts.measure(label, 17) + 14
    values = [0.0, *card.history, *(v for _, points in card.map_history for _, v in points)]
    lo, hi = min(values), max(values)
    if hi - lo < 1:
        lo, hi = lo - 0.5, hi + 0.5
    px0, py0, px1, py1 = x0 + 60, y0 + 44, split - 20, y1 - 16
    fonts.draw_text(d, (px0 - 8, py0 + 8), f"{hi:.0f}", 16, MUTED, anchor="rs")
    fonts.draw_text(d, (px0 - 8, py1), f"{lo:.0f}", 16, MUTED, anchor="rs")
    games = max(1, len(card.history))

    def at(i: float, v: float) -> tuple[float, float]:  # i: games played (-1: the start, at 0)
        return px0 + (px1 - px0) * (i + 1) / games, py1 - (py1 - py0) * (v - lo) / (hi - lo)

    if lo < 0 < hi:
        zy = at(-1, 0.0)[1]
        d.line((px0, zy, px1, zy), fill=PANEL_LINE, width=2)
    for color, width, points in reversed(series):  # the overall line on top
        line = [at(-1, 0.0), *(at(i, v) for i, v in points)]
        d.line(line, fill=color, width=width, joint="curve")
        for x, y in line[1:]:
            d.ellipse((x - width, y - width, x + width, y + width), fill=color)
    if seasons:
        top = max(1.0, *(abs(v) for _, v in seasons))
        base = (y0 + 44 + y1 - 34) / 2 if any(v < 0 for _, v in seasons) else y1 - 34
        reach = base - (y0 + 48)
        for i, (name, value) in enumerate(seasons):
            bx = split + 8 + i * 64
            end = base - reach * value / top
            d.rectangle(
                (bx + 8, min(base, end), bx + 52, max(base, end)),
                fill=card.color if i == len(seasons) - 1 else lighter(card.color, 0.5),
            )
            fonts.draw_text(d, (bx + 30, y1 - 12), fonts.fit(name, 15, 60), 15, MUTED, anchor="ms")
            fonts.draw_text(d, (bx + 30, min(base, end) - 4), f"{value:.0f}", 15, INK, anchor="ms")


def render_profile(card: ProfileCard, *, t: Translator | None = None) -> RenderedImage:
    """A player's season: displayed rating and place, games, wins, average score, ticket
    completion rate, longest-path bonuses, per-map ratings, a rating curve and recent games.
    The card's texts (league, season, map names, dates) come in the viewer's language already."""
    t = translator_or_english(t)
    recent = list(card.recent[:8])
    has_curve = len(card.history) >= 2
    height = (
        40
        + 52
        + 36
        + 10
        + 130
        + 16
        + 2 * (100 + 14)
        + (40 if card.map_ratings else 0)
        + (190 if has_curve else 0)
        + 50
        + max(1, len(recent)) * 46
        + 30
    )
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    name = fonts.clean_text(card.name, "bold") or t.gettext("Player")
    y = _header(d, name, f"{card.league} · {card.season}", 0)
    # the rating banner
    d.rounded_rectangle(
        (MARGIN / 2, y, WIDTH - MARGIN / 2, y + 130),
        radius=14,
        fill=lighter(card.color, 0.82),
        outline=card.color,
        width=3,
    )
    rating = "–" if card.rating is None else f"{card.rating:.1f}"
    fonts.draw_text(d, (MARGIN + 10, y + 34), fonts.fit(t.gettext("Rating"), 20, WIDTH / 2 - MARGIN), 20, MUTED)
    fonts.draw_text(d, (MARGIN + 10, y + 104), rating, 64, INK, style="bold")
    if card.place is not None:
        place = _standing(t, card.place, card.ranked)
    elif card.games:
        more = max(0, card.min_games - card.games)
        place = t.ngettext("{n} more game to rank", "{n} more games to rank", more)
    else:
        place = t.gettext("no rated games yet")
    fonts.draw_text(
        d,
        (WIDTH - MARGIN - 10, y + 34),
        fonts.fit(t.gettext("Standing"), 20, WIDTH / 2 - MARGIN),
        20,
        MUTED,
        anchor="rs",
    )
    place, size, style = fonts.squeeze(place, 38, WIDTH / 2, "bold", min_size=24)
    fonts.draw_text(d, (WIDTH - MARGIN - 10, y + 94), place, size, INK, style=style, anchor="rs")
    y += 130 + 16
    # stat tiles, two rows of three
    tiles = [
        (str(card.games), t.pgettext("profile tile", "games")),
        (str(card.wins), t.pgettext("profile tile", "wins")),
        (f"{100 * card.wins / card.games:.0f}%" if card.games else "–", t.pgettext("profile tile", "win rate")),
        (
            f"{card.average_score:.0f}" if card.average_score is not None else "–",
            t.pgettext("profile tile", "average score"),
        ),
        (
            f"{100 * card.ticket_rate:.0f}%" if card.ticket_rate is not None else "–",
            t.pgettext("profile tile", "tickets completed"),
        ),
        (str(card.longest_bonuses), t.pgettext("profile tile", "longest-path bonuses")),
    ]
    gap = 14
    tw = (WIDTH - MARGIN - 2 * gap) / 3
    for i, (value, label) in enumerate(tiles):
        r, c = divmod(i, 3)
        x = MARGIN / 2 + c * (tw + gap)
        _tile(d, (x, y + r * (100 + gap), x + tw, y + r * (100 + gap) + 100), value, label)
    y += 2 * (100 + gap)
    if card.map_ratings:
        text = t.gettext("By map: {ratings}", ratings=" · ".join(f"{m} {v:.1f}" for m, v in card.map_ratings))
        fonts.draw_text(d, (MARGIN, y + 26), fonts.fit(text, 22, WIDTH - 2 * MARGIN), 22, INK)
        y += 40
    if has_curve:
        _history_chart(d, (MARGIN / 2, y + 6, WIDTH - MARGIN / 2, y + 176), card, t.gettext("Rating after each game"))
        y += 190
    fonts.draw_text(
        d, (MARGIN, y + 34), fonts.fit(t.gettext("Recent games"), 24, WIDTH - 2 * MARGIN, "bold"), 24, INK, style="bold"
    )
    y += 50
    if not recent:
        fonts.draw_text(d, (MARGIN, y + 30), t.gettext("No rated games yet"), 22, MUTED)
    for i, g in enumerate(recent):
        top = y + i * 46
        mid = top + 23
        if i % 2 == 0:
            d.rectangle((MARGIN / 2, top, WIDTH - MARGIN / 2, top + 46), fill=PANEL)
        _medal(d, MARGIN + 14, mid, g.rank, r=16)
        of = fonts.fit(t.gettext("of {n}", n=g.players), 20, 120 - 44 - 4)
        fonts.draw_text(d, (MARGIN + 44, mid), of, 20, MUTED, anchor="lm")
        fonts.draw_text(d, (MARGIN + 120, mid), fonts.fit(f"{g.map_name} · {g.when}", 22, 330), 22, INK, anchor="lm")
        score = "–" if g.score is None else t.ngettext("{n} pt", "{n} pts", g.score)
        fonts.draw_text(d, (WIDTH - MARGIN - 130, mid), score, 22, INK, anchor="rm")
        if g.change is not None:
            fonts.draw_text(
                d,
                (WIDTH - MARGIN, mid),
                f"{g.change:+.1f}",
                22,
                GOOD if g.change >= 0 else BAD,
                style="bold",
                anchor="rm",
            )
    img = img.crop((0, 0, WIDTH, min(img.height, round(y + max(1, len(recent)) * 46 + 24))))
    facts = [t.ngettext("{n} game", "{n} games", card.games), t.ngettext("{n} win", "{n} wins", card.wins)]
    if card.average_score is not None:
        facts.append(t.gettext("average score {n:.0f}", n=card.average_score))
    if card.ticket_rate is not None:
        facts.append(t.gettext("tickets completed {percent:.0f}%", percent=100 * card.ticket_rate))
    facts.append(t.ngettext("{n} longest-path bonus", "{n} longest-path bonuses", card.longest_bonuses))
    if len(card.seasons) >= 2:
        facts.append(t.gettext("by season {ratings}", ratings=" · ".join(f"{n} {v:.1f}" for n, v in card.seasons)))
    alt = t.gettext(
        "{player}, {league} {season}: rating {rating}, {standing}; {facts}.",
        player=name,
        league=card.league,
        season=card.season,
        rating=rating,
        standing=place,
        facts=listing(t, facts),
    )
    return RenderedImage(encode_small(img), alt[:1024], img.width, img.height)


__all__ = ["LadderRow", "ProfileCard", "RecentRow", "render_profile", "render_standings"]
