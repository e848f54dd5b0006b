"""queue_rules, queue_matches, queue_entries: the leagues' matchmaking queue

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")
TABLES = ("queue_entries", "queue_matches", "queue_rules")  # dropped in this order


def _exists() -> bool:
    """Idempotent: a database that has the tables already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("queue_entries")


def upgrade() -> None:
    if _exists():
        return
    op.create_table(
        "queue_rules",
        sa.Column("league_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("sizes", sa.JSON(), nullable=False),
        sa.Column("maps", sa.JSON(), nullable=False),
        sa.Column("spread", sa.Float(), nullable=False),
        sa.Column("widen", sa.Float(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_queue_rules_league_id_leagues"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("league_id", name=op.f("pk_queue_rules")),
    )
    op.create_table(
        "queue_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("map_id", sa.String(length=64), nullable=False),
        sa.Column("user_ids", sa.JSON(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_queue_matches_league_id_leagues"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_queue_matches_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_queue_matches_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queue_matches")),
        sa.UniqueConstraint("game_id", name=op.f("uq_queue_matches_game_id")),
    )
    op.create_index(op.f("ix_queue_matches_league_id"), "queue_matches", ["league_id"], unique=False)
    op.create_index(op.f("ix_queue_matches_guild_id"), "queue_matches", ["guild_id"], unique=False)
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("map_id", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("joined_at", TIME, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_queue_entries_league_id_leagues"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["queue_matches.id"],
            name=op.f("fk_queue_entries_match_id_queue_matches"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queue_entries")),
        sa.UniqueConstraint(
            "league_id", "user_id", "map_id", "size", name=op.f("uq_queue_entries_league_id_user_id_map_id_size")
        ),
    )
    op.create_index(op.f("ix_queue_entries_guild_id"), "queue_entries", ["guild_id"], unique=False)
    op.create_index(op.f("ix_queue_entries_user_id"), "queue_entries", ["user_id"], unique=False)
    op.create_index(op.f("ix_queue_entries_match_id"), "queue_entries", ["match_id"], unique=False)


def downgrade() -> None:
    if not _exists():
        return
    for table in TABLES:
        op.drop_table(table)  # their indexes go with them
