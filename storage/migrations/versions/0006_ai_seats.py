"""seats.ai: the strength of an AI seat ("random", "baseline", "strong"); NULL for people

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Plain ALTER TABLE: a batch (copy-and-rename) of a table with ON DELETE CASCADE parents is fine,
# but `seats` is small and a native ADD/DROP COLUMN is all SQLite needs here.


def upgrade() -> None:
    op.add_column("seats", sa.Column("ai", sa.String(length=16), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "ai")
