"""stand_ins: spans of a game an AI played a person's seat; game_clocks.ai_level: which AI

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _exists() -> bool:
    """Idempotent: a database that has the table already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("stand_ins")


def upgrade() -> None:
    if _exists():
        return
    op.add_column("game_clocks", sa.Column("ai_level", sa.String(length=16), nullable=False, server_default="baseline"))
    op.create_table(
        "stand_ins",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("began", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("ended", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_stand_ins_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", "began", name=op.f("pk_stand_ins")),
    )


def downgrade() -> None:
    if _exists():
        op.drop_table("stand_ins")
        op.drop_column("game_clocks", "ai_level")
