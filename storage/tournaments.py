"""Tournaments: sign-up, rounds of tables, results as games end, drops, standings, CSV export.

The pairings are storage/pairings.py's (pure): this module stores what they decide and replays
them from the stored tables. Several processes may share one PostgreSQL, so every step is a claim
the database arbitrates and a repeat of it does nothing:
- the start is `signup → running` (one UPDATE wins);
- a round is its `tournament_rounds` row (its primary key: one process inserts it, with its tables,
  in one transaction, under the tournament's row lock on PostgreSQL);
- a table's game is started by the process that claimed the table (a lease: a claimer that died is
  taken over), and the game's id is written in the game's own transaction (`link_game`);
- a result is written once (`status = playing → done`).

Every function is keyword-only and takes the session; write functions commit (but `link_game`,
which runs inside the game's transaction).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from i18n import N_
from storage import pairings
from storage.database import detached, writing
from storage.errors import LeagueError
from storage.models import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    TABLE_ABANDONED,
    TABLE_DONE,
    TABLE_PENDING,
    TABLE_PLAYING,
    TOURNAMENT_FINISHED,
    TOURNAMENT_RUNNING,
    TOURNAMENT_SIGNUP,
    GameRecord,
    Player,
    SeatRecord,
    Tournament,
    TournamentEntrant,
    TournamentRound,
    TournamentTable,
    utcnow,
)

#: How long a process's claim on a table lasts before another may open it (its thread and game
#: take seconds; a claimer that died is taken over after this).
CLAIM_LEASE = timedelta(minutes=2)


class TournamentError(LeagueError):
    """A tournament refusal: an English template with parameters (worded by the bot like the
    league refusals, storage/errors.py)."""


class TableTaken(Exception):
    """Another process started this table's game first: the game being created is rolled back."""


def rules(tournament: Tournament) -> pairings.Rules:
    return pairings.Rules(
        format=tournament.format,
        smallest=tournament.smallest,
        largest=tournament.largest,
        rounds=tournament.rounds,
        advance=tournament.advance,
        group_size=tournament.group_size,
    )


# ---------------------------------------------------------------------------- creating and signing up


async def create_tournament(
    *,
    session: AsyncSession,
    guild_id: int,
    channel_id: int,
    name: str,
    organizer_id: int,
    format: str,
    map_id: str,
    options: dict | None = None,
    clock: dict | None = None,
    smallest: int = 3,
    largest: int = 4,
    rounds: int = 3,
    advance: int = 1,
    group_size: int = 8,
    cap: int | None = None,
    signup_deadline: datetime | None = None,
    round_hours: int | None = None,
    season_id: int | None = None,
) -> Tournament:
    if format not in pairings.FORMATS:
        raise TournamentError(N_("there is no tournament format {format!r}"), format=format)
    if not 2 <= smallest <= largest <= 5:
        raise TournamentError(N_("tables must seat 2 to 5 players, the smallest no more than the largest"))
    row = Tournament(
        guild_id=guild_id,
        channel_id=channel_id,
        name=name.strip(),
        organizer_id=organizer_id,
        format=format,
        map_id=map_id,
        options=options or {},
        clock=clock or {},
        smallest=smallest,
        largest=largest,
        rounds=rounds,
        advance=advance,
        group_size=group_size,
        cap=cap,
        signup_deadline=signup_deadline,
        round_hours=round_hours,
        season_id=season_id,
    )
    try:
        async with writing(session):
            session.add(row)
    except IntegrityError:
        raise TournamentError(N_("this server already has a tournament called {name!r}"), name=name) from None
    detached(session, row)
    return row


async def get_tournament(*, session: AsyncSession, tournament_id: int) -> Tournament | None:
    row = await session.get(Tournament, tournament_id, populate_existing=True)
    detached(session, row)
    return row


async def guild_tournaments(*, session: AsyncSession, guild_id: int) -> list[Tournament]:
    """A server's tournaments, newest first."""
    rows = list(
        (
            await session.execute(
                select(Tournament).where(Tournament.guild_id == guild_id).order_by(Tournament.id.desc())
            )
        ).scalars()
    )
    detached(session, *rows)
    return rows


async def unfinished(*, session: AsyncSession) -> list[Tournament]:
    """Tournaments with work left (sign-up or rounds), for the sweep after a start and on a timer."""
    rows = list(
        (
            await session.execute(
                select(Tournament).where(Tournament.status != TOURNAMENT_FINISHED).order_by(Tournament.id)
            )
        ).scalars()
    )
    detached(session, *rows)
    return rows


async def set_signup_message(*, session: AsyncSession, tournament_id: int, message_id: int) -> None:
    async with writing(session):
        await session.execute(
            update(Tournament)
            .where(Tournament.id == tournament_id)
            .values(signup_message_id=message_id)
            .execution_options(synchronize_session=False)
        )


async def _locked(session: AsyncSession, tournament_id: int) -> Tournament:
    """The tournament, its row locked for this transaction on PostgreSQL (SQLite: the write lock)."""
    query = select(Tournament).where(Tournament.id == tournament_id).execution_options(populate_existing=True)
    if session.bind.dialect.name == "postgresql":
        query = query.with_for_update()
    row = (await session.execute(query)).scalar_one_or_none()
    if row is None:
        raise TournamentError(N_("there is no tournament {tournament}"), tournament=tournament_id)
    return row


async def sign_up(*, session: AsyncSession, tournament_id: int, user_id: int, now: datetime | None = None) -> int:
    """Sign a player up; returns how many are signed up. Refused after the start or the deadline,
    when full, or twice."""
    now = now or utcnow()
    async with writing(session):
        t = await _locked(session, tournament_id)
        if t.status != TOURNAMENT_SIGNUP or (t.signup_deadline is not None and now >= t.signup_deadline):
            raise TournamentError(N_("sign-up for {name!r} is closed"), name=t.name)
        seeds = list(
            (
                await session.execute(
                    select(TournamentEntrant.user_id, TournamentEntrant.seed).where(
                        TournamentEntrant.tournament_id == tournament_id
                    )
                )
            ).all()
        )
        if any(u == user_id for u, _ in seeds):
            raise TournamentError(N_("you are signed up for {name!r} already"), name=t.name)
        if t.cap is not None and len(seeds) >= t.cap:
            raise TournamentError(N_("{name!r} is full ({cap} players)"), name=t.name, cap=t.cap)
        session.add(
            TournamentEntrant(
                tournament_id=tournament_id,
                user_id=user_id,
                seed=1 + max((s for _, s in seeds), default=0),
                joined_at=now,
            )
        )
    return len(seeds) + 1


async def withdraw(*, session: AsyncSession, tournament_id: int, user_id: int) -> int:
    """Take a player off the sign-up list (before the start; later it is a drop); returns how many are left."""
    async with writing(session):
        t = await _locked(session, tournament_id)
        if t.status != TOURNAMENT_SIGNUP:
            raise TournamentError(N_("{name!r} has started: ask the organizer to drop you"), name=t.name)
        gone = await session.execute(
            sa.delete(TournamentEntrant)
            .where(TournamentEntrant.tournament_id == tournament_id, TournamentEntrant.user_id == user_id)
            .execution_options(synchronize_session=False)
        )
        if not gone.rowcount:
            raise TournamentError(N_("you are not signed up for {name!r}"), name=t.name)
        left = (
            await session.execute(
                select(sa.func.count())
                .select_from(TournamentEntrant)
                .where(TournamentEntrant.tournament_id == tournament_id)
            )
        ).scalar_one()
    return left


async def entrants(*, session: AsyncSession, tournament_id: int) -> list[TournamentEntrant]:
    rows = list(
        (
            await session.execute(
                select(TournamentEntrant)
                .where(TournamentEntrant.tournament_id == tournament_id)
                .order_by(TournamentEntrant.seed)
            )
        ).scalars()
    )
    detached(session, *rows)
    return rows


# ---------------------------------------------------------------------------- rounds


async def start(*, session: AsyncSession, tournament_id: int, now: datetime | None = None) -> bool:
    """Close sign-up and make round 1's tables (not their games: `open_pending` does). False when
    it had started already (another process, or a repeat)."""
    now = now or utcnow()
    async with writing(session):
        t = await _locked(session, tournament_id)
        if t.status != TOURNAMENT_SIGNUP:
            return False
        players = await _entrant_ids(session, tournament_id)
        if len(players) < max(2, t.smallest):
            raise TournamentError(N_("{name!r} needs at least {n} players to start"), name=t.name, n=max(2, t.smallest))
        t.status = TOURNAMENT_RUNNING
        _add_round(session, t, pairings.next_round(rules(t), players, []), now)  # type: ignore[arg-type]
    return True


async def _entrant_ids(session: AsyncSession, tournament_id: int, *, dropped: bool | None = None) -> list[int]:
    query = select(TournamentEntrant.user_id).where(TournamentEntrant.tournament_id == tournament_id)
    if dropped is not None:
        query = query.where(
            TournamentEntrant.dropped_at.is_not(None) if dropped else TournamentEntrant.dropped_at.is_(None)
        )
    return list((await session.execute(query.order_by(TournamentEntrant.seed))).scalars())


def _add_round(session: AsyncSession, t: Tournament, plan: pairings.Plan, now: datetime) -> None:
    deadline = now + timedelta(hours=t.round_hours) if t.round_hours else None
    session.add(
        TournamentRound(
            tournament_id=t.id,
            number=plan.number,
            stage=plan.stage,
            opened_at=now,  # type: ignore[arg-type]
            deadline=deadline,
        )
    )
    for n, table in enumerate(plan.tables, start=1):
        session.add(
            TournamentTable(
                tournament_id=t.id,
                round=plan.number,
                number=n,
                pod=table.group,  # type: ignore[arg-type]
                players=list(table.players),
            )
        )


async def results(*, session: AsyncSession, tournament_id: int) -> list[pairings.TableResult]:
    """The finished tables, as storage.pairings reads them."""
    stages = dict(
        (
            await session.execute(
                select(TournamentRound.number, TournamentRound.stage).where(
                    TournamentRound.tournament_id == tournament_id
                )
            )
        ).all()
    )
    rows = (
        await session.execute(
            select(TournamentTable)
            .where(TournamentTable.tournament_id == tournament_id, TournamentTable.status == TABLE_DONE)
            .order_by(TournamentTable.round, TournamentTable.number)
        )
    ).scalars()
    return [
        pairings.TableResult(r.round, stages[r.round], tuple(r.players), tuple(r.ranks), tuple(r.scores), r.pod)
        for r in rows
    ]


async def tables(*, session: AsyncSession, tournament_id: int, round: int | None = None) -> list[TournamentTable]:
    """A tournament's tables (one round's, or all), in order."""
    query = select(TournamentTable).where(TournamentTable.tournament_id == tournament_id)
    if round is not None:
        query = query.where(TournamentTable.round == round)
    rows = list((await session.execute(query.order_by(TournamentTable.round, TournamentTable.number))).scalars())
    detached(session, *rows)
    return rows


async def current_round(*, session: AsyncSession, tournament_id: int) -> TournamentRound | None:
    row = (
        await session.execute(
            select(TournamentRound)
            .where(TournamentRound.tournament_id == tournament_id)
            .order_by(TournamentRound.number.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    detached(session, row)
    return row


async def advance(*, session: AsyncSession, tournament_id: int, now: datetime | None = None) -> str:
    """Once every table of the round has its result: the next round's tables, or the end.
    Returns "waiting" (tables still play), "opened" (a new round), "finished" (just now), or
    "idle" (not running: nothing to do)."""
    now = now or utcnow()
    async with writing(session):
        t = await _locked(session, tournament_id)
        if t.status != TOURNAMENT_RUNNING:
            return "idle"
        open_tables = (
            await session.execute(
                select(sa.func.count())
                .select_from(TournamentTable)
                .where(TournamentTable.tournament_id == tournament_id, TournamentTable.status != TABLE_DONE)
            )
        ).scalar_one()
        if open_tables:
            return "waiting"
        plan = pairings.next_round(
            rules(t),
            await _entrant_ids(session, tournament_id),
            await results(session=session, tournament_id=tournament_id),
            dropped=await _entrant_ids(session, tournament_id, dropped=True),
        )
        if plan is None:
            t.status = TOURNAMENT_FINISHED
            return "finished"
        _add_round(session, t, plan, now)
    return "opened"


async def mark_results_posted(*, session: AsyncSession, tournament_id: int) -> bool:
    """Claim the public results post of a finished tournament: True for the one process that posts it."""
    async with writing(session):
        done = await session.execute(
            update(Tournament)
            .where(
                Tournament.id == tournament_id,
                Tournament.status == TOURNAMENT_FINISHED,
                Tournament.results_posted.is_(False),
            )
            .values(results_posted=True)
            .execution_options(synchronize_session=False)
        )
    return bool(done.rowcount)


# ---------------------------------------------------------------------------- tables and their games


async def claim_table(*, session: AsyncSession, table_id: int, owner: str, now: datetime | None = None) -> bool:
    """Claim a pending table to start its game (True: this process does it)."""
    now = now or utcnow()
    async with writing(session):
        claimed = await session.execute(
            update(TournamentTable)
            .where(
                TournamentTable.id == table_id,
                TournamentTable.status == TABLE_PENDING,
                sa.or_(TournamentTable.claimed_at.is_(None), TournamentTable.claimed_at < now - CLAIM_LEASE),
            )
            .values(claimed_by=owner, claimed_at=now)
            .execution_options(synchronize_session=False)
        )
    return bool(claimed.rowcount)


async def link_game(*, session: AsyncSession, table_id: int, game_id: int) -> None:
    """Inside the transaction that creates the table's game (storage.games.create_game's `link`):
    the table is playing that game. Raises TableTaken (rolling the game back) if it has one."""
    linked = await session.execute(
        update(TournamentTable)
        .where(TournamentTable.id == table_id, TournamentTable.status == TABLE_PENDING)
        .values(game_id=game_id, status=TABLE_PLAYING)
        .execution_options(synchronize_session=False)
    )
    if not linked.rowcount:
        raise TableTaken(table_id)


async def table_of_game(*, session: AsyncSession, game_id: int) -> TournamentTable | None:
    row = (
        await session.execute(select(TournamentTable).where(TournamentTable.game_id == game_id))
    ).scalar_one_or_none()
    detached(session, row)
    return row


async def record_game(*, session: AsyncSession, game_id: int, now: datetime | None = None) -> TournamentTable | None:
    """A tournament game ended: its table's result from the seats (places: leavers last, ties
    shared; scores), `playing → done`. A game ended without scores (`/ttr-host end`) leaves its
    table `playing → abandoned`: the organizer decides it (`adjudicate`, or `next` and the round's
    deadline by the score it had). Returns the table when this call changed it (None: not a
    tournament game, still running, or handled already), so its caller announces it once."""
    now = now or utcnow()
    async with writing(session):
        table = (
            await session.execute(
                select(TournamentTable)
                .where(TournamentTable.game_id == game_id, TournamentTable.status == TABLE_PLAYING)
                .execution_options(populate_existing=True)
            )
        ).scalar_one_or_none()
        record = await session.get(GameRecord, game_id, populate_existing=True) if table is not None else None
        if table is None or record is None or record.status not in (FINISHED, ABANDONED):
            return None
        values: dict = {"status": TABLE_ABANDONED}
        if record.status == FINISHED:
            seats = list(
                (
                    await session.execute(
                        select(SeatRecord).where(SeatRecord.game_id == game_id).order_by(SeatRecord.seat)
                    )
                ).scalars()
            )
            by_user = dict(
                zip((s.user_id for s in seats), zip(pairings.places(seats), (s.final_score or 0 for s in seats)))
            )
            values = {
                "status": TABLE_DONE,
                "finished_at": now,
                "ranks": [by_user[u][0] for u in table.players],
                "scores": [by_user[u][1] for u in table.players],
            }
        changed = await session.execute(
            update(TournamentTable)
            .where(TournamentTable.id == table.id, TournamentTable.status == TABLE_PLAYING)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        detached(session, table)
    if not changed.rowcount:
        return None
    for key, value in values.items():
        setattr(table, key, value)
    return table


async def adjudicate(
    *,
    session: AsyncSession,
    table_id: int,
    order: Sequence[int],
    scores: Sequence[int] | None,
    user_id: int,
    now: datetime | None = None,
) -> TournamentTable:
    """The organizer decides a table: `order` lists its players best first (every one of them; equal
    places are not given this way); `scores` in the table's seat order (default: 0)."""
    now = now or utcnow()
    async with writing(session):
        table = await session.get(TournamentTable, table_id, populate_existing=True)
        if table is None:
            raise TournamentError(N_("there is no such tournament table"))
        if sorted(order) != sorted(table.players):
            raise TournamentError(N_("name every player of the table once, best first"))
        table.ranks = [list(order).index(u) + 1 for u in table.players]
        table.scores = list(scores) if scores is not None else list(table.scores or [0] * len(table.players))
        table.status, table.finished_at, table.adjudicated_by = TABLE_DONE, now, user_id
    detached(session, table)
    return table


async def drop(*, session: AsyncSession, tournament_id: int, user_id: int, now: datetime | None = None) -> int | None:
    """Drop a player: not seated in later rounds (their results stay). Returns the game they are
    playing in this round, if any (the bot resigns their seat there: a leaver places last)."""
    now = now or utcnow()
    async with writing(session):
        t = await _locked(session, tournament_id)
        if t.status == TOURNAMENT_FINISHED:
            raise TournamentError(N_("{name!r} is over"), name=t.name)
        dropped = await session.execute(
            update(TournamentEntrant)
            .where(
                TournamentEntrant.tournament_id == tournament_id,
                TournamentEntrant.user_id == user_id,
                TournamentEntrant.dropped_at.is_(None),
            )
            .values(dropped_at=now)
            .execution_options(synchronize_session=False)
        )
        if not dropped.rowcount:
            raise TournamentError(N_("that player is not in {name!r}"), name=t.name)
        playing = (
            await session.execute(
                select(TournamentTable).where(
                    TournamentTable.tournament_id == tournament_id, TournamentTable.status == TABLE_PLAYING
                )
            )
        ).scalars()
        return next((row.game_id for row in playing if user_id in row.players), None)


async def unrecorded_games(*, session: AsyncSession, tournament_id: int) -> list[int]:
    """Games of playing tables that ended while no process heard it (a restart): to record now."""
    rows = await session.execute(
        select(TournamentTable.game_id)
        .join(GameRecord, GameRecord.id == TournamentTable.game_id)
        .where(
            TournamentTable.tournament_id == tournament_id,
            TournamentTable.status == TABLE_PLAYING,
            GameRecord.status != ACTIVE,
        )
    )
    return [g for (g,) in rows]


async def abandoned_tables(*, session: AsyncSession, tournament_id: int) -> list[TournamentTable]:
    """Tables whose game was ended without scores, waiting for the organizer's decision."""
    rows = list(
        (
            await session.execute(
                select(TournamentTable)
                .where(TournamentTable.tournament_id == tournament_id, TournamentTable.status == TABLE_ABANDONED)
                .order_by(TournamentTable.round, TournamentTable.number)
            )
        ).scalars()
    )
    detached(session, *rows)
    return rows


# ---------------------------------------------------------------------------- standings and export


async def standings(*, session: AsyncSession, tournament_id: int) -> list[pairings.Standing]:
    t = await get_tournament(session=session, tournament_id=tournament_id)
    if t is None:
        raise TournamentError(N_("there is no tournament {tournament}"), tournament=tournament_id)
    players = await _entrant_ids(session, tournament_id)
    pods = pairings.group_of(players, rules(t)) if t.format == pairings.GROUPS and players else None
    return pairings.standings(
        players,
        await results(session=session, tournament_id=tournament_id),
        dropped=await _entrant_ids(session, tournament_id, dropped=True),
        groups=pods,
    )


async def names(*, session: AsyncSession, user_ids: Sequence[int]) -> dict[int, str]:
    """The names players last played under (a fallback when Discord does not know them)."""
    rows = await session.execute(select(Player.user_id, Player.display_name).where(Player.user_id.in_(list(user_ids))))
    return {u: n for u, n in rows if n}


async def export_csv(*, session: AsyncSession, tournament_id: int) -> tuple[str, str]:
    """Two CSV texts: every table (one row per seat) and the standings."""
    every = await tables(session=session, tournament_id=tournament_id)
    shown = await names(session=session, user_ids=sorted({u for t in every for u in t.players}))
    seats = io.StringIO()
    out = csv.writer(seats)
    out.writerow(
        [
            "round",
            "table",
            "pod",
            "game_id",
            "status",
            "adjudicated",
            "seat",
            "user_id",
            "name",
            "place",
            "score",
            "points",
        ]
    )
    for t in every:
        points = pairings.table_points(t.ranks) if t.ranks else [None] * len(t.players)
        for seat, user in enumerate(t.players):
            out.writerow(
                [
                    t.round,
                    t.number,
                    t.pod or "",
                    t.game_id or "",
                    t.status,
                    int(t.adjudicated_by is not None),
                    seat + 1,
                    user,
                    shown.get(user, ""),
                    t.ranks[seat] if t.ranks else "",
                    t.scores[seat] if t.scores else "",
                    points[seat] if points[seat] is not None else "",
                ]
            )
    table = io.StringIO()
    out = csv.writer(table)
    out.writerow(["place", "user_id", "name", "points", "score", "opponents_strength", "tables", "wins", "dropped"])
    for s in await standings(session=session, tournament_id=tournament_id):
        out.writerow(
            [
                s.place,
                s.user_id,
                shown.get(s.user_id, ""),
                s.points,
                s.score,
                s.strength,
                s.tables,
                s.wins,
                int(s.dropped),
            ]
        )
    return seats.getvalue(), table.getvalue()
