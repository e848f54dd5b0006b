"""acknowledged_moves: moves acknowledged and not saved yet, answered after a crash

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _exists() -> bool:
    """Idempotent: a database that has the table already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("acknowledged_moves")


def upgrade() -> None:
    if _exists():
        return
    op.create_table(
        "acknowledged_moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("interaction_token", sa.Text(), nullable=False),
        sa.Column("application_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("received_by", sa.String(length=64), nullable=False),
        sa.Column("in_place", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_acknowledged_moves")),
        sa.UniqueConstraint("interaction_token", name=op.f("uq_acknowledged_moves_interaction_token")),
    )


def downgrade() -> None:
    if _exists():
        op.drop_table("acknowledged_moves")
