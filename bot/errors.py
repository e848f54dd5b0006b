"""The bot's refusals, and the one function that words any refusal for its reader.

Every refusal in the project is a `TemplateError` (engine/errors.py): an English template and
typed parameters. The engine raises `ActionError`s, storage `LeagueError`s and `LobbyError`s, the
bot the `UserError`s below; `reason()` words any of them in the reader's language, and
`tree.on_error` (bot/client.py) calls it for whatever a command raises, so a controller raises
the specific error and never formats it itself.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.command_translator import option_name, slash
from engine import Game, load_map
from engine.errors import ActionError, TemplateError
from i18n import N_, Translator
from storage.leagues import LeagueError, Unrated
from texts.error_text import describe_error


class UserError(TemplateError):
    """Something the user asked for cannot be done (shown privately; nothing changed).

    Raised with a template and its parameters (`UserError("{name} has left", name=...)`), or as one
    of the subclasses below, whose `message` is the template."""

    message = ""

    def __init__(self, template: str | None = None, /, **params: object) -> None:
        super().__init__(template or self.message, **params)


class NotLeagueAdmin(UserError):
    message = N_("Only league admins of **{league}** can do that: the {role} role or the **Manage Server** permission.")


class NotLeagueAdminNoRole(UserError):
    message = N_("Only league admins of **{league}** can do that: the **Manage Server** permission.")


def not_league_admin(league) -> UserError:
    """The refusal of a league command to someone who is not one of `league`'s admins."""
    if league.admin_role_id is not None:
        return NotLeagueAdmin(league=league.name, role=f"<@&{league.admin_role_id}>")
    return NotLeagueAdminNoRole(league=league.name)


class Command(str):
    """A slash command named in a refusal ('ttr new'): worded as the reader's Discord lists it."""


class Option(str):
    """A command option named in a refusal ('league'): worded as the reader's Discord shows it."""


class NoGameHere(UserError):
    message = N_("There is no game running in this channel. Start one with `{new}`.")

    def __init__(self) -> None:
        super().__init__(new=Command("ttr-host new"))


class NoSuchGame(UserError):
    message = N_("That game no longer exists.")


class ButtonNotValid(UserError):
    """A component whose custom id no template knows, or that asks for what it was never offered
    for (an old release's button, or a forged one)."""

    message = N_("This button is no longer valid.")


class NotPlaying(UserError):
    message = N_("You are not playing in this game.")


class StaleChoice(UserError):
    """A button or select of a decision that is no longer open (the engine's staleness token moved)."""

    message = N_("That choice is no longer open: the game has moved on. Use the newest message.")


class MarketChanged(UserError):
    """A face-up card's button whose slot now holds another card (the market was refilled)."""

    message = N_(
        "The face-up card in slot {slot} is no longer {card}: the market changed. Pick again from the newest buttons."
    )


class LostRace(UserError):
    """Another writer (a click at the same moment, another process) stored its move first."""

    message = N_("Someone else moved at the same moment. Look at the newest message and try again.")


class GameIsOver(UserError):
    message = N_("This game is over.")


class GameReadOnly(UserError):
    message = N_("This game is read-only after a consistency check failed; an admin has been told.")


class GameEnded(UserError):
    message = N_("This game has already ended.")


class TooLate(UserError):
    message = N_("Too late: the game moved on.")


def reason(
    t: Translator, error: TemplateError | Unrated, *, game: Game | None = None, name: Callable[[int], str] | None = None
) -> str:
    """Any refusal in `t`'s language (`name(seat)` names a seat's player, in bold by default)."""
    if isinstance(error, (LeagueError, Unrated)):
        return league_text(t, error)
    if any(isinstance(v, (Command, Option)) for v in error.params.values()):
        error = TemplateError(error.template, **{k: _command_word(t, v) for k, v in error.params.items()})
    # The engine's errors read as sentences; the bot's own are written as they are shown.
    return describe_error(
        t,
        error,
        game,
        name or (lambda seat: "**" + t.gettext("Seat {n}", n=seat + 1) + "**"),
        sentence=isinstance(error, ActionError),
    )


def _command_word(t: Translator, value: object) -> object:
    if isinstance(value, Command):
        return slash(t, value)
    if isinstance(value, Option):
        return option_name(t, value)
    return value


def league_map_name(t: Translator, map_id: str) -> str:
    """A map's name; a season may name a map this version doesn't have (its id then)."""
    try:
        return t.map_name(load_map(map_id))
    except (KeyError, ValueError, OSError):
        return map_id


def league_text(t: Translator, text: LeagueError | Unrated) -> str:
    """A league error or unrated reason from storage (an English template and its data) in the
    reader's words: map ids as map names, lists of maps or player counts as "a, b or c"; names,
    numbers and dates (YYYY-MM-DD) as they are."""
    words = dict(text.params)
    if "map" in words:
        words["map"] = league_map_name(t, words["map"])
    if "maps" in words:
        words["maps"] = t.join((league_map_name(t, m) for m in words["maps"]), style="or")
    if "counts" in words:
        words["counts"] = t.join((str(c) for c in words["counts"]), style="or")
    return t.gettext(text.template, **words)
