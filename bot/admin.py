"""Running a table: kick or replace a player, hand over hosting, end a game, server settings.

A game's host (who opened its lobby, or who asked for the rematch) and anyone with Manage Server
may use these. Kicking is the engine's `Remove` (RULES.md §1 "Leaving"); replacing gives the
seat, with its cards, tickets and routes, to another member.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import Interaction

from bot.command_translator import slash
from bot.service import Table
from engine import Remove, load_map
from i18n import LANGUAGES, N_, Translator
from storage import StorageError
from storage import games as stored_games
from storage import players as stored_settings

if TYPE_CHECKING:
    from bot.client import TTRBot


def is_manager(interaction: Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


class Admin:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot

    async def _say(self, interaction: Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    async def _announce(self, interaction: Interaction, template: str, /, **params: object) -> None:
        """A public reply, in the server's language."""
        t = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.response.send_message(t.gettext(template, **params))

    async def _table_for_admin(self, interaction: Interaction) -> Table | None:
        table = await self.bot.service.table_in_channel(interaction.channel_id)
        t = await self.bot.languages.for_interaction(interaction)
        if table is None:
            await self._say(interaction, t.gettext("There is no game running in this channel."))
            return None
        if interaction.user.id != table.record.host_id and not is_manager(interaction):
            host = f"<@{table.record.host_id}>"
            await self._say(interaction, t.gettext("Only {host} or someone with **Manage Server** can do that.",
                                                   host=host) if table.record.host_id
                            else t.gettext("Only the host or someone with **Manage Server** can do that."))
            return None
        return table

    async def _player_seat(self, interaction: Interaction, member: discord.abc.User) -> tuple[Table, int] | None:
        """The game and `member`'s seat, for an admin command about that player (or a reply why not)."""
        table = await self._table_for_admin(interaction)
        if table is None:
            return None
        seat = table.seat_of(member.id)
        if seat is None:
            t = await self.bot.languages.for_interaction(interaction)
            await self._say(interaction, t.gettext("{name} is not playing in this game.", name=member.display_name))
            return None
        return table, seat

    async def kick(self, interaction: Interaction, member: discord.abc.User) -> None:
        found = await self._player_seat(interaction, member)
        if found is not None:
            table, seat = found
            await self.bot.turns.perform(interaction, table.id, Remove(seat), as_table=True)

    async def replace(self, interaction: Interaction, member: discord.abc.User, new: discord.abc.User) -> None:
        found = await self._player_seat(interaction, member)
        if found is None:
            return
        table, seat = found
        if new.bot or table.seat_of(new.id) is not None:
            t = await self.bot.languages.for_interaction(interaction)
            await self._say(interaction, t.gettext("{name} can't take that seat: they already play here or are a bot.",
                                                   name=new.display_name))
            return
        async with self.bot.service.lock(table.id):
            async with self.bot.storage.sessions() as session:
                await stored_games.replace_seat_user(session=session, game_id=table.id, seat=seat, user_id=new.id)
            next(s for s in table.seats if s.seat == seat).user_id = new.id
        await self.bot.turns.remember_name(new)
        t = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.response.send_message(t.gettext(
            "🔁 {new} takes over {old}'s seat (cards, tickets and routes). Your hand: **{button}**.",
            new=new.mention, old=member.mention, button=t.pgettext("button", "My hand")))

    async def transfer_host(self, interaction: Interaction, member: discord.abc.User) -> None:
        table = await self._table_for_admin(interaction)
        if table is None:
            return
        async with self.bot.storage.sessions() as session:
            await stored_games.set_host(session=session, game_id=table.id, user_id=member.id)
        table.record.host_id = member.id
        await self._announce(interaction, N_("👑 {player} is now the host of this game."),
                             player=f"<@{member.id}>")

    async def end(self, interaction: Interaction) -> None:
        table = await self._table_for_admin(interaction)
        if table is None:
            return
        async with self.bot.service.lock(table.id):
            try:
                async with self.bot.storage.sessions() as session:
                    await stored_games.abandon_game(session=session, game_id=table.id)
            except StorageError:
                t = await self.bot.languages.for_interaction(interaction)
                await self._say(interaction, t.gettext("This game has already ended."))
                return
            self.bot.service.forget(table.id)
        public = await self.bot.languages.for_channel(interaction.guild_id)
        user = f"<@{interaction.user.id}>"
        await interaction.response.send_message(public.gettext("🛑 {user} ended the game. No scores were recorded. "
                                                               "Start a new one with `{new}`.", user=user,
                                                               new=slash(public, "ttr new")))

    # ------------------------------------------------------------------ server settings

    async def settings_text(self, guild_id: int, t: Translator) -> str:
        async with self.bot.storage.sessions() as session:
            settings = await stored_settings.get_guild_settings(session=session, guild_id=guild_id)
        default_map = settings.default_map if settings and settings.default_map else "usa"
        channels = (settings.settings.get("channels") if settings else None) or []
        chosen = await self.bot.languages.guild(guild_id)
        language = (t.pgettext("language", LANGUAGES[chosen.language]) if chosen.language
                    else t.pgettext("language", "automatic (Discord's language)"))
        city_names = (t.gettext("translated (where the map has them)") if chosen.city_names == "translated"
                      else t.gettext("as printed on the board"))
        return "\n".join([
            t.gettext("**Server settings**"),
            t.gettext("Default map: {map}", map=t.map_name(load_map(default_map))),
            t.gettext("Games allowed in: {channels}", channels=t.join(f"<#{c}>" for c in channels)) if channels
            else t.gettext("Games allowed in any channel"),
            t.gettext("Language: {language}", language=language),
            t.gettext("City names: {city_names}", city_names=city_names),
        ])

    async def show_settings(self, interaction: Interaction, t: Translator | None = None) -> None:
        """The server's settings, privately (in `t`'s language, else the user's)."""
        t = t or await self.bot.languages.for_interaction(interaction)
        await self._say(interaction, await self.settings_text(interaction.guild_id, t))

    async def set_default_map(self, interaction: Interaction, map_id: str) -> None:
        async with self.bot.storage.sessions() as session:
            await stored_settings.update_guild_settings(session=session, guild_id=interaction.guild_id,
                                                        default_map=map_id)
        await self.show_settings(interaction)

    async def set_channel(self, interaction: Interaction, channel: discord.abc.GuildChannel, allowed: bool) -> None:
        async with self.bot.storage.sessions() as session:
            current = await stored_settings.get_guild_settings(session=session, guild_id=interaction.guild_id)
            values = dict(current.settings) if current else {}
            channels = [c for c in values.get("channels", []) if c != channel.id]
            if allowed:
                channels.append(channel.id)
            values["channels"] = channels
            await stored_settings.update_guild_settings(session=session, guild_id=interaction.guild_id,
                                                        settings=values)
        await self.show_settings(interaction)

    async def defaults(self, guild_id: int | None) -> tuple[str, list[int]]:
        """(default map, channels where games are allowed; empty = everywhere)."""
        if guild_id is None:
            return "usa", []
        async with self.bot.storage.sessions() as session:
            settings = await stored_settings.get_guild_settings(session=session, guild_id=guild_id)
        if settings is None:
            return "usa", []
        return settings.default_map or "usa", list(settings.settings.get("channels", []))
