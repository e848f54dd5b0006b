"""Playing a turn: `/ttr draw`, `claim`, `tickets`, `station`, `pass`, `resign`, `hand`, and the
buttons and selects of the turn message and the private replies. Every move goes through
`bot.moves` to the one path (bot/service.py); the engine says what is legal.
"""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from ai.ticket_plan import ticket_cities, ticket_tracks
from bot import components, layouts
from bot.cog import TTRCog
from bot.command_translator import locale_pstr
from bot.errors import ButtonNotValid, MarketChanged, NotPlaying
from bot.panels import Panel, show_private
from bot.transformers import City, Route, my_seat, table_here
from bot.web import links
from engine import BuildStation, Claim, DeclineTunnel, DrawDeck, DrawMarket, DrawTickets, Game, KeepTickets, PayTunnel
from engine.actions import Move
from engine.cards import ALL_CARD_NAMES, CARD_NAMES
from engine.errors import ActionError, CardRef
from i18n.translator import CARD_WORDS
from texts.present import route_name

CARD_CHOICES = [app_commands.Choice(name=locale_pstr("card", CARD_WORDS[i]), value=c) for i, c in enumerate(CARD_NAMES)]


def _play(interaction: Interaction) -> Play:
    return interaction.client.get_cog("Play")  # type: ignore[attr-defined,return-value]


class _GameItem(components.Clicked):
    """A component of one game: the game id, and the decision or turn token, from its custom id.

    What else its id or values name (a route, a city, a card, a ticket) is checked against the
    game's map before anything runs: a value no menu offered is refused as an invalid button."""

    async def game(self, interaction: Interaction) -> Game:
        return (await interaction.client.service.peek(self.number("game"))).game  # type: ignore[attr-defined]

    async def track(self, interaction: Interaction, track_id: str) -> str:
        if track_id not in (await self.game(interaction)).map.track_by_id:
            raise ButtonNotValid()
        return track_id

    async def city(self, interaction: Interaction, city_id: str) -> str:
        if city_id not in (await self.game(interaction)).map.city_by_id:
            raise ButtonNotValid()
        return city_id

    async def act(self, interaction: Interaction, action) -> None:
        fields = self.fields
        await interaction.client.moves.perform(  # type: ignore[attr-defined]
            interaction,
            self.number("game"),
            action,
            token=int(fields["token"]) if "token" in fields else None,
            turn=int(fields["turn"]) if "turn" in fields else None,
        )


class DrawCardButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.DRAW):
    """A face-up card or the deck, for the first card or the second (the same message serves both)."""

    async def run(self, interaction: Interaction) -> None:
        slot, shown = self.fields["slot"], self.fields.get("card")
        if shown is not None and int(shown) >= len(ALL_CARD_NAMES):
            raise ButtonNotValid()
        if slot == "deck":
            await self.act(interaction, DrawDeck())
            return

        def draw(game) -> DrawMarket:
            # The market may have changed since the button was drawn (the first card refilled it).
            if shown is not None and game.market[int(slot)] != int(shown):
                raise MarketChanged(slot=int(slot) + 1, card=CardRef(int(shown)))
            return DrawMarket(int(slot))

        await self.act(interaction, draw)


class DrawTicketsButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.TICKETS):
    async def run(self, interaction: Interaction) -> None:
        await self.act(interaction, DrawTickets())


class RoutesButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.ROUTES):
    """Claim: the routes the hand pays for (a page of them), from the table or the panel."""

    async def run(self, interaction: Interaction) -> None:
        await _play(interaction).claim_menu(interaction, self.number("game"), self.number("page"))


class RouteSelect(_GameItem, discord.ui.DynamicItem[discord.ui.Select], template=components.ROUTE):
    """A route picked in the claim menu: claimed if one payment fits, else the payments offered."""

    async def run(self, interaction: Interaction) -> None:
        track = await self.track(interaction, self.values[0])
        await _play(interaction).pick(interaction, self, lambda a: isinstance(a, Claim) and a.track == track)

    @property
    def picked(self) -> str:
        return self.values[0]


class CitiesButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.CITIES):
    """Station: the cities a station may go in now (a page of them)."""

    async def run(self, interaction: Interaction) -> None:
        await _play(interaction).station_menu(interaction, self.number("game"), self.number("page"))


class CitySelect(_GameItem, discord.ui.DynamicItem[discord.ui.Select], template=components.CITY):
    async def run(self, interaction: Interaction) -> None:
        city = await self.city(interaction, self.values[0])
        await _play(interaction).pick(interaction, self, lambda a: isinstance(a, BuildStation) and a.city == city)


class KeepTicketsSelect(_GameItem, discord.ui.DynamicItem[discord.ui.Select], template=components.KEEP):
    async def run(self, interaction: Interaction) -> None:
        if not all(v.isdigit() and len(v) < 10 for v in self.values):
            raise ButtonNotValid()
        await self.act(interaction, KeepTickets(tuple(sorted(int(v) for v in self.values))))


class TunnelButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.TUNNEL):
    async def run(self, interaction: Interaction) -> None:
        choice = self.fields["choice"]
        await self.act(interaction, DeclineTunnel() if choice == "decline" else PayTunnel(int(choice)))


class ChoiceButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button], template=components.CHOICE):
    """One of several actions offered for a decision (components.choice_button)."""

    async def run(self, interaction: Interaction) -> None:
        action = components.decode_choice(self.fields["text"])
        if getattr(action, "track", None) is not None:
            await self.track(interaction, action.track)
        for city in (getattr(action, "city", None), getattr(action, "passenger", None)):
            if city is not None:
                await self.city(interaction, city)
        await self.act(interaction, action)


class _MarklinItem(_GameItem):
    """A component only Märklin's games show (ticket mixes, passengers): on another map, forged."""

    async def game(self, interaction: Interaction) -> Game:
        game = await super().game(interaction)
        if not components.is_marklin(game):
            raise ButtonNotValid()
        return game


class MixButton(_MarklinItem, discord.ui.DynamicItem[discord.ui.Button], template=components.MIX):
    """Märklin: a ticket mix named (how many of the tickets come from the long deck)."""

    async def run(self, interaction: Interaction) -> None:
        await self.game(interaction)
        await self.act(interaction, DrawTickets(self.number("long")))


class MixesButton(_MarklinItem, discord.ui.DynamicItem[discord.ui.Button], template=components.MIXES):
    """Märklin's Tickets: the mix buttons, privately."""

    async def run(self, interaction: Interaction) -> None:
        await self.game(interaction)
        table, seat, t = await _play(interaction)._player(interaction, self.number("game"))
        view = components.ticket_mix_view(table.id, table.game, seat, t=t)
        if view is None:  # not the seat's turn, or no tickets left: the engine says why
            await self.act(interaction, DrawTickets(0))
            return
        await show_private(interaction, components.ticket_mix_text(t, table.game, seat), view)


class PassengersButton(_MarklinItem, discord.ui.DynamicItem[discord.ui.Button], template=components.PASSENGERS):
    """Märklin: move a passenger (which one, then where to)."""

    async def run(self, interaction: Interaction) -> None:
        await self.game(interaction)
        await _play(interaction).passenger_menu(interaction, self.number("game"), None)


class PassengerSelect(_MarklinItem, discord.ui.DynamicItem[discord.ui.Select], template=components.PASSENGER):
    async def run(self, interaction: Interaction) -> None:
        start = await self.city(interaction, self.values[0])
        await _play(interaction).passenger_menu(interaction, self.number("game"), start)


class TripSelect(_MarklinItem, discord.ui.DynamicItem[discord.ui.Select], template=components.TRIP):
    """A passenger's destination: the listed move there (its path and passenger cards)."""

    async def run(self, interaction: Interaction) -> None:
        start = await self.city(interaction, self.fields["start"])
        end = await self.city(interaction, self.values[0])

        def move(game) -> Move:
            seat = game.current
            trips = [
                a for a in game.legal_actions(seat) if isinstance(a, Move) and a.path[0] == start and a.path[-1] == end
            ]
            return trips[0] if trips else Move((start, end), 0)  # gone: the engine says why

        await self.act(interaction, move)


class EndButton(_MarklinItem, discord.ui.DynamicItem[discord.ui.Button], template=components.END):
    """Märklin: the claimed route's passenger end (or none), then the payment as for any claim."""

    async def run(self, interaction: Interaction) -> None:
        track, city = await self.track(interaction, self.fields["track"]), self.fields["city"] or None
        m = (await self.game(interaction)).map
        if city is not None and city not in (m.cities[m.track_by_id[track].a].id, m.cities[m.track_by_id[track].b].id):
            raise ButtonNotValid()
        await _play(interaction).pick(
            interaction,
            self,
            lambda a: isinstance(a, Claim) and a.track == track and a.passenger == city,
            ask_end=False,
        )


class MyHandButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.HAND):
    async def run(self, interaction: Interaction) -> None:
        await _play(interaction).show_hand(interaction, self.number("game"))


class OpenMapButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.LAUNCH):
    """**Open the map** when the table is an Activity (bot/web/activity.py): Discord opens it for the
    user in this channel, where it finds their seat; a button of a time the Activity was on is refused."""

    async def run(self, interaction: Interaction) -> None:
        if not links.ACTIVITY:
            raise ButtonNotValid()
        await interaction.response.launch_activity()


class Play(TTRCog):
    items = (
        DrawCardButton,
        DrawTicketsButton,
        RoutesButton,
        RouteSelect,
        CitiesButton,
        CitySelect,
        KeepTicketsSelect,
        TunnelButton,
        ChoiceButton,
        MyHandButton,
        OpenMapButton,
        MixButton,
        MixesButton,
        PassengersButton,
        PassengerSelect,
        TripSelect,
        EndButton,
    )

    async def _act_here(self, interaction: Interaction, text: str) -> None:
        """Play `text` (engine notation) in this channel's game."""
        table = await table_here(interaction)
        await self.bot.moves.perform(interaction, table.id, text)

    @app_commands.command(
        name="draw", description=locale_str("Draw train cards: buttons for the face-up cards and the deck")
    )
    async def draw(self, interaction: Interaction) -> None:
        table = await table_here(interaction)
        seat, game = my_seat(table, interaction), table.game
        draws = [DrawDeck(), *(DrawMarket(slot) for slot in range(len(game.market)))]
        if not any(game.is_legal(seat, draw) for draw in draws):
            try:
                game.check(seat, DrawDeck())  # the engine says why not (whose turn, what comes first)
            except ActionError as exc:
                await self.bot.reply(
                    interaction,
                    "⚠️ "
                    + await self.bot.moves.refusal(
                        await self.bot.languages.for_interaction(interaction), table.id, exc
                    ),
                )
                return
        t = await self.bot.languages.for_interaction(interaction)
        await interaction.response.send_message(
            t.gettext("Pick a face-up card or the deck:"),
            ephemeral=True,
            view=components.panel_view(table.id, game, seat, t=t),
        )

    @app_commands.command(name="claim", description=locale_str("Claim a route"))
    @app_commands.describe(
        route=locale_str("The route (type to search the routes you can claim now)"),
        color=locale_str("Card color to pay with (asked only if several fit)"),
        locos=locale_str("How many locomotives to use (default: as few as needed)"),
    )
    @app_commands.choices(color=CARD_CHOICES)
    async def claim(
        self,
        interaction: Interaction,
        route: Route,
        color: app_commands.Choice[str] | None = None,
        locos: app_commands.Range[int, 0, 9] | None = None,
    ) -> None:
        table = await table_here(interaction, routing=True)
        await self.bot.moves.claim(
            interaction, table.id, route.text, route.tracks, color.value if color else None, locos
        )

    @app_commands.command(name="tickets", description=locale_str("Draw destination tickets"))
    async def tickets(self, interaction: Interaction) -> None:
        await self._act_here(interaction, "tickets draw")

    @app_commands.command(name="station", description=locale_str("Build a station (Europe)"))
    @app_commands.describe(
        city=locale_str("The city"),
        color=locale_str("Card color to pay with"),
        locos=locale_str("How many locomotives to use"),
    )
    @app_commands.choices(color=CARD_CHOICES)
    async def station(
        self,
        interaction: Interaction,
        city: City,
        color: app_commands.Choice[str] | None = None,
        locos: app_commands.Range[int, 0, 3] | None = None,
    ) -> None:
        table = await table_here(interaction)
        if not table.game.map.rules.stations:
            t = await self.bot.languages.for_interaction(interaction)
            await self.bot.reply(
                interaction, t.gettext("The {map} map has no stations.", map=t.map_name(table.game.map))
            )
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
        """The 'My hand' button and /ttr hand: the player's panel (hand, tickets, what they may do
        now, with its controls) and, where images may go, their cards and their board."""
        m = self.bot.messenger
        await interaction.response.defer(ephemeral=True, thinking=True)
        t = await self.bot.languages.for_interaction(interaction)
        table = await self.bot.service.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotPlaying()
        await m.load_names(table)
        content, view = m.panel(t, table, seat)
        game = table.game
        files = await m.private_files(
            table,
            seat,
            hand=game.left[seat] is None,
            board=game.phase == "playing",
            offer=bool(game.offers[seat]),
            interaction=interaction,
            t=t,
        )
        shown = layouts.card([content], images=files, controls=view, accent=m.accent(table, seat))
        await interaction.followup.send(view=shown, files=files, ephemeral=True)
        m.remember_panel(table, Panel(interaction))

    async def _player(self, interaction: Interaction, game_id: int):
        table = await self.bot.service.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotPlaying()
        await self.bot.messenger.load_names(table)
        return table, seat, await self.bot.languages.for_interaction(interaction)

    async def claim_menu(self, interaction: Interaction, game_id: int, page: int) -> None:
        """The claim menu (components.claim_menu): on the seat's turn what it may claim now; off
        turn, what its hand could pay for, to plan with."""
        table, seat, t = await self._player(interaction, game_id)
        game = table.game
        if game.phase != "playing":
            game.check(seat, DrawDeck())  # the engine's reason: the game has not started, or is over
        my_turn = game.current == seat and game.stage is None
        claims = (
            [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)]
            if my_turn
            else game.payable_claims(seat)
        )
        content, view = components.claim_menu(table.id, game, seat, claims, ticket_tracks(game, seat), page, t=t)
        if not my_turn and game.current != seat:
            content += "\n" + t.gettext("It's {player}'s turn.", player=self.bot.messenger.name(table, game.current, t))
        await show_private(interaction, content, view)

    async def station_menu(self, interaction: Interaction, game_id: int, page: int) -> None:
        table, seat, t = await self._player(interaction, game_id)
        game = table.game
        builds = [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, BuildStation)]
        if not builds:
            game.check(seat, BuildStation(game.map.cities[0].id, None, 0))  # why not: whose turn, none left
        content, view = components.station_menu(table.id, game, seat, builds, ticket_cities(game, seat), page, t=t)
        await show_private(interaction, content, view)

    async def passenger_menu(self, interaction: Interaction, game_id: int, start: str | None) -> None:
        """Märklin: the seat's passengers that can travel, then where the picked one can go."""
        table, seat, t = await self._player(interaction, game_id)
        game = table.game
        if game.phase != "playing" or game.current != seat or game.stage is not None:
            game.check(seat, Move(("-", "-"), 0))  # the engine's reason: whose turn, what comes first
        moves = [a for a in game.legal_actions(seat) if isinstance(a, Move)]
        content, view = components.passenger_menu(table.id, game, seat, moves, start, t=t)
        await show_private(interaction, content, view)

    async def pick(self, interaction: Interaction, item: _GameItem, wanted, ask_end: bool = True) -> None:
        """A route or city picked in a menu: on Märklin first where a passenger goes (if one may);
        the one way to pay is played at once; several are offered as buttons in the same message;
        none, the engine's reason."""
        game_id = item.number("game")
        table, seat, t = await self._player(interaction, game_id)
        game = table.game
        options = [a for a in game.legal_actions(seat, collapse_payments=True) if wanted(a)]
        if ask_end and any(getattr(a, "passenger", None) for a in options):
            route = route_name(t, game.map, game.map.track_by_id[options[0].track])
            await show_private(
                interaction,
                "🧳 " + t.gettext("Put a passenger on an end of {route}?", route=route),
                components.passenger_end_view(table.id, game, seat, options, t=t),
            )
            return
        if len(options) == 1 or not options:
            # One payment: played. None (not the seat's turn, the route was just taken): the
            # service refuses with the reason.
            await item.act(interaction, options[0] if options else _unplayable(game, item))
            return
        first = options[0]
        where = (
            route_name(t, game.map, game.map.track_by_id[first.track])
            if isinstance(first, Claim)
            else t.city(game.map.city_by_id[first.city])
        )
        await show_private(
            interaction,
            t.gettext("How do you pay for {route}?", route=where),
            components.payment_view(table.id, game, seat, options, t=t),
        )


def _unplayable(game, item: _GameItem):
    """The action a menu pick names when no legal payment fits: played, so the engine says why."""
    if isinstance(item, (RouteSelect, EndButton)):
        track = game.map.track_by_id[item.picked if isinstance(item, RouteSelect) else item.fields["track"]]
        return Claim(track.id, track.color, 0)
    return BuildStation(item.values[0], None, 0)


async def setup(bot) -> None:
    await bot.add_cog(Play(bot))
