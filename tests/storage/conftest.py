"""Each storage test runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.

TEST_DATABASE_URL names a database the tests may wipe (its `public` schema is dropped and made
again before each test), e.g. postgresql+asyncpg://ttr:ttr@localhost/ttr_test.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from storage.database import make_engine, session_factory
from storage.migrate import migrate
from storage.settings import database_url

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        # One database for every test that wipes it: with pytest-xdist they all run in one worker.
        marks=[
            pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set"),
            pytest.mark.xdist_group("postgresql"),
        ],
    ),
]


async def wipe_postgres(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
    finally:
        await engine.dispose()


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path) -> str:  # type: ignore[no-untyped-def]
    """An empty database (no tables) on each backend."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/ttr.sqlite3"
    url = database_url(PG_URL)
    await wipe_postgres(url)
    return url


@dataclass
class Db:
    url: str
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]

    @property
    def backend(self) -> str:
        return self.engine.dialect.name


@pytest.fixture
async def db(db_url: str):  # type: ignore[no-untyped-def]
    """A migrated database with its engine and session factory."""
    engine = make_engine(db_url)
    await migrate(engine=engine)
    yield Db(db_url, engine, session_factory(engine))
    await engine.dispose()
