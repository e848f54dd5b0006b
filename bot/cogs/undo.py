"""Undo with everyone's consent: the player who just claimed a route (or built a station) asks,
every other player approves, and the engine takes the move back — only until the next player
acts, and never for a move that revealed a card (the engine decides: `Undo` is legal or not).

Votes are stored (storage/undo_votes.py), one row per voter, counted under the game's row lock,
so two players approving at the same moment are both counted and a restart loses nothing; the
request message shows them.
"""

from __future__ import annotations

import discord
from discord import Interaction

from bot import components
from bot.cog import TTRCog
from bot.errors import TooLate, UserError
from bot.posting import pings
from bot.service import Cause, CauseKind, Table
from engine import BuildStation, Claim, Undo, format_action
from engine.errors import TemplateError
from i18n import Translator
from storage import StaleVersionError
from storage import undo_votes as stored_votes
from texts.present import route_name

#: Starts the line of the request message that lists who approved (in any language).
APPROVED = "👍"


def approved_line(t: Translator, users: set[int]) -> str:
    who = " ".join(f"<@{u}>" for u in sorted(users)) or "—"
    return f"{APPROVED} " + t.gettext("Approved by: {players}", players=who)


def _undos(interaction: Interaction) -> Undos:
    return interaction.client.get_cog("Undos")  # type: ignore[attr-defined,return-value]


class UndoButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.UNDO):
    """On a turn message: the player who just moved asks to take it back."""

    async def run(self, interaction: Interaction) -> None:
        await _undos(interaction).request(interaction, self.number("game"), self.number("ply"))


class UndoVoteButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.UNDO_VOTE):
    async def run(self, interaction: Interaction) -> None:
        await _undos(interaction).vote(
            interaction, self.number("game"), self.number("ply"), self.fields["vote"] == "yes"
        )


class Undos(TTRCog):
    items = (UndoButton, UndoVoteButton)

    def _voters(self, table: Table, mover: int) -> set[int]:
        """The people who must agree: every other active seat held by a person (AIs agree)."""
        return {
            s.user_id
            for s in table.seats
            if s.seat != mover and s.user_id is not None and table.game.left[s.seat] is None
        }

    def _asks(self, t: Translator, table: Table, seat: int) -> str:
        """'alice asks to take back the claim of Atlanta – Miami.'"""
        game, name = table.game, self.bot.messenger.name(table, seat, t)
        move = game.log[-1][1]
        if isinstance(move, Claim):
            return t.gettext(
                "**{name}** asks to take back the claim of {route}.",
                name=name,
                route=route_name(t, game.map, game.map.track_by_id[move.track]),
            )
        if isinstance(move, BuildStation):
            return t.gettext(
                "**{name}** asks to take back the station in {city}.",
                name=name,
                city=t.city(game.map.city_by_id[move.city]),
            )
        return t.gettext("**{name}** asks to take back `{move}`.", name=name, move=format_action(game, move))

    async def request(self, interaction: Interaction, game_id: int, ply: int) -> None:
        table = await self.bot.service.table(game_id)
        game = table.game
        seat = table.seat_of(interaction.user.id)
        if seat is None or game.version != ply or not game.is_legal(seat, Undo()):
            raise UserError(
                "Only the player who just moved can ask, before the next player acts, and only for a "
                "route or a station that revealed no card."
            )
        voters = self._voters(table, seat)
        if not voters:  # everyone else is an AI: nobody to ask
            await self._take_back(interaction, table, seat, ply)
            return
        async with self.bot.storage.sessions() as session:
            await stored_votes.clear_votes(session=session, game_id=game_id, ply=ply)  # a request asked again
        t = await self.bot.messenger.channel_t(table)  # a message in the channel, for everyone
        text = "\n".join(
            [
                f"↩️ {self._asks(t, table, seat)}",
                t.gettext("Needs the OK of {players}.", players=t.join(f"<@{u}>" for u in sorted(voters))),
                approved_line(t, set()),
            ]
        )
        await interaction.response.send_message(
            text, view=components.undo_vote_view(game_id, ply, t=t), allowed_mentions=pings(*voters)
        )

    async def vote(self, interaction: Interaction, game_id: int, ply: int, approve: bool) -> None:
        table = await self.bot.service.table(game_id)
        game = table.game
        t = await self.bot.messenger.channel_t(table)
        mover = game.log[-1][0] if game.log else None
        if game.version != ply or mover is None:
            if table.seat_of(interaction.user.id) is None or not _asks_for(interaction.message, game_id, ply):
                raise TooLate()  # only a player closes the request, and only the request's own message
            await interaction.response.edit_message(
                content=f"{interaction.message.content}\n⌛ " + t.gettext("Too late: the game moved on."), view=None
            )
            return
        voters = self._voters(table, mover)
        if interaction.user.id not in voters:
            raise UserError("Only the other players decide on this.")
        try:
            async with self.bot.storage.sessions() as session:
                votes = await stored_votes.record_vote(
                    session=session, game_id=game_id, ply=ply, user_id=interaction.user.id, approve=approve
                )
        except StaleVersionError:
            raise TooLate() from None
        lines = [line for line in interaction.message.content.splitlines() if not line.startswith(APPROVED)]
        if not all(votes.values()):
            said_no = t.gettext(
                "{player} said no: the move stands.",
                player=" ".join(f"<@{u}>" for u, yes in sorted(votes.items()) if not yes),
            )
            await interaction.response.edit_message(content="\n".join(lines) + f"\n❌ {said_no}", view=None)
            return
        agreed = set(votes)
        content = "\n".join(lines + [approved_line(t, agreed)])
        if agreed >= voters:
            await self._take_back(interaction, table, mover, ply, content=content)
        else:
            await interaction.response.edit_message(content=content)

    async def _take_back(
        self, interaction: Interaction, table: Table, mover: int, ply: int, content: str | None = None
    ) -> None:
        t = await self.bot.messenger.channel_t(table)
        if content is not None:
            await interaction.response.edit_message(
                content=f"{content}\n✅ " + t.gettext("Everyone agreed."), view=None
            )
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if table.game.version != ply:
                raise TooLate()
            await self.bot.service.act(
                table.id,
                Undo(),
                seat=mover,  # the engine re-checks
                cause=Cause(CauseKind.UNDO, user_id=interaction.user.id),
            )
        except TemplateError as exc:
            mine = await self.bot.languages.for_interaction(interaction)
            await interaction.followup.send(f"⚠️ {await self.bot.moves.refusal(mine, table.id, exc)}", ephemeral=True)
            return
        if content is None:
            mine = await self.bot.languages.for_interaction(interaction)
            await interaction.followup.send(mine.gettext("Taken back."), ephemeral=True)


def _asks_for(message: discord.Message | None, game_id: int, ply: int) -> bool:
    """Whether `message` is the vote request for this game and move (it carries its buttons)."""
    wanted = f"ttr:{game_id}:{ply}:undo:"
    return message is not None and any(
        str(getattr(child, "custom_id", "")).startswith(wanted) for row in message.components for child in row.children
    )


async def setup(bot) -> None:
    await bot.add_cog(Undos(bot))
