"""A game's past: `/ttr log` (recent turns in notation), `/ttr export` (a finished game as JSON
that replays anywhere) and `/ttr replay` (the board of a finished game at any move)."""

from __future__ import annotations

import asyncio
import io
import json
from typing import TYPE_CHECKING

import discord
from discord import Interaction

from bot.service import Table
from engine import Game, GameOptions, KeepTickets, format_action, parse_action
from rendering import render_board
from storage import export as stored_export
from storage import games as stored_games
from storage import queries

if TYPE_CHECKING:
    from bot.client import TTRBot


def public_entry(game: Game, seat: int | None, action, names) -> str:
    """One log line as everyone may read it during the game (kept ticket ids stay hidden)."""
    who = "table" if seat is None else names(seat)
    text = f"tickets keep ({len(action.ids)})" if isinstance(action, KeepTickets) else format_action(game, action)
    return f"{who}: {text}"


class History:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot

    async def _finished_here(self, interaction: Interaction):
        async with self.bot.storage.sessions() as session:
            return await queries.last_game_in_channel(session=session, channel_id=interaction.channel_id)

    async def log(self, interaction: Interaction, count: int) -> None:
        table = await self.bot.service.table_in_channel(interaction.channel_id)
        if table is not None:
            await self.bot.turns._load_names(table)
            names = lambda s: self.bot.turns.name(table, s)  # noqa: E731
            lines = [f"{i + 1}. {public_entry(table.game, seat, action, names)}"
                     for i, (seat, action) in enumerate(table.game.log)][-count:]
            text = "\n".join(lines) or "No moves yet."
            await interaction.response.send_message(f"**Last moves**\n```\n{text[-1900:]}\n```", ephemeral=True)
            return
        record = await self._finished_here(interaction)
        if record is None:
            await interaction.response.send_message("No game has been played in this channel yet.", ephemeral=True)
            return
        # A finished game: everything may be seen now, kept tickets included.
        finished = await self.bot.service.table(record.id)
        await self.bot.turns._load_names(finished)
        lines = [f"{i + 1}. {'table' if seat is None else self.bot.turns.name(finished, seat)}: "
                 f"{format_action(finished.game, action)}" for i, (seat, action) in enumerate(finished.game.log)]
        file = discord.File(io.BytesIO("\n".join(lines).encode()), filename=f"game-{record.id}-log.txt")
        await interaction.response.send_message(f"The full log of the last game here ({len(lines)} moves).",
                                                file=file, ephemeral=True)

    async def export(self, interaction: Interaction) -> None:
        record = await self._finished_here(interaction)
        if record is None:
            await interaction.response.send_message("No finished game in this channel to export.", ephemeral=True)
            return
        async with self.bot.storage.sessions() as session:
            data = await stored_export.export_game(session=session, game_id=record.id)
        file = discord.File(io.BytesIO(json.dumps(data, indent=1).encode()), filename=f"game-{record.id}.json")
        await interaction.response.send_message("Seed, options and the full log: it replays move by move.",
                                                file=file, ephemeral=True)

    async def replay(self, interaction: Interaction, move: int) -> None:
        record = await self._finished_here(interaction)
        if record is None:
            await interaction.response.send_message("No finished game in this channel to replay.", ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.storage.sessions() as session:
            log = await stored_games.action_log(session=session, game_id=record.id)
        finished = await self.bot.service.table(record.id)
        move = max(0, min(move, len(log)))
        image = await asyncio.to_thread(self._board_at, record, log[:move], self.bot.turns.styles(finished))
        await interaction.followup.send(f"The board after move {move} of {len(log)}.", ephemeral=True,
                                        file=discord.File(io.BytesIO(image.png), filename=f"move-{move}.png",
                                                          description=image.alt_text[:1024]))

    @staticmethod
    def _board_at(record, log, styles):
        game = Game.new(record.map_id, record.seats, record.seed, GameOptions.from_json(record.options))
        for seat, text in log:
            game.apply(seat, parse_action(game, seat, text))
        return render_board(game.view(None), game.map, styles)



