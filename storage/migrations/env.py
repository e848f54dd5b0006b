"""Alembic environment: runs on the connection `storage.migrate` hands over (see there)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)

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
