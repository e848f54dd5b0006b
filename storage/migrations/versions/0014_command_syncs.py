"""command_syncs: the commands last synced per application and guild, shared by every process

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _exists() -> bool:
    """Idempotent: a database that has the table already (a re-run by hand) is left as it is."""
    return sa.inspect(op.get_bind()).has_table("command_syncs")


def upgrade() -> None:
    if _exists():
        return
    op.create_table(
        "command_syncs",
        sa.Column("application_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("release", sa.String(length=32), nullable=False),
        sa.Column("synced_at", TIME, nullable=True),
        sa.PrimaryKeyConstraint("application_id", "guild_id", name=op.f("pk_command_syncs")),
    )


def downgrade() -> None:
    if _exists():
        op.drop_table("command_syncs")
