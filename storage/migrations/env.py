"""Alembic environment: runs on the connection `storage.migrate` hands over (see there)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

# Every module that defines tables, so `revision --autogenerate` and the schema test see them.
# A later feature (leagues, deadlines) adds its module here.
import storage.clocks  # noqa: F401
import storage.leagues  # noqa: F401
import storage.models  # noqa: F401

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `python -m storage migrate` (storage.migrate), not the alembic CLI")

context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=True,  # SQLite cannot ALTER much: later migrations get copy-and-move for free
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
