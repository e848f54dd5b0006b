"""Players (Discord users) and per-guild settings: created on first write, updated in place."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from storage.database import detached, writing
from storage.models import GuildSettings, Player, utcnow

_PLAYER_FIELDS = {"display_name", "color_blind", "language", "preferences"}
_GUILD_FIELDS = {"language", "default_map", "settings"}


async def _upsert(
    session: AsyncSession, model: type, key: str, key_value: int, fields: dict[str, Any], allowed: set[str]
) -> None:
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"unknown fields: {', '.join(sorted(unknown))}")
    now = utcnow()
    insert = (postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert)(model)
    fresh = model(**{key: key_value}, **fields)  # the defaults for a new row
    row = {name: getattr(fresh, name) for name in allowed}
    statement = insert.values(**{key: key_value}, **row, created_at=now, updated_at=now)
    statement = statement.on_conflict_do_update(index_elements=[key], set_={**fields, "updated_at": now})
    async with writing(session):
        await session.execute(statement)


async def get_player(*, session: AsyncSession, user_id: int) -> Player | None:
    player = await session.get(Player, user_id, populate_existing=True)
    detached(session, player)
    return player


async def update_player(*, session: AsyncSession, user_id: int, **fields: Any) -> Player:
    """Set some of display_name, color_blind, language, preferences (creating the player if new).
    `preferences` is replaced as a whole: read, change and write it back."""
    await _upsert(session, Player, "user_id", user_id, fields, _PLAYER_FIELDS)
    player = await get_player(session=session, user_id=user_id)
    assert player is not None
    return player


async def get_guild_settings(*, session: AsyncSession, guild_id: int) -> GuildSettings | None:
    settings = await session.get(GuildSettings, guild_id, populate_existing=True)
    detached(session, settings)
    return settings


async def update_guild_settings(*, session: AsyncSession, guild_id: int, **fields: Any) -> GuildSettings:
    """Set some of language, default_map, settings (creating the row if new)."""
    await _upsert(session, GuildSettings, "guild_id", guild_id, fields, _GUILD_FIELDS)
    settings = await get_guild_settings(session=session, guild_id=guild_id)
    assert settings is not None
    return settings
