"""announcements.answer: how a row's interaction is answered after a restart (its "thinking…",
the panel it tapped, or a new private message)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _has_column() -> bool:
    """Idempotent: a database that has the column already (a re-run by hand) is left as it is."""
    return any(c["name"] == "answer" for c in sa.inspect(op.get_bind()).get_columns("announcements"))


def upgrade() -> None:
    if _has_column():
        return
    with op.batch_alter_table("announcements") as batch:
        batch.add_column(sa.Column("answer", sa.String(length=8), server_default="thinking", nullable=False))


def downgrade() -> None:
    if _has_column():
        with op.batch_alter_table("announcements") as batch:
            batch.drop_column("answer")
