"""What every player hears after a change of a game: the one listener that announces outcomes.

The channel first (one message per finished turn, with the turn's whole account; one when the
first turn starts), then DMs for decisions that wait on someone, then the actor's private reply:
when the reply arrives, everything is posted. Each outcome's cause adds its own line (a deadline
ran out, a move was taken back), so no other module writes to a turn's account.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from discord import Interaction

from bot import components
from bot.command_translator import slash
from bot.messenger import TableMessenger
from bot.service import CauseKind, Outcome, Table, new_error_id
from engine.events import SeatLeft
from engine.game import SECOND_CARD, TICKETS, TUNNEL
from i18n import Translator
from texts.present import describe, drawn, merge_turn, private_summary

log = logging.getLogger(__name__)


@dataclass
class TurnAccount:
    """The public account of the turn in progress, posted when the turn ends: lines in the
    channel's language, and the cards drawn (a face-up card's index, None from the deck)."""

    notes: list[str] = field(default_factory=list)
    draws: list[int | None] = field(default_factory=list)


class Announcer:
    def __init__(self, messenger: TableMessenger) -> None:
        self.messenger = messenger
        self._accounts: dict[int, TurnAccount] = {}

    async def on_outcome(self, outcome: Outcome) -> None:
        interaction = outcome.cause.interaction
        try:
            if outcome.cause.kind == CauseKind.START:
                await self.messenger.game_started(outcome.table)
            elif outcome.cause.kind == CauseKind.ADMIN:
                await self._ended(outcome)
            else:
                await self._announce(outcome)
        except Exception:
            if interaction is None:
                raise
            error_id = new_error_id()
            log.exception("publishing failed", extra={"error_id": error_id, "game_id": outcome.table.id})
            t = await self.messenger.languages.for_interaction(interaction)
            await interaction.followup.send("😓 " + t.gettext(
                "Your move is saved, but I couldn't post about it (error id `{error_id}`). `{board}` shows the "
                "game.", error_id=error_id, board=slash(t, "ttr board")), ephemeral=True)

    async def _announce(self, outcome: Outcome) -> None:
        m = self.messenger
        table, game, seat, cause = outcome.table, outcome.table.game, outcome.seat, outcome.cause
        interaction: Interaction | None = cause.interaction
        await m.load_names(table)
        t = await m.channel_t(table)
        names = lambda s: m.name(table, s, t)  # noqa: E731
        account = self._accounts.setdefault(table.id, TurnAccount())
        if cause.kind == CauseKind.TIMEOUT and cause.first:
            account.notes.append(self._timeout_note(t, table, cause.seat, cause.policy, cause.missed))
        elif cause.kind == CauseKind.UNDO:
            account.notes, account.draws = ["↩️ " + t.gettext("**{name}**'s last move was taken back.",
                                                              name=names(outcome.seat))], []
        account.notes.extend(describe(t, game, outcome.events, names))
        account.draws.extend(drawn(outcome.events))
        if outcome.turn_ended:
            acting = seat if seat is not None else game.current
            if outcome.phase_before == "choosing":  # the first turn: only say who ran out of time
                summary = "\n".join(note for note in account.notes if note.startswith("⏰"))
            else:
                summary = merge_turn(t, account.notes, account.draws, acting, names)
            del self._accounts[table.id]
            await m.post_turn(table, summary, interaction=interaction)
        elif any(isinstance(e, SeatLeft) for e in outcome.events):  # someone left out of turn
            channel = await m.channel(table)
            if channel is not None:
                await channel.send("\n".join(account.notes[-1:]))
                account.notes = account.notes[:-1]
        if game.phase == "playing" and game.stage in game.hooks.stages and (game.current != seat or interaction is None):
            mine = await m.seat_t(table, game.current)
            await m.dm(table, game.current, m.hook_text(mine), t=mine,
                       view=components.hook_choice_view(table.id, game, game.current, t=mine))
        if interaction is not None:
            await self._private_next_step(interaction, table, seat)

    def _timeout_note(self, t: Translator, table: Table, seat: int, policy: str, missed: int) -> str:
        """The line a deadline adds to the turn's account: who ran out of time, and what followed."""
        name = self.messenger.name(table, seat, t)
        if policy == "remove":
            return "⏰ " + t.ngettext("**{name}** missed {n} deadline in a row and is removed.",
                                     "**{name}** missed {n} deadlines in a row and is removed.", missed, name=name)
        if policy == "ai":
            return "⏰ " + t.gettext("**{name}** ran out of time: an AI plays this turn.", name=name)
        return "⏰ " + t.gettext("**{name}** ran out of time.", name=name)

    async def _ended(self, outcome: Outcome) -> None:
        """An admin ended the game: said publicly, in the server's language."""
        interaction = outcome.cause.interaction
        self._accounts.pop(outcome.table.id, None)
        public = await self.messenger.channel_t(outcome.table)
        user = f"<@{outcome.cause.user_id}>"
        text = public.gettext("🛑 {user} ended the game. No scores were recorded. Start a new one with `{new}`.",
                              user=user, new=slash(public, "ttr new"))
        if interaction is not None:
            await interaction.response.send_message(text)
        else:
            channel = await self.messenger.channel(outcome.table)
            if channel is not None:
                await channel.send(text)

    async def _private_next_step(self, interaction: Interaction, table: Table, seat: int | None) -> None:
        """The actor's private reply (and DM) after their action: what they must do next, or their hand."""
        m = self.messenger
        game = table.game
        t = await m.languages.for_interaction(interaction)  # the actor's language, DMs included
        if seat is None:
            await interaction.followup.send(t.gettext("Done."), ephemeral=True)
            return
        if game.phase == "choosing":
            waiting = [m.name(table, s, t) for s in game.to_move()]
            text = t.ngettext("You kept {n} ticket. Waiting for {players}.", "You kept {n} tickets. Waiting for {players}.",
                              len(game.tickets[seat]), players=t.join(waiting))
            await interaction.followup.send(text, ephemeral=True)
            return
        my_turn = game.phase == "playing" and game.current == seat
        if my_turn and game.stage == SECOND_CARD:
            await interaction.followup.send(
                f"{private_summary(t, game, seat)}\n\n" + t.gettext("**Draw your second card** (not a face-up locomotive):"),
                view=components.second_card_view(table.id, game, seat, t=t), ephemeral=True)
            return
        if my_turn and game.stage == TICKETS:
            await m.dm(table, seat, m.tickets_text(t, table, seat), t=t,
                       view=components.tickets_view(table.id, game, seat, t=t),
                       files=await m.private_files(table, seat, hand=False, offer=True, t=t))
            await m.send_ticket_choice(interaction, t, table, seat)
            return
        if my_turn and game.stage == TUNNEL:
            text = m.tunnel_text(t, table, seat)
            await m.dm(table, seat, text, t=t, view=components.tunnel_view(table.id, game, seat, t=t))
            await interaction.followup.send(text, view=components.tunnel_view(table.id, game, seat, t=t), ephemeral=True)
            return
        if my_turn and game.stage in game.hooks.stages:
            text = m.hook_text(t)
            await m.dm(table, seat, text, t=t, view=components.hook_choice_view(table.id, game, seat, t=t))
            await interaction.followup.send(text, view=components.hook_choice_view(table.id, game, seat, t=t),
                                            ephemeral=True)
            return
        summary = private_summary(t, game, seat) if game.phase != "over" else t.gettext("The game is over.")
        if game.phase == "playing":
            await m.dm(table, seat, summary, t=t, files=await m.private_files(table, seat, t=t))
        await interaction.followup.send("✅ " + t.gettext("Done.") + f"\n{summary}", ephemeral=True)
