"""Online copies of an SQLite database, and putting one back (SQLite's backup API both ways: the
copy is consistent while the bot writes, and a restore goes through SQLite, so a write-ahead log
left beside the database can never be replayed onto the restored file)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from storage.database import DatabaseUnusableError, is_sqlite, sqlite_path
from storage.settings import database_url


def _sqlite_file(url: str | None) -> Path:
    url = database_url(url)
    path = sqlite_path(url) if is_sqlite(url) else None
    if path is None:
        raise ValueError(
            "backup and restore work on an SQLite file database; for PostgreSQL use pg_dump and pg_restore"
        )
    return path


def backup_sqlite(url: str | None, destination: str | os.PathLike[str]) -> int:
    """Copy the SQLite database of `url` to `destination` (a new file; its folders are created);
    returns its size in bytes."""
    source = _sqlite_file(url)
    if not source.exists():
        raise FileNotFoundError(f"no database file at {source}")
    destination = Path(destination)
    if destination.exists():
        raise FileExistsError(f"{destination} exists already: choose a new name")
    destination.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(destination)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        dst.close()
        src.close()
    return destination.stat().st_size


def restore_sqlite(url: str | None, backup: str | os.PathLike[str]) -> int:
    """Replace the SQLite database of `url` with the copy in `backup` (stop the bot first: the
    restore needs the database's write lock). The copy is checked before anything changes.
    Returns the restored database's size in bytes."""
    target = _sqlite_file(url)
    backup = Path(backup)
    if not backup.is_file():
        raise FileNotFoundError(f"no backup file at {backup}")
    src = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        try:
            check = [row[0] for row in src.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as exc:
            check = [str(exc)]
        if check != ["ok"]:
            raise DatabaseUnusableError(
                f"{backup} is not a sound SQLite database ({'; '.join(check[:3])}): nothing was changed"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        dst = sqlite3.connect(target, timeout=5)
        try:
            src.backup(dst)
        except sqlite3.OperationalError as exc:
            raise DatabaseUnusableError(f"cannot write {target} ({exc}): stop the bot first") from None
        finally:
            dst.close()
    finally:
        src.close()
    return target.stat().st_size
