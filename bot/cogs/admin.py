"""Running a table: `/ttr-host` kick, replace, handover, pause, resume, end.

A game's host (who opened its lobby, or who asked for the rematch) and anyone with Manage Server
may use these. Kicking is the engine's `Remove` (docs/rules.md "Leaving"), asked for with a private
Remove/Cancel first (its buttons survive restarts, like every component: `KICK`); replacing gives
the seat, with its cards, tickets and routes, to another member; ending goes through the service too.
"""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot import components
from bot.cog import TTRCog
from bot.command_translator import slash
from bot.errors import UserError
from bot.messenger import escaped
from bot.permissions import is_manager
from bot.posting import channel_mention
from bot.service import Cause, CauseKind, Table
from bot.timers import timestamp
from bot.transformers import clocked_table, table_here
from engine import Remove
from engine.errors import TemplateError
from i18n import N_, Translator

#: The kick's confirmation: the seat and the member who held it when the host asked (a seat given
#: to someone else since is not removed by an old confirmation).


class NotYourTable(UserError):
    message = N_("Only {host} or someone with **Manage Server** can do that.")


class NotYourTableNoHost(UserError):
    message = N_("Only the host or someone with **Manage Server** can do that.")


class NotAPlayer(UserError):
    message = N_("{name} is not playing in this game.")


class SeatChanged(UserError):
    message = N_("That seat has changed hands since you asked: nobody was removed.")


def kick_view(game_id: int, seat: int, user_id: int, *, t: Translator) -> discord.ui.View:
    return components.layout(
        [
            components.button(
                f"ttr:{game_id}:kick:{seat}:{user_id}:yes",
                t.pgettext("button", "Remove"),
                style=discord.ButtonStyle.danger,
            ),
            components.button(
                f"ttr:{game_id}:kick:{seat}:{user_id}:ai", t.pgettext("button", "An AI plays the seat"), emoji="🤖"
            ),
            components.button(f"ttr:{game_id}:kick:{seat}:{user_id}:no", t.pgettext("button", "Cancel")),
        ]
    )


class KickButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.KICK):
    async def run(self, interaction: Interaction) -> None:
        admin: Admin = interaction.client.get_cog("Admin")  # type: ignore[attr-defined,assignment]
        if self.fields["answer"] == "ai":
            await admin.hand_to_ai(interaction, self.number("game"), self.number("seat"), self.number("user"))
            return
        await admin.confirm_kick(
            interaction, self.number("game"), self.number("seat"), self.number("user"), self.fields["answer"] == "yes"
        )


def check_host(table: Table, interaction: Interaction) -> None:
    """The caller runs this table: its host, or a server manager."""
    if interaction.user.id != table.record.host_id and not is_manager(interaction):
        if table.record.host_id:
            raise NotYourTable(host=f"<@{table.record.host_id}>")
        raise NotYourTableNoHost()


class Admin(TTRCog):
    under = "ttr-host"
    items = (KickButton,)

    async def _table(self, interaction: Interaction) -> Table:
        table = await table_here(interaction)
        check_host(table, interaction)
        return table

    async def _player_seat(self, interaction: Interaction, member: discord.abc.User) -> tuple[Table, int]:
        """The game and `member`'s seat, for an admin command about that player."""
        table = await self._table(interaction)
        seat = table.seat_of(member.id)
        if seat is None:
            raise NotAPlayer(name=escaped(member.display_name))
        return table, seat

    async def _announce(self, interaction: Interaction, template: str, /, **params: object) -> None:
        """A public reply, in the server's language."""
        t = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.response.send_message(t.gettext(template, **params))

    @app_commands.command(
        name="kick", description=locale_str("Remove a player from the game (their routes and tickets stay)")
    )
    @app_commands.describe(player=locale_str("Who leaves"))
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        table, seat = await self._player_seat(interaction, player)
        t = await self.bot.languages.for_interaction(interaction)
        await interaction.response.send_message(
            t.gettext(
                "Remove **{name}** from the game? They take no more turns; their routes stay on the board and "
                "their tickets are scored at the end.",
                name=escaped(player.display_name),
            ),
            ephemeral=True,
            view=kick_view(table.id, seat, player.id, t=t),
        )

    async def confirm_kick(self, interaction: Interaction, game_id: int, seat: int, user_id: int, yes: bool) -> None:
        """The host's answer to the kick's confirmation: the confirmation becomes what happened.
        The removal is the table's move, announced in the channel like any other (a kick that ends
        the game posts the final results); the host's answer is this message, not a hand."""
        t = await self.bot.languages.for_interaction(interaction)
        table = await self.bot.service.table(game_id)
        check_host(table, interaction)  # Cancel too: only who may kick answers the confirmation
        if not yes:
            await interaction.response.edit_message(content=t.gettext("Nobody was removed."), view=None)
            return
        if table.user_of(seat) != user_id:
            raise SeatChanged()
        await interaction.response.edit_message(view=None)  # answered at once: one removal per confirmation
        await self.bot.messenger.load_names(table)
        name = self.bot.messenger.name(table, seat, t)
        try:
            outcome = await self.bot.service.act(
                game_id, Remove(seat), as_table=True, cause=Cause(CauseKind.KICK, user_id=interaction.user.id)
            )
        except TemplateError as exc:
            await interaction.edit_original_response(content="⚠️ " + await self.bot.moves.refusal(t, game_id, exc))
            return
        text = t.gettext("**{name}** was removed from the game.", name=name)
        if outcome.game_over:
            text += " " + t.gettext(
                "That ended it: the final results are in {channel}.", channel=channel_mention(outcome.table)
            )
        await interaction.edit_original_response(content="✅ " + text)

    async def hand_to_ai(self, interaction: Interaction, game_id: int, seat: int, user_id: int) -> None:
        """The kick's third answer: instead of removing the player, an AI of the game's level (its
        turn timer's, else baseline) plays their seat until they take it back (said on the table)."""
        t = await self.bot.languages.for_interaction(interaction)
        table = await self.bot.service.table(game_id)
        check_host(table, interaction)
        if table.user_of(seat) != user_id:
            raise SeatChanged()
        clock = await self.bot.timers.clock(game_id)
        level = clock.ai_level if clock is not None else "baseline"
        await self.bot.messenger.load_names(table)
        name = self.bot.messenger.name(table, seat, t)
        if not await self.bot.service.stand_in(table, seat, level, "kick"):
            await interaction.response.edit_message(
                content=t.gettext("An AI already plays **{name}**'s seat.", name=name), view=None
            )
            return
        await interaction.response.edit_message(
            content="✅ " + t.gettext("An AI plays **{name}**'s seat now, until they take it back.", name=name),
            view=None,
        )
        await self.bot.messenger.announce_stand_in(table, seat, level)  # the AI seats' sweep starts it

    @app_commands.command(name="replace", description=locale_str("Give a player's seat to someone else"))
    @app_commands.describe(player=locale_str("Who leaves"), new_player=locale_str("Who takes the seat over"))
    async def replace(self, interaction: Interaction, player: discord.User, new_player: discord.User) -> None:
        table, seat = await self._player_seat(interaction, player)
        if new_player.bot or table.seat_of(new_player.id) is not None:
            raise UserError(
                "{name} can't take that seat: they already play here or are a bot.",
                name=escaped(new_player.display_name),
            )
        await self.bot.service.replace_player(table, seat, new_player.id)
        await self.bot.messenger.remember_name(new_player)
        t = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.response.send_message(
            t.gettext(
                "🔁 {new} takes over {old}'s seat (cards, tickets and routes). Your hand: **{button}**.",
                new=new_player.mention,
                old=player.mention,
                button=t.pgettext("button", "My hand"),
            )
        )

    @app_commands.command(name="handover", description=locale_str("Make someone else the host of this game"))
    @app_commands.describe(player=locale_str("The new host"))
    async def host(self, interaction: Interaction, player: discord.User) -> None:
        table = await self._table(interaction)
        await self.bot.service.set_host(table, player.id)
        await self._announce(interaction, N_("👑 {player} is now the host of this game."), player=f"<@{player.id}>")

    @app_commands.command(name="pause", description=locale_str("Pause the turn timers"))
    async def pause(self, interaction: Interaction) -> None:
        await self._pause(interaction, True)

    @app_commands.command(name="resume", description=locale_str("Start the paused turn timers again"))
    async def resume(self, interaction: Interaction) -> None:
        await self._pause(interaction, False)

    async def _pause(self, interaction: Interaction, paused: bool) -> None:
        table, clock = await clocked_table(interaction)
        if interaction.user.id != table.record.host_id and not is_manager(interaction):
            raise UserError("Only the host can pause or resume the timers.")
        if bool(clock.paused_at) == paused:
            raise (
                UserError("The timers are already paused.") if paused else UserError("The timers are already running.")
            )
        await self.bot.timers.pause(table, clock, paused)
        ct = await self.bot.messenger.channel_t(table)  # said in the channel, for everyone
        if paused:
            await interaction.response.send_message(
                "⏸️ "
                + ct.gettext(
                    "The turn timers are paused. `{resume}` starts them again.", resume=slash(ct, "ttr-host resume")
                )
            )
        else:
            due = await self.bot.timers.deadline(table, table.game.to_move()[0]) if table.game.to_move() else None
            await interaction.response.send_message(
                "▶️ "
                + (
                    ct.gettext("The turn timers run again. Next deadline {when}.", when=timestamp(due))
                    if due
                    else ct.gettext("The turn timers run again.")
                )
            )

    @app_commands.command(name="end", description=locale_str("End the game now, without scores"))
    async def end(self, interaction: Interaction) -> None:
        table = await self._table(interaction)
        await self.bot.service.end(
            table.id, cause=Cause(CauseKind.ADMIN, user_id=interaction.user.id, interaction=interaction)
        )


async def setup(bot) -> None:
    await bot.add_cog(Admin(bot))
