"""A player's private panel: one ephemeral card with their news, hand, tickets, what they must or
may do now and the controls for it, updated in place as they play (`Panel`), and the private
pictures that go with it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import timedelta

import discord
from discord import Interaction

from bot import components, layouts
from bot.posting import as_file, files_allowed
from bot.render_pool import POOL
from bot.service import Table
from engine import Claim
from engine.cards import CARD_NAMES
from engine.phases import SECOND_CARD, TICKETS, TUNNEL
from i18n import Translator
from rendering.words import recap
from texts.present import card, private_summary, route_name, ticket_line

#: How long a panel stays editable through the interaction that made it (Discord: 15 minutes).
PANEL_LIFETIME = timedelta(minutes=14)


@dataclass(frozen=True)
class Panel:
    """A player's private panel: `interaction`'s original response, or its follow-up
    `message_id` (a tap on the table is answered so: its original response is the table)."""

    interaction: Interaction
    message_id: int | None = None

    async def edit(self, **fields: object) -> object:
        if self.message_id is None:
            return await self.interaction.edit_original_response(**fields)  # type: ignore[arg-type]
        return await self.interaction.followup.edit_message(self.message_id, **fields)  # type: ignore[arg-type]


def in_place(interaction: Interaction) -> bool:
    """Whether the answer to `interaction` replaces the private message it was tapped on (a
    player's panel or menu) rather than arriving as a new one: one panel, updated as they play."""
    message = interaction.message
    if interaction.type != discord.InteractionType.component or message is None or not message.flags.ephemeral:
        return False
    made_for = message.interaction_metadata.user.id if message.interaction_metadata else None
    return made_for == interaction.user.id  # someone else's panel (its id replayed) is never rewritten


async def show_private(interaction: Interaction, content: str, view: discord.ui.View | None = None) -> None:
    """Answer a tap with a private card: in place of the panel it was tapped on, else new."""
    shown = layouts.card([content], controls=view)
    if in_place(interaction):
        await interaction.response.edit_message(view=shown, attachments=[])
    else:
        await interaction.response.send_message(view=shown, ephemeral=True)


class PanelMessages:
    """The panel's part of `TableMessenger` (bot/messenger.py): its words and pictures, and which
    panel a tap's answer goes to."""

    @staticmethod
    def hook_text(t: Translator) -> str:
        """A map hook's pending decision (Nederland's neutral player is the only one so far)."""
        return "🤖 " + t.gettext(
            "**The neutral player builds a route with two free tracks: you pick which.** (It costs you nothing.)"
        )

    def tickets_text(self, t: Translator, table: Table, seat: int) -> str:
        game = table.game
        if not game.offers[seat] and game.hooks.choosing(game, seat):  # Märklin: the mix comes first
            return components.ticket_mix_text(t, game, seat)
        lines = [t.gettext("**Choose your tickets** (keep at least {n}):", n=game.offer_keep[seat])]
        lines += [ticket_line(t, game.map, ticket) for ticket in game.view(seat)["you"]["offer"]]
        return "\n".join(lines)

    def tunnel_text(self, t: Translator, table: Table, seat: int) -> str:
        """The tunnel's reveal and what it asks; the hand shown is what is left to pay with, and
        the cards already laid down for the route are named apart."""
        from engine.payments import surcharge_options

        game = table.game
        tunnel = game.view(seat)["tunnel"]
        route = route_name(t, game.map, game.map.track_by_id[tunnel["track"]])
        revealed = t.join(card(t, CARD_NAMES.index(c)) for c in tunnel["revealed"])
        committed = [(CARD_NAMES[kind], n) for kind, n in enumerate(game.tunnel["paid"]) if n]
        laid = t.join(f"{card(t, CARD_NAMES.index(name))} ×{n}" for name, n in committed)
        can_pay = bool(surcharge_options(game.hands[seat], tunnel["surcharge"], game.tunnel["color"]))
        ask = (
            t.ngettext(
                "**Tunnel {route}:** revealed {cards} → pay {n} more card or decline.",
                "**Tunnel {route}:** revealed {cards} → pay {n} more cards or decline.",
                tunnel["surcharge"],
                route=route,
                cards=revealed,
            )
            if can_pay
            else t.ngettext(
                "**Tunnel {route}:** revealed {cards} → {n} more card is needed and your hand cannot "
                "pay it: decline (your cards come back).",
                "**Tunnel {route}:** revealed {cards} → {n} more cards are needed and your hand cannot "
                "pay them: decline (your cards come back).",
                tunnel["surcharge"],
                route=route,
                cards=revealed,
            )
        )
        lines = [
            ask,
            t.gettext("Laid down for the tunnel: {cards}", cards=laid) if laid else "",
            private_summary(t, game, seat),
        ]
        return "\n".join(line for line in lines if line)

    def news(self, t: Translator, table: Table, seat: int) -> str:
        """What a player back at their panel wants first: the others' turns since their own last
        one, their score and place, and the last round when it has come."""
        game = table.game
        seen = game.view(seat)
        mine = [entry["ply"] for entry in seen["recent"] if entry["seat"] == seat]
        lines = [
            "• " + t.gettext("{player}: {actions}", player="**" + self.name(table, s, t) + "**", actions=text)
            if s is not None
            else f"• {text}"
            for s, text in recap(t, seen, self.styles(table, t), game.map, max(mine) if mine else None)
            if s != seat
        ]
        if lines:
            lines.insert(0, t.gettext("**Since your last turn:**"))
        scores = [p["score"] for p in seen["players"]]
        lines.append(
            "🏆 "
            + t.ngettext(
                "You have {n} point: place {place} of {players}.",
                "You have {n} points: place {place} of {players}.",
                scores[seat],
                place=1 + sum(score > scores[seat] for score in scores),
                players=len(scores),
            )
        )
        if game.last_round is not None and game.phase == "playing":
            lines.append(
                "⏳ "
                + (
                    t.gettext("Last round: this is your last turn.")
                    if game.current == seat
                    else t.gettext("Last round: you have one more turn.")
                    if seat in game.last_round
                    else t.gettext("Last round: you have played your last turn.")
                )
            )
        return "\n".join(lines)

    def panel(self, t: Translator, table: Table, seat: int) -> tuple[str, discord.ui.View | None]:
        """A player's private panel: their hand and tickets, what they must or may do now, and
        the controls for it (bot/components.py `panel_view`)."""
        game = table.game
        if game.left[seat] is not None:  # resigned or removed: says so, with the tickets that still score
            return private_summary(t, game, seat), None
        if game.phase == "over":
            return t.gettext("The game is over."), None
        view = components.panel_view(table.id, game, seat, t=t)
        my_turn = game.phase == "playing" and game.current == seat
        if (game.phase == "choosing" and game.offers[seat]) or (my_turn and game.stage == TICKETS):
            return f"{private_summary(t, game, seat)}\n\n{self.tickets_text(t, table, seat)}", view
        if my_turn and game.stage == TUNNEL:
            return self.tunnel_text(t, table, seat), view
        if my_turn and game.stage in game.hooks.stages:
            return f"{self.hook_text(t)}\n{private_summary(t, game, seat)}", view
        summary = private_summary(t, game, seat)
        if game.phase == "choosing":
            waiting = [self.name(table, s, t) for s in game.to_move()]
            if view is not None:  # Märklin: the seat names its ticket mix first
                return f"{summary}\n\n{self.tickets_text(t, table, seat)}", view
            return summary + "\n" + t.gettext("Waiting for {players} to choose.", players=t.join(waiting)), None
        if my_turn and game.stage == SECOND_CARD:
            return summary + "\n\n" + t.gettext("**Draw your second card** (not a face-up locomotive):"), view
        summary = f"{self.news(t, table, seat)}\n\n{summary}"
        if my_turn:
            return summary + "\n\n" + t.gettext("**Your turn:** draw cards, claim a route or draw tickets."), view
        return summary + "\n" + t.gettext("It's {player}'s turn.", player=self.name(table, game.current, t)), view

    async def private_files(
        self,
        table: Table,
        seat: int,
        *,
        hand: bool = True,
        offer: bool = False,
        board: bool = False,
        interaction: Interaction | None = None,
        t: Translator | None = None,
    ) -> list[discord.File]:
        """Images only this seat may see (for its DMs or ephemeral replies), in its player's language
        (`t`, else looked up). None for a reply in a channel where the bot may not attach files: the
        text says the same."""
        if interaction is not None and not files_allowed(interaction):
            return []
        t = t or await self.seat_t(table, seat)
        game, styles = table.game, self.styles(table, t)
        seen = game.view(seat)  # what this seat may see
        jobs: list[tuple[str, str, dict, dict]] = []
        if hand:
            jobs.append(("hand", "render_hand", hand_view(seen), {}))
        if offer and seen["you"]["offer"]:
            jobs.append(("tickets", "render_ticket_offer", seen, {}))
        if board:
            my_turn = game.current == seat and game.stage is None
            claimable = (
                [a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)]
                if my_turn
                else [a.track for a in game.payable_claims(seat)]
            )  # off turn: what could pay
            jobs.append(
                (
                    "my-board",
                    "render_player_board",
                    seen,
                    {"claimable_tracks": sorted(claimable), "my_turn": my_turn},
                )
            )
        colorblind = self.colorblind(table, seat)
        images = await asyncio.gather(
            *(
                POOL.render(render, view, game.map.id, styles, t, colorblind=colorblind, **kwargs)
                for _, render, view, kwargs in jobs
            )
        )
        return [as_file(image, stem) for (stem, *_), image in zip(jobs, images)]

    # ------------------------------------------------------------------ the panel

    def panel_target(self, table: Table, interaction: Interaction) -> Panel | None:
        """The panel this tap's answer goes to: the tap's own message when it was on the panel;
        the player's panel when it served this same turn and its token still lives (the second
        card from the table updates the panel the first made); None for a new panel."""
        if in_place(interaction):
            return Panel(interaction)
        if interaction.type != discord.InteractionType.component:
            return None
        seat = table.seat_of(interaction.user.id)
        known = self._panels.get((table.id, interaction.user.id))
        if seat is None or known is None:
            return None
        panel, turn, since = known
        game = table.game
        fresh = time.monotonic() - since < PANEL_LIFETIME.total_seconds()
        return panel if fresh and game.current == seat and game.turn_token(seat) == turn else None

    def remember_panel(self, table: Table, panel: Panel) -> None:
        """`panel` is now the player's panel, for the turn in progress."""
        seat = table.seat_of(panel.interaction.user.id)
        if seat is None:
            return
        key = (table.id, panel.interaction.user.id)
        known = self._panels.get(key)
        # The token's life runs from its interaction: an edit through it does not renew it.
        since = known[2] if known is not None and known[0].interaction is panel.interaction else time.monotonic()
        self._panels[key] = (panel, table.game.turn_token(seat), since)


def hand_view(seen: dict) -> dict:
    """What a hand image shows of a seat's view (its cards, tickets and their progress by its own
    routes and the rival routes its stations may borrow, trains, stations, money): an equal hand is
    the same image, whatever else changed."""
    seat = seen["you"]["seat"]
    me = seen["players"][seat]
    you = {key: value for key, value in seen["you"].items() if key in ("seat", "hand", "tickets", "money")}
    return {
        "you": you,
        "claims": {track: s for track, s in seen["claims"].items() if s == seat or seat in seen["stations"].values()},
        "stations": {city: s for city, s in seen["stations"].items() if s == seat},  # what its stations borrow
        "players": [
            {"trains": me["trains"], "stations_left": me.get("stations_left")} if s == seat else {}
            for s in range(len(seen["players"]))
        ],
    }
