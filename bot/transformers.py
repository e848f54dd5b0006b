"""What a command's options name, turned into the game's objects in one place: every value
checked against what its command declares (`check_options`), then the channel's table, the
caller's seat, a route, a city, a season's dates, maps and player counts, a league, a season, a
tournament, an abandoned tournament game (discord.py `Transformer`s, as RoboDanny uses them).
Each raises a specific UserError that `tree.on_error` words for the caller, and gives the
autocomplete for its option.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from discord import AppCommandOptionType, Interaction, app_commands
from discord.utils import escape_markdown, escape_mentions

from bot.errors import Command, NoGameHere, NotPlaying, Option, UserError
from bot.service import Table
from engine import BuildStation, Claim, available_maps, load_map
from engine.errors import ListRef
from engine.mapdata import MapData, fold_name
from engine.notation import route_label
from i18n import N_, Translator
from storage import leagues as stored
from storage import tournaments as stored_tournaments
from storage.clocks import GameClock
from storage.models import TOURNAMENT_FINISHED
from texts.present import route_choice_label


def _bot(interaction: Interaction):
    return interaction.client


# ---------------------------------------------------------------------------- every option's value

#: The longest text an option without a declared `max_length` takes (Discord's own is 6,000).
TEXT_OPTION = 200
#: Discord's integer options are JSON numbers between -(2^53) and 2^53: anything else is forged.
INTEGER_OPTION = 2**53
#: Characters a name or a typed value never needs and that hide or reorder what it shows (Unicode
#: categories): controls (NUL, BEL, CR LF …), format characters (zero-width spaces and joiners,
#: bidi overrides, BOM), private-use and surrogate code points.
_INVISIBLE = frozenset(("Cc", "Cf", "Co", "Cs"))


def clean_text(value: str) -> str:
    """What a typed value is taken as: NFC, invisible characters dropped, runs of spaces as one."""
    visible = "".join(c for c in value if unicodedata.category(c) not in _INVISIBLE)
    return " ".join(unicodedata.normalize("NFC", visible).split())


class OptionOutOfChoices(UserError):
    message = N_("**{value}** is not one of the choices of `{option}`.")


class OptionOutOfRange(UserError):
    message = N_("`{option}` must be between {low} and {high}.")


class OptionTooLong(UserError):
    message = N_("`{option}` is too long: at most {high} characters.")


class OptionEmpty(UserError):
    message = N_("`{option}` cannot be empty.")


class OptionRefused(app_commands.CheckFailure):
    """A value no Discord client sends for its option (a forged one, or a command definition older
    than the bot's): `tree.on_error` words `original` for the caller, and nothing runs."""

    def __init__(self, original: UserError) -> None:
        super().__init__(original.template)
        self.original = original


def check_options(interaction: Interaction) -> None:
    """Every option of a slash command against what the command declares — its choices, its range,
    its length — before any transformer or controller sees it; typed text is cleaned (`clean_text`)
    in place. The one boundary for options (components: bot/permissions.py and the templates)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    values = interaction.namespace.__dict__
    for param in command.parameters:
        name = param.display_name
        if name not in values:
            continue
        value = values[name]
        option = Option(param.name)
        if param.type is AppCommandOptionType.string and isinstance(value, str):
            # discord.py keeps a text option's declared lengths as its min and max values.
            value = values[name] = clean_text(value)
            high = int(param.max_value) if param.max_value is not None else TEXT_OPTION
            if len(value) > high:
                raise OptionRefused(OptionTooLong(option=option, high=high))
            if not value and (param.required or param.min_value):
                raise OptionRefused(OptionEmpty(option=option))
        if param.choices and value not in [choice.value for choice in param.choices]:
            raise OptionRefused(OptionOutOfChoices(value=escape_markdown(escape_mentions(str(value))), option=option))
        if param.type in (AppCommandOptionType.integer, AppCommandOptionType.number) and not isinstance(value, bool):
            low = param.min_value if param.min_value is not None else -INTEGER_OPTION
            high = param.max_value if param.max_value is not None else INTEGER_OPTION
            if not (math.isfinite(value) and low <= value <= high):
                raise OptionRefused(OptionOutOfRange(option=option, low=_number(low), high=_number(high)))


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


async def table_here(interaction: Interaction, *, routing: bool = False) -> Table:
    """The game of this channel (raises NoGameHere); `routing`: the service's copy as it is, for
    what only finds the move's game and map (`GameService.peek_channel`)."""
    service = _bot(interaction).service
    channel_id = interaction.channel_id
    table = await (service.peek_channel(channel_id) if routing else service.table_in_channel(channel_id))
    if table is None:
        raise NoGameHere()
    return table


def my_seat(table: Table, interaction: Interaction) -> int:
    """The caller's seat at `table` (raises NotPlaying)."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise NotPlaying()
    return seat


class NoTimer(UserError):
    message = N_("This game has no turn timer.")


async def clocked_table(interaction: Interaction) -> tuple[Table, GameClock]:
    """This channel's game and its turn timer (raises when there is none)."""
    table = await table_here(interaction)
    clock = await _bot(interaction).timers.clock(table.id)
    if clock is None:
        raise NoTimer()
    return table, clock


async def _my_legal_actions(interaction: Interaction, kind: type) -> tuple[Table, list] | None:
    """The caller's legal actions of one kind in this channel's game (for autocomplete)."""
    table = await _bot(interaction).service.peek_channel(interaction.channel_id)
    seat = table.seat_of(interaction.user.id) if table else None
    if table is None or seat is None:
        return None
    return table, [a for a in table.game.legal_actions(seat, collapse_payments=True) if isinstance(a, kind)]


def _matching(options: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """(label, value) pairs where what was typed is in the label (the user's language) or in the
    value (printed names), case and accents ignored."""
    wanted = fold_name(current)
    return [
        app_commands.Choice(name=label[:100], value=value[:100])
        for label, value in options
        if wanted in fold_name(label) or wanted in fold_name(value)
    ][:25]


@dataclass(frozen=True)
class RouteQuery:
    """A route as typed ('Dieppe-London/2', 'Лондон-Дьеп') and the tracks of the map it names."""

    text: str
    tracks: tuple[str, ...]


class RouteTransformer(app_commands.Transformer):
    """A route of this channel's map; autocomplete lists the routes the caller can claim now."""

    async def transform(self, interaction: Interaction, value: str) -> RouteQuery:
        table = await table_here(interaction, routing=True)
        m = table.game.map
        name, _, number = value.partition("/")
        t = await _bot(interaction).languages.for_interaction(interaction)
        wanted = fold_name(name)
        tracks = tuple(
            track_id
            for track_id, names in _folded_route_names(m, t)
            if wanted in names and (not number or track_id.endswith("/" + number))
        )
        return RouteQuery(value, tracks)

    async def autocomplete(self, interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
        found = await _my_legal_actions(interaction, Claim)
        if found is None:
            return []
        table, claims = found
        t = await _bot(interaction).languages.for_interaction(interaction)
        m = table.game.map
        tracks = sorted({m.track_by_id[a.track] for a in claims}, key=lambda track: (t.route(m, track), track.id))
        return _matching([(route_choice_label(t, m, track), route_label(m, track)) for track in tracks], value)


#: (map, file hash, language, city names) -> per track, its route's printed and translated names folded.
_FOLDED_ROUTES: dict[tuple[str, str, str, str], tuple[tuple[str, tuple[str, str]], ...]] = {}


def _folded_route_names(m: MapData, t: Translator) -> tuple[tuple[str, tuple[str, str]], ...]:
    """Looked up on every typed claim, folded (`fold_name`) once per map and way of naming cities
    (`t.city` depends on nothing else): a few dozen entries at most."""
    key = (m.id, m.sha256, t.language, t.city_names)
    folded = _FOLDED_ROUTES.get(key)
    if folded is None:
        folded = _FOLDED_ROUTES[key] = tuple(
            (track.id, (fold_name(m.route_name(track)), fold_name(m.route_name(track, t.city)))) for track in m.tracks
        )
    return folded


class CityTransformer(app_commands.Transformer):
    """A city typed for a station (kept as typed: the engine reads names in any language);
    autocomplete lists the cities where the caller can build one now."""

    async def transform(self, interaction: Interaction, value: str) -> str:
        return value

    async def autocomplete(self, interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
        found = await _my_legal_actions(interaction, BuildStation)
        if found is None:
            return []
        table, stations = found
        t = await _bot(interaction).languages.for_interaction(interaction)
        cities = sorted((table.game.map.city_by_id[city] for city in {a.city for a in stations}), key=t.city)
        return _matching([(t.city(c), c.name) for c in cities], value)


# ---------------------------------------------------------------------------- a season's options


def parse_date(text: str) -> datetime:
    """`2026-12-01` → that day's 00:00 UTC."""
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d")
    except ValueError:
        raise UserError("{text} is not a date like 2026-12-01", text=repr(text)) from None
    return day.replace(tzinfo=UTC)


def parse_maps(text: str | None) -> list[str]:
    """`usa, europe` → map ids; empty or `all` → [] (any map)."""
    if not text or text.strip().lower() in ("all", "any", "*"):
        return []
    known = {m: m for m in available_maps()}
    known.update({load_map(m).name.lower(): m for m in available_maps()})
    maps = []
    for part in re.split(r"[,;\s]+", text.strip()):
        if not part:
            continue
        found = known.get(part.lower())
        if found is None:
            raise UserError("unknown map {map}: choose from {maps}", map=repr(part), maps=", ".join(available_maps()))
        maps.append(found)
    return sorted(set(maps))


def parse_counts(text: str | None) -> list[int]:
    """`3-5` or `2,4` → player counts; empty or `all` → [] (any count)."""
    if not text or text.strip().lower() in ("all", "any", "*"):
        return []
    counts: set[int] = set()
    for part in re.split(r"[,;\s]+", text.strip()):
        if not part:
            continue
        bounds = part.split("-", 1)
        try:
            lo, hi = int(bounds[0]), int(bounds[-1])
        except ValueError:
            raise UserError("{text} is not a player count like 3, 2-4 or 3,5", text=repr(part)) from None
        if not 2 <= lo <= hi <= 5:
            raise UserError("player counts are 2 to 5, not {text}", text=repr(part))
        counts.update(range(lo, hi + 1))
    return sorted(counts)


# ---------------------------------------------------------------------------- leagues


class NoLeague(UserError):
    message = N_("This server has no league yet. Someone with **Manage Server** can create one with `{league_create}`.")

    def __init__(self) -> None:
        super().__init__(league_create=Command("ttr-league create"))


class UnknownLeague(UserError):
    message = N_("There is no league called **{name}** here. Leagues: {leagues}.")


class SeveralLeagues(UserError):
    message = N_("This server has several leagues; name one with the `{option}` option: {leagues}.")

    def __init__(self, leagues: ListRef) -> None:
        super().__init__(option=Option("league"), leagues=leagues)


class NoSeasonCalled(UserError):
    message = N_("**{league}** has no season called **{name}**.")


class NoSeasonYet(UserError):
    message = N_("**{league}** has no season yet: a league admin opens one with `{league_season}`.")

    def __init__(self, league: str) -> None:
        super().__init__(league=league, league_season=Command("ttr-league season"))


async def find_league(interaction: Interaction, name: str | None) -> stored.League:
    """The named league of this server, or its only one (raises why not)."""
    async with _bot(interaction).storage.sessions() as session:
        leagues = await stored.guild_leagues(session=session, guild_id=interaction.guild_id or 0)
    if not leagues:
        raise NoLeague()
    names = ListRef(tuple(f"**{lg.name}**" for lg in leagues))
    if name:
        found = next((lg for lg in leagues if lg.name.lower() == name.strip().lower()), None)
        if found is None:
            raise UnknownLeague(name=name, leagues=names)
        return found
    if len(leagues) == 1:
        return leagues[0]
    raise SeveralLeagues(names)


async def find_season(
    interaction: Interaction, league: stored.League, name: str | None = None, *, settle: bool = True
) -> stored.Season:
    """The named season, else the active one, else the latest; settled (ratings up to date)."""
    async with _bot(interaction).storage.sessions() as session:
        seasons = await stored.league_seasons(session=session, league_id=league.id)
        if name:
            season = next((s for s in seasons if s.name.lower() == name.strip().lower()), None)
        else:
            season = next((s for s in seasons if s.status == stored.SEASON_ACTIVE), None) or (
                seasons[-1] if seasons else None
            )
        if season is not None and settle and await stored.needs_recompute(session=session, season_id=season.id):
            await stored.recompute_season(session=session, season_id=season.id)
    if season is None:
        raise NoSeasonCalled(league=league.name, name=name) if name else NoSeasonYet(league.name)
    return season


class LeagueTransformer(app_commands.Transformer):
    """A league of this server, by name."""

    async def transform(self, interaction: Interaction, value: str) -> stored.League:
        return await find_league(interaction, value)

    async def autocomplete(self, interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
        async with _bot(interaction).storage.sessions() as session:
            leagues = await stored.guild_leagues(session=session, guild_id=interaction.guild_id or 0)
        return [app_commands.Choice(name=lg.name, value=lg.name) for lg in leagues if value.lower() in lg.name.lower()][
            :25
        ]


class SeasonName(app_commands.Transformer):
    """A season's name (resolved with the league, `find_season`); autocomplete lists the seasons
    of the league chosen in the same command, newest first."""

    async def transform(self, interaction: Interaction, value: str) -> str:
        return value

    async def autocomplete(self, interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
        bot = _bot(interaction)
        wanted = (getattr(interaction.namespace, "league", None) or "").lower()
        async with bot.storage.sessions() as session:
            leagues = await stored.guild_leagues(session=session, guild_id=interaction.guild_id or 0)
            names = []
            for lg in leagues:
                if wanted and lg.name.lower() != wanted:
                    continue
                names += [s.name for s in reversed(await stored.league_seasons(session=session, league_id=lg.id))]
        return [app_commands.Choice(name=n, value=n) for n in dict.fromkeys(names) if value.lower() in n.lower()][:25]


Route = app_commands.Transform[RouteQuery, RouteTransformer]
City = app_commands.Transform[str, CityTransformer]
League = app_commands.Transform[stored.League, LeagueTransformer]
Season = app_commands.Transform[str, SeasonName]


# ---------------------------------------------------------------------------- tournaments


class TournamentName(app_commands.Transformer):
    """A tournament's name as typed (resolved by the tournaments controller); autocomplete lists this
    server's tournaments, unfinished ones first, newest first."""

    async def transform(self, interaction: Interaction, value: str) -> str:
        return value

    async def autocomplete(self, interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
        async with interaction.client.storage.sessions() as session:  # type: ignore[attr-defined]
            found = await stored_tournaments.guild_tournaments(session=session, guild_id=interaction.guild_id or 0)
        wanted = fold_name(value)
        ordered = sorted(found, key=lambda x: x.status == TOURNAMENT_FINISHED)  # stable: newest first stays
        return [app_commands.Choice(name=x.name, value=x.name) for x in ordered if wanted in fold_name(x.name)][:25]


class AbandonedGame(app_commands.Transformer):
    """A game number for `adjudicate`; autocomplete lists the tables of this server's running
    tournaments whose game was ended without a result."""

    @property
    def type(self) -> AppCommandOptionType:
        return AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    async def transform(self, interaction: Interaction, value: int) -> int:
        return value

    async def autocomplete(self, interaction: Interaction, value: int | float | str) -> list[app_commands.Choice[int]]:
        async with interaction.client.storage.sessions() as session:  # type: ignore[attr-defined]
            running = [
                x
                for x in await stored_tournaments.guild_tournaments(session=session, guild_id=interaction.guild_id or 0)
                if x.status != TOURNAMENT_FINISHED
            ]
            waiting = [
                (x, row)
                for x in running
                for row in await stored_tournaments.abandoned_tables(session=session, tournament_id=x.id)
            ]
        t = await interaction.client.languages.for_interaction(interaction)  # type: ignore[attr-defined]
        return [
            app_commands.Choice(
                name=t.gettext(
                    "#{game} · {tournament} · round {round} · table {table}",
                    game=row.game_id,
                    tournament=x.name,
                    round=row.round,
                    table=row.number,
                )[:100],
                value=row.game_id,
            )
            for x, row in waiting
            if str(value) in str(row.game_id)
        ][:25]


TournamentOption = app_commands.Transform[str, TournamentName]
GameOption = app_commands.Transform[int, AbandonedGame]
