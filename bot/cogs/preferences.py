"""Choices that outlive a game: `/ttr-settings …` (a player's color-blind images, language and DM
pings; a server's default map, game channels, language, and forgetting everything)."""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot.choices import MAP_CHOICES
from bot.cog import TTRCog
from bot.command_translator import locale_format, locale_pstr, option_name
from bot.errors import UserError
from bot.language import Choice as LanguageChoice
from bot.permissions import is_manager
from engine import load_map
from i18n import LANGUAGES, N_, Translator
from storage import players as stored_players

LANGUAGE_CHOICES = [
    app_commands.Choice(name=locale_pstr("language", "automatic (Discord's language)"), value="auto"),
    app_commands.Choice(name=locale_pstr("language", "English"), value="en"),
    app_commands.Choice(name=locale_pstr("language", "Русский"), value="ru"),
    app_commands.Choice(name=locale_pstr("language", "简体中文"), value="zh"),
]
CITY_NAME_CHOICES = [
    app_commands.Choice(name=locale_str("as printed on the board"), value="printed"),
    app_commands.Choice(name=locale_str("translated (where the map has them)"), value="translated"),
]
FOR_CHOICES = [
    app_commands.Choice(name=locale_str("me"), value="me"),
    app_commands.Choice(name=locale_str("this server (Manage Server)"), value="server"),
]


class ManagersOnly(UserError):
    message = N_("Only members with **Manage Server** can change the server's settings.")


def _manager_only(interaction: Interaction) -> None:
    if not is_manager(interaction):
        raise ManagersOnly()


class Preferences(TTRCog):
    under = "ttr-settings"

    async def _t(self, interaction: Interaction) -> Translator:
        return await self.bot.languages.for_interaction(interaction)

    @app_commands.command(
        name="colorblind",
        description=locale_str("Images with letters on every color, for you (and any board of a game you play)"),
    )
    @app_commands.describe(on=locale_str("Letters on or off"))
    async def colorblind(self, interaction: Interaction, on: bool) -> None:
        t = await self._t(interaction)
        async with self.bot.storage.sessions() as session:
            await stored_players.update_player(session=session, user_id=interaction.user.id, color_blind=on)
        self.bot.messenger.set_colorblind(interaction.user.id, on)
        await self.bot.reply(
            interaction,
            t.gettext("Color-blind images on: every car and card carries its color's letter.")
            if on
            else t.gettext("Color-blind images off."),
        )

    @app_commands.command(
        name="language", description=locale_str("The bot's language, for you or (Manage Server) the server")
    )
    @app_commands.rename(for_="for")
    @app_commands.describe(
        language=locale_str("The language (automatic: your Discord's, or the server's)"),
        city_names=locale_str("City names as printed on the board, or translated"),
        for_=locale_str("You (default) or the whole server's messages"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, city_names=CITY_NAME_CHOICES, for_=FOR_CHOICES)
    async def language(
        self,
        interaction: Interaction,
        language: app_commands.Choice[str],
        city_names: app_commands.Choice[str] | None = None,
        for_: app_commands.Choice[str] | None = None,
    ) -> None:
        chosen = LanguageChoice(
            None if language.value == "auto" else language.value, city_names.value if city_names else None
        )
        if for_ is not None and for_.value == "server":
            _manager_only(interaction)
            await self.bot.languages.set_guild(interaction.guild_id, chosen)
            await self.show_settings(interaction, t=await self.bot.languages.for_channel(interaction.guild_id))
            return
        await self.bot.languages.set_player(interaction.user.id, chosen)
        await self.bot.reply(interaction, _language_text(await self._t(interaction), chosen))

    @app_commands.command(name="show", description=locale_str("This server's game settings"))
    async def show(self, interaction: Interaction) -> None:
        await self.show_settings(interaction)

    @app_commands.command(
        name="map", description=locale_format("The map /ttr-host {new} uses when none is given", new=("command", "new"))
    )
    @app_commands.describe(map=locale_str("The board"))
    @app_commands.choices(map=MAP_CHOICES)
    async def default_map(self, interaction: Interaction, map: app_commands.Choice[str]) -> None:
        _manager_only(interaction)
        async with self.bot.storage.sessions() as session:
            await stored_players.update_guild_settings(
                session=session, guild_id=interaction.guild_id, default_map=map.value
            )
        await self.show_settings(interaction)

    @app_commands.command(
        name="forget", description=locale_str("Delete all of this server's games, lobbies, leagues and settings")
    )
    @app_commands.describe(confirm=locale_str("Type DELETE to confirm"))
    async def forget(self, interaction: Interaction, confirm: str) -> None:
        _manager_only(interaction)
        t = await self._t(interaction)
        if confirm != "DELETE":
            await self.bot.reply(
                interaction,
                t.gettext(
                    "Nothing deleted: type `DELETE` in `{confirm}` to delete every game, lobby, league and setting of "
                    "this server.",
                    confirm=option_name(t, "confirm"),
                ),
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.forget_guild(interaction.guild_id)
        await interaction.followup.send(
            t.gettext("🗑️ This server's games, lobbies, leagues and settings are deleted."), ephemeral=True
        )

    @app_commands.command(
        name="channel", description=locale_str("Allow or stop games in a channel (none allowed = everywhere)")
    )
    @app_commands.describe(channel=locale_str("The channel"), allowed=locale_str("Games allowed there"))
    async def channel(self, interaction: Interaction, channel: discord.TextChannel, allowed: bool) -> None:
        _manager_only(interaction)
        async with self.bot.storage.sessions() as session:
            current = await stored_players.get_guild_settings(session=session, guild_id=interaction.guild_id)
            values = dict(current.settings) if current else {}
            channels = [c for c in values.get("channels", []) if c != channel.id]
            if allowed:
                channels.append(channel.id)
            values["channels"] = channels
            await stored_players.update_guild_settings(session=session, guild_id=interaction.guild_id, settings=values)
        await self.show_settings(interaction)

    async def show_settings(self, interaction: Interaction, t: Translator | None = None) -> None:
        """The server's settings, privately (in `t`'s language, else the user's)."""
        t = t or await self._t(interaction)
        guild_id = interaction.guild_id
        async with self.bot.storage.sessions() as session:
            settings = await stored_players.get_guild_settings(session=session, guild_id=guild_id)
        default_map = settings.default_map if settings and settings.default_map else "usa"
        channels = (settings.settings.get("channels") if settings else None) or []
        chosen = await self.bot.languages.guild(guild_id)
        language = (
            t.pgettext("language", LANGUAGES[chosen.language])
            if chosen.language
            else t.pgettext("language", "automatic (Discord's language)")
        )
        city_names = (
            t.gettext("translated (where the map has them)")
            if chosen.city_names == "translated"
            else t.gettext("as printed on the board")
        )
        await self.bot.reply(
            interaction,
            "\n".join(
                [
                    t.gettext("**Server settings**"),
                    t.gettext("Default map: {map}", map=t.map_name(load_map(default_map))),
                    t.gettext("Games allowed in: {channels}", channels=t.join(f"<#{c}>" for c in channels))
                    if channels
                    else t.gettext("Games allowed in any channel"),
                    t.gettext("Language: {language}", language=language),
                    t.gettext("City names: {city_names}", city_names=city_names),
                ]
            ),
        )

    @app_commands.command(
        name="notify", description=locale_str("DM pings when it's your turn, with optional quiet hours")
    )
    @app_commands.describe(
        dm=locale_str("Ping me by DM when my turn starts and before deadlines"),
        quiet_from=locale_str("Quiet hours start (hour, 0–23, your time)"),
        quiet_to=locale_str("Quiet hours end (hour)"),
        utc_offset=locale_str("Your time zone as hours from UTC (e.g. 2, -5)"),
    )
    async def notify(
        self,
        interaction: Interaction,
        dm: bool,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        utc_offset: app_commands.Range[int, -12, 14] = 0,
    ) -> None:
        t = await self._t(interaction)
        async with self.bot.storage.sessions() as session:
            player = await stored_players.get_player(session=session, user_id=interaction.user.id)
            prefs = dict(player.preferences) if player else {}
            prefs.update(notify_dm=dm, utc_offset=utc_offset)
            prefs["quiet"] = [quiet_from, quiet_to] if quiet_from is not None and quiet_to is not None else None
            await stored_players.update_player(session=session, user_id=interaction.user.id, preferences=prefs)
        self.bot.messenger.set_ping_choice(interaction.user.id, prefs)
        hours = {"start": quiet_from, "end": quiet_to, "offset": f"{utc_offset:+d}"}
        if dm and prefs["quiet"]:
            text = t.gettext("DM pings on, quiet from {start}:00 to {end}:00 (UTC{offset}).", **hours)
        elif prefs["quiet"]:
            text = t.gettext("DM pings off, quiet from {start}:00 to {end}:00 (UTC{offset}).", **hours)
        else:
            text = t.gettext("DM pings on.") if dm else t.gettext("DM pings off.")
        await self.bot.reply(interaction, text)


def _language_text(t: Translator, chosen: LanguageChoice) -> str:
    """The reply to a player's language choice, in the new language (each catalog names its own
    language where the English says "in English")."""
    if chosen.language is None:
        return (
            t.gettext("I'll follow your Discord language; city names as translated where the map has them.")
            if chosen.city_names == "translated"
            else t.gettext("I'll follow your Discord language.")
        )
    return (
        t.gettext("I'll write to you in English; city names as translated where the map has them.")
        if chosen.city_names == "translated"
        else t.gettext("I'll write to you in English.")
    )


async def setup(bot) -> None:
    await bot.add_cog(Preferences(bot))
