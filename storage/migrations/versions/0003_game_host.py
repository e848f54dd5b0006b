"""games.host_id: who may run a game's admin commands (kick, replace, transfer host, end)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Plain ALTER TABLE on purpose: a batch (copy-and-rename) of `games` on SQLite would cascade
# the deletion of the old table to its seats and actions.


def upgrade() -> None:
    op.add_column("games", sa.Column("host_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "host_id")
