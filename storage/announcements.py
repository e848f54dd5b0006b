"""The outbox: every stored change is announced in its channel exactly once, crashes included.

A change and its announcement commit together (`save_action(..., announce=Announce(...))` or
`create_game(..., announce=...)` write the row in the action's transaction), so after a kill -9
at any moment every stored turn has a row and no row lacks its turn. Posting is then:

    a = await claim_next(session=s, claimer=me, shard=(shard_id, shard_count))  # or game_id=...
    post the turn with nonce(a, part) and answer a.interaction_token by editing the original response
    await mark_announced(session=s, announcement_id=a.id)

A row can be written already claimed by the process that will post it (`Announce.claimer`), which
then posts it without a claim. A claim is a lease: `claimed_at` is set, and the row is claimable
again only when the lease ran out (the process died or hung while posting). Claiming is one UPDATE guarded by "not announced,
not claimed or lease over", so of several processes sharing one PostgreSQL (or SQLite's one
writer) exactly one gets a row at a time. A re-post after a lost lease repeats the same Discord
nonces, and Discord returns the first message instead of sending a second (it checks nonces for a
few minutes, longer than the lease), so the channel sees each turn once (a nonce carries the row's
random `nonce_key` besides its id: after a restore, a new row with an old id is a new message); editing the original
interaction response is idempotent by nature. Within a game the rows go out in order: a row is
claimable only when every older row of its game is announced.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from storage.database import Step, detached, execute_steps, writing
from storage.models import ANNOUNCEMENT_CAUSES, AcknowledgedMove, Announcement, GameRecord, on_shard, utcnow

#: How long a claim holds: a claimer that did not mark its row by then is taken to be dead.
LEASE = timedelta(seconds=60)
#: Discord accepts an interaction's follow-ups and edits this long after the interaction; a row is
#: written a moment after its interaction arrived, so answers are tried a minute less.
TOKEN_LIFETIME = timedelta(minutes=15)
ANSWER_WINDOW = TOKEN_LIFETIME - timedelta(minutes=1)

# Every action writes these, so they are built once (a statement built per call costs its
# coercions and cache key, more than the INSERT itself) and run on the session's connection.
_ROWS = Announcement.__table__
_ACKS = AcknowledgedMove.__table__
_QUEUE = sa.insert(_ROWS)
_ACKNOWLEDGE = sa.insert(_ACKS)
_FORGET = sa.delete(_ACKS).where(_ACKS.c.interaction_token == sa.bindparam("b_token"))
_MARK = sa.update(_ROWS).where(_ROWS.c.id.in_(sa.bindparam("b_ids", expanding=True)), _ROWS.c.announced_at.is_(None))


#: How a row's interaction is answered: its deferred "thinking…" ends (a tap on the table, a
#: command), the panel it tapped is edited ("panel"), or a new private message ("followup": a tap
#: on the table whose answer updated the panel an earlier tap made).
ANSWERS = ("thinking", "panel", "followup")


@dataclass(frozen=True)
class Announce:
    """What a write owes its channel: why (`cause`, one of ANNOUNCEMENT_CAUSES) and, when the
    change came from an interaction, its token and application id, to answer it after a restart."""

    cause: str
    interaction_token: str | None = None
    application_id: int | None = None
    answer: str = "thinking"  # one of ANSWERS
    #: The process that will post it, if known: the row is written claimed by it (a claim less).
    claimer: str | None = None

    def __post_init__(self) -> None:
        if self.cause not in ANNOUNCEMENT_CAUSES:
            raise ValueError(f"unknown announcement cause {self.cause!r}: one of {', '.join(ANNOUNCEMENT_CAUSES)}")
        if self.answer not in ANSWERS:
            raise ValueError(f"unknown answer {self.answer!r}: one of {', '.join(ANSWERS)}")
        if (self.interaction_token is None) != (self.application_id is None):
            raise ValueError("an interaction is answered with both its token and its application id")


def announcement_steps(*, game_id: int, version: int, announce: Announce, now: datetime) -> tuple[list[Step], dict]:
    """The statements that queue an announcement inside its change's transaction, claimed by
    `announce.claimer` when it names one, and the row's values: the row, and the interaction that
    asked for the change is no longer an unsaved move (`note_acknowledged`)."""
    values: dict = {
        "game_id": game_id,
        "version": version,
        "cause": announce.cause,
        "interaction_token": announce.interaction_token,
        "application_id": announce.application_id,
        "answer": announce.answer,
        "created_at": now,
        "attempts": 0,
        "nonce_key": secrets.token_hex(4),
    }
    if announce.claimer is not None:
        values.update(claimed_at=now, claimed_by=announce.claimer[:64], attempts=1)
    steps = [Step(_QUEUE, values, key=True)]
    if announce.interaction_token is not None:
        steps.append(Step(_FORGET, {"b_token": announce.interaction_token}))
    return steps, values


def note_written(session: AsyncSession, row_id: int, values: dict) -> None:
    """Keep the row `announcement_steps` wrote in this session, for `written` after the commit."""
    session.info[_WRITTEN] = Announcement(id=row_id, **values)


async def add_announcement(
    session: AsyncSession, *, game_id: int, version: int, announce: Announce, now: datetime
) -> None:
    """Queue the announcement inside the caller's (the change's) transaction (`announcement_steps`;
    `written` gives the row after the commit)."""
    steps, values = announcement_steps(game_id=game_id, version=version, announce=announce, now=now)
    keys = await execute_steps(session, steps)
    assert keys is not None  # (no step expects a row count)
    note_written(session, keys[0], values)


_WRITTEN = "ttr_announcement"


def written(session: AsyncSession) -> Announcement | None:
    """The row `add_announcement` wrote in this session (None if it wrote none)."""
    return session.info.get(_WRITTEN)


def _claimable(now: datetime, lease: timedelta, mine: str | None = None) -> sa.ColumnElement[bool]:
    """Not announced, not claimed (or the claim's lease ran out, or `mine` holds it), and no
    older row of its game waiting."""
    older = aliased(Announcement)
    claims = [Announcement.claimed_at.is_(None), Announcement.claimed_at < now - lease]
    if mine is not None:
        claims.append(Announcement.claimed_by == mine[:64])
    return sa.and_(
        Announcement.announced_at.is_(None),
        sa.or_(*claims),
        ~sa.exists().where(
            older.game_id == Announcement.game_id, older.id < Announcement.id, older.announced_at.is_(None)
        ),
    )


def _scoped(
    query: sa.Select, guild_ids: Iterable[int] | None, shard: tuple[int, int] | None, game_id: int | None
) -> sa.Select:
    """Only this process's rows: its guilds, or its shard (Discord's rule: (guild_id >> 22) % count)."""
    if game_id is not None:
        query = query.where(Announcement.game_id == game_id)
    if guild_ids is None and shard is None:
        return query
    # EXISTS: each waiting row's game is probed by its key (a few rows), not every game of the
    # shard listed (their number).
    game = sa.exists().where(GameRecord.id == Announcement.game_id)
    if guild_ids is not None:
        game = game.where(GameRecord.guild_id.in_(sorted(set(guild_ids))))
    if shard is not None:
        game = game.where(on_shard(GameRecord.guild_id, shard))
    return query.where(game)


async def pending_announcements(
    *,
    session: AsyncSession,
    guild_ids: Iterable[int] | None = None,
    shard: tuple[int, int] | None = None,
    game_id: int | None = None,
    limit: int = 100,
    now: datetime | None = None,
    lease: timedelta = LEASE,
) -> list[Announcement]:
    """The rows that can be claimed now, oldest first (a look; `claim_next` takes one)."""
    now = now or utcnow()
    query = _scoped(select(Announcement).where(_claimable(now, lease)), guild_ids, shard, game_id)
    rows = list((await session.execute(query.order_by(Announcement.id).limit(limit))).scalars())
    detached(session, *rows)
    return rows


async def _claim(
    session: AsyncSession, candidates: sa.Select, guard: sa.ColumnElement[bool], claimer: str, now: datetime
) -> Announcement | None:
    """Claim the first of `candidates` (row ids chosen by `guard`), the guard checked again."""
    async with writing(session):
        if session.bind.dialect.name == "postgresql":  # type: ignore[union-attr]
            # Racing claimers skip a row another one is taking instead of queueing behind it.
            candidates = candidates.with_for_update(skip_locked=True)
        chosen = candidates.order_by(Announcement.id).limit(1).scalar_subquery()
        # The guard is repeated in the UPDATE: it is what makes the claim exclusive (a claimer that
        # read the row before another one's commit re-checks it and matches nothing).
        result = await session.execute(
            update(Announcement)
            .where(Announcement.id == chosen, guard)
            # A row this claimer holds already (written claimed by it) is not claimed again:
            # `attempts` above 1 means another claimer took it over (its claimer died or hung).
            .values(
                claimed_at=now,
                claimed_by=claimer[:64],
                attempts=Announcement.attempts + sa.case((Announcement.claimed_by == claimer[:64], 0), else_=1),
            )
            .returning(Announcement)
            .execution_options(synchronize_session=False)
        )
        row = result.scalar_one_or_none()
    detached(session, row)
    return row


async def claim_announcement(
    *, session: AsyncSession, announcement_id: int, claimer: str, now: datetime | None = None, lease: timedelta = LEASE
) -> Announcement | None:
    """Take one row for `lease`; None if it is announced, claimed by someone else, or an older
    row of its game is still waiting (they go out in order)."""
    now = now or utcnow()
    guard = _claimable(now, lease)
    candidates = select(Announcement.id).where(Announcement.id == announcement_id, guard)
    return await _claim(session, candidates, guard, claimer, now)


async def claim_next(
    *,
    session: AsyncSession,
    claimer: str,
    guild_ids: Iterable[int] | None = None,
    shard: tuple[int, int] | None = None,
    game_id: int | None = None,
    now: datetime | None = None,
    lease: timedelta = LEASE,
    mine: bool = False,
) -> Announcement | None:
    """Take the oldest claimable row (of these guilds, this shard or this game) for `lease`; None
    when nothing is waiting (`mine`: rows the claimer holds already count as waiting). Drain with
    `while (a := await claim_next(...)) is not None`."""
    now = now or utcnow()
    guard = _claimable(now, lease, claimer if mine else None)
    candidates = _scoped(select(Announcement.id).where(guard), guild_ids, shard, game_id)
    return await _claim(session, candidates, guard, claimer, now)


async def release_claims(*, session: AsyncSession, prefix: str, keep: str) -> list[int]:
    """End the claims of unposted rows whose claimer's name starts with `prefix`, but `keep`'s: a
    restarted process frees what its dead predecessor (the same prefix) held, without waiting for
    the lease. Returns the freed rows' ids (their `attempts` stay: the next claim counts as a retry)."""
    async with writing(session):
        result = await session.execute(
            update(Announcement)
            .where(
                Announcement.announced_at.is_(None),
                Announcement.claimed_at.is_not(None),
                Announcement.claimed_by.startswith(prefix[:64], autoescape=True),
                Announcement.claimed_by != keep[:64],
            )
            .values(claimed_at=None)
            .returning(Announcement.id)
            .execution_options(synchronize_session=False)
        )
        ids = list(result.scalars())
    return ids


async def backlog(*, session: AsyncSession) -> tuple[int, datetime | None]:
    """How many rows wait to be posted (in the whole database) and when the oldest was written
    (None: none waits): one read of the partial index of the rows not announced."""
    count, oldest = (
        await session.execute(
            select(sa.func.count(), sa.func.min(Announcement.created_at)).where(Announcement.announced_at.is_(None))
        )
    ).one()
    return count, oldest


async def mark_announced(
    *, session: AsyncSession, announcement_id: int, error: str | None = None, now: datetime | None = None
) -> bool:
    """The row's turn is posted (or, with `error`, given up: the channel is gone, the bot may not
    post there). Its interaction token is dropped. False if it was marked already."""
    return await mark_all_announced(session=session, marks=[(announcement_id, error)], now=now) == 1


async def mark_all_announced(
    *, session: AsyncSession, marks: Sequence[tuple[int, str | None]], now: datetime | None = None
) -> int:
    """`mark_announced` for several rows (row id, error) in one transaction; returns how many
    were not marked before."""
    by_error: dict[str | None, list[int]] = {}
    for announcement_id, error in marks:
        by_error.setdefault(error, []).append(announcement_id)
    now = now or utcnow()
    marked = 0
    async with writing(session, one_statement=len(by_error) == 1):
        conn = await session.connection()
        for error, ids in by_error.items():
            result = await conn.execute(
                _MARK, {"b_ids": ids, "announced_at": now, "error": error, "interaction_token": None}
            )
            marked += result.rowcount
    return marked


async def prune_announcements(
    *, session: AsyncSession, older_than: timedelta = timedelta(days=1), now: datetime | None = None
) -> int:
    """Delete announced rows older than `older_than` (the outbox would otherwise keep a row per
    action for ever), and acknowledgements whose token has expired. Returns how many rows went."""
    now = now or utcnow()
    async with writing(session):
        result = await session.execute(
            delete(Announcement)
            .where(Announcement.announced_at.is_not(None), Announcement.announced_at < now - older_than)
            .execution_options(synchronize_session=False)
        )
        expired = await session.execute(
            delete(AcknowledgedMove)
            .where(AcknowledgedMove.created_at < now - TOKEN_LIFETIME)
            .execution_options(synchronize_session=False)
        )
    return result.rowcount + expired.rowcount


def can_answer(announcement: Announcement, now: datetime | None = None) -> bool:
    """Whether the row's interaction can still be answered (its token is younger than 15 minutes)."""
    return announcement.interaction_token is not None and (now or utcnow()) < announcement.created_at + ANSWER_WINDOW


def nonce(announcement: Announcement, part: int = 0) -> str:
    """The Discord nonce of the `part`-th message posted for this row: the same on every retry,
    so Discord sends it once (at most 25 characters). The row's random key keeps it new when a
    restored backup numbers its next rows as rows that were posted after the backup."""
    return f"ttr{announcement.nonce_key or ''}{announcement.id}.{part}"


# ---------------------------------------------------------------------------- unsaved moves
# A move is acknowledged ("thinking…") before it is saved. `note_acknowledged` writes a row then;
# the move's transaction deletes it (`add_announcement`), and a refusal leaves it to be swept. A row
# its process did not delete is a move that may have died unsaved: after a restart the bot looks
# at the interaction, and if it is still "thinking…" tells the player to try again.


async def note_acknowledged(
    *,
    session: AsyncSession,
    interaction_token: str,
    application_id: int,
    guild_id: int | None,
    user_id: int,
    received_by: str,
    in_place: bool = False,
    now: datetime | None = None,
) -> None:
    """An acknowledged move is being made by process `received_by` (`in_place`: its answer
    updates the player's panel, so nothing shows "thinking…")."""
    async with writing(session, one_statement=True):
        await (await session.connection()).execute(
            _ACKNOWLEDGE,
            {
                "interaction_token": interaction_token,
                "application_id": application_id,
                "guild_id": guild_id,
                "user_id": user_id,
                "received_by": received_by[:64],
                "in_place": in_place,
                "created_at": now or utcnow(),
            },
        )


async def forget_answered(*, session: AsyncSession, interaction_token: str) -> None:
    """The move was refused and its player told why: nothing is left to answer after a restart."""
    async with writing(session, one_statement=True):
        await (await session.connection()).execute(_FORGET, {"b_token": interaction_token})


async def unsaved_moves(
    *,
    session: AsyncSession,
    not_by: str,
    older_than: timedelta,
    shard: tuple[int, int] | None = None,
    now: datetime | None = None,
    limit: int = 100,
    dead: str | None = None,
) -> list[AcknowledgedMove]:
    """Acknowledged moves that no other process than `not_by` saved or forgot, older than
    `older_than` (a live process saves or refuses a move well within it; a process whose name
    starts with `dead` is known to be gone, so its moves count at once) and younger than their
    token, of `shard` (a DM's belongs to shard 0, as on Discord), oldest first."""
    now = now or utcnow()
    settled = AcknowledgedMove.created_at < now - older_than
    if dead is not None:
        settled = sa.or_(settled, AcknowledgedMove.received_by.startswith(dead[:64], autoescape=True))
    query = select(AcknowledgedMove).where(
        AcknowledgedMove.received_by != not_by[:64],
        settled,
        AcknowledgedMove.created_at >= now - TOKEN_LIFETIME,
    )
    if shard is not None:
        mine = on_shard(AcknowledgedMove.guild_id, shard)
        query = query.where(mine if shard[0] else sa.or_(AcknowledgedMove.guild_id.is_(None), mine))
    rows = list((await session.execute(query.order_by(AcknowledgedMove.id).limit(limit))).scalars())
    detached(session, *rows)
    return rows


async def forget_acknowledged(*, session: AsyncSession, ids: Iterable[int]) -> int:
    """The moves are dealt with (answered, or found answered already)."""
    async with writing(session):
        result = await session.execute(
            delete(AcknowledgedMove)
            .where(AcknowledgedMove.id.in_(list(ids)))
            .execution_options(synchronize_session=False)
        )
    return result.rowcount
