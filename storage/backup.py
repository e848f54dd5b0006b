"""An online copy of an SQLite database: consistent even while the bot writes (SQLite's backup API)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from storage.database import is_sqlite, sqlite_path
from storage.settings import database_url


def backup_sqlite(url: str | None, destination: str | os.PathLike[str]) -> int:
    """Copy the SQLite database of `url` to `destination` (a new file); returns its size in bytes."""
    url = database_url(url)
    source = sqlite_path(url) if is_sqlite(url) else None
    if source is None:
        raise ValueError("backup copies an SQLite file database; for PostgreSQL use pg_dump")
    if not source.exists():
        raise FileNotFoundError(source)
    destination = Path(destination)
    if destination.exists():
        raise FileExistsError(destination)
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(destination)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        dst.close()
        src.close()
    return destination.stat().st_size
