"""tournaments: tournaments, their entrants, rounds and tables (docs/leagues.md, "Tournaments")

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _exists() -> bool:
    """Idempotent: a database that has the tables already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("tournaments")


def upgrade() -> None:
    if _exists():
        return
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("organizer_id", sa.BigInteger(), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("map_id", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=False),
        sa.Column("smallest", sa.Integer(), nullable=False),
        sa.Column("largest", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("advance", sa.Integer(), nullable=False),
        sa.Column("group_size", sa.Integer(), nullable=False),
        sa.Column("cap", sa.Integer(), nullable=True),
        sa.Column("signup_deadline", TIME, nullable=True),
        sa.Column("round_hours", sa.Integer(), nullable=True),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("signup_message_id", sa.BigInteger(), nullable=True),
        sa.Column("results_posted", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_tournaments_season_id_league_seasons"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("guild_id", "name", name=op.f("uq_tournaments_guild_id_name")),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("joined_at", TIME, nullable=False),
        sa.Column("dropped_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("opened_at", TIME, nullable=False),
        sa.Column("deadline", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_rounds_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_rounds")),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("pod", sa.Integer(), nullable=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("ranks", sa.JSON(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.Column("adjudicated_by", sa.BigInteger(), nullable=True),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_at", TIME, nullable=True),
        sa.Column("finished_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_tournament_tables_game_id_games"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_tables_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_tables")),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_tables_game_id")),
        sa.UniqueConstraint(
            "tournament_id", "round", "number", name=op.f("uq_tournament_tables_tournament_id_round_number")
        ),
    )
    op.create_index(op.f("ix_tournament_tables_tournament_id"), "tournament_tables", ["tournament_id"], unique=False)


def downgrade() -> None:
    if not _exists():
        return
    for table in ("tournament_tables", "tournament_rounds", "tournament_entrants", "tournaments"):
        op.drop_table(table)  # their indexes go with them
