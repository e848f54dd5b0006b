"""games, the append-only action log, seats

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=True),
        sa.Column("map_id", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("map_sha256", sa.String(length=64), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("read_only_reason", sa.Text(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.Column("finished_at", TIME, nullable=True),
        sa.Column("end_reason", sa.String(length=32), nullable=True),
        sa.CheckConstraint("status IN ('active', 'finished', 'abandoned')", name=op.f("ck_games_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_guild_id"), "games", ["guild_id"])
    op.create_index(op.f("ix_games_status"), "games", ["status"])
    # At most one active game per channel.
    op.create_index(
        "uq_games_active_channel",
        "games",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )

    op.create_table(
        "actions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_actions_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_actions")),
        sqlite_with_rowid=False,
    )
    # The log is append-only: rows are inserted, never changed (deleting a guild's data deletes them).
    if op.get_context().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'the action log is append-only'; END $$"
        )
        op.execute(
            "CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions "
            "FOR EACH ROW EXECUTE FUNCTION actions_append_only()"
        )
    else:
        op.execute(
            "CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions "
            "BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END"
        )

    op.create_table(
        "seats",
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("color", sa.String(length=16), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("left", sa.String(length=16), nullable=True),
        sa.Column("final_score", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("tickets_completed", sa.Integer(), nullable=True),
        sa.Column("tickets_failed", sa.Integer(), nullable=True),
        sa.Column("longest_bonus", sa.Boolean(), nullable=True),
        sa.Column("bonuses", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seats")),
    )
    op.create_index(op.f("ix_seats_user_id"), "seats", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_seats_user_id"), table_name="seats")
    op.drop_table("seats")
    op.execute(
        "DROP TRIGGER actions_no_update" + (" ON actions" if op.get_context().dialect.name == "postgresql" else "")
    )
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP FUNCTION actions_append_only()")
    op.drop_table("actions")
    op.drop_index("uq_games_active_channel", table_name="games")
    op.drop_index(op.f("ix_games_status"), table_name="games")
    op.drop_index(op.f("ix_games_guild_id"), table_name="games")
    op.drop_table("games")
