"""The league's audit log: `/ttr-league audit` shows league admins the last actions of league
admins (who did what, and with which details), in the reader's language and time zone."""

from __future__ import annotations

from datetime import datetime

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot.cog import TTRCog
from bot.errors import league_map_name
from bot.league_words import (
    LEAGUE_OPTION,
    admin_refusal,
    private_t,
    reply,
)
from bot.permissions import is_league_admin
from bot.transformers import League, find_league
from i18n import NC_, Translator
from storage import leagues as stored

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


class LeagueAudit(TTRCog):
    under = "ttr-league"

    async def audit(self, interaction: Interaction, chosen: stored.League | None) -> None:
        league = chosen or await find_league(interaction, None)
        t = await private_t(interaction)
        if not is_league_admin(interaction, league):
            await reply(interaction, admin_refusal(t, league), allowed_mentions=discord.AllowedMentions.none())
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
        await reply(interaction, "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="audit", description=locale_str("The last league-admin actions (league admins)"))
    @app_commands.describe(league=LEAGUE_OPTION)
    async def league_audit(self, interaction: Interaction, league: League | None = None) -> None:
        await self.audit(interaction, league)


async def setup(bot) -> None:
    await bot.add_cog(LeagueAudit(bot))
