"""What a bot process holds: one engine, its sessions, and the start-up routine.

store = Storage()                       # DATABASE_URL, or data/ttr.sqlite3
report = await store.start()            # migrate (locked), then verify every active game
async with store.sessions() as session: ...
await store.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.database import check_database, make_engine, session_factory
from storage.errors import SchemaOutdatedError
from storage.migrate import current_revision, head_revisions, migrate
from storage.recovery import RecoveryReport, recover
from storage.settings import database_url


class Storage:
    def __init__(self, url: str | None = None, **engine_kwargs: Any) -> None:
        self.url = database_url(url)
        self.engine = make_engine(self.url, **engine_kwargs)
        self.sessions = session_factory(self.engine)

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    async def start(
        self,
        *,
        auto_migrate: bool = True,
        verify: bool = True,
        shards: Sequence[tuple[int, int] | None] = (None,),
        replay: bool = True,
    ) -> RecoveryReport:
        """Apply pending migrations (several processes may do this at once: a database lock
        serialises them), then verify the active games of `shards`' guilds, by replaying them
        unless `replay` is False (see `storage.recovery`).

        With `auto_migrate=False` (several processes, migrations run once by `python -m storage
        migrate`), a database behind the code raises `SchemaOutdatedError`. A database that cannot
        work (unreachable, locked, damaged, read-only) raises `DatabaseUnusableError` first."""
        await check_database(self.engine)
        if auto_migrate:
            await migrate(engine=self.engine)
        elif set(await current_revision(engine=self.engine)) != set(head_revisions()):
            raise SchemaOutdatedError("the database needs migrating: run `python -m storage migrate`")
        return await recover(self.sessions, shards=shards, replay=replay) if verify else RecoveryReport()

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
