"""ix_timers_pending_due: the scheduler's look for due timers reads the timers not fired yet, not
every timer a game ever had

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_timers_pending_due"


def _exists() -> bool:
    """Idempotent: a database that has the index already (a re-run by hand) is left as it is."""
    return any(i["name"] == INDEX for i in sa.inspect(op.get_bind()).get_indexes("timers"))


def upgrade() -> None:
    if not _exists():
        where = sa.text("fired_at IS NULL")
        op.create_index(INDEX, "timers", ["due_at"], sqlite_where=where, postgresql_where=where)


def downgrade() -> None:
    if _exists():
        op.drop_index(INDEX, table_name="timers")
