"""turn clocks: game deadline settings, per-seat misses and vacations, timers

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("reminder_seconds", sa.Integer(), nullable=False),
        sa.Column("absence", sa.String(length=16), nullable=False),
        sa.Column("remove_after", sa.Integer(), nullable=False),
        sa.Column("vacation_days", sa.Integer(), nullable=False),
        sa.Column("paused_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_clocks_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_clocks")),
    )
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("vacation_until", TIME, nullable=True),
        sa.Column("vacation_used", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seat_clocks_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seat_clocks")),
    )
    op.create_table(
        "timers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("decision", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("due_at", TIME, nullable=False),
        sa.Column("lease_until", TIME, nullable=True),
        sa.Column("fired_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_timers_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_timers")),
        sa.UniqueConstraint("game_id", "seat", "decision", "kind", name=op.f("uq_timers_game_id_seat_decision_kind")),
    )
    op.create_index(op.f("ix_timers_game_id"), "timers", ["game_id"], unique=False)
    op.create_index(op.f("ix_timers_due_at"), "timers", ["due_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_timers_due_at"), table_name="timers")
    op.drop_index(op.f("ix_timers_game_id"), table_name="timers")
    op.drop_table("timers")
    op.drop_table("seat_clocks")
    op.drop_table("game_clocks")
