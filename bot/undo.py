"""Undo with everyone's consent: the player who just claimed a route (or built a station) asks,
every other player approves, and the engine takes the move back — only until the next player
acts, and never for a move that revealed a card (the engine decides: `Undo` is legal or not).

The request's state is its own message (who approved is written in it), so a restart loses
nothing and needs no table.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import Interaction

from bot import components
from bot.present import route_name
from bot.service import Table, UserError
from engine import ActionError, BuildStation, Claim, Undo, format_action
from i18n import Translator

if TYPE_CHECKING:
    from bot.client import TTRBot

#: Starts the line of the request message that lists who approved (in any language).
APPROVED = "👍"


def approvers(content: str) -> set[int]:
    line = next((line for line in content.splitlines() if line.startswith(APPROVED)), "")
    return {int(i) for i in re.findall(r"<@(\d+)>", line)}


def approved_line(t: Translator, users: set[int]) -> str:
    who = " ".join(f"<@{u}>" for u in sorted(users)) or "—"
    return f"{APPROVED} " + t.gettext("Approved by: {players}", players=who)


class Undos:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot

    def _voters(self, table: Table, mover: int) -> set[int]:
        """The people who must agree: every other active seat held by a person (AIs agree)."""
        return {s.user_id for s in table.seats
                if s.seat != mover and s.user_id is not None and table.game.left[s.seat] is None}

    def _asks(self, t: Translator, table: Table, seat: int) -> str:
        """'alice asks to take back the claim of Atlanta – Miami.'"""
        game, name = table.game, self.bot.turns.name(table, seat, t)
        move = game.log[-1][1]
        if isinstance(move, Claim):
            return t.gettext("**{name}** asks to take back the claim of {route}.", name=name,
                             route=route_name(t, game.map, game.map.track_by_id[move.track]))
        if isinstance(move, BuildStation):
            return t.gettext("**{name}** asks to take back the station in {city}.", name=name,
                             city=t.city(game.map.city_by_id[move.city]))
        return t.gettext("**{name}** asks to take back `{move}`.", name=name, move=format_action(game, move))

    async def request(self, interaction: Interaction, game_id: int, ply: int) -> None:
        table = await self.bot.service.table(game_id)
        game = table.game
        seat = table.seat_of(interaction.user.id)
        if seat is None or len(game.log) != ply or not game.is_legal(seat, Undo()):
            t = await self.bot.languages.for_interaction(interaction)
            await interaction.response.send_message(t.gettext(
                "Only the player who just moved can ask, before the next player acts, and only for a route or a "
                "station that revealed no card."), ephemeral=True)
            return
        voters = self._voters(table, seat)
        if not voters:  # everyone else is an AI: nobody to ask
            await self._take_back(interaction, table, seat, ply)
            return
        t = await self.bot.turns.channel_t(table)  # a message in the channel, for everyone
        text = "\n".join([f"↩️ {self._asks(t, table, seat)}",
                          t.gettext("Needs the OK of {players}.", players=t.join(f"<@{u}>" for u in sorted(voters))),
                          approved_line(t, set())])
        await interaction.response.send_message(text, view=components.undo_vote_view(game_id, ply, t=t),
                                                allowed_mentions=discord.AllowedMentions(users=True))

    async def vote(self, interaction: Interaction, game_id: int, ply: int, approve: bool) -> None:
        table = await self.bot.service.table(game_id)
        game = table.game
        t = await self.bot.turns.channel_t(table)
        mover = game.log[-1][0] if game.log else None
        if len(game.log) != ply or mover is None:
            await interaction.response.edit_message(
                content=f"{interaction.message.content}\n⌛ " + t.gettext("Too late: the game moved on."), view=None)
            return
        voters = self._voters(table, mover)
        if interaction.user.id not in voters:
            mine = await self.bot.languages.for_interaction(interaction)
            await interaction.response.send_message(mine.gettext("Only the other players decide on this."),
                                                    ephemeral=True)
            return
        if not approve:
            said_no = t.gettext("{player} said no: the move stands.", player=interaction.user.mention)
            await interaction.response.edit_message(content=f"{interaction.message.content}\n❌ {said_no}", view=None)
            return
        agreed = approvers(interaction.message.content) | {interaction.user.id}
        lines = [line for line in interaction.message.content.splitlines() if not line.startswith(APPROVED)]
        content = "\n".join(lines + [approved_line(t, agreed)])
        if agreed >= voters:
            await self._take_back(interaction, table, mover, ply, content=content)
        else:
            await interaction.response.edit_message(content=content,
                                                    allowed_mentions=discord.AllowedMentions.none())

    async def _take_back(self, interaction: Interaction, table: Table, mover: int, ply: int,
                         content: str | None = None) -> None:
        t = await self.bot.turns.channel_t(table)
        if content is not None:
            await interaction.response.edit_message(content=f"{content}\n✅ " + t.gettext("Everyone agreed."), view=None)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if len(table.game.log) != ply:
                raise UserError("Too late: the game moved on.")
            outcome = await self.bot.service.act(table.id, None, Undo(), seat=mover)  # the engine re-checks
        except (UserError, ActionError) as exc:
            mine = await self.bot.languages.for_interaction(interaction)
            await interaction.followup.send(f"⚠️ {await self.bot.turns.error_text(mine, table.id, exc)}", ephemeral=True)
            return
        table.turn_notes = ["↩️ " + t.gettext("**{name}**'s last move was taken back.",
                                              name=self.bot.turns.name(table, mover, t))]
        table.turn_draws = []
        await self.bot.turns.publish_automatic(outcome)
        if content is None:
            mine = await self.bot.languages.for_interaction(interaction)
            await interaction.followup.send(mine.gettext("Taken back."), ephemeral=True)
