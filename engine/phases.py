"""Where a game stands, as string enums: a member equals its JSON text (`"playing" == Phase.PLAYING`),
so stored states and views keep plain strings and old games load unchanged. A game holds only
members (`Game.from_json` converts its strings), which the engine compares by identity (`is`:
no string comparison on every move)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The game's phase (docs/rules.md §1.3: everyone chooses tickets, then turns, then the end)."""

    CHOOSING = "choosing"  # everyone picks starting tickets at once
    PLAYING = "playing"
    OVER = "over"


class Stage(StrEnum):
    """A pending step inside the current turn (`game.stage`; None at the start of a turn)."""

    SECOND_CARD = "second_card"  # after a first card that allows another
    TUNNEL = "tunnel"  # a tunnel reveal costs extra: pay or decline
    TICKETS = "tickets"  # after a ticket draw: keep some
    NEUTRAL = "neutral"  # Nederland: the neutral marker holder picks a track (between rounds)


class Termination(StrEnum):
    """Why a game ended (`Game.end_reason`, `Outcome.termination`)."""

    LAST_ROUND = "last_round"  # the last round after a player reached 2 or fewer trains was played
    ALL_PASSED = "all_passed"  # every active seat passed in one round
    TOO_FEW_SEATS = "too_few_seats"  # fewer than two seats remain


# Short names of the members the engine's moves compare by identity (`game.phase is PLAYING`).
CHOOSING, PLAYING, OVER = Phase.CHOOSING, Phase.PLAYING, Phase.OVER
SECOND_CARD, TUNNEL, TICKETS = Stage.SECOND_CARD, Stage.TUNNEL, Stage.TICKETS
