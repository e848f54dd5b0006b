"""seats.web_revoked_at: the web table's links to a seat issued before it are refused

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def _exists() -> bool:
    """Idempotent: a database that has the column already (a re-run by hand) is left as it is."""
    return any(c["name"] == "web_revoked_at" for c in sa.inspect(op.get_bind()).get_columns("seats"))


def upgrade() -> None:
    if not _exists():
        op.add_column("seats", sa.Column("web_revoked_at", TIME, nullable=True))


def downgrade() -> None:
    if _exists():
        op.drop_column("seats", "web_revoked_at")
