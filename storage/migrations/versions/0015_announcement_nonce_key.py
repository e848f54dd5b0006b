"""announcements.nonce_key: a random part of each row's Discord nonces, so ids a restore gives again
make new nonces

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _exists() -> bool:
    """Idempotent: a database that has the column already (a re-run by hand) is left as it is."""
    return any(c["name"] == "nonce_key" for c in sa.inspect(op.get_bind()).get_columns("announcements"))


def upgrade() -> None:
    if _exists():
        return
    # Rows written before keep no key: their nonces stay the ones they may have been posted with.
    with op.batch_alter_table("announcements") as batch:
        batch.add_column(sa.Column("nonce_key", sa.String(length=8), nullable=True))


def downgrade() -> None:
    if _exists():
        with op.batch_alter_table("announcements") as batch:
            batch.drop_column("nonce_key")
