"""What the league controllers share (bot/cogs/leagues.py, league_standings.py, league_divisions.py,
league_audit.py, season_closing.py): how they reply, whose language a reply is in, who runs a league, the options
they describe alike, and the words for divisions and for reward roles the bot cannot give."""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot import errors
from bot.errors import not_league_admin, reason
from bot.permissions import is_league_admin
from bot.transformers import find_league
from i18n import NC_, Translator
from storage import leagues as stored

#: Options several league commands share.
LEAGUE_OPTION = locale_str("Which league (if the server has several)")
SEASON_OPTION = locale_str("Which season (default: the current)")
PUBLIC_OPTION = locale_str("Post it for everyone (default: only you)")
DIVISION_OPTION = locale_str("The division's name")

#: Why a reward role could not be given or taken (`CloseTask.error`), as the results post words it.
ROLE_PROBLEMS = {
    "manage_roles": NC_("league", "I need the **Manage Roles** permission"),
    "hierarchy": NC_("league", "the role is above my highest role: move my role above it"),
    "forbidden": NC_("league", "Discord refused (Manage Roles, or the role above mine)"),
    "not_found": NC_("league", "the role or the member is gone"),
}


async def reply(interaction: Interaction, text: str, *, ephemeral: bool = True, **kwargs) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


async def private_t(interaction: Interaction) -> Translator:
    """The language of a private reply."""
    return await interaction.client.languages.for_interaction(interaction)  # type: ignore[attr-defined]


async def public_t(interaction: Interaction) -> Translator:
    """The language of a reply everyone in the channel sees."""
    return await interaction.client.languages.for_channel(interaction.guild_id)  # type: ignore[attr-defined]


def admin_refusal(t: Translator, league: stored.League) -> str:
    return reason(t, not_league_admin(league))


async def admin_league(interaction: Interaction, chosen: stored.League | None) -> stored.League | None:
    """The league, if the caller is one of its admins (else they are told why not)."""
    league = chosen or await find_league(interaction, None)
    if is_league_admin(interaction, league):
        return league
    t = await private_t(interaction)
    await reply(interaction, admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
    return None


async def refuse(interaction: Interaction, exc: stored.LeagueError) -> None:
    t = await private_t(interaction)
    await reply(interaction, t.gettext("⚠️ {reason}.", reason=errors.reason(t, exc)))


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


async def division_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the divisions of the league named in the command (or the server's only one)."""
    wanted = (getattr(interaction.namespace, "league", None) or "").lower()
    async with interaction.client.storage.sessions() as session:  # type: ignore[attr-defined]
        names: list[str] = []
        for lg in await stored.guild_leagues(session=session, guild_id=interaction.guild_id or 0):
            if not wanted or lg.name.lower() == wanted:
                names += [d.name for d in await stored.league_divisions(session=session, league_id=lg.id)]
    return [app_commands.Choice(name=n, value=n) for n in dict.fromkeys(names) if current.lower() in n.lower()][:25]
