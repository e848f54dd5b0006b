"""The bot's Prometheus metrics, defined once; the rest of the bot reports through the small
functions and context managers here, and `bot.health` serves them on /metrics.

    started = metrics.now()             # before drawing a turn's board
    with metrics.turn_message(started): # around posting its message
        await channel.send(...)
    metrics.timer_fired("deadline")     # a due timer was handled (moves are counted by `install`)
    with metrics.interaction(interaction):   # around a component's handler (commands are counted
        ...                                  # by the listeners `install` adds)
    metrics.error("Forbidden")          # an error that is not logged at ERROR (those count by themselves)

The metric objects belong to no global registry: each health server registers them with its own,
next to the gauges it reads from its bot at scrape time."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
from prometheus_client import Counter, Histogram

INTERACTIONS = Counter("ttr_interactions", "Interactions received, by type", ["type"], registry=None)
INTERACTION_SECONDS = Histogram(
    "ttr_interaction_seconds",
    "Time from receiving an interaction until its handler finished",
    ["type", "outcome"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30),
    registry=None,
)
TURN_MESSAGES = Counter("ttr_turn_messages", "Turn messages (board image and buttons) posted", registry=None)
TURN_MESSAGE_SECONDS = Histogram(
    "ttr_turn_message_seconds",
    "Time to render and post one turn message (from before its board is drawn until it is posted)",
    buckets=(0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30),
    registry=None,
)
# Both exported from the start: the total at 0 (a rate or an alert needs the series before the
# first error), each kind once it happened.
ERRORS = Counter("ttr_errors", "Errors (every kind)", registry=None)
ERRORS_BY_KIND = Counter(
    "ttr_errors_by_kind",
    "Errors, by kind (the exception's class, or the logger of an error line)",
    ["kind"],
    registry=None,
)
MOVES = Counter(
    "ttr_moves", "Moves applied to games, by cause (player, ai, timeout, undo, kick)", ["cause"], registry=None
)
TIMERS_FIRED = Counter(
    "ttr_timers_fired", "Due turn timers handled, by kind (reminder, deadline)", ["kind"], registry=None
)

COLLECTORS = (
    INTERACTIONS,
    INTERACTION_SECONDS,
    TURN_MESSAGES,
    TURN_MESSAGE_SECONDS,
    ERRORS,
    ERRORS_BY_KIND,
    MOVES,
    TIMERS_FIRED,
)
#: Where the move counter listens among the game service's listeners: before the others (whatever
#: they do, the move is applied and stored).
MOVES_ORDER = 0

_TYPES = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.modal_submit: "modal",
}
_STARTED = "ttr_metrics_started"


def _type(interaction: discord.Interaction) -> str:
    return _TYPES.get(interaction.type, "other")


def interaction_received(interaction: discord.Interaction) -> None:
    """Count an interaction and note when it arrived (in `interaction.extras`)."""
    interaction.extras.setdefault(_STARTED, time.perf_counter())
    INTERACTIONS.labels(_type(interaction)).inc()


def interaction_finished(interaction: discord.Interaction, outcome: str = "ok") -> None:
    """Observe the time since `interaction_received` (or since now, if it was not seen)."""
    started = interaction.extras.pop(_STARTED, None)
    elapsed = 0.0 if started is None else time.perf_counter() - started
    INTERACTION_SECONDS.labels(_type(interaction), outcome).observe(elapsed)


@contextmanager
def interaction(interaction: discord.Interaction) -> Iterator[None]:
    """Around a handler: its latency with outcome `ok` or `error`."""
    interaction.extras.setdefault(_STARTED, time.perf_counter())
    try:
        yield
    except BaseException:
        interaction_finished(interaction, "error")
        raise
    interaction_finished(interaction, "ok")


def now() -> float:
    """A start for `turn_message`, taken before the board is drawn."""
    return time.perf_counter()


@contextmanager
def turn_message(started: float | None = None) -> Iterator[None]:
    """Around posting a turn message: counted and timed (from `started`, taken before its board
    was rendered; else from here) when it was posted."""
    started = time.perf_counter() if started is None else started
    yield
    TURN_MESSAGES.inc()
    TURN_MESSAGE_SECONDS.observe(time.perf_counter() - started)


def error(kind: str) -> None:
    ERRORS.inc()
    ERRORS_BY_KIND.labels(kind).inc()


def timer_fired(kind: str) -> None:
    TIMERS_FIRED.labels(kind).inc()


async def _on_outcome(outcome: Any) -> None:
    """A game service listener: each applied move (not a game's start or end) by its cause."""
    if outcome.action is not None:
        MOVES.labels(str(outcome.cause.kind)).inc()


class ErrorCounter(logging.Handler):
    """Counts every record at ERROR or above: the bot logs each unexpected error once, so this is
    where errors are counted without a call at each place."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        error(type(exc).__name__ if exc is not None else record.name)


def install(bot: Any) -> ErrorCounter:
    """Count the bot's interactions and command latencies, and its errors; returns the log handler
    to remove again (`uninstall`)."""
    bot.add_listener(_on_interaction, "on_interaction")
    bot.add_listener(_on_app_command_completion, "on_app_command_completion")
    bot.service.subscribe(MOVES_ORDER, _on_outcome)
    handler = ErrorCounter()
    logging.getLogger().addHandler(handler)
    return handler


def uninstall(bot: Any, handler: ErrorCounter) -> None:
    bot.remove_listener(_on_interaction, "on_interaction")
    bot.remove_listener(_on_app_command_completion, "on_app_command_completion")
    bot.service.unsubscribe(_on_outcome)
    logging.getLogger().removeHandler(handler)


async def _on_interaction(interaction: discord.Interaction) -> None:
    interaction_received(interaction)


async def _on_app_command_completion(interaction: discord.Interaction, command: Any) -> None:
    interaction_finished(interaction, "ok")
