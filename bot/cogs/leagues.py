"""Leagues on Discord: `/ttr-league …` (create, season, rated, void, export, audit, leaderboard,
profile) and the listener that rates a league game when it ends.

Who may do what:
- `create`: Manage Server (or Administrator). The league's admin role is chosen there.
- `season`, `void`, `export`, `audit`: league admins — members with the league's admin role, and
  anyone with Manage Server.
- `rated`: the host of the lobby or game in this channel, before the game's first turn (while
  starting tickets are chosen); a league admin at any time.
- `leaderboard`, `profile`: everyone.

A game joins a league season with `/ttr-league rated` in its channel: on an open lobby (the link
is kept on the lobby, and the game it starts is in the season) or on a game that has just
started. `/ttr-host new` stays as it is. When the game ends (its outcome says so), the season's ratings
are rebuilt and the channel is told the rating changes. All league words live here; storage
(`storage.leagues`) rates and keeps them, `rendering.standings` draws them.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import re
from datetime import UTC, datetime, timedelta

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str
from discord.ext import tasks

from bot import components, errors
from bot.background import Backoff
from bot.choices import MAP_CHOICES
from bot.cog import TTRCog
from bot.command_translator import locale_pstr, slash
from bot.errors import UserError, league_map_name, not_league_admin, reason
from bot.messenger import PLAYER_COLORS
from bot.permissions import is_league_admin, is_manager
from bot.service import LEAGUES, Outcome, Table
from bot.transformers import League, NoLeague, Season, find_league, find_season
from engine import available_maps, load_map
from i18n import NC_, Translator
from rendering.standings import (
    LadderRow,
    ProfileCard,
    RecentRow,
    render_profile,
    render_standings,
)
from rendering.style import DEFAULT_PLAYER_COLORS
from storage import leagues as stored
from storage import lobbies as stored_lobbies
from storage.models import ADD_ROLE, ANNOUNCE

log = logging.getLogger(__name__)

SEASON_DAYS = 30  # a season's length when no end date is given


async def _reply(interaction: Interaction, text: str, *, ephemeral: bool = True, **kwargs) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


def _admin_refusal(t: Translator, league: stored.League) -> str:
    return reason(t, not_league_admin(league))


#: League-admin actions in the audit log, and the details they record.
AUDIT_ACTIONS = {
    "create_league": NC_("audit", "create league"),
    "set_admin_role": NC_("audit", "set admin role"),
    "create_season": NC_("audit", "create season"),
    "close_season": NC_("audit", "close season"),
    "add_game": NC_("audit", "add game"),
    "add_lobby": NC_("audit", "add lobby"),
    "void_game": NC_("audit", "void game"),
    "restore_game": NC_("audit", "restore game"),
    "set_division": NC_("audit", "set division"),
    "remove_division": NC_("audit", "remove division"),
    "place_player": NC_("audit", "place player"),
    "set_reward": NC_("audit", "set reward"),
    "rename_league": NC_("audit", "rename league"),
}
AUDIT_DETAILS = {
    "name": NC_("audit", "name"),
    "admin_role_id": NC_("audit", "admin role"),
    "starts_at": NC_("audit", "starts"),
    "ends_at": NC_("audit", "ends"),
    "maps": NC_("audit", "maps"),
    "player_counts": NC_("audit", "players"),
    "min_games": NC_("audit", "min. games"),
    "carry_over": NC_("audit", "carry over"),
    "game_id": NC_("audit", "game"),
    "lobby_id": NC_("audit", "lobby"),
    "reason": NC_("audit", "reason"),
    "min_turns": NC_("audit", "min. turns"),
    "promote": NC_("audit", "up"),
    "relegate": NC_("audit", "down"),
    "player": NC_("audit", "player"),
    "role_id": NC_("audit", "role"),
    "top": NC_("audit", "top"),
}


def _audit_value(t: Translator, key: str, value: object) -> str:
    """A recorded detail as a reader of the audit log wants it: dates as Discord timestamps (shown
    in the reader's own locale and time zone), maps by name, yes/no, roles as mentions."""
    if isinstance(value, bool):
        return t.gettext("yes") if value else t.gettext("no")
    if key in ("starts_at", "ends_at") and isinstance(value, str):
        return f"<t:{int(datetime.fromisoformat(value).timestamp())}:d>"
    if key == "maps" and isinstance(value, list):
        return t.join(league_map_name(t, m) for m in value)
    if key in ("admin_role_id", "role_id"):
        return f"<@&{value}>"
    if key == "player":
        return f"<@{value}>"
    if isinstance(value, list):
        return t.join(str(v) for v in value)
    return str(value)


# ---------------------------------------------------------------------------- parsing options


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


# ---------------------------------------------------------------------------- the controller


#: Options several league commands share.
LEAGUE_OPTION = locale_str("Which league (if the server has several)")
SEASON_OPTION = locale_str("Which season (default: the current)")
PUBLIC_OPTION = locale_str("Post it for everyone (default: only you)")


DIVISION_OPTION = locale_str("The division's name")
#: How often (seconds) the bot looks for seasons past their last day and for close work left to do.
CLOSE_EVERY = 60
#: Why a reward role could not be given or taken (`CloseTask.error`), as the results post words it.
ROLE_PROBLEMS = {
    "manage_roles": NC_("league", "I need the **Manage Roles** permission"),
    "hierarchy": NC_("league", "the role is above my highest role: move my role above it"),
    "forbidden": NC_("league", "Discord refused (Manage Roles, or the role above mine)"),
    "not_found": NC_("league", "the role or the member is gone"),
}


def role_problem(guild: discord.Guild | None, role_id: int) -> str | None:
    """Why the bot cannot give or take this role here (a key of `ROLE_PROBLEMS`), or None."""
    role = guild.get_role(role_id) if guild else None
    if guild is None or role is None:
        return "not_found"
    if not guild.me.guild_permissions.manage_roles:
        return "manage_roles"
    if role >= guild.me.top_role:
        return "hierarchy"
    return None


def delete_view(league_id: int, *, t: Translator) -> discord.ui.View:
    return components.layout(
        [
            components.button(
                f"ttr:league:{league_id}:delete:yes", t.pgettext("button", "Delete"), style=discord.ButtonStyle.danger
            ),
            components.button(f"ttr:league:{league_id}:delete:no", t.pgettext("button", "Cancel")),
        ]
    )


class DeleteButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.LEAGUE_DELETE):
    async def run(self, interaction: Interaction) -> None:
        cog: Leagues = interaction.client.get_cog("Leagues")  # type: ignore[attr-defined,assignment]
        await cog.confirm_delete(interaction, self.number("league"), self.fields["answer"] == "yes")


def _csv_with_season(season: str, text: str, *, header: bool) -> str:
    """One season's CSV with a first column naming the season (several seasons in one file)."""
    rows = list(csv.reader(io.StringIO(text)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for n, row in enumerate(rows):
        if n or header:
            writer.writerow(["season" if n == 0 else season, *row])
    return out.getvalue()


class Leagues(TTRCog):
    under = "ttr-league"
    items = (DeleteButton,)

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self._closer = Backoff("season closer", base=60, most=3600)

    async def start_work(self) -> None:
        self.close_seasons.start()

    async def stop_work(self) -> None:
        self.close_seasons.cancel()

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.subscribe(LEAGUES, self.on_outcome)

    async def cog_unload(self) -> None:
        self.bot.service.unsubscribe(self.on_outcome)
        await super().cog_unload()

    async def on_outcome(self, outcome: Outcome) -> None:
        if outcome.game_over:
            await self.on_game_finished(outcome.table)

    async def _t(self, interaction: Interaction) -> Translator:
        """The language of a private reply."""
        return await self.bot.languages.for_interaction(interaction)

    async def _public(self, interaction: Interaction) -> Translator:
        """The language of a reply everyone in the channel sees."""
        return await self.bot.languages.for_channel(interaction.guild_id)

    # ------------------------------------------------------------------ lookups

    def _display(self, t: Translator, interaction: Interaction, user_id: int, stored_name: str | None) -> str:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return member.display_name
        return stored_name or t.gettext("Player {id}", id=user_id)

    # ------------------------------------------------------------------ admin commands

    async def create(self, interaction: Interaction, name: str, admin_role: discord.Role | None) -> None:
        t = await self._t(interaction)
        if not is_manager(interaction):
            await _reply(
                interaction, t.gettext("Only someone with the **Manage Server** permission can create a league.")
            )
            return
        try:
            async with self.bot.storage.sessions() as session:
                league = await stored.create_league(
                    session=session,
                    guild_id=interaction.guild_id or 0,
                    name=name,
                    created_by=interaction.user.id,
                    admin_role_id=admin_role.id if admin_role else None,
                    channel_id=interaction.channel_id,
                )
        except stored.LeagueError as exc:
            await _reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        t = await self._public(interaction)
        league_season = slash(t, "ttr-league season")
        text = (
            t.gettext(
                "🏆 League **{league}** created. League admins: members with {role} and anyone with Manage "
                "Server. Next: open a season with `{league_season}`.",
                league=league.name,
                role=admin_role.mention,
                league_season=league_season,
            )
            if admin_role
            else t.gettext(
                "🏆 League **{league}** created. League admins: anyone with Manage Server. Next: open a "
                "season with `{league_season}`.",
                league=league.name,
                league_season=league_season,
            )
        )
        await _reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def set_role(self, interaction: Interaction, chosen: stored.League | None, role: discord.Role | None) -> None:
        if not is_manager(interaction):
            t = await self._t(interaction)
            await _reply(
                interaction,
                t.gettext("Only someone with the **Manage Server** permission can change a league's admin role."),
            )
            return
        league = chosen or await find_league(interaction, None)
        async with self.bot.storage.sessions() as session:
            await stored.set_admin_role(
                session=session,
                league_id=league.id,
                admin_role_id=role.id if role else None,
                user_id=interaction.user.id,
            )
        t = await self._public(interaction)
        text = (
            t.gettext(
                "🏆 **{league}**: league admins are now members with {role} and anyone with Manage Server.",
                league=league.name,
                role=role.mention,
            )
            if role
            else t.gettext("🏆 **{league}**: league admins are now anyone with Manage Server.", league=league.name)
        )
        await _reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def info(self, interaction: Interaction, chosen: stored.League | None) -> None:
        t = await self._t(interaction)
        async with self.bot.storage.sessions() as session:
            leagues = (
                [chosen] if chosen else await stored.guild_leagues(session=session, guild_id=interaction.guild_id or 0)
            )
            lines = []
            for lg in leagues:
                role = f"<@&{lg.admin_role_id}>"
                lines.append(
                    t.gettext("🏆 **{league}** · admins: {role} and Manage Server", league=lg.name, role=role)
                    if lg.admin_role_id
                    else t.gettext("🏆 **{league}** · admins: Manage Server", league=lg.name)
                )
                seasons = await stored.league_seasons(session=session, league_id=lg.id)
                for season in reversed(seasons[-3:]):
                    games = await stored.season_games(session=session, season_id=season.id)
                    rated = sum(1 for g in games if g.rated and not g.voided)
                    words = {"season": season.name, "rules": self.season_text(t, season)}
                    lines.append(
                        t.ngettext(
                            "• **{season}** (open, {n} rated game): {rules}",
                            "• **{season}** (open, {n} rated games): {rules}",
                            rated,
                            **words,
                        )
                        if season.status == stored.SEASON_ACTIVE
                        else t.ngettext(
                            "• **{season}** (closed, {n} rated game): {rules}",
                            "• **{season}** (closed, {n} rated games): {rules}",
                            rated,
                            **words,
                        )
                    )
                if not seasons:
                    lines.append(t.gettext("• no season yet"))
                divisions = await stored.league_divisions(session=session, league_id=lg.id)
                if divisions:
                    lines.append(self.divisions_text(t, divisions))
        if not lines:
            raise NoLeague()
        await _reply(interaction, "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())

    async def new_season(
        self,
        interaction: Interaction,
        *,
        chosen: stored.League | None,
        name: str,
        start: str | None,
        end: str | None,
        maps: str | None,
        players: str | None,
        min_games: int,
        carry_over: bool,
        min_turns: int = 0,
    ) -> None:
        league = chosen or await find_league(interaction, None)
        t = await self._t(interaction)
        if not is_league_admin(interaction, league):
            await _reply(interaction, _admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
            return
        now = datetime.now(UTC)
        try:
            starts = parse_date(start) if start else now
            ends = (
                parse_date(end) + timedelta(days=1)
                if end
                else (starts.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=SEASON_DAYS + 1))
            )
            map_ids, counts = parse_maps(maps), parse_counts(players)
            async with self.bot.storage.sessions() as session:
                season = await stored.create_season(
                    session=session,
                    league_id=league.id,
                    name=name,
                    starts_at=starts,
                    ends_at=ends,
                    created_by=interaction.user.id,
                    maps=map_ids,
                    player_counts=counts,
                    min_games=min_games,
                    carry_over=carry_over,
                    min_turns=min_turns,
                )
        except UserError as exc:
            await _reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        except stored.LeagueError as exc:
            await _reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        t = await self._public(interaction)
        await _reply(
            interaction,
            t.gettext(
                "📅 **{league}**: season **{season}** is open.\n{rules}\nHosts add a game "
                "with `{league_rated}` in its channel (in the lobby or before the "
                "first turn).",
                league=league.name,
                season=season.name,
                rules=self.season_text(t, season),
                league_rated=slash(t, "ttr-league rated"),
            ),
            ephemeral=False,
        )

    @staticmethod
    def season_text(t: Translator, season: stored.Season) -> str:
        """A season's rules in one line: dates, maps, player counts, games to rank, carry-over."""
        first_day = season.starts_at.date().isoformat()
        last_day = (season.ends_at - timedelta(days=1)).date().isoformat()
        parts = [
            t.gettext("{start} to {end}", start=first_day, end=last_day),
            t.join(league_map_name(t, m) for m in season.maps) if season.maps else t.gettext("any map"),
            t.gettext("{counts} players", counts=", ".join(str(c) for c in season.player_counts) or "2–5"),
            t.ngettext("{n} game to appear in the standings", "{n} games to appear in the standings", season.min_games),
            *(
                [
                    t.ngettext(
                        "a game counts once each seat took {n} turn",
                        "a game counts once each seat took {n} turns",
                        season.min_turns,
                    )
                ]
                if season.min_turns
                else []
            ),
            t.gettext("ratings carry over to the next season")
            if season.carry_over
            else t.gettext("ratings start afresh next season"),
        ]
        return " · ".join(parts)

    async def rated(self, interaction: Interaction, chosen: stored.League | None) -> None:
        league = chosen or await find_league(interaction, None)
        t = await self._t(interaction)
        async with self.bot.storage.sessions() as session:
            season = await stored.active_season(session=session, league_id=league.id)
        if season is None:
            await _reply(
                interaction,
                t.gettext(
                    "**{league}** has no open season: a league admin opens one with `{league_season}`.",
                    league=league.name,
                    league_season=slash(t, "ttr-league season"),
                ),
            )
            return
        admin = is_league_admin(interaction, league)
        table = await self.bot.service.table_in_channel(interaction.channel_id)
        try:
            if table is not None:
                if interaction.user.id != table.record.host_id and not admin:
                    await _reply(
                        interaction,
                        t.gettext("Only the host of this game or a league admin can make it a league game."),
                    )
                    return
                if table.game.phase != "choosing" and not admin:
                    await _reply(
                        interaction,
                        t.gettext(
                            "This game is under way: a game joins a league before its "
                            "first turn (in the lobby, or while the starting tickets are "
                            "chosen). A league admin can still add it."
                        ),
                    )
                    return
                async with self.bot.storage.sessions() as session:
                    await stored.attach_game(
                        session=session, season_id=season.id, game_id=table.id, user_id=interaction.user.id
                    )
            else:
                async with self.bot.storage.sessions() as session:
                    lobby = await stored_lobbies.open_lobby_in_channel(
                        session=session, channel_id=interaction.channel_id
                    )
                if lobby is None:
                    await _reply(
                        interaction,
                        t.gettext(
                            "There is no open lobby or running game here. Open one with "
                            "`{new}`, then run `{league_rated}`.",
                            new=slash(t, "ttr-host new"),
                            league_rated=slash(t, "ttr-league rated"),
                        ),
                    )
                    return
                if interaction.user.id != lobby.host_id and not admin:
                    await _reply(
                        interaction,
                        t.gettext("Only the host of this lobby or a league admin can make it a league game."),
                    )
                    return
                async with self.bot.storage.sessions() as session:
                    await stored.attach_lobby(
                        session=session, season_id=season.id, lobby_id=lobby.id, user_id=interaction.user.id
                    )
        except stored.LeagueError as exc:
            await _reply(
                interaction,
                t.gettext(
                    "⚠️ This game can't join **{league}**: {reason}.", league=league.name, reason=errors.reason(t, exc)
                ),
            )
            return
        t = await self._public(interaction)
        await _reply(
            interaction,
            t.gettext(
                "🏆 This game counts for **{league} · {season}**: ratings are updated when it ends.\n{rules}",
                league=league.name,
                season=season.name,
                rules=self.season_text(t, season),
            ),
            ephemeral=False,
        )

    async def void(
        self, interaction: Interaction, *, chosen: stored.League | None, game_id: int, reason: str | None, restore: bool
    ) -> None:
        league = chosen or await find_league(interaction, None)
        t = await self._t(interaction)
        if not is_league_admin(interaction, league):
            await _reply(interaction, _admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
            return
        async with self.bot.storage.sessions() as session:
            row = await stored.league_game(session=session, game_id=game_id)
            season = await stored.get_season(session=session, season_id=row.season_id) if row else None
        if row is None or season is None or season.league_id != league.id:
            await _reply(
                interaction, t.gettext("Game #{game} is not a game of **{league}**.", game=game_id, league=league.name)
            )
            return
        await interaction.response.defer(thinking=True)
        try:
            async with self.bot.storage.sessions() as session:
                await stored.void_game(
                    session=session, game_id=game_id, user_id=interaction.user.id, reason=reason, restore=restore
                )
        except stored.LeagueError as exc:
            await _reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        t = await self._public(interaction)
        words = {
            "user": f"<@{interaction.user.id}>",
            "game": game_id,
            "league": league.name,
            "season": season.name,
            "reason": reason,
        }
        if restore:
            text = (
                t.gettext(
                    "🧹 {user} restored the result of game #{game} in **{league} · {season}** ({reason}). "
                    "Ratings were recomputed from the games in order.",
                    **words,
                )
                if reason
                else t.gettext(
                    "🧹 {user} restored the result of game #{game} in **{league} · {season}**. Ratings were "
                    "recomputed from the games in order.",
                    **words,
                )
            )
        else:
            text = (
                t.gettext(
                    "🧹 {user} voided the result of game #{game} in **{league} · {season}** ({reason}). "
                    "Ratings were recomputed from the remaining games in order.",
                    **words,
                )
                if reason
                else t.gettext(
                    "🧹 {user} voided the result of game #{game} in **{league} · {season}**. Ratings were "
                    "recomputed from the remaining games in order.",
                    **words,
                )
            )
        await _reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def export(self, interaction: Interaction, *, chosen: stored.League | None, season_name: str | None) -> None:
        league = chosen or await find_league(interaction, None)
        t = await self._t(interaction)
        if not is_league_admin(interaction, league):
            await _reply(interaction, _admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
            return
        season = await find_season(interaction, league, season_name)
        async with self.bot.storage.sessions() as session:
            results = await stored.export_results_csv(session=session, season_id=season.id)
            standings = await stored.export_standings_csv(session=session, season_id=season.id)
        stem = re.sub(r"[^A-Za-z0-9]+", "-", f"{league.name}-{season.name}").strip("-").lower() or "season"
        files = [
            discord.File(io.BytesIO(results.encode()), filename=f"{stem}-results.csv"),
            discord.File(io.BytesIO(standings.encode()), filename=f"{stem}-standings.csv"),
        ]
        await _reply(
            interaction,
            t.gettext(
                "📄 **{league} · {season}**: every game (one row per seat) and the standings.",
                league=league.name,
                season=season.name,
            ),
            files=files,
        )

    async def audit(self, interaction: Interaction, chosen: stored.League | None) -> None:
        league = chosen or await find_league(interaction, None)
        t = await self._t(interaction)
        if not is_league_admin(interaction, league):
            await _reply(interaction, _admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
            return
        async with self.bot.storage.sessions() as session:
            entries = await stored.audit_log(session=session, league_id=league.id, limit=15)
        lines = [t.gettext("**{league}**: the last league-admin actions", league=league.name)]
        for e in entries:
            action = t.pgettext("audit", AUDIT_ACTIONS[e.action]) if e.action in AUDIT_ACTIONS else e.action
            details = ", ".join(
                f"{t.pgettext('audit', AUDIT_DETAILS[k]) if k in AUDIT_DETAILS else k} {_audit_value(t, k, v)}"
                for k, v in e.details.items()
                if v not in (None, [], "")
            )
            words = {"when": f"<t:{int(e.created_at.timestamp())}:f>", "user": f"<@{e.user_id}>", "action": action}
            lines.append(
                t.gettext("{when} {user} {action} ({details})", details=details, **words)
                if details
                else t.gettext("{when} {user} {action}", **words)
            )
        await _reply(interaction, "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ everyone

    async def leaderboard(
        self,
        interaction: Interaction,
        *,
        chosen: stored.League | None,
        season_name: str | None,
        map_id: str | None,
        public: bool,
        division: str | None = None,
    ) -> None:
        league = chosen or await find_league(interaction, None)
        season = await find_season(interaction, league, season_name)
        t = await self._public(interaction) if public else await self._t(interaction)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        scope = map_id or stored.OVERALL
        async with self.bot.storage.sessions() as session:
            divisions = await stored.league_divisions(session=session, league_id=league.id)
            found = next((d for d in divisions if division and d.name.lower() == division.strip().lower()), None)
            if division and found is None:
                await interaction.followup.send(
                    t.gettext("**{league}** has no division called **{name}**.", league=league.name, name=division),
                    ephemeral=True,
                )
                return
            table, below = await stored.standings(
                session=session, season_id=season.id, scope=scope, division_id=found.id if found else None
            )
        rows = [
            LadderRow(
                s.place,
                self._display(t, interaction, s.user_id, s.name),
                s.rating,
                s.games,
                s.wins,
                highlight=s.user_id == interaction.user.id,
            )
            for s in table
        ]
        ladder = league_map_name(t, map_id) if map_id else t.gettext("all maps")
        if found is not None:
            ladder = t.gettext("{division} · {ladder}", division=found.name, ladder=ladder)
        note = (
            t.ngettext(
                "{n} more player with fewer than {min_games} games",
                "{n} more players with fewer than {min_games} games",
                below,
                min_games=season.min_games,
            )
            if below
            else ""
        )
        image = await asyncio.to_thread(
            render_standings,
            rows,
            title=t.gettext("{league} · Standings", league=league.name),
            subtitle=t.gettext("{season} · {ladder} · rating = μ - 3σ (openskill)", season=season.name, ladder=ladder),
            note=note,
            t=t,
        )
        file = discord.File(io.BytesIO(image.png), filename="standings.png", description=image.alt_text[:1024])
        await interaction.followup.send(file=file, ephemeral=not public)

    async def profile(
        self,
        interaction: Interaction,
        *,
        user: discord.abc.User | None,
        chosen: stored.League | None,
        season_name: str | None,
        public: bool,
    ) -> None:
        league = chosen or await find_league(interaction, None)
        season = await find_season(interaction, league, season_name)
        t = await self._public(interaction) if public else await self._t(interaction)
        user = user or interaction.user
        await interaction.response.defer(ephemeral=not public, thinking=True)
        async with self.bot.storage.sessions() as session:
            p = await stored.player_profile(session=session, season_id=season.id, user_id=user.id, recent=6)
            table, _ = await stored.standings(session=session, season_id=season.id)
        color = DEFAULT_PLAYER_COLORS[user.id % len(PLAYER_COLORS)]
        card = ProfileCard(
            name=getattr(user, "display_name", None) or p.name or t.gettext("Player {id}", id=user.id),
            league=league.name,
            season=season.name,
            rating=p.rating,
            place=p.place,
            ranked=len(table),
            games=p.games,
            wins=p.wins,
            average_score=p.average_score,
            ticket_rate=p.ticket_rate,
            longest_bonuses=p.longest_bonuses,
            map_ratings=[(league_map_name(t, m), v) for m, v in p.map_ratings.items()],
            history=p.history,
            map_history=[(league_map_name(t, m), points) for m, points in p.map_history.items()],
            seasons=p.seasons,
            recent=[
                RecentRow(
                    f"{g.finished_at:%Y-%m-%d}" if g.finished_at else "",
                    league_map_name(t, g.map_id),
                    g.rank,
                    g.players,
                    g.score,
                    g.change,
                )
                for g in p.recent
            ],
            min_games=season.min_games,
            color=color,
        )
        image = await asyncio.to_thread(render_profile, card, t=t)
        file = discord.File(io.BytesIO(image.png), filename="profile.png", description=image.alt_text[:1024])
        await interaction.followup.send(file=file, ephemeral=not public)

    # ------------------------------------------------------------------ divisions, rewards, rename, delete

    async def _admin_league(self, interaction: Interaction, chosen: stored.League | None) -> stored.League | None:
        """The league, if the caller is one of its admins (else they are told why not)."""
        league = chosen or await find_league(interaction, None)
        if is_league_admin(interaction, league):
            return league
        t = await self._t(interaction)
        await _reply(interaction, _admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
        return None

    async def _refused(self, interaction: Interaction, exc: stored.LeagueError) -> None:
        t = await self._t(interaction)
        await _reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))

    async def division_set(
        self,
        interaction: Interaction,
        chosen: stored.League | None,
        name: str,
        promote: int | None,
        relegate: int | None,
    ) -> None:
        league = await self._admin_league(interaction, chosen)
        if league is None:
            return
        async with self.bot.storage.sessions() as session:
            await stored.set_division(
                session=session,
                league_id=league.id,
                name=name,
                user_id=interaction.user.id,
                promote=promote,
                relegate=relegate,
            )
            divisions = await stored.league_divisions(session=session, league_id=league.id)
        t = await self._public(interaction)
        await _reply(
            interaction,
            t.gettext(
                "🏆 **{league}** divisions, top first:\n{divisions}",
                league=league.name,
                divisions=self.divisions_text(t, divisions),
            ),
            ephemeral=False,
        )

    @staticmethod
    def divisions_text(t: Translator, divisions: list) -> str:
        return "\n".join(
            t.gettext(
                "{level}. **{division}**: top {up} up, bottom {down} down",
                level=d.level,
                division=d.name,
                up=d.promote if d.level > 1 else 0,
                down=d.relegate if d.level < len(divisions) else 0,
            )
            for d in divisions
        )

    async def division_remove(self, interaction: Interaction, chosen: stored.League | None, name: str) -> None:
        league = await self._admin_league(interaction, chosen)
        if league is None:
            return
        try:
            async with self.bot.storage.sessions() as session:
                await stored.remove_division(
                    session=session, league_id=league.id, name=name, user_id=interaction.user.id
                )
        except stored.LeagueError as exc:
            await self._refused(interaction, exc)
            return
        t = await self._public(interaction)
        await _reply(
            interaction,
            t.gettext(
                "🏆 **{league}**: division **{division}** removed; its players have no division now.",
                league=league.name,
                division=name,
            ),
            ephemeral=False,
        )

    async def division_assign(
        self, interaction: Interaction, chosen: stored.League | None, player: discord.abc.User, division: str
    ) -> None:
        league = await self._admin_league(interaction, chosen)
        if league is None:
            return
        try:
            async with self.bot.storage.sessions() as session:
                found = await stored.place_player(
                    session=session,
                    league_id=league.id,
                    player_id=player.id,
                    division=division,
                    user_id=interaction.user.id,
                )
        except stored.LeagueError as exc:
            await self._refused(interaction, exc)
            return
        t = await self._public(interaction)
        await _reply(
            interaction,
            t.gettext(
                "🏆 **{league}**: {player} plays in **{division}**.",
                league=league.name,
                player=player.mention,
                division=found.name,
            ),
            ephemeral=False,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def division_reward(
        self, interaction: Interaction, chosen: stored.League | None, role: discord.Role, top: int, division: str | None
    ) -> None:
        league = await self._admin_league(interaction, chosen)
        if league is None:
            return
        try:
            async with self.bot.storage.sessions() as session:
                await stored.set_reward(
                    session=session,
                    league_id=league.id,
                    role_id=role.id,
                    top=top,
                    division=division,
                    user_id=interaction.user.id,
                )
        except stored.LeagueError as exc:
            await self._refused(interaction, exc)
            return
        t = await self._public(interaction)
        words = {"league": league.name, "role": role.mention, "n": top, "division": division}
        if top <= 0:
            text = t.gettext("🎖️ **{league}**: {role} is no longer a reward.", **words)
        elif division:
            text = t.ngettext(
                "🎖️ **{league}**: at each season's end the winner of **{division}** gets {role} "
                "(and last season's holders lose it).",
                "🎖️ **{league}**: at each season's end the top {n} of **{division}** get {role} "
                "(and last season's holders lose it).",
                top,
                **words,
            )
        else:
            text = t.ngettext(
                "🎖️ **{league}**: at each season's end the champion gets {role} (and last season's holders lose it).",
                "🎖️ **{league}**: at each season's end the top {n} get {role} (and last season's holders lose it).",
                top,
                **words,
            )
        problem = role_problem(interaction.guild, role.id) if top > 0 else None
        if problem is not None:
            text += "\n" + t.gettext(
                "⚠️ I can't give {role} yet: {problem}.",
                role=role.mention,
                problem=t.pgettext("league", ROLE_PROBLEMS[problem]),
            )
        await _reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def division_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: the divisions of the league named in the command (or the server's only one)."""
        wanted = (getattr(interaction.namespace, "league", None) or "").lower()
        async with self.bot.storage.sessions() as session:
            names: list[str] = []
            for lg in await stored.guild_leagues(session=session, guild_id=interaction.guild_id or 0):
                if not wanted or lg.name.lower() == wanted:
                    names += [d.name for d in await stored.league_divisions(session=session, league_id=lg.id)]
        return [app_commands.Choice(name=n, value=n) for n in dict.fromkeys(names) if current.lower() in n.lower()][:25]

    async def rename(self, interaction: Interaction, chosen: stored.League | None, name: str) -> None:
        t = await self._t(interaction)
        if not is_manager(interaction):
            await _reply(
                interaction,
                t.gettext("Only someone with the **Manage Server** permission can rename or delete a league."),
            )
            return
        league = chosen or await find_league(interaction, None)
        try:
            async with self.bot.storage.sessions() as session:
                await stored.rename_league(session=session, league_id=league.id, name=name, user_id=interaction.user.id)
        except stored.LeagueError as exc:
            await self._refused(interaction, exc)
            return
        t = await self._public(interaction)
        await _reply(
            interaction,
            t.gettext("🏆 League **{old}** is now called **{new}**.", old=league.name, new=name.strip()),
            ephemeral=False,
        )

    async def delete(self, interaction: Interaction, chosen: stored.League | None) -> None:
        """Asks first, privately, with the league's whole export attached (every season's games
        and standings, two CSV files), so nothing is lost by a click."""
        t = await self._t(interaction)
        if not is_manager(interaction):
            await _reply(
                interaction,
                t.gettext("Only someone with the **Manage Server** permission can rename or delete a league."),
            )
            return
        league = chosen or await find_league(interaction, None)
        await interaction.response.defer(ephemeral=True, thinking=True)
        results, table = [], []
        async with self.bot.storage.sessions() as session:
            for n, season in enumerate(await stored.league_seasons(session=session, league_id=league.id)):
                if await stored.needs_recompute(session=session, season_id=season.id):
                    await stored.recompute_season(session=session, season_id=season.id)
                results.append(
                    _csv_with_season(
                        season.name,
                        await stored.export_results_csv(session=session, season_id=season.id),
                        header=n == 0,
                    )
                )
                table.append(
                    _csv_with_season(
                        season.name,
                        await stored.export_standings_csv(session=session, season_id=season.id),
                        header=n == 0,
                    )
                )
        stem = re.sub(r"[^A-Za-z0-9]+", "-", league.name).strip("-").lower() or "league"
        files = [
            discord.File(io.BytesIO("".join(results).encode()), filename=f"{stem}-all-results.csv"),
            discord.File(io.BytesIO("".join(table).encode()), filename=f"{stem}-all-standings.csv"),
        ]
        await interaction.followup.send(
            t.gettext(
                "Delete the league **{league}** with all its seasons, ratings, divisions and audit log? The "
                "games stay. Its export is attached: keep it, deleting cannot be undone.",
                league=league.name,
            ),
            files=files,
            view=delete_view(league.id, t=t),
            ephemeral=True,
        )

    async def confirm_delete(self, interaction: Interaction, league_id: int, yes: bool) -> None:
        t = await self._t(interaction)
        if not is_manager(interaction):
            await _reply(
                interaction,
                t.gettext("Only someone with the **Manage Server** permission can rename or delete a league."),
            )
            return
        async with self.bot.storage.sessions() as session:
            league = await stored.get_league(session=session, league_id=league_id)
            if yes and league is not None and league.guild_id == interaction.guild_id:
                await stored.delete_league(session=session, league_id=league_id)
        if not yes or league is None or league.guild_id != interaction.guild_id:
            await interaction.response.edit_message(content=t.gettext("Nothing was deleted."), view=None)
            return
        await interaction.response.edit_message(
            content=t.gettext("✅ League **{league}** deleted.", league=league.name), view=None
        )
        public = await self._public(interaction)
        await interaction.followup.send(
            public.gettext(
                "🗑️ {user} deleted the league **{league}**.", user=interaction.user.mention, league=league.name
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------------ seasons closing on their date

    @tasks.loop(seconds=CLOSE_EVERY)
    async def close_seasons(self) -> None:
        await self._closer.run(self.close_due_seasons)

    @close_seasons.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()  # type: ignore[attr-defined]

    async def close_due_seasons(self) -> None:
        """Close the seasons past their last day on this process's servers (each close is claimed
        in the database: one process does it), then do the Discord work closes left: roles, then
        the results post. A process that died mid-way left its tasks leased; they are taken over
        once the lease runs out."""
        served = [g.id for g in self.bot.guilds if self.bot.serves_guild(g.id)]  # type: ignore[attr-defined]
        async with self.bot.storage.sessions() as session:
            for season, guild_id in await stored.due_seasons(session=session):
                if guild_id in served:
                    await stored.close_season(session=session, season_id=season.id)
            while claimed := await stored.claim_close_tasks(session=session, guild_ids=served):
                for task in claimed:
                    if not await self._do_close_task(session, task):
                        return  # Discord is failing: the rest waits for the next round

    async def _do_close_task(self, session, task) -> bool:  # type: ignore[no-untyped-def]
        """One task; False when Discord failed in a way worth trying again (its lease runs out)."""
        if task.kind == ANNOUNCE:
            return await self._post_results(session, task)
        guild = self.bot.get_guild(task.guild_id)  # type: ignore[attr-defined]
        problem = role_problem(guild, task.role_id)
        if problem is None:
            change = self.bot.http.add_role if task.kind == ADD_ROLE else self.bot.http.remove_role  # type: ignore[attr-defined]
            try:
                await change(task.guild_id, task.user_id, task.role_id, reason="Ticket to Ride league season results")
            except discord.Forbidden:
                problem = "forbidden"
            except discord.NotFound:
                problem = "not_found"
            except discord.HTTPException:
                log.warning("a league reward role change failed; tried again later", extra={"task": task.id})
                return False
        await stored.finish_close_task(session=session, task_id=task.id, error=problem)
        return True

    async def _post_results(self, session, task) -> bool:  # type: ignore[no-untyped-def]
        season = await stored.get_season(session=session, season_id=task.season_id)
        league = await stored.get_league(session=session, league_id=season.league_id)
        channel = self.bot.get_channel(league.channel_id) if league.channel_id else None
        if channel is not None:
            t = await self.bot.languages.for_channel(league.guild_id)
            text = await self.results_text(session, t, league, season)
            try:
                await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                if exc.status >= 500:
                    return False
                log.warning("could not post a season's results", extra={"season_id": season.id})
        await stored.finish_close_task(session=session, task_id=task.id, error=None if channel else "no channel")
        return True

    async def results_text(self, session, t: Translator, league: stored.League, season: stored.Season) -> str:  # type: ignore[no-untyped-def]
        """The closed season's post: each division's final order with who went up or down, the
        reward roles given, and the role changes the bot could not make (and why)."""
        divisions = {d.id: d for d in await stored.league_divisions(session=session, league_id=league.id)}
        results = await stored.season_results(session=session, season_id=season.id)
        lines = [
            t.gettext("🏁 **{league} · {season}** is over. Final standings:", league=league.name, season=season.name)
        ]
        shown: dict[int | None, list[str]] = {}
        for r in results:
            target = divisions.get(r.to_division_id)
            rating = f"{r.rating:.1f}"
            entry = t.gettext("{place}. <@{user}> {rating}", place=r.place, user=r.user_id, rating=rating)
            if r.outcome == "up" and target:
                entry += " " + t.gettext("⬆️ {division}", division=target.name)
            elif r.outcome == "down" and target:
                entry += " " + t.gettext("⬇️ {division}", division=target.name)
            elif r.outcome == "new" and target:
                entry = t.gettext("<@{user}> joins {division}", user=r.user_id, division=target.name)
            shown.setdefault(r.division_id, []).append(entry)
        for division_id, entries in shown.items():
            head = (
                divisions[division_id].name
                if division_id in divisions
                else (t.gettext("New players") if divisions else t.gettext("Standings"))
            )
            more = t.ngettext(" … and {n} more", " … and {n} more", len(entries) - 10) if len(entries) > 10 else ""
            lines.append(f"**{head}**: " + " · ".join(entries[:10]) + more)
        given: dict[int, list[int]] = {}
        failed: dict[tuple[int, str], int] = {}
        for task in await stored.close_tasks(session=session, season_id=season.id):
            if task.kind == ADD_ROLE and task.error is None:
                given.setdefault(task.role_id, []).append(task.user_id)
            if task.kind != ANNOUNCE and task.error:
                failed[(task.role_id, task.error)] = failed.get((task.role_id, task.error), 0) + 1
        for role_id, users in given.items():
            role, mentions = f"<@&{role_id}>", t.join(f"<@{u}>" for u in users)
            lines.append(t.gettext("🎖️ {role}: {users}", role=role, users=mentions))
        for (role_id, error), n in failed.items():
            role, problem = f"<@&{role_id}>", t.pgettext("league", ROLE_PROBLEMS.get(error, ROLE_PROBLEMS["forbidden"]))
            lines.append(
                t.ngettext(
                    "⚠️ I could not change {role} for {n} member: {problem}.",
                    "⚠️ I could not change {role} for {n} members: {problem}.",
                    n,
                    role=role,
                    problem=problem,
                )
            )
        if not results:
            lines.append(t.gettext("Nobody played enough games to be ranked."))
        return "\n".join(lines)

    # ------------------------------------------------------------------ the listener

    async def on_game_finished(self, table: Table) -> None:
        """A game ended: if it belongs to a league season, rebuild the season and tell the channel."""
        try:
            async with self.bot.storage.sessions() as session:
                season_id = await stored.settle_game(session=session, game_id=table.id)
                if season_id is None:
                    return
                row = await stored.league_game(session=session, game_id=table.id)
                season = await stored.get_season(session=session, season_id=season_id)
                league = await stored.get_league(session=session, league_id=season.league_id)
                profiles = [
                    await stored.player_profile(session=session, season_id=season_id, user_id=s.user_id, recent=1)
                    for s in table.seats
                    if s.user_id is not None
                ]
        except Exception:
            log.exception("rating a league game failed", extra={"game_id": table.id})
            return
        t = await self.bot.languages.for_channel(table.record.guild_id)
        if row is None or not row.rated:
            # The stored note is English: the same reason again, from the game, as a template to word.
            reason = stored.unrated_reason(table.record, table.seats, season) if row and row.rated is False else None
            text = t.gettext(
                "🏆 This {league} game is not rated: {reason}.",
                league=league.name,
                reason=errors.reason(t, reason) if reason else t.gettext("not settled"),
            )
        else:
            parts = []
            for p in profiles:
                change = next((g.change for g in p.recent if g.game_id == table.id), None)
                if p.rating is not None and change is not None:
                    parts.append(f"<@{p.user_id}> {p.rating:.1f} ({change:+.1f})")
            text = t.gettext(
                "🏆 **{league} · {season}**, game #{game} rated: {changes}\n`{leaderboard}` shows the standings.",
                league=league.name,
                season=season.name,
                game=table.id,
                changes=" · ".join(parts),
                leaderboard=slash(t, "ttr-league leaderboard"),
            )
        channel = await self.bot.messenger.channel(table)
        if channel is not None:
            try:
                await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.warning("could not post league ratings", extra={"game_id": table.id})

    # ------------------------------------------------------------------ the commands

    @app_commands.command(name="create", description=locale_str("Create a league on this server (Manage Server)"))
    @app_commands.describe(
        name=locale_str("The league's name"), admin_role=locale_str("Members with this role run the league")
    )
    async def league_create(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 64], admin_role: discord.Role | None = None
    ) -> None:
        await self.create(interaction, name, admin_role)

    @app_commands.command(
        name="role", description=locale_str("Change who runs a league: its admin role (Manage Server)")
    )
    @app_commands.describe(
        role=locale_str("The new league-admin role (none: only Manage Server)"), league=LEAGUE_OPTION
    )
    async def league_role(
        self, interaction: Interaction, role: discord.Role | None = None, league: League | None = None
    ) -> None:
        await self.set_role(interaction, league, role)

    @app_commands.command(name="info", description=locale_str("This server's leagues and their seasons' rules"))
    @app_commands.describe(league=LEAGUE_OPTION)
    async def league_info(self, interaction: Interaction, league: League | None = None) -> None:
        await self.info(interaction, league)

    @app_commands.command(
        name="season", description=locale_str("Open a new season (league admins); the open one closes")
    )
    @app_commands.describe(
        name=locale_str("The season's name"),
        league=LEAGUE_OPTION,
        start=locale_str("First day, YYYY-MM-DD (default: today)"),
        end=locale_str("Last day, YYYY-MM-DD (default: 30 days)"),
        maps=locale_str("Allowed maps, e.g. 'usa, europe' (default: all)"),
        players=locale_str("Allowed player counts, e.g. '3-5' or '2,4' (default: 2-5)"),
        min_games=locale_str("Rated games needed to appear in the standings"),
        carry_over=locale_str("Do this season's final ratings start the next season?"),
        min_turns=locale_str("Turns each seat must take for a game to count (default 0)"),
    )
    async def league_season(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        league: League | None = None,
        start: str | None = None,
        end: str | None = None,
        maps: str | None = None,
        players: str | None = None,
        min_games: app_commands.Range[int, 0, 100] = 3,
        carry_over: bool = False,
        min_turns: app_commands.Range[int, 0, 50] = 0,
    ) -> None:
        await self.new_season(
            interaction,
            chosen=league,
            name=name,
            start=start,
            end=end,
            maps=maps,
            players=players,
            min_games=min_games,
            carry_over=carry_over,
            min_turns=min_turns,
        )

    @app_commands.command(name="rated", description=locale_str("Make the lobby or new game here a league game (host)"))
    @app_commands.describe(league=LEAGUE_OPTION)
    async def league_rated(self, interaction: Interaction, league: League | None = None) -> None:
        await self.rated(interaction, league)

    @app_commands.command(
        name="void", description=locale_str("Void (or restore) a league game's result (league admins)")
    )
    @app_commands.describe(
        game=locale_str("The game number (#… in the rating message and the export)"),
        reason=locale_str("Why (kept in the audit log)"),
        restore=locale_str("Count the game again"),
        league=LEAGUE_OPTION,
    )
    async def league_void(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1],
        reason: str | None = None,
        restore: bool = False,
        league: League | None = None,
    ) -> None:
        await self.void(interaction, chosen=league, game_id=game, reason=reason, restore=restore)

    @app_commands.command(name="export", description=locale_str("A season's results as CSV (league admins)"))
    @app_commands.describe(league=LEAGUE_OPTION, season=SEASON_OPTION)
    async def league_export(
        self, interaction: Interaction, league: League | None = None, season: Season | None = None
    ) -> None:
        await self.export(interaction, chosen=league, season_name=season)

    @app_commands.command(name="audit", description=locale_str("The last league-admin actions (league admins)"))
    @app_commands.describe(league=LEAGUE_OPTION)
    async def league_audit(self, interaction: Interaction, league: League | None = None) -> None:
        await self.audit(interaction, league)

    @app_commands.command(
        name="leaderboard", description=locale_str("A league season's standings, overall or on one map")
    )
    @app_commands.describe(
        map=locale_str("One map's ladder (default: all maps)"),
        league=LEAGUE_OPTION,
        season=SEASON_OPTION,
        public=PUBLIC_OPTION,
        division=locale_str("One division's standings (default: everyone)"),
    )
    @app_commands.choices(map=MAP_CHOICES)
    async def league_leaderboard(
        self,
        interaction: Interaction,
        map: app_commands.Choice[str] | None = None,
        league: League | None = None,
        season: Season | None = None,
        public: bool = False,
        division: str | None = None,
    ) -> None:
        await self.leaderboard(
            interaction,
            chosen=league,
            season_name=season,
            map_id=map.value if map else None,
            public=public,
            division=division,
        )

    @league_leaderboard.autocomplete("division")
    async def _leaderboard_divisions(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.division_names(interaction, current)

    @app_commands.command(
        name="profile", description=locale_str("A player's league season: rating, results, recent games")
    )
    @app_commands.describe(
        player=locale_str("Whose profile (default: yours)"),
        league=LEAGUE_OPTION,
        season=SEASON_OPTION,
        public=PUBLIC_OPTION,
    )
    async def league_profile(
        self,
        interaction: Interaction,
        player: discord.User | None = None,
        league: League | None = None,
        season: Season | None = None,
        public: bool = False,
    ) -> None:
        await self.profile(interaction, user=player, chosen=league, season_name=season, public=public)

    @app_commands.command(name="rename", description=locale_str("Rename a league (Manage Server)"))
    @app_commands.describe(name=locale_str("The league's new name"), league=LEAGUE_OPTION)
    async def league_rename(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 64], league: League | None = None
    ) -> None:
        await self.rename(interaction, league, name)

    @app_commands.command(
        name="delete", description=locale_str("Delete a league, after its export and a confirmation (Manage Server)")
    )
    @app_commands.describe(league=LEAGUE_OPTION)
    async def league_delete(self, interaction: Interaction, league: League | None = None) -> None:
        await self.delete(interaction, league)

    division = app_commands.Group(
        name="division",
        description=locale_str(
            "Divisions: promotion and relegation at each season's end, reward roles (league admins)"
        ),
    )

    @division.command(name="set", description=locale_str("Add a division (below the others) or change its rules"))
    @app_commands.describe(
        name=DIVISION_OPTION,
        promote=locale_str("How many of its top players go up a division"),
        relegate=locale_str("How many of its bottom players go down a division"),
        league=LEAGUE_OPTION,
    )
    async def division_set_command(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        promote: app_commands.Range[int, 0, 50] | None = None,
        relegate: app_commands.Range[int, 0, 50] | None = None,
        league: League | None = None,
    ) -> None:
        await self.division_set(interaction, league, name, promote, relegate)

    @division.command(name="remove", description=locale_str("Remove a division (its players have none then)"))
    @app_commands.describe(name=DIVISION_OPTION, league=LEAGUE_OPTION)
    async def division_remove_command(self, interaction: Interaction, name: str, league: League | None = None) -> None:
        await self.division_remove(interaction, league, name)

    @division.command(name="assign", description=locale_str("Put a player in a division"))
    @app_commands.describe(player=locale_str("Who"), division=DIVISION_OPTION, league=LEAGUE_OPTION)
    async def division_assign_command(
        self, interaction: Interaction, player: discord.User, division: str, league: League | None = None
    ) -> None:
        await self.division_assign(interaction, league, player, division)

    @division.command(name="reward", description=locale_str("A role for the top players at each season's end"))
    @app_commands.describe(
        role=locale_str("The role the bot gives (and takes from last season's holders)"),
        top=locale_str("How many get it (default 1, the champion; 0: no longer a reward)"),
        division=locale_str("Of one division (default: of the whole league)"),
        league=LEAGUE_OPTION,
    )
    async def division_reward_command(
        self,
        interaction: Interaction,
        role: discord.Role,
        top: app_commands.Range[int, 0, 25] = 1,
        division: str | None = None,
        league: League | None = None,
    ) -> None:
        await self.division_reward(interaction, league, role, top, division)

    @division_remove_command.autocomplete("name")
    @division_assign_command.autocomplete("division")
    @division_reward_command.autocomplete("division")
    async def _division_choices(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.division_names(interaction, current)

    def context_menus(self) -> list[app_commands.ContextMenu]:
        return [
            app_commands.ContextMenu(name=locale_pstr("menu", "Ticket to Ride profile"), callback=self.profile_menu)
        ]

    @app_commands.guild_only()
    async def profile_menu(self, interaction: Interaction, member: discord.Member) -> None:
        """A member's menu (right-click, or a long press on a phone): their profile, as
        `/ttr-league profile player:` shows it, to the one who asked."""
        await self.profile(interaction, user=member, chosen=None, season_name=None, public=False)


async def setup(bot) -> None:
    await bot.add_cog(Leagues(bot))
