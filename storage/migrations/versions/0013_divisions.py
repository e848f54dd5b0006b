"""divisions and seasons: league divisions, placements, season results, reward roles, the close's
Discord tasks; a season's minimum of turns and close time, a league game's turns, a league's channel

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"], name=f"fk_{table}_{column}_{target}", ondelete=ondelete)


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Idempotent: a database that has some of this already (a re-run by hand) keeps it."""
    for table, column in (
        ("leagues", sa.Column("channel_id", sa.BigInteger(), nullable=True)),
        ("league_seasons", sa.Column("min_turns", sa.Integer(), server_default="0", nullable=False)),
        ("league_seasons", sa.Column("closed_at", TIME, nullable=True)),
        ("league_games", sa.Column("turns", sa.JSON(), nullable=True)),
    ):
        if column.name not in _columns(table):
            with op.batch_alter_table(table) as batch:
                batch.add_column(column)
    if "league_divisions" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "league_divisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("promote", sa.Integer(), nullable=False),
        sa.Column("relegate", sa.Integer(), nullable=False),
        _fk("league_divisions", "league_id", "leagues", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_league_divisions"),
        sa.UniqueConstraint("league_id", "name", name="uq_league_divisions_league_id_name"),
    )
    op.create_index("ix_league_divisions_league_id", "league_divisions", ["league_id"])
    op.create_table(
        "league_placements",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        _fk("league_placements", "league_id", "leagues", "CASCADE"),
        _fk("league_placements", "division_id", "league_divisions", "CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "user_id", name="pk_league_placements"),
    )
    op.create_index("ix_league_placements_division_id", "league_placements", ["division_id"])
    op.create_table(
        "league_season_results",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=8), nullable=False),
        sa.Column("to_division_id", sa.Integer(), nullable=True),
        _fk("league_season_results", "season_id", "league_seasons", "CASCADE"),
        _fk("league_season_results", "division_id", "league_divisions", "SET NULL"),
        _fk("league_season_results", "to_division_id", "league_divisions", "SET NULL"),
        sa.PrimaryKeyConstraint("season_id", "user_id", name="pk_league_season_results"),
    )
    op.create_table(
        "league_rewards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=True),
        sa.Column("role_id", sa.BigInteger(), nullable=False),
        sa.Column("top", sa.Integer(), nullable=False),
        _fk("league_rewards", "league_id", "leagues", "CASCADE"),
        _fk("league_rewards", "division_id", "league_divisions", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_league_rewards"),
        sa.UniqueConstraint(
            "league_id", "division_id", "role_id", name="uq_league_rewards_league_id_division_id_role_id"
        ),
    )
    op.create_index("ix_league_rewards_league_id", "league_rewards", ["league_id"])
    op.create_table(
        "league_role_holders",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("role_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        _fk("league_role_holders", "league_id", "leagues", "CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "role_id", "user_id", name="pk_league_role_holders"),
    )
    op.create_table(
        "league_close_tasks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("role_id", sa.BigInteger(), nullable=True),
        sa.Column("lease_until", TIME, nullable=True),
        sa.Column("done_at", TIME, nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        _fk("league_close_tasks", "season_id", "league_seasons", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_league_close_tasks"),
    )
    op.create_index("ix_league_close_tasks_season_id", "league_close_tasks", ["season_id"])


def _drop_columns(table: str, *columns: str) -> None:
    """Columns dropped in place (SQLite 3.35+ too): a batch copy would drop and recreate the
    table, and with foreign keys on, SQLite's DROP TABLE deletes the rows that refer to it."""
    with op.batch_alter_table(table, recreate="never") as batch:
        for column in set(columns) & _columns(table):
            batch.drop_column(column)


def downgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    for table in (
        "league_close_tasks",
        "league_role_holders",
        "league_rewards",
        "league_season_results",
        "league_placements",
        "league_divisions",
    ):
        if table in tables:
            op.drop_table(table)  # its indexes go with it
    _drop_columns("league_games", "turns")
    _drop_columns("league_seasons", "closed_at", "min_turns")
    _drop_columns("leagues", "channel_id")
