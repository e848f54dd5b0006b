"""A game's past: `/ttr board` (this game's board, or a finished game's at any move) and
`/ttr log` (recent turns in notation, the whole log of a finished game, or its export as JSON
that replays anywhere).

Moves stay in the game's notation in every language (it is what `/ttr claim` and the CLI accept);
the words around them follow the reader's language."""

from __future__ import annotations

import asyncio
import io
import json

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot.cog import TTRCog
from bot.components import layout
from bot.posting import as_file
from bot.render_pool import POOL
from bot.service import Table
from bot.transformers import table_here
from bot.web.links import page_button
from engine import Game, GameOptions, KeepTickets, format_action, parse_action
from i18n import Translator
from storage import export as stored_export
from storage import games as stored_games
from storage import queries


def log_entry(t: Translator, game: Game, seat: int | None, action, names, *, public: bool) -> str:
    """One log line: who, then the move in the game's notation (the same in every language, as
    players type it). In a `public` log, kept ticket ids stay hidden: 'tickets keep (2)'."""
    who = t.pgettext("log", "table") if seat is None else names(seat)
    hidden = public and isinstance(action, KeepTickets)
    move = f"tickets keep ({len(action.ids)})" if hidden else format_action(game, action)
    return t.gettext("{who}: {move}", who=who, move=move)


class History(TTRCog):
    @app_commands.command(
        name="board", description=locale_str("Show the board (or a finished game's board after any move)")
    )
    @app_commands.describe(
        public=locale_str("Post it for everyone (default: only you)"),
        move=locale_str("The last finished game here: its board after this many moves"),
    )
    async def board(
        self, interaction: Interaction, public: bool = False, move: app_commands.Range[int, 0, 5000] | None = None
    ) -> None:
        if move is not None:
            await self.replay(interaction, move)
            return
        table = await table_here(interaction)
        bot = self.bot
        t = (
            await bot.languages.for_channel(interaction.guild_id)
            if public
            else await bot.languages.for_interaction(interaction)
        )
        await interaction.response.defer(ephemeral=not public, thinking=True)
        await interaction.followup.send(file=await bot.messenger.board_file(table, t), ephemeral=not public)

    @app_commands.command(
        name="log", description=locale_str("The last moves (the whole log, or the game as JSON, once it is over)")
    )
    @app_commands.describe(
        moves=locale_str("How many of the last moves"),
        export=locale_str("The last finished game here as JSON: seed, options and full log, to replay anywhere"),
    )
    async def log_(
        self, interaction: Interaction, moves: app_commands.Range[int, 1, 100] = 20, export: bool = False
    ) -> None:
        if export:
            await self.export(interaction)
        else:
            await self.log(interaction, moves)

    async def _finished_here(self, interaction: Interaction):
        async with self.bot.storage.sessions() as session:
            return await queries.last_game_in_channel(session=session, channel_id=interaction.channel_id)

    async def log(self, interaction: Interaction, count: int) -> None:
        t = await self.bot.languages.for_interaction(interaction)
        table = await self.bot.service.table_in_channel(interaction.channel_id)
        if table is not None:
            await self.bot.messenger.load_names(table)
            lines = [
                f"{i + 1}. {log_entry(t, table.game, seat, action, self._names(table, t), public=True)}"
                for i, (seat, action) in enumerate(table.game.log)
            ][-count:]
            text = "\n".join(lines)[-1900:] if lines else t.gettext("No moves yet.")
            await self._say(interaction, t.gettext("**Last moves**") + f"\n```\n{text}\n```")
            return
        record = await self._finished_here(interaction)
        if record is None:
            await self._say(interaction, t.gettext("No game has been played in this channel yet."))
            return
        # A finished game: everything may be seen now, kept tickets included.
        finished = await self.bot.service.table(record.id)
        await self.bot.messenger.load_names(finished)
        lines = [
            f"{i + 1}. {log_entry(t, finished.game, seat, action, self._names(finished, t), public=False)}"
            for i, (seat, action) in enumerate(finished.game.log)
        ]
        file = discord.File(io.BytesIO("\n".join(lines).encode()), filename=f"game-{record.id}-log.txt")
        await self._say(
            interaction,
            t.ngettext(
                "The full log of the last game here ({n} move).",
                "The full log of the last game here ({n} moves).",
                len(lines),
            ),
            file=file,
            **self._replay_link(t, finished),
        )

    async def export(self, interaction: Interaction) -> None:
        t = await self.bot.languages.for_interaction(interaction)
        record = await self._finished_here(interaction)
        if record is None:
            await self._say(interaction, t.gettext("No finished game in this channel to export."))
            return
        async with self.bot.storage.sessions() as session:
            data = await stored_export.export_game(session=session, game_id=record.id)
        file = discord.File(io.BytesIO(json.dumps(data, indent=1).encode()), filename=f"game-{record.id}.json")
        await self._say(interaction, t.gettext("Seed, options and the full log: it replays move by move."), file=file)

    async def replay(self, interaction: Interaction, move: int) -> None:
        t = await self.bot.languages.for_interaction(interaction)
        record = await self._finished_here(interaction)
        if record is None:
            await self._say(interaction, t.gettext("No finished game in this channel to replay."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.storage.sessions() as session:
            log = await stored_games.action_log(session=session, game_id=record.id)
        finished = await self.bot.service.table(record.id)
        await self.bot.messenger.load_names(finished)
        move = max(0, min(move, len(log)))
        game = await asyncio.to_thread(self._game_at, record, log[:move])
        image = await POOL.render(
            "render_board", game.view(None), game.map.id, self.bot.messenger.styles(finished, t), t
        )
        await interaction.followup.send(
            t.gettext("The board after move {move} of {total}.", move=move, total=len(log)),
            ephemeral=True,
            file=as_file(image, f"move-{move}"),
            **self._replay_link(t, finished),
        )

    @staticmethod
    def _replay_link(t: Translator, finished: Table) -> dict:
        """A finished game's **Replay on the map** link button (the web table's, when it is on)."""
        link = page_button("r", finished.id, t.pgettext("button", "Replay on the map"))
        if link is None or not finished.game.is_over():  # (a game ended by its host has no replay)
            return {}
        return {"view": layout([link])}

    def _names(self, table: Table, t: Translator):
        return lambda seat: self.bot.messenger.name(table, seat, t)

    @staticmethod
    async def _say(interaction: Interaction, text: str, **kwargs) -> None:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)

    @staticmethod
    def _game_at(record, log) -> Game:
        """The game replayed up to a move (in a thread; its board is drawn by the image workers)."""
        game = Game.new(record.map_id, record.seats, record.seed, GameOptions.from_json(record.options))
        for seat, text in log:
            game.apply(seat, parse_action(game, seat, text))
        return game


async def setup(bot) -> None:
    await bot.add_cog(History(bot))
