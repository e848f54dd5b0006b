"""undo_votes: each player's answer to an undo request, one row per voter

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _exists() -> bool:
    """Idempotent: a database that has the table already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("undo_votes")


def upgrade() -> None:
    if _exists():
        return
    op.create_table(
        "undo_votes",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("approve", sa.Boolean(), nullable=False),
        sa.Column("voted_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_undo_votes_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "ply", "user_id", name=op.f("pk_undo_votes")),
    )


def downgrade() -> None:
    if _exists():
        op.drop_table("undo_votes")
