"""Where the database is: `DATABASE_URL`, else an SQLite file in `data/` under the working directory."""

from __future__ import annotations

import os

from dotenv import find_dotenv, load_dotenv

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/ttr.sqlite3"


def database_url(url: str | None = None) -> str:
    """The URL to use: `url` if given, else `DATABASE_URL` (from the environment or `.env`), else the default.

    Plain `postgresql://` and `sqlite://` URLs are given their async drivers (asyncpg, aiosqlite)."""
    if url is None:
        load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot runs in
        url = os.environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url
