"""ix_games_status_updated (status, updated_at) in place of ix_games_status: the AI seats' sweep
reads the active games written since its last look

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_games_status_updated"


def _exists() -> bool:
    """Idempotent: a database that has the index already (a re-run by hand) is left as it is."""
    return any(i["name"] == INDEX for i in sa.inspect(op.get_bind()).get_indexes("games"))


def upgrade() -> None:
    if not _exists():
        op.create_index(INDEX, "games", ["status", "updated_at"])
        # Its first column serves every read by status; a second index would cost every write.
        op.drop_index("ix_games_status", table_name="games")


def downgrade() -> None:
    if _exists():
        op.create_index("ix_games_status", "games", ["status"])
        op.drop_index(INDEX, table_name="games")
