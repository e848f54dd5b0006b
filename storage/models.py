"""Tables (SQLModel). Created and evolved only by the Alembic migrations in `storage/migrations/`.

Layers: a `...Base` class holds the fields a caller sets; the `table=True` class adds keys and
bookkeeping. Discord ids are 64-bit: `BigInteger`. JSON columns hold engine data as-is
(`Game.to_json()`, `GameOptions.to_json()`).

One module holds the tables (games, players, lobbies, leagues, the outbox, undo votes; the turn
clocks' tables still live in storage/clocks.py): a new table goes here, with a migration whose
`down_revision` is the current head. The functions that read and write them live in the modules
named after what they do (games, lobbies, leagues, announcements, undo_votes).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from storage.ratings import displayed

# Named constraints: Alembic's batch mode (SQLite ALTER) needs names to drop or change them.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Game status. Only `active` games take actions; a channel has at most one.
ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
GAME_STATUSES = (ACTIVE, FINISHED, ABANDONED)

# Lobby status.
OPEN = "open"
STARTED = "started"
CANCELLED = "cancelled"

# League season status. At most one season of a league is active.
SEASON_ACTIVE = "active"
SEASON_CLOSED = "closed"


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(sa.TypeDecorator):
    """Timezone-aware UTC datetimes on every backend. PostgreSQL: `timestamptz`. SQLite:
    microseconds since 1970 as an integer (8 bytes instead of a 26-character text; it sorts the
    same). Naive datetimes are refused."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: sa.Dialect) -> sa.types.TypeEngine:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(sa.BigInteger())
        return dialect.type_descriptor(sa.DateTime(timezone=True))

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | int | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: use timezone-aware UTC datetimes")
        if dialect.name == "sqlite":
            return (value - EPOCH) // timedelta(microseconds=1)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | int | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, int):
            return EPOCH + timedelta(microseconds=value)
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def on_shard(guild_id: Any, shard: tuple[int, int]) -> Any:
    """A SQL condition: the guild id (a column) is on `shard` = (shard id, shard count), Discord's
    rule (guild_id >> 22) % count == id."""
    shard_id, shard_count = shard
    return guild_id.op(">>")(sa.literal_column("22")) % shard_count == shard_id


def _discord_id(**kwargs: Any) -> Any:
    return Field(sa_type=sa.BigInteger, **kwargs)


def _created() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


# ---------------------------------------------------------------------------- games


class GameBase(SQLModel):
    guild_id: int = _discord_id(index=True)
    channel_id: int = _discord_id()  # where the game is played: a text channel or a thread
    parent_id: int | None = _discord_id(default=None, nullable=True)  # a thread's text channel
    map_id: str = Field(max_length=64)
    options: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)  # GameOptions.to_json()
    seats: int
    seed: int = Field(sa_type=sa.BigInteger)
    rules_version: int
    map_sha256: str = Field(max_length=64)
    host_id: int | None = _discord_id(default=None, nullable=True)  # runs the admin commands


class GameRecord(GameBase, table=True):
    """A game. `version` is the number of actions in its log; every write checks it (optimistic
    concurrency). `state` is `Game.to_json()` at that version."""

    __tablename__ = "games"
    __table_args__ = (
        # At most one active game per channel: a database constraint, not only a check.
        sa.Index(
            "uq_games_active_channel",
            "channel_id",
            unique=True,
            sqlite_where=sa.text("status = 'active'"),
            postgresql_where=sa.text("status = 'active'"),
        ),
        sa.CheckConstraint("status IN ('active', 'finished', 'abandoned')", name="status"),
        # Games by status, and the AI seats' sweep: the active games written since its last look
        # (games.ai_games), a range of this index.
        sa.Index("ix_games_status_updated", "status", "updated_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    status: str = Field(default=ACTIVE, max_length=16)
    version: int = 0
    state: dict = Field(sa_type=sa.JSON, nullable=False)
    read_only_reason: str | None = Field(default=None, sa_type=sa.Text)  # set by recovery
    created_at: datetime = _created()
    updated_at: datetime = _created()
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    end_reason: str | None = Field(default=None, max_length=32)


class ActionRecord(SQLModel, table=True):
    """The append-only action log: one row per accepted action, in the engine's notation.
    `seq` runs 1, 2, ... and equals the game's version once that action is saved."""

    __tablename__ = "actions"
    # SQLite: the rows live in the primary key's b-tree (no rowid, no second copy of the key).
    __table_args__ = {"sqlite_with_rowid": False}

    # Column order packs PostgreSQL rows (8-byte timestamp aligned, text last): a log has hundreds.
    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    created_at: datetime = _created()
    seat: int | None = Field(default=None, sa_type=sa.SmallInteger)  # None: the table (skip, remove)
    action: str = Field(sa_type=sa.Text)


class SeatBase(SQLModel):
    user_id: int | None = _discord_id(default=None, nullable=True, index=True)  # None: an AI seat
    color: str | None = Field(default=None, max_length=16)
    #: An AI seat's strength ("baseline", ...); with a user: the AI keeps that person's seat warm
    #: (storage/stand_ins.py) until they take it back.
    ai: str | None = Field(default=None, max_length=16)


class SeatRecord(SeatBase, table=True):
    """Who sits where, and the result once the game is over."""

    __tablename__ = "seats"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})  # 0-based, as in the engine
    left: str | None = Field(default=None, max_length=16)  # "resigned" / "removed"
    final_score: int | None = None
    rank: int | None = None
    tickets_completed: int | None = None
    tickets_failed: int | None = None
    longest_bonus: bool | None = None  # won the longest-path bonus
    bonuses: dict | None = Field(default=None, sa_type=sa.JSON)
    #: The web table's links to this seat issued before this are refused (bot/web/links.py): set
    #: when the player revokes them, and when the seat is given to another player.
    web_revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


# ---------------------------------------------------------------------------- players and guilds


class PlayerBase(SQLModel):
    display_name: str | None = Field(default=None, max_length=100)
    color_blind: bool = False
    language: str | None = Field(default=None, max_length=16)
    preferences: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)


class Player(PlayerBase, table=True):
    __tablename__ = "players"

    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    created_at: datetime = _created()
    updated_at: datetime = _created()


class GuildSettingsBase(SQLModel):
    language: str | None = Field(default=None, max_length=16)
    default_map: str | None = Field(default=None, max_length=64)
    settings: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)


class GuildSettings(GuildSettingsBase, table=True):
    __tablename__ = "guild_settings"

    guild_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    created_at: datetime = _created()
    updated_at: datetime = _created()


# ---------------------------------------------------------------------------- lobbies


class LobbyBase(SQLModel):
    guild_id: int = _discord_id(index=True)
    channel_id: int = _discord_id()
    host_id: int = _discord_id()
    map_id: str = Field(max_length=64)
    options: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    max_seats: int = 5


class Lobby(LobbyBase, table=True):
    """A game being gathered, before it exists. At most one open lobby per channel."""

    __tablename__ = "lobbies"
    __table_args__ = (
        sa.Index(
            "uq_lobbies_open_channel",
            "channel_id",
            unique=True,
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    status: str = Field(default=OPEN, max_length=16)
    game_id: int | None = Field(default=None, foreign_key="games.id", ondelete="SET NULL")
    created_at: datetime = _created()
    updated_at: datetime = _created()


class LobbyMember(SQLModel, table=True):
    """One row per player in a lobby: joins are inserts, so two joins at once never lose one."""

    __tablename__ = "lobby_members"

    lobby_id: int = Field(foreign_key="lobbies.id", primary_key=True, ondelete="CASCADE")
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    color: str | None = Field(default=None, max_length=16)
    joined_at: datetime = _created()


# ---------------------------------------------------------------------------- leagues


class League(SQLModel, table=True):
    __tablename__ = "leagues"
    __table_args__ = (sa.UniqueConstraint("guild_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _discord_id()
    name: str = Field(max_length=64)
    admin_role_id: int | None = _discord_id(default=None, nullable=True)  # league admins (besides Manage Server)
    created_by: int = _discord_id()
    created_at: datetime = _created()
    channel_id: int | None = _discord_id(default=None, nullable=True)  # where season results are posted


class Season(SQLModel, table=True):
    __tablename__ = "league_seasons"
    __table_args__ = (
        sa.UniqueConstraint("league_id", "name"),
        # At most one active season per league: a database constraint.
        sa.Index(
            "uq_league_seasons_active",
            "league_id",
            unique=True,
            sqlite_where=sa.text("status = 'active'"),
            postgresql_where=sa.text("status = 'active'"),
        ),
        sa.CheckConstraint("status IN ('active', 'closed')", name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE")
    name: str = Field(max_length=64)
    starts_at: datetime = Field(sa_type=UTCDateTime)
    ends_at: datetime = Field(sa_type=UTCDateTime)
    maps: list = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # map ids; empty: any
    player_counts: list = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # empty: any
    min_games: int = 1  # rated games needed to appear in the standings
    carry_over: bool = False  # this season's final ratings seed the next season
    status: str = Field(default=SEASON_ACTIVE, max_length=16)
    created_at: datetime = _created()
    min_turns: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # each seat's turns for a game to count
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # when the close was claimed


class LeagueGame(SQLModel, table=True):
    """A game that belongs to a season. `rated` is None until the game ends; then True, or False
    with the reason in `note` (AI seats, abandoned, a map or player count the season excludes)."""

    __tablename__ = "league_games"

    game_id: int = Field(
        foreign_key="games.id", primary_key=True, ondelete="CASCADE", sa_column_kwargs={"autoincrement": False}
    )
    season_id: int = Field(foreign_key="league_seasons.id", ondelete="CASCADE", index=True)
    added_by: int | None = _discord_id(default=None, nullable=True)
    added_at: datetime = _created()
    rated: bool | None = None
    note: str | None = Field(default=None, max_length=64)
    voided: bool = False
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    turns: list | None = Field(default=None, sa_type=sa.JSON)  # turns each seat took (seasons with min_turns)


class LeagueLobby(SQLModel, table=True):
    """A lobby whose game will belong to a season (the game does not exist yet)."""

    __tablename__ = "league_lobbies"

    lobby_id: int = Field(
        foreign_key="lobbies.id", primary_key=True, ondelete="CASCADE", sa_column_kwargs={"autoincrement": False}
    )
    season_id: int = Field(foreign_key="league_seasons.id", ondelete="CASCADE", index=True)
    added_by: int | None = _discord_id(default=None, nullable=True)
    added_at: datetime = _created()


class LeagueRating(SQLModel, table=True):
    """A player's rating in a season's ladder (`scope`: "all" or a map id). Derived data:
    rebuilt by `recompute_season`."""

    __tablename__ = "league_ratings"

    season_id: int = Field(foreign_key="league_seasons.id", primary_key=True, ondelete="CASCADE")
    scope: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def displayed(self) -> float:
        return displayed(self.mu, self.sigma)


class LeagueRatingChange(SQLModel, table=True):
    """What one rated game did to one player's rating in one ladder (derived, rebuilt)."""

    __tablename__ = "league_rating_changes"

    game_id: int = Field(
        foreign_key="games.id", primary_key=True, ondelete="CASCADE", sa_column_kwargs={"autoincrement": False}
    )
    scope: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    season_id: int = Field(foreign_key="league_seasons.id", ondelete="CASCADE", index=True)
    rank: int  # the rank used for rating (a leaver's is the last)
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


class LeagueAudit(SQLModel, table=True):
    """League-admin actions: league and season creation, games added, voided and restored."""

    __tablename__ = "league_audit"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE", index=True)
    season_id: int | None = Field(default=None, foreign_key="league_seasons.id", ondelete="SET NULL")
    user_id: int | None = _discord_id(default=None, nullable=True)
    action: str = Field(max_length=32)
    details: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    created_at: datetime = _created()


class Division(SQLModel, table=True):
    """A tier of a league (Gold, Silver): `level` 1 is the top. At a season's close the top
    `promote` of its standings go up one level, the bottom `relegate` go down one."""

    __tablename__ = "league_divisions"
    __table_args__ = (sa.UniqueConstraint("league_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=64)
    level: int
    promote: int = 0
    relegate: int = 0


class Placement(SQLModel, table=True):
    """The division a player plays in now (one per league)."""

    __tablename__ = "league_placements"

    league_id: int = Field(foreign_key="leagues.id", primary_key=True, ondelete="CASCADE")
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    division_id: int = Field(foreign_key="league_divisions.id", ondelete="CASCADE", index=True)


class SeasonResult(SQLModel, table=True):
    """A closed season's final standing of a player, in the division they played it in, and
    what the close did (`outcome`: up, down, stay, new: placed for the first time)."""

    __tablename__ = "league_season_results"

    season_id: int = Field(foreign_key="league_seasons.id", primary_key=True, ondelete="CASCADE")
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    division_id: int | None = Field(default=None, foreign_key="league_divisions.id", ondelete="SET NULL")
    place: int
    rating: float
    games: int
    outcome: str = Field(max_length=8)
    to_division_id: int | None = Field(default=None, foreign_key="league_divisions.id", ondelete="SET NULL")


class Reward(SQLModel, table=True):
    """A role for the top `top` of a division's standings (`division_id` None: of the whole
    league) at each season's close; the bot gives it and takes it from the previous holders."""

    __tablename__ = "league_rewards"
    __table_args__ = (sa.UniqueConstraint("league_id", "division_id", "role_id"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE", index=True)
    division_id: int | None = Field(default=None, foreign_key="league_divisions.id", ondelete="CASCADE")
    role_id: int = _discord_id()
    top: int = 1


class RoleHolder(SQLModel, table=True):
    """Who holds a reward role because the bot gave it (the bot only takes what it gave)."""

    __tablename__ = "league_role_holders"

    league_id: int = Field(foreign_key="leagues.id", primary_key=True, ondelete="CASCADE")
    role_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})


# What a season's close leaves to do on Discord (`CloseTask.kind`): roles first, then the results post.
ADD_ROLE, REMOVE_ROLE, ANNOUNCE = "add_role", "remove_role", "announce"


class CloseTask(SQLModel, table=True):
    """Discord work a season's close wrote in the same transaction as its results: giving or
    taking a reward role, posting the results. Claimed with a lease, marked done once (or with
    the `error` Discord gave), so a restart or a second process never does one twice."""

    __tablename__ = "league_close_tasks"

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="league_seasons.id", ondelete="CASCADE", index=True)
    guild_id: int = _discord_id()
    kind: str = Field(max_length=16)
    user_id: int | None = _discord_id(default=None, nullable=True)
    role_id: int | None = _discord_id(default=None, nullable=True)
    lease_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    done_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    error: str | None = Field(default=None, max_length=200)


# ---------------------------------------------------------------------------- the outbox


# Why a stored change is announced: who made it.
ANNOUNCEMENT_CAUSES = ("start", "player", "timeout", "ai", "undo", "kick", "admin")


class Announcement(SQLModel, table=True):
    """The outbox: one row per stored change the channel must hear about, written in the same
    transaction as the change, so a crash between saving and telling loses no announcement.
    Claimed with a lease, marked once posted (storage/announcements.py, docs/storage.md)."""

    __tablename__ = "announcements"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "version"),
        sa.CheckConstraint(f"cause IN ({', '.join(repr(c) for c in ANNOUNCEMENT_CAUSES)})", name="cause"),
        # The drain reads only the rows not yet announced: a small index however long the history.
        sa.Index(
            "ix_announcements_pending",
            "id",
            sqlite_where=sa.text("announced_at IS NULL"),
            postgresql_where=sa.text("announced_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE")
    version: int  # the game's version (log length) after the change
    cause: str = Field(max_length=16)
    interaction_token: str | None = Field(default=None, sa_type=sa.Text)  # answer this interaction (15 min)
    application_id: int | None = _discord_id(default=None, nullable=True)
    #: How: storage.announcements.ANSWERS.
    answer: str = Field(default="thinking", max_length=8, sa_column_kwargs={"server_default": "thinking"})
    created_at: datetime = _created()
    claimed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    claimed_by: str | None = Field(default=None, max_length=64)
    attempts: int = 0  # claims so far (more than one: a process died or was slow while posting)
    #: Random, part of the row's Discord nonces (storage/announcements.py `nonce`): a restored backup
    #: numbers its next rows as rows already posted, and Discord would return those old messages.
    #: None on rows written before it existed (their nonces stay what they were).
    nonce_key: str | None = Field(default=None, max_length=8)
    announced_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    error: str | None = Field(default=None, sa_type=sa.Text)  # given up: why (the channel is gone, ...)


class AcknowledgedMove(SQLModel, table=True):
    """A move the bot acknowledged (the player sees "thinking…") and has not saved yet. Written at
    acknowledgement, deleted by the move's own transaction (storage/announcements.py): a row that
    outlives its process is a move that died unsaved, and its player is told after the restart."""

    __tablename__ = "acknowledged_moves"

    id: int | None = Field(default=None, primary_key=True)
    interaction_token: str = Field(sa_type=sa.Text, unique=True)
    application_id: int = _discord_id()
    guild_id: int | None = _discord_id(default=None, nullable=True)  # None: a DM (shard 0's)
    user_id: int = _discord_id()
    received_by: str = Field(max_length=64)  # the process that acknowledged it
    #: A tap on the player's panel: nothing shows "thinking…", so after a restart the player is
    #: told in a new private message.
    in_place: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    created_at: datetime = _created()


# ---------------------------------------------------------------------------- undo votes


class UndoVote(SQLModel, table=True):
    """One player's answer to an undo request (the request is the game's move `ply`): rows, not
    the message text, so two players answering at once are both counted."""

    __tablename__ = "undo_votes"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    ply: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    approve: bool
    voted_at: datetime = _created()


# ---------------------------------------------------------------------------- stand-ins


class StandIn(SQLModel, table=True):
    """A span of a game during which an AI played a person's seat (a missed deadline, or the host
    handing the seat over): the moves of `seat` from version `began` up to `ended` (None: still
    playing) were the AI's. Who played which moves, for leagues and the game's record."""

    __tablename__ = "stand_ins"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    began: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})  # the game's version then
    ended: int | None = None
    user_id: int = Field(sa_type=sa.BigInteger)  # whose seat it kept
    level: str = Field(max_length=16)
    reason: str = Field(max_length=16)  # "timeout" | "kick"
    created_at: datetime = _created()


# ---------------------------------------------------------------------------- tournaments


# Tournament status: sign-up open, rounds being played, over (its standings are final).
TOURNAMENT_SIGNUP, TOURNAMENT_RUNNING, TOURNAMENT_FINISHED = "signup", "running", "finished"
# A tournament table: made but its game not started yet, its game running, its result recorded;
# its game ended without scores (`/ttr-host end`), waiting for the organizer's decision.
TABLE_PENDING, TABLE_PLAYING, TABLE_DONE, TABLE_ABANDONED = "pending", "playing", "done", "abandoned"


class Tournament(SQLModel, table=True):
    """A server's tournament: its format (storage/pairings.py `Rules`), the games' settings, sign-up
    limits, where its tables open, and the league season that rates its games (if any)."""

    __tablename__ = "tournaments"
    __table_args__ = (sa.UniqueConstraint("guild_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _discord_id()
    channel_id: int = _discord_id()  # tables open as threads under this channel
    name: str = Field(max_length=64)
    organizer_id: int = _discord_id()
    format: str = Field(max_length=16)  # storage.pairings.FORMATS
    map_id: str = Field(max_length=64)
    options: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)  # GameOptions.to_json()
    clock: dict = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)  # the turn timer (bot/timers.py)
    smallest: int = 3
    largest: int = 4
    rounds: int = 3
    advance: int = 1
    group_size: int = 8
    cap: int | None = None  # most entrants
    signup_deadline: datetime | None = Field(default=None, sa_type=UTCDateTime)  # starts by itself then
    round_hours: int | None = None  # a round's deadline after it opens
    season_id: int | None = Field(default=None, foreign_key="league_seasons.id", ondelete="SET NULL")
    status: str = Field(default=TOURNAMENT_SIGNUP, max_length=16)
    signup_message_id: int | None = _discord_id(default=None, nullable=True)
    results_posted: bool = False
    created_at: datetime = _created()


class TournamentEntrant(SQLModel, table=True):
    """A player signed up; `seed` is the sign-up order. A dropped player keeps their results."""

    __tablename__ = "tournament_entrants"

    tournament_id: int = Field(foreign_key="tournaments.id", primary_key=True, ondelete="CASCADE")
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    seed: int
    joined_at: datetime = _created()
    dropped_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class TournamentRound(SQLModel, table=True):
    """A round opened (its key is the claim: one process opens it); `deadline` forces it on."""

    __tablename__ = "tournament_rounds"

    tournament_id: int = Field(foreign_key="tournaments.id", primary_key=True, ondelete="CASCADE")
    number: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    stage: str = Field(max_length=16)  # storage.pairings STAGE_*
    opened_at: datetime = _created()
    deadline: datetime | None = Field(default=None, sa_type=UTCDateTime)


class TournamentTable(SQLModel, table=True):
    """One table of a round: its players in seat order, its game once started (claimed with a
    lease by the process that opens it), and its result: places (leavers last) and scores."""

    __tablename__ = "tournament_tables"
    __table_args__ = (sa.UniqueConstraint("tournament_id", "round", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournaments.id", ondelete="CASCADE", index=True)
    round: int
    number: int
    pod: int | None = None  # a group stage's pod
    players: list = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # user ids, seat order
    status: str = Field(default=TABLE_PENDING, max_length=16)
    game_id: int | None = Field(default=None, foreign_key="games.id", ondelete="SET NULL", unique=True)
    ranks: list | None = Field(default=None, sa_type=sa.JSON)
    scores: list | None = Field(default=None, sa_type=sa.JSON)
    adjudicated_by: int | None = _discord_id(default=None, nullable=True)
    claimed_by: str | None = Field(default=None, max_length=64)
    claimed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


# ---------------------------------------------------------------------------- the matchmaking queue


class QueueRules(SQLModel, table=True):
    """A league's matchmaking rules (`/ttr-league queue rules`); a league without a row uses the
    defaults. Empty lists: whatever the open season allows."""

    __tablename__ = "queue_rules"

    league_id: int = Field(
        foreign_key="leagues.id", primary_key=True, ondelete="CASCADE", sa_column_kwargs={"autoincrement": False}
    )
    sizes: list = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # table sizes; empty: 2–5
    maps: list = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # map ids; empty: any
    spread: float = 10.0  # rating points a table may span when its players have just joined
    widen: float = 0.5  # points the spread grows per minute its longest-waiting player waited
    channel_id: int | None = _discord_id(default=None, nullable=True)  # tables open here (None: where one joined)
    updated_by: int | None = _discord_id(default=None, nullable=True)
    updated_at: datetime = _created()


class QueueMatch(SQLModel, table=True):
    """A table the matcher made: its players are reserved (their entries point here) until the
    game exists; the game's own transaction removes the entries and sets `game_id`. A row whose
    `game_id` is None is a table still to open (after a crash too); `thread_id` is its thread once
    made, reused by a retry."""

    __tablename__ = "queue_matches"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE", index=True)
    season_id: int = Field(foreign_key="league_seasons.id", ondelete="CASCADE")
    guild_id: int = _discord_id(index=True)
    channel_id: int = _discord_id()  # the text channel the table's thread opens under
    map_id: str = Field(max_length=64)
    user_ids: list = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # seat order
    thread_id: int | None = _discord_id(default=None, nullable=True)
    game_id: int | None = Field(default=None, foreign_key="games.id", ondelete="CASCADE", unique=True)
    attempts: int = 0  # tries to open it that failed
    created_at: datetime = _created()


class QueueEntry(SQLModel, table=True):
    """One player waiting in one queue of a league: a map (`""`: any) and a table size (0: any).
    `match_id` is set while a table that seats them is being opened (a conditional update decides
    who gets a player; such entries are no longer matched or left)."""

    __tablename__ = "queue_entries"
    __table_args__ = (sa.UniqueConstraint("league_id", "user_id", "map_id", "size"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE")
    guild_id: int = _discord_id(index=True)
    user_id: int = _discord_id(index=True)
    map_id: str = Field(default="", max_length=64)
    size: int = 0
    channel_id: int = _discord_id()  # where they joined (tables open there unless the rules name a channel)
    joined_at: datetime = _created()
    match_id: int | None = Field(default=None, foreign_key="queue_matches.id", ondelete="SET NULL", index=True)


# ---------------------------------------------------------------------------- command sync


class CommandSync(SQLModel, table=True):
    """The slash commands last synced for one application, to one guild (`guild_id`) or globally
    (0): their fingerprint and the release that synced them. In the database every process shares,
    so one process syncs and an older release never overwrites a newer one's commands
    (storage/command_syncs.py)."""

    __tablename__ = "command_syncs"

    application_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    guild_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    digest: str = Field(max_length=64)  # sha256 of the commands as synced, translations included
    release: str = Field(max_length=32)  # the project version (pyproject.toml) of the process that synced
    synced_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # None: a sync begun, not confirmed
