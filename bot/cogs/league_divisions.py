"""A league's divisions and reward roles: `/ttr-league division set | remove | assign | reward`
(league admins). Promotion, relegation and the roles happen when a season closes
(bot/cogs/season_closing.py)."""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot.cog import TTRCog
from bot.league_words import (
    DIVISION_OPTION,
    LEAGUE_OPTION,
    ROLE_PROBLEMS,
    admin_league,
    division_names,
    divisions_text,
    public_t,
    refuse,
    reply,
    role_problem,
)
from bot.transformers import League
from storage import leagues as stored


class LeagueDivisions(TTRCog):
    under = "ttr-league"

    async def division_set(
        self,
        interaction: Interaction,
        chosen: stored.League | None,
        name: str,
        promote: int | None,
        relegate: int | None,
    ) -> None:
        league = await admin_league(interaction, chosen)
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
        t = await public_t(interaction)
        await reply(
            interaction,
            t.gettext(
                "🏆 **{league}** divisions, top first:\n{divisions}",
                league=league.name,
                divisions=divisions_text(t, divisions),
            ),
            ephemeral=False,
        )

    async def division_remove(self, interaction: Interaction, chosen: stored.League | None, name: str) -> None:
        league = await admin_league(interaction, chosen)
        if league is None:
            return
        try:
            async with self.bot.storage.sessions() as session:
                await stored.remove_division(
                    session=session, league_id=league.id, name=name, user_id=interaction.user.id
                )
        except stored.LeagueError as exc:
            await refuse(interaction, exc)
            return
        t = await public_t(interaction)
        await reply(
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
        league = await admin_league(interaction, chosen)
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
            await refuse(interaction, exc)
            return
        t = await public_t(interaction)
        await reply(
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
        league = await admin_league(interaction, chosen)
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
            await refuse(interaction, exc)
            return
        t = await public_t(interaction)
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
        await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

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
        return await division_names(interaction, current)


async def setup(bot) -> None:
    await bot.add_cog(LeagueDivisions(bot))
