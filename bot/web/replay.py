"""A game move by move, rebuilt with the engine from its seed and log: what everyone saw after each
move (the public view, `game.view(None)`) and the move in words as the channel's table worded it
(`texts.present.describe`). The replay page of a finished game reads all of it; the web table's
last moves after a restart read the words of the last few.

The steps are sent compactly: step 0 is the whole public view at the start, every later step only
the view's parts that changed (the page rebuilds each step from the ones before it)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine import Action, Game, KeepTickets
from i18n import Translator
from texts.present import Names, describe, drawn, final_fields, merge_turn

#: The public view's parts a step never sends: always the same for a spectator, or said in words.
UNSENT = frozenset({"schema", "rules_version", "map", "deck", "viewer", "you", "recent", "last_action", "plies"})


@dataclass(frozen=True)
class Step:
    """The game after one move (`seat`, None before the first or for the table) and its words."""

    seat: int | None
    action: Action | None
    view: dict
    lines: list[str]


def steps(t: Translator, game: Game, log: list, names: Names, *, since: int = 0) -> Iterator[Step]:
    """`game` replayed from its seed through `log` (its log, or the part of it to show), one step
    per move (with `since`, only the moves from that one on are worded and yielded). Step 0 is the
    game before any move."""
    again = Game.new(game.map, game.seats, game.seed, game.options)
    if since == 0:
        yield Step(None, None, again.view(None), [])
    for n, (seat, action) in enumerate(log, start=1):
        events = again.apply(seat, action)
        if n < since:
            continue
        said = merge_turn(t, describe(t, again, events, names), drawn(events), seat or 0, names)
        yield Step(seat, action, again.view(None), [line for line in said.split("\n") if line])


def last_lines(t: Translator, game: Game, log: list, names: Names, count: int) -> list[str]:
    """The words of the last moves of `log` (the game's, copied: this runs in a thread while the
    game moves on), at most `count` lines: the web table's last moves when none are in memory."""
    lines: list[str] = []
    # A line per move at most but a few per move sometimes: look back twice as far as needed.
    for step in steps(t, game, log, names, since=max(1, len(log) - 2 * count)):
        lines.extend(step.lines)
    return lines[-count:]


def replay_json(t: Translator, game: Game, log: list, names: Names) -> dict:
    """A finished game for the replay page: every step (the first whole, then what changed) and the
    final results as the Discord card words them."""
    out: list[dict] = []
    before: dict = {}
    for step in steps(t, game, log, names):
        changed = {k: v for k, v in step.view.items() if k not in UNSENT and before.get(k) != v}
        before = step.view
        lines = step.lines
        if not lines and isinstance(step.action, KeepTickets):  # the table tells no one's starting choice
            n = len(step.action.ids)
            lines = [t.ngettext("**{name}** kept {n} ticket", "**{name}** kept {n} tickets", n, name=names(step.seat))]
        out.append({"seat": step.seat, "view": changed, "lines": lines})
    return {
        "steps": out,
        "title": t.gettext("Game over — {map}", map=t.map_name(game.map)),
        "final": [{"title": title, "body": body} for title, body in final_fields(t, game, names)],
    }
