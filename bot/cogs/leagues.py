"""Leagues on Discord: `/ttr-league …` (create, role, info, season, rated, void, export, rename,
delete) and the listener that rates a league game when it ends. The standings and
profiles are bot/cogs/league_standings.py's, divisions bot/cogs/league_divisions.py's, closing
seasons on their date bot/cogs/season_closing.py's; what they share is bot/league_words.py.

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

import csv
import io
import logging
import re
from datetime import UTC, datetime, timedelta

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot import components, errors
from bot.cog import TTRCog
from bot.command_translator import slash
from bot.errors import UserError, league_map_name
from bot.league_words import (
    LEAGUE_OPTION,
    SEASON_OPTION,
    admin_refusal,
    divisions_text,
    private_t,
    public_t,
    refuse,
    reply,
)
from bot.permissions import is_league_admin, is_manager
from bot.service import LEAGUES, Outcome, Table
from bot.transformers import League, NoLeague, Season, find_league, find_season, parse_counts, parse_date, parse_maps
from i18n import Translator
from storage import leagues as stored
from storage import lobbies as stored_lobbies

log = logging.getLogger(__name__)

SEASON_DAYS = 30  # a season's length when no end date is given


# ---------------------------------------------------------------------------- the controller


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

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.subscribe(LEAGUES, self.on_outcome)

    async def cog_unload(self) -> None:
        self.bot.service.unsubscribe(self.on_outcome)
        await super().cog_unload()

    async def on_outcome(self, outcome: Outcome) -> None:
        if outcome.game_over:
            await self.on_game_finished(outcome.table)

    # ------------------------------------------------------------------ admin commands

    async def create(self, interaction: Interaction, name: str, admin_role: discord.Role | None) -> None:
        t = await private_t(interaction)
        if not is_manager(interaction):
            await reply(
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
            await reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        t = await public_t(interaction)
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
        await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def set_role(self, interaction: Interaction, chosen: stored.League | None, role: discord.Role | None) -> None:
        if not is_manager(interaction):
            t = await private_t(interaction)
            await reply(
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
        t = await public_t(interaction)
        text = (
            t.gettext(
                "🏆 **{league}**: league admins are now members with {role} and anyone with Manage Server.",
                league=league.name,
                role=role.mention,
            )
            if role
            else t.gettext("🏆 **{league}**: league admins are now anyone with Manage Server.", league=league.name)
        )
        await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def info(self, interaction: Interaction, chosen: stored.League | None) -> None:
        t = await private_t(interaction)
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
                    lines.append(divisions_text(t, divisions))
        if not lines:
            raise NoLeague()
        await reply(interaction, "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())

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
        t = await private_t(interaction)
        if not is_league_admin(interaction, league):
            await reply(interaction, admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
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
            await reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        except stored.LeagueError as exc:
            await reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        t = await public_t(interaction)
        await reply(
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
        t = await private_t(interaction)
        async with self.bot.storage.sessions() as session:
            season = await stored.active_season(session=session, league_id=league.id)
        if season is None:
            await reply(
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
                    await reply(
                        interaction,
                        t.gettext("Only the host of this game or a league admin can make it a league game."),
                    )
                    return
                if table.game.phase != "choosing" and not admin:
                    await reply(
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
                    await reply(
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
                    await reply(
                        interaction,
                        t.gettext("Only the host of this lobby or a league admin can make it a league game."),
                    )
                    return
                async with self.bot.storage.sessions() as session:
                    await stored.attach_lobby(
                        session=session, season_id=season.id, lobby_id=lobby.id, user_id=interaction.user.id
                    )
        except stored.LeagueError as exc:
            await reply(
                interaction,
                t.gettext(
                    "⚠️ This game can't join **{league}**: {reason}.", league=league.name, reason=errors.reason(t, exc)
                ),
            )
            return
        t = await public_t(interaction)
        await reply(
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
        t = await private_t(interaction)
        if not is_league_admin(interaction, league):
            await reply(interaction, admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
            return
        async with self.bot.storage.sessions() as session:
            row = await stored.league_game(session=session, game_id=game_id)
            season = await stored.get_season(session=session, season_id=row.season_id) if row else None
        if row is None or season is None or season.league_id != league.id:
            await reply(
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
            await reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))
            return
        t = await public_t(interaction)
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
        await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    async def export(self, interaction: Interaction, *, chosen: stored.League | None, season_name: str | None) -> None:
        league = chosen or await find_league(interaction, None)
        t = await private_t(interaction)
        if not is_league_admin(interaction, league):
            await reply(interaction, admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
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
        await reply(
            interaction,
            t.gettext(
                "📄 **{league} · {season}**: every game (one row per seat) and the standings.",
                league=league.name,
                season=season.name,
            ),
            files=files,
        )

    # ------------------------------------------------------------------ rename, delete

    async def rename(self, interaction: Interaction, chosen: stored.League | None, name: str) -> None:
        t = await private_t(interaction)
        if not is_manager(interaction):
            await reply(
                interaction,
                t.gettext("Only someone with the **Manage Server** permission can rename or delete a league."),
            )
            return
        league = chosen or await find_league(interaction, None)
        try:
            async with self.bot.storage.sessions() as session:
                await stored.rename_league(session=session, league_id=league.id, name=name, user_id=interaction.user.id)
        except stored.LeagueError as exc:
            await refuse(interaction, exc)
            return
        t = await public_t(interaction)
        await reply(
            interaction,
            t.gettext("🏆 League **{old}** is now called **{new}**.", old=league.name, new=name.strip()),
            ephemeral=False,
        )

    async def delete(self, interaction: Interaction, chosen: stored.League | None) -> None:
        """Asks first, privately, with the league's whole export attached (every season's games
        and standings, two CSV files), so nothing is lost by a click."""
        t = await private_t(interaction)
        if not is_manager(interaction):
            await reply(
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
        t = await private_t(interaction)
        if not is_manager(interaction):
            await reply(
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
        public = await public_t(interaction)
        await interaction.followup.send(
            public.gettext(
                "🗑️ {user} deleted the league **{league}**.", user=interaction.user.mention, league=league.name
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

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


async def setup(bot) -> None:
    await bot.add_cog(Leagues(bot))
