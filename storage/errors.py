"""One family of storage errors, so the bot can turn each into a precise reply."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error raised by `storage`."""


class GameNotFoundError(StorageError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"there is no game {game_id}")
        self.game_id = game_id


class StaleVersionError(StorageError):
    """The game moved on since the caller read it: nothing was written; reload and try again."""

    def __init__(self, game_id: int, expected: int, current: int | None) -> None:
        super().__init__(f"game {game_id} is at version {current}, not {expected}: it changed meanwhile")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class GameNotActiveError(StorageError):
    """The game is finished or abandoned: it takes no more actions."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}")
        self.game_id = game_id
        self.status = status


class GameReadOnlyError(StorageError):
    """Recovery could not verify the game (or it comes from other rules or map data): kept read-only."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} is read-only: {reason}")
        self.game_id = game_id
        self.reason = reason


class ChannelBusyError(StorageError):
    """A channel has at most one active game (a database constraint)."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an active game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class ReplayMismatchError(StorageError):
    """Replaying a game's log from its seed does not give its stored state."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} does not replay: {reason}")
        self.game_id = game_id
        self.reason = reason


class LobbyError(StorageError):
    """A lobby action that cannot happen: no open lobby, one already open, already joined, full."""


class ExportRefusedError(StorageError):
    """Only a finished (or abandoned) game is exported: an active game's seed reveals hidden cards."""


class ExportFormatError(StorageError, ValueError):
    """An exported game that cannot be read or replayed here."""


class SchemaOutdatedError(StorageError):
    """The database lacks migrations this code needs (start with auto-migrate, or run `python -m storage migrate`)."""
