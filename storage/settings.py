"""The one source of configuration: the environment, else `.env` in the working directory.

`StorageSettings` holds what storage needs (`DATABASE_URL`, `AUTO_MIGRATE`); the bot's settings
(`bot.settings.Settings`) extend it, so both layers read the same values the same way. An empty
line such as `DATABASE_URL=` (as in `.env.example`) counts as unset."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/ttr.sqlite3"


class StorageSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    database_url: str | None = None  # default: DEFAULT_DATABASE_URL
    auto_migrate: bool = True  # single process: apply pending migrations on start
    #: PostgreSQL connections of one process (docs/deployment.md, "Connections"): kept open, and
    #: opened beyond them at a peak (closed after it). SQLite: unused.
    db_pool_size: int = Field(default=5, ge=1)
    db_max_overflow: int = Field(default=10, ge=0)
    #: DATABASE_URL is a PgBouncer in transaction pooling: no prepared statement outlives its
    #: transaction (asyncpg's and SQLAlchemy's statement caches off, each statement named anew).
    db_pgbouncer: bool = False


def database_url(url: str | None = None) -> str:
    """The URL to use: `url` if given, else `DATABASE_URL` (environment or `.env`), else the default.

    Plain `postgresql://` and `sqlite://` URLs are given their async drivers (asyncpg, aiosqlite)."""
    url = (url or "").strip() or (StorageSettings().database_url or "").strip() or DEFAULT_DATABASE_URL
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url
