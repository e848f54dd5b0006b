"""Playing a turn: `/ttr draw`, `claim`, `tickets`, `station`, `pass`, `resign`, `hand`, and the
buttons and selects of the turn message and the private replies. Every move goes through
`bot.moves` to the one path (bot/service.py); the engine says what is legal.
"""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot import components
from bot.cog import TTRCog
from bot.command_translator import locale_pstr
from bot.errors import NotPlaying
from bot.messenger import files_allowed
from bot.transformers import City, Route, my_seat, table_here
from engine import DeclineTunnel, DrawDeck, DrawMarket, DrawTickets, KeepTickets, PayTunnel
from engine.cards import CARD_NAMES
from engine.errors import ActionError
from engine.game import TICKETS, TUNNEL
from i18n.translator import CARD_WORDS
from texts.present import private_summary

CARD_CHOICES = [app_commands.Choice(name=locale_pstr("card", CARD_WORDS[i]), value=c) for i, c in enumerate(CARD_NAMES)]


def _play(interaction: Interaction) -> Play:
    return interaction.client.get_cog("Play")  # type: ignore[attr-defined,return-value]


class _GameItem(components.Clicked):
    """A component of one game's decision: the game id and the decision token from its custom id."""

    async def act(self, interaction: Interaction, action) -> None:
        await interaction.client.moves.perform(  # type: ignore[attr-defined]
            interaction, self.number("game"), action, token=self.number("token"))


class DrawCardButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.DRAW):
    async def run(self, interaction: Interaction) -> None:
        slot = self.fields["slot"]
        await self.act(interaction, DrawDeck() if slot == "deck" else DrawMarket(int(slot)))


class DrawTicketsButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.TICKETS):
    async def run(self, interaction: Interaction) -> None:
        await self.act(interaction, DrawTickets())


class KeepTicketsSelect(_GameItem, discord.ui.DynamicItem[discord.ui.Select], template=components.KEEP):
    async def run(self, interaction: Interaction) -> None:
        await self.act(interaction, KeepTickets(tuple(sorted(int(v) for v in self.item.values))))


class TunnelButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.TUNNEL):
    async def run(self, interaction: Interaction) -> None:
        choice = self.fields["choice"]
        await self.act(interaction, DeclineTunnel() if choice == "decline" else PayTunnel(int(choice)))


class ChoiceButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.CHOICE):
    """One of several actions offered for a decision (components.choice_button)."""

    async def run(self, interaction: Interaction) -> None:
        await self.act(interaction, components.decode_choice(self.fields["text"]))


class MyHandButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.HAND):
    async def run(self, interaction: Interaction) -> None:
        await _play(interaction).show_hand(interaction, self.number("game"))


class Play(TTRCog):
    items = (DrawCardButton, DrawTicketsButton, KeepTicketsSelect, TunnelButton, ChoiceButton, MyHandButton)

    async def _act_here(self, interaction: Interaction, text: str) -> None:
        """Play `text` (engine notation) in this channel's game."""
        table = await table_here(interaction)
        await self.bot.moves.perform(interaction, table.id, text)

    @app_commands.command(name="draw",
                          description=locale_str("Draw train cards: buttons for the face-up cards and the deck"))
    async def draw(self, interaction: Interaction) -> None:
        table = await table_here(interaction)
        seat, game = my_seat(table, interaction), table.game
        draws = [DrawDeck(), *(DrawMarket(slot) for slot in range(len(game.market)))]
        if not any(game.is_legal(seat, draw) for draw in draws):
            try:
                game.check(seat, DrawDeck())  # the engine says why not (whose turn, what comes first)
            except ActionError as exc:
                await self.bot.reply(interaction, "⚠️ " + await self.bot.moves.refusal(
                    await self.bot.languages.for_interaction(interaction), table.id, exc))
                return
        t = await self.bot.languages.for_interaction(interaction)
        await interaction.response.send_message(t.gettext("Pick a face-up card or the deck:"), ephemeral=True,
                                                view=components.second_card_view(table.id, game, seat, t=t))

    @app_commands.command(name="claim", description=locale_str("Claim a route"))
    @app_commands.describe(route=locale_str("The route (type to search the routes you can claim now)"),
                           color=locale_str("Card color to pay with (asked only if several fit)"),
                           locos=locale_str("How many locomotives to use (default: as few as needed)"))
    @app_commands.choices(color=CARD_CHOICES)
    async def claim(self, interaction: Interaction, route: Route, color: app_commands.Choice[str] | None = None,
                    locos: app_commands.Range[int, 0, 9] | None = None) -> None:
        table = await table_here(interaction)
        await self.bot.moves.claim(interaction, table.id, route.text, route.tracks, color.value if color else None,
                                   locos)

    @app_commands.command(name="tickets", description=locale_str("Draw destination tickets"))
    async def tickets(self, interaction: Interaction) -> None:
        await self._act_here(interaction, "tickets draw")

    @app_commands.command(name="station", description=locale_str("Build a station (Europe)"))
    @app_commands.describe(city=locale_str("The city"), color=locale_str("Card color to pay with"),
                           locos=locale_str("How many locomotives to use"))
    @app_commands.choices(color=CARD_CHOICES)
    async def station(self, interaction: Interaction, city: City, color: app_commands.Choice[str] | None = None,
                      locos: app_commands.Range[int, 0, 3] | None = None) -> None:
        table = await table_here(interaction)
        if not table.game.map.rules.stations:
            t = await self.bot.languages.for_interaction(interaction)
            await self.bot.reply(interaction, t.gettext("The {map} map has no stations.", map=t.map_name(table.game.map)))
            return
        parts = ["station", city] + ([color.value] if color else []) + ([f"loco={locos}"] if locos is not None else [])
        await self.bot.moves.perform(interaction, table.id, " ".join(parts))

    @app_commands.command(name="pass", description=locale_str("Pass your turn (only when you have no other move)"))
    async def pass_(self, interaction: Interaction) -> None:
        await self._act_here(interaction, "pass")

    @app_commands.command(name="resign", description=locale_str("Leave the game you play in this channel"))
    async def resign(self, interaction: Interaction) -> None:
        await self._act_here(interaction, "resign")

    @app_commands.command(name="hand", description=locale_str("Your cards and tickets (only you see them)"))
    async def hand(self, interaction: Interaction) -> None:
        table = await table_here(interaction)
        await self.show_hand(interaction, table.id)

    async def show_hand(self, interaction: Interaction, game_id: int) -> None:
        """The 'My hand' button and /ttr hand: the player's private summary and any pending choice."""
        m = self.bot.messenger
        await interaction.response.defer(ephemeral=True, thinking=True)
        t = await self.bot.languages.for_interaction(interaction)
        table = await self.bot.service.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotPlaying()
        await m.load_names(table)
        game = table.game
        if game.phase == "choosing" and game.offers[seat] or (game.stage == TICKETS and game.current == seat):
            await m.send_ticket_choice(lambda content, **kw: interaction.followup.send(content, ephemeral=True, **kw),
                                       t, table, seat, images=files_allowed(interaction))
            return
        if game.stage == TUNNEL and game.current == seat:
            await interaction.followup.send(m.tunnel_text(t, table, seat),
                                            view=components.tunnel_view(table.id, game, seat, t=t), ephemeral=True)
            return
        if game.stage in game.hooks.stages and game.current == seat:
            await interaction.followup.send(m.hook_text(t), ephemeral=True,
                                            view=components.hook_choice_view(table.id, game, seat, t=t))
            return
        await interaction.followup.send(private_summary(t, game, seat), ephemeral=True,
                                        files=await m.private_files(table, seat, board=game.phase == "playing",
                                                                    interaction=interaction, t=t))


async def setup(bot) -> None:
    await bot.add_cog(Play(bot))
