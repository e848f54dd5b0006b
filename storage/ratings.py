"""League ratings as pure functions: openskill Plackett–Luce over a season's results, in order.

No SQL here (nothing of sqlalchemy or sqlmodel is imported; tests/storage/test_ratings.py checks
it), so the maths is tested without a database and `storage/leagues/` only reads rows, calls
`compute_ratings` and writes what it returns. The inputs are anything with the attributes the
Protocols below name: table rows in production, plain objects in tests.

Ties share a rank; everyone who left a game (removed, resigned) shares its last rank. The
displayed rating is the conservative mu − 3·sigma, 0 for a new player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from storage.errors import english

#: The scope of the overall ladder (per-map ladders use the map id).
OVERALL = "all"

#: Plackett–Luce defaults of openskill (mu 25, sigma 25/3): a new player shows 25 − 3·25/3 = 0.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


def displayed(mu: float, sigma: float) -> float:
    """The conservative rating shown to players: mu − 3·sigma."""
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class GameResult:
    """One rated game for the rating computation: `places` are (user id, rank), rank 1 best,
    equal ranks tied (leavers already moved to the last rank). `movers`: the only players whose
    ratings the game changes (None: everyone), e.g. an early leaver's loss (`game_results`)."""

    game_id: int
    map_id: str
    places: tuple[tuple[int, int], ...]
    movers: frozenset[int] | None = None


@dataclass
class RatingState:
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0


@dataclass
class RatingRun:
    """The outcome of `compute_ratings`: ratings per (scope, user) and each game's changes."""

    ratings: dict[tuple[str, int], RatingState] = field(default_factory=dict)
    changes: list[dict[str, Any]] = field(default_factory=list)


def _model():  # type: ignore[no-untyped-def]
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def compute_ratings(
    games: Iterable[GameResult], priors: dict[tuple[str, int], tuple[float, float]] | None = None
) -> RatingRun:
    """Rate `games` in order, in the overall ladder and in each game's map ladder. `priors`:
    starting (mu, sigma) per (scope, user), e.g. a previous season's final ratings."""
    model = _model()
    priors = priors or {}
    run = RatingRun()
    for result in games:
        users = [u for u, _ in result.places]
        ranks = [r for _, r in result.places]
        for scope in (OVERALL, result.map_id):
            states = []
            for user in users:
                state = run.ratings.get((scope, user))
                if state is None:
                    state = RatingState(*priors.get((scope, user), (DEFAULT_MU, DEFAULT_SIGMA)))
                    if result.movers is None or user in result.movers:  # a ladder only for those it rates
                        run.ratings[(scope, user)] = state
                states.append(state)
            teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in states]
            rated = model.rate(teams, ranks=[float(r) for r in ranks])
            for user, rank, state, (after,) in zip(users, ranks, states, rated):
                if result.movers is not None and user not in result.movers:
                    continue
                run.changes.append(
                    {
                        "game_id": result.game_id,
                        "scope": scope,
                        "user_id": user,
                        "rank": rank,
                        "mu_before": state.mu,
                        "sigma_before": state.sigma,
                        "mu_after": after.mu,
                        "sigma_after": after.sigma,
                    }
                )
                state.mu, state.sigma = after.mu, after.sigma
                state.games += 1
                state.wins += rank == 1
    return run


class SeatResult(Protocol):
    """A finished game's seat (storage.models.SeatRecord)."""

    user_id: int | None
    rank: int | None
    left: str | None
    ai: str | None  # with a user: an AI still kept the seat warm when the game ended


def gone(seat: SeatResult) -> bool:
    """Whether a seat's player had left at the end: removed, resigned, or away with an AI still
    playing for them (storage/stand_ins.py; taking the seat back before the end keeps the result)."""
    return seat.left is not None or (seat.ai is not None and seat.user_id is not None)


class GameFacts(Protocol):
    """A league game (storage.models.GameRecord)."""

    status: str
    map_id: str


class SeasonRules(Protocol):
    """What a season allows (storage.models.Season); empty: anything."""

    maps: list
    player_counts: list


def rating_places(seats: Sequence[SeatResult]) -> tuple[tuple[int, int], ...]:
    """(user, rank for rating) of a finished game's seats: those who stayed in the order of the
    game's ranks (ties kept); everyone who left (removed, resigned, or away with an AI in their
    seat at the end: `gone`) shares the last rank."""
    stayed = [s.rank or len(seats) for s in seats if not gone(s)]
    last = len(stayed) + 1

    def place(seat: SeatResult) -> int:  # competition rank among those who stayed (1, 1, 3)
        return last if gone(seat) else 1 + sum(r < (seat.rank or len(seats)) for r in stayed)

    return tuple((s.user_id, place(s)) for s in seats)  # type: ignore[misc]


class Unrated:
    """Why a league game is not rated: an English template with parameters like the league errors'
    (storage/errors.py; Babel extracts it the same way); `str()` is the English kept as the game's
    `note`."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return english(self.template, self.params)


def unrated_reason(record: GameFacts, seats: Sequence[SeatResult], season: SeasonRules) -> Unrated | None:
    """Why a finished or abandoned league game is not rated, or None when it is."""
    if record.status == "abandoned":  # storage.models.ABANDONED (a test checks they agree)
        return Unrated("abandoned")
    if any(s.user_id is None for s in seats):
        return Unrated("AI seats")
    if season.maps and record.map_id not in season.maps:
        return Unrated("map {map} not in the season", map=record.map_id)
    if season.player_counts and len(seats) not in season.player_counts:
        return Unrated("{players} players not allowed", players=len(seats))
    if len({s.user_id for s in seats}) != len(seats):
        return Unrated("a player held two seats")
    return None


def early_leavers(seats: Sequence[SeatResult], turns: Sequence[int], min_turns: int) -> list[int]:
    """Seat numbers that left (resigned, removed, away: `gone`) after fewer than `min_turns` turns."""
    return [i for i, s in enumerate(seats) if gone(s) and turns[i] < min_turns]


def game_results(
    game_id: int, map_id: str, seats: Sequence[SeatResult], turns: Sequence[int] | None, min_turns: int
) -> list[GameResult] | Unrated:
    """What a finished, eligible game gives the ladders under the season's minimum of play
    (docs/leagues.md "Minimum play"): every seat took `min_turns` turns: one ordinary result.
    Otherwise each early leaver takes a loss against the whole table (only their rating moves),
    and the others are rated among themselves when at least two remain and each of them took
    the minimum; a short game nobody left early is not rated."""
    places = rating_places(seats)
    if not min_turns or turns is None or all(n >= min_turns for n in turns):
        return [GameResult(game_id, map_id, places)]
    early = early_leavers(seats, turns, min_turns)
    if not early:
        return Unrated("fewer than {turns} turns each", turns=min_turns)
    results = [GameResult(game_id, map_id, places, movers=frozenset(seats[i].user_id for i in early))]  # type: ignore[misc]
    rest = [s for i, s in enumerate(seats) if i not in early]
    if len(rest) >= 2 and all(turns[i] >= min_turns for i in range(len(seats)) if i not in early):
        results.append(GameResult(game_id, map_id, rating_places(rest)))
    return results
