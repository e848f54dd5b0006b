"""One family of storage errors, so the bot can turn each into a precise reply."""

from __future__ import annotations

from engine.errors import TemplateError


class StorageError(Exception):
    """Base class of every error raised by `storage`."""


def english(template: str, params: dict[str, object]) -> str:
    """A template filled in English: lists (maps, player counts) as "a, b"."""
    return template.format(
        **{
            key: ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
            for key, value in params.items()
        }
    )


class StorageRefusal(StorageError, TemplateError):
    """A refusal worded as an English template with named parameters, of the project's one
    error family (engine/errors.py `TemplateError`): `str(error)` is the English; the bot words
    `template` and `params` in the reader's language. Storage knows no languages, so the
    parameters are data (ids, names, numbers, dates as YYYY-MM-DD, lists read as "one of")."""

    def __str__(self) -> str:
        return english(self.template, self.params)


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


class LobbyError(StorageRefusal):
    """A lobby action that cannot happen; the subclass says which. The bot catches the subclass
    (never matches the text) and words its own reply."""


class LobbyAlreadyOpenError(LobbyError):
    """The channel has an open lobby already (a unique index decides)."""


class LobbyNotOpenError(LobbyError):
    """The lobby started, was cancelled or expired meanwhile."""


class LobbyFullError(LobbyError):
    """Every seat of the lobby is taken."""


class AlreadyInLobbyError(LobbyError):
    """The player is in the lobby already."""


class LeagueError(StorageRefusal):
    """A league request that cannot be done (nothing was written); the subclass says which, the
    template why. Babel extracts the templates of these classes (i18n/catalogs.py KEYWORDS), so
    each is a literal at the raise."""


class LeagueNotFoundError(LeagueError, LookupError):
    """No such season or game, no open lobby to add, or the game is not a league game."""


class LeagueNameTakenError(LeagueError):
    """The server has a league of that name, or the league a season of that name."""


class InvalidSeasonError(LeagueError):
    """The season's settings contradict themselves (it ends before it starts)."""


class SeasonNotOpenError(LeagueError):
    """The season is closed, has not started, or has ended."""


class NotEligibleError(LeagueError):
    """The game or lobby cannot count for the season: its map, player count, AI seats, or it is over."""


class AlreadyInSeasonError(LeagueError):
    """The game or lobby belongs to a season already."""


class VoidStateError(LeagueError):
    """Voiding a voided game, or restoring one that is not voided."""


class ExportRefusedError(StorageError):
    """Only a finished (or abandoned) game is exported: an active game's seed reveals hidden cards."""


class ExportFormatError(StorageError, ValueError):
    """An exported game that cannot be read or replayed here."""


class SchemaOutdatedError(StorageError):
    """The database lacks migrations this code needs (start with auto-migrate, or run `python -m storage migrate`)."""
