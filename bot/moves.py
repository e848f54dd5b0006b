"""A move from an interaction: defer, hand it to the service with the player as its cause, and
answer a refusal privately with its real reason. What follows an accepted move (the turn
message, DMs, the private reply) is the announcer's; this module never announces.
"""

from __future__ import annotations

import logging

from discord import Interaction

from bot import components, layouts
from bot.errors import reason
from bot.inbox import Inbox
from bot.messenger import TableMessenger
from bot.service import Cause, CauseKind, GameService, Outcome, new_error_id
from engine import Action, ActionError, AmbiguousActionError, Claim, parse_action
from engine.cards import CARD_NAMES
from engine.errors import TemplateError
from i18n import Translator
from texts.present import route_name

log = logging.getLogger(__name__)


class Moves:
    def __init__(self, service: GameService, messenger: TableMessenger, inbox: Inbox) -> None:
        self.service = service
        self.messenger = messenger
        self.inbox = inbox

    async def perform(
        self,
        interaction: Interaction,
        game_id: int,
        action: Action | str,
        *,
        token: int | None = None,
        turn: int | None = None,
        as_table: bool = False,
        kind: CauseKind = CauseKind.PLAYER,
    ) -> Outcome | None:
        """Apply an action for the interacting user (or, `as_table`, for the table they run). A tap
        on the player's panel updates that panel; any other answer is one new private message."""
        answer, panel = "thinking", None
        if not interaction.response.is_done():
            try:
                peeked = await self.service.peek(game_id)
                target = self.messenger.panel_target(peeked, interaction)
                on_table = self.messenger.tapped_table(peeked, interaction) is not None
            except Exception:
                target, on_table = None, False  # no such game: the service says so below
            # Noted before the defer, so no kill between the two leaves a "thinking…" nobody knows of.
            await self.inbox.acknowledged(interaction, in_place=target is not None or on_table)
            if target is not None or on_table:
                # Nothing new to show here: the answer updates a panel, or comes as a new one; a
                # deferred update lets the tap's own answer edit the table it was on (which
                # Discord's global rate limit does not count, where the bot's edit would).
                answer = "panel" if target is not None and target.interaction is interaction else "followup"
                panel = target if answer == "followup" else None
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        await self.messenger.remember_name(interaction.user)
        t = await self.messenger.languages.for_interaction(interaction)
        cause = Cause(kind, user_id=interaction.user.id, interaction=interaction, answer=answer, panel=panel)
        try:
            return await self.service.act(game_id, action, cause=cause, token=token, turn=turn, as_table=as_table)
        except AmbiguousActionError as exc:
            await self._offer_payments(interaction, t, game_id, exc, action if isinstance(action, str) else None)
        except TemplateError as exc:
            await interaction.followup.send(
                components.fit(f"⚠️ {await self.refusal(t, game_id, exc)}", components.MESSAGE_CONTENT), ephemeral=True
            )
        except Exception:
            error_id = new_error_id()
            log.exception(
                "action failed", extra={"error_id": error_id, "game_id": game_id, "user_id": interaction.user.id}
            )
            await interaction.followup.send(
                "😓 "
                + t.gettext(
                    "Sorry, something went wrong on my side (error id `{error_id}`). Nothing was changed; please try "
                    "again.",
                    error_id=error_id,
                ),
                ephemeral=True,
            )
        await self.inbox.answered(interaction)  # refused (or failed) and told: nothing for a restart to say
        return None

    async def refusal(self, t: Translator, game_id: int | None, exc: TemplateError) -> str:
        """A refusal in the reader's language, seats named by their players (in bold)."""
        try:
            table = await self.service.table(game_id) if game_id is not None else None
        except Exception:
            table = None
        if table is None:
            return reason(t, exc)
        await self.messenger.load_names(table)
        return reason(t, exc, game=table.game, name=lambda seat: f"**{self.messenger.name(table, seat, t)}**")

    async def claim(
        self,
        interaction: Interaction,
        game_id: int,
        route: str,
        tracks: tuple[str, ...],
        color: str | None,
        locos: int | None,
    ) -> None:
        """`/ttr claim`: the typed payment if it is legal; otherwise the legal ways to pay for the
        route's `tracks` (one: taken; several: buttons ask which), so a player never needs the notation."""
        text = " ".join(
            ["claim", route] + ([color] if color else []) + ([f"loco={locos}"] if locos is not None else [])
        )
        table = await self.service.peek(game_id)  # `perform` moves on the stored game
        seat, game = table.seat_of(interaction.user.id), table.game
        if seat is None or game.phase != "playing" or game.current != seat or game.stage is not None:
            await self.perform(interaction, game_id, text)  # the usual, specific refusal
            return
        try:
            action = parse_action(game, seat, text)
        except AmbiguousActionError:
            action = None
        except ActionError:
            await self.perform(interaction, game_id, text)
            return
        if action is not None and game.is_legal(seat, action):
            await self.perform(interaction, game_id, action)
            return
        options = [
            a
            for a in game.legal_actions(seat, collapse_payments=True)
            if isinstance(a, Claim)
            and a.track in tracks
            and (color is None or (CARD_NAMES[a.color] if a.color is not None else "loco") == color)
        ]
        if len(options) == 1:
            await self.perform(interaction, game_id, options[0])
        elif options:
            t = await self.messenger.languages.for_interaction(interaction)
            track = game.map.track_by_id[options[0].track]
            ask = t.gettext("How do you pay for {route}?", route=route_name(t, game.map, track))
            payments = components.payment_view(table.id, game, seat, options, t=t)
            await interaction.response.send_message(view=layouts.card([ask], controls=payments), ephemeral=True)
        else:
            await self.perform(interaction, game_id, action or text)

    async def _offer_payments(
        self, interaction: Interaction, t: Translator, game_id: int, exc: AmbiguousActionError, text: str | None
    ) -> None:
        """Several payments fit: one button per color (fewest locomotives)."""
        table = await self.service.table(game_id)
        seat = table.seat_of(interaction.user.id)
        message = await self.refusal(t, game_id, exc)
        if not text or seat is None:
            await interaction.followup.send(f"⚠️ {message}", ephemeral=True)
            return
        colors = [c for c in exc.details.get("options") or [] if c in CARD_NAMES]
        choices = components.color_choice_view(table.id, table.game, seat, text, colors, t=t)
        await interaction.followup.send(view=layouts.card([message], controls=choices), ephemeral=True)
