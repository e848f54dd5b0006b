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
from bot.service import Table, UserError
from engine import ActionError, Undo, format_action

if TYPE_CHECKING:
    from bot.client import TTRBot

APPROVED = "Approved by:"


def approvers(content: str) -> set[int]:
    line = next((line for line in content.splitlines() if line.startswith(APPROVED)), "")
    return {int(i) for i in re.findall(r"<@(\d+)>", line)}


class Undos:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot

    def _voters(self, table: Table, mover: int) -> set[int]:
        """The people who must agree: every other active seat held by a person (AIs agree)."""
        return {s.user_id for s in table.seats
                if s.seat != mover and s.user_id is not None and table.game.left[s.seat] is None}

    async def request(self, interaction: Interaction, game_id: int, ply: int) -> None:
        table = await self.bot.service.table(game_id)
        game = table.game
        seat = table.seat_of(interaction.user.id)
        if seat is None or len(game.log) != ply or not game.is_legal(seat, Undo()):
            await interaction.response.send_message(
                "Only the player who just moved can ask, before the next player acts, and only for a route or a "
                "station that revealed no card.", ephemeral=True)
            return
        move = format_action(game, game.log[-1][1])
        voters = self._voters(table, seat)
        if not voters:  # everyone else is an AI: nobody to ask
            await self._take_back(interaction, table, seat, ply)
            return
        text = (f"↩️ **{self.bot.turns.name(table, seat)}** asks to take back `{move}`.\n"
                f"Needs the OK of {', '.join(f'<@{u}>' for u in sorted(voters))}.\n{APPROVED} —")
        await interaction.response.send_message(text, view=components.undo_vote_view(game_id, ply),
                                                allowed_mentions=discord.AllowedMentions(users=True))

    async def vote(self, interaction: Interaction, game_id: int, ply: int, approve: bool) -> None:
        table = await self.bot.service.table(game_id)
        game = table.game
        mover = game.log[-1][0] if game.log else None
        if len(game.log) != ply or mover is None:
            await interaction.response.edit_message(content=interaction.message.content + "\n⌛ Too late: the game moved on.",
                                                    view=None)
            return
        voters = self._voters(table, mover)
        if interaction.user.id not in voters:
            await interaction.response.send_message("Only the other players decide on this.", ephemeral=True)
            return
        if not approve:
            await interaction.response.edit_message(
                content=f"{interaction.message.content}\n❌ <@{interaction.user.id}> said no: the move stands.",
                view=None)
            return
        agreed = approvers(interaction.message.content) | {interaction.user.id}
        lines = [line for line in interaction.message.content.splitlines() if not line.startswith(APPROVED)]
        content = "\n".join(lines + [f"{APPROVED} " + " ".join(f"<@{u}>" for u in sorted(agreed))])
        if agreed >= voters:
            await self._take_back(interaction, table, mover, ply, content=content)
        else:
            await interaction.response.edit_message(content=content,
                                                    allowed_mentions=discord.AllowedMentions.none())

    async def _take_back(self, interaction: Interaction, table: Table, mover: int, ply: int,
                         content: str | None = None) -> None:
        if content is not None:
            await interaction.response.edit_message(content=content + "\n✅ Everyone agreed.", view=None)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if len(table.game.log) != ply:
                raise UserError("Too late: the game moved on.")
            outcome = await self.bot.service.act(table.id, None, Undo(), seat=mover)  # the engine re-checks
        except (UserError, ActionError) as exc:
            await interaction.followup.send(f"⚠️ {exc}", ephemeral=True)
            return
        table.turn_notes = [f"↩️ **{self.bot.turns.name(table, mover)}**'s last move was taken back."]
        await self.bot.turns.publish_automatic(outcome)
        if content is None:
            await interaction.followup.send("Taken back.", ephemeral=True)
