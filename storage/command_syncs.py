"""Which process syncs the slash commands, decided in the database every process shares.

Discord keeps one command list per application (and per guild): a sync replaces it. So the
"already synced" marker is a row per application and guild (`CommandSync`), not a file in one
process's folder, and the decision is taken under the row's lock:

    verdict = await claim_sync(session=s, application_id=a, guild_id=0, digest=d, release="1.4.0")
    if verdict == SYNC:
        await tree.sync(); await confirm_sync(session=s, application_id=a, guild_id=0, digest=d)

A process syncs when the stored commands are not its own (another digest, or a sync that was
begun and never confirmed), unless a newer release synced them: during a rolling upgrade (or a
rollback left running) the older processes leave the newer release's commands alone.
"""

from __future__ import annotations

import re

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import writing
from storage.models import CommandSync, utcnow

SYNC, UNCHANGED, NEWER = "sync", "unchanged", "newer"


def release_key(release: str) -> tuple[int, ...]:
    """A release's order: its numbers ("1.10.0" after "1.9.2"); text around them is ignored."""
    return tuple(int(n) for n in re.findall(r"\d+", release))


async def claim_sync(*, session: AsyncSession, application_id: int, guild_id: int, digest: str, release: str) -> str:
    """SYNC (the row now names this digest and release: sync, then `confirm_sync`), UNCHANGED (these
    commands are synced) or NEWER (a newer release's commands are there: leave them)."""
    for _ in range(2):  # a first row inserted by another process at the same moment: read it
        try:
            async with writing(session):
                query = select(CommandSync).where(
                    CommandSync.application_id == application_id, CommandSync.guild_id == guild_id
                )
                if session.bind.dialect.name == "postgresql":  # type: ignore[union-attr]
                    query = query.with_for_update()
                row = (await session.execute(query)).scalar_one_or_none()
                if row is None:
                    session.add(
                        CommandSync(application_id=application_id, guild_id=guild_id, digest=digest, release=release)
                    )
                    return SYNC
                if release_key(row.release) > release_key(release):
                    return NEWER
                if row.digest == digest and row.synced_at is not None:
                    return UNCHANGED
                row.digest, row.release, row.synced_at = digest, release, None
                return SYNC
        except IntegrityError:
            continue
    return UNCHANGED  # two inserts at once, twice: another process is syncing


async def confirm_sync(*, session: AsyncSession, application_id: int, guild_id: int, digest: str) -> None:
    """The sync of `digest` went through (unless another process claimed the row since)."""
    async with writing(session):
        await session.execute(
            update(CommandSync)
            .where(
                CommandSync.application_id == application_id,
                CommandSync.guild_id == guild_id,
                CommandSync.digest == digest,
            )
            .values(synced_at=utcnow())
            .execution_options(synchronize_session=False)
        )
