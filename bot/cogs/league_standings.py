"""A league season's standings and a player's profile, as pictures: `/ttr-league leaderboard`,
`/ttr-league profile` and the member menu's **Ticket to Ride profile**; everyone may look."""

from __future__ import annotations

import asyncio

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot.choices import MAP_CHOICES
from bot.cog import TTRCog
from bot.command_translator import locale_pstr
from bot.components import layout
from bot.errors import league_map_name
from bot.league_words import (
    LEAGUE_OPTION,
    PUBLIC_OPTION,
    SEASON_OPTION,
    division_names,
    private_t,
    public_t,
)
from bot.messenger import PLAYER_COLORS
from bot.posting import as_file
from bot.standings import ladder, member_name
from bot.transformers import League, Season, find_league, find_season
from bot.web.links import page_button
from i18n import Translator
from rendering.standings import (
    ProfileCard,
    RecentRow,
    render_profile,
    render_standings,
)
from rendering.style import DEFAULT_PLAYER_COLORS
from storage import leagues as stored


class LeagueStandings(TTRCog):
    under = "ttr-league"

    def _display(self, t: Translator, interaction: Interaction, user_id: int, stored_name: str | None) -> str:
        return member_name(t, interaction.guild, user_id, stored_name)

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
        t = await public_t(interaction) if public else await private_t(interaction)
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
        shown = ladder(
            t,
            league,
            season,
            table,
            below,
            name=lambda user_id, stored_name: self._display(t, interaction, user_id, stored_name),
            map_id=map_id,
            division=found.name if found else None,
            me=interaction.user.id,
        )
        image = await asyncio.to_thread(
            render_standings, shown.rows, title=shown.title, subtitle=shown.subtitle, note=shown.note, t=t
        )
        file = as_file(image, "standings")
        link = page_button("l", season.id, t.pgettext("button", "Standings on the web"))
        await interaction.followup.send(file=file, ephemeral=not public, **({"view": layout([link])} if link else {}))

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
        t = await public_t(interaction) if public else await private_t(interaction)
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
        file = as_file(image, "profile")
        await interaction.followup.send(file=file, ephemeral=not public)

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
        return await division_names(interaction, current)

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
    await bot.add_cog(LeagueStandings(bot))
