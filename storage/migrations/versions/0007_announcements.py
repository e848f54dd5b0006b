"""announcements: the outbox of stored changes still to be posted (and interactions to answer)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")
PENDING = "announced_at IS NULL"


def _exists() -> bool:
    """Idempotent: a database that has the table already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("announcements")


def upgrade() -> None:
    if _exists():
        return
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("cause", sa.String(length=16), nullable=False),
        sa.Column("interaction_token", sa.Text(), nullable=True),
        sa.Column("application_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("claimed_at", TIME, nullable=True),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("announced_at", TIME, nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "cause IN ('start', 'player', 'timeout', 'ai', 'undo', 'kick', 'admin')",
            name=op.f("ck_announcements_cause"),
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_announcements_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_announcements")),
        sa.UniqueConstraint("game_id", "version", name=op.f("uq_announcements_game_id_version")),
    )
    op.create_index(
        "ix_announcements_pending",
        "announcements",
        ["id"],
        unique=False,
        sqlite_where=sa.text(PENDING),
        postgresql_where=sa.text(PENDING),
    )


def downgrade() -> None:
    if not _exists():
        return
    op.drop_index("ix_announcements_pending", table_name="announcements")
    op.drop_table("announcements")
