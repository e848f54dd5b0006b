"""Games and players in SQL: the only package that knows SQL (SQLModel; SQLite or PostgreSQL).

    from storage import Storage, games
    store = Storage()                       # DATABASE_URL, else sqlite data/ttr.sqlite3
    report = await store.start()            # migrations (locked) + replay check of active games
    async with store.sessions() as s:
        record = await games.create_game(session=s, guild_id=g, channel_id=c, game=game, players=ids)
        version = await games.save_action(session=s, game_id=record.id, expected_version=0, game=game)

Modules: `games` (create, append under a state version, load by replay, finish, read-only),
`queries` (a player's active games, history, stats), `export` (finished game as JSON),
`lobbies`, `players` (players and guild settings), `guilds` (delete a guild's data),
`recovery`, `migrate`, `database` (engine and sessions), `models` (tables), `errors`.
See docs/storage.md.
"""

from storage.errors import (
    ChannelBusyError,
    ExportFormatError,
    ExportRefusedError,
    GameNotActiveError,
    GameNotFoundError,
    GameReadOnlyError,
    LobbyError,
    ReplayMismatchError,
    SchemaOutdatedError,
    StaleVersionError,
    StorageError,
)
from storage.store import Storage

__all__ = [
    "Storage",
    "StorageError",
    "ChannelBusyError",
    "ExportFormatError",
    "ExportRefusedError",
    "GameNotActiveError",
    "GameNotFoundError",
    "GameReadOnlyError",
    "LobbyError",
    "ReplayMismatchError",
    "SchemaOutdatedError",
    "StaleVersionError",
]
