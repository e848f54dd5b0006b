"""Moves acknowledged but never saved: a player whose move was "thinking…" when the process died
gets an answer after the restart instead of waiting for ever.

A move is acknowledged (deferred) first, saved next. `Inbox.acknowledged` writes a row just before
the defer (a kill between the two then leaves a row for an interaction that was never
acknowledged: Discord showed "interaction failed", and the row is only forgotten); the move's own transaction deletes it (storage/announcements.py `add_announcement`),
so a saved move leaves no row and its answer is the outbox's. After a restart, `answer_unsaved`
looks at the rows another process left: an interaction still "thinking…" is told "I restarted
before your move was saved; please try again" (its token lives 15 minutes); one answered already
(a refusal, a move that failed) is only forgotten.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from datetime import timedelta

import discord
from discord import Interaction

from bot.language import Languages
from storage import Storage
from storage import announcements as outbox
from storage.models import AcknowledgedMove

log = logging.getLogger(__name__)

#: This process, told apart from an earlier one with the same host and pid (a container restarted).
PROCESS = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


def interaction_webhook(client: discord.Client, application_id: int, token: str) -> discord.Webhook:
    """An interaction's webhook from its stored token, as discord.py's `Interaction.followup` makes
    it: an application webhook, the only kind that may send ephemeral messages."""
    return discord.Webhook.from_state(
        {"id": application_id, "type": 3, "token": token},  # type: ignore[arg-type]
        state=client._connection,
    )


async def thinking(webhook: discord.Webhook) -> bool:
    """Whether the interaction's original response is still "thinking…" (deferred, unanswered);
    False when it was answered, or was never acknowledged (there is nothing to answer then)."""
    try:
        original = await webhook.fetch_message("@original")  # type: ignore[arg-type]
    except discord.HTTPException:
        return False
    return original.flags.loading


async def acknowledged(webhook: discord.Webhook) -> bool:
    """Whether the interaction was acknowledged at all (it has an original response to read)."""
    try:
        await webhook.fetch_message("@original")  # type: ignore[arg-type]
    except discord.HTTPException:
        return False
    return True


async def unanswered_webhook(
    client: discord.Client, application_id: int | None, token: str | None
) -> discord.Webhook | None:
    """The webhook to answer an interaction after a restart, if it still waits for its answer
    (one answered before the crash is not answered again)."""
    if application_id is None or token is None:
        return None
    webhook = interaction_webhook(client, application_id, token)
    return webhook if await thinking(webhook) else None


class Inbox:
    def __init__(
        self, client: discord.Client, storage: Storage, languages: Languages, *, lease: timedelta, identity: str = "all"
    ) -> None:
        self.client, self.storage, self.languages = client, storage, languages
        self.lease = lease  # OUTBOX_LEASE: a live process saves or refuses a move well within it
        #: The process's shards (bot/announcer.py): another run of the same identity is a dead one,
        #: whose unsaved moves are answered at once, not after the lease.
        self.identity = identity

    def _process(self) -> str:
        return f"{self.identity} {PROCESS}"

    async def acknowledged(self, interaction: Interaction, *, in_place: bool = False) -> None:
        """Called just before a move's defer: the move is being made here (`in_place`: its answer
        updates the player's panel; nothing will show "thinking…")."""
        async with self.storage.sessions() as session:
            await outbox.note_acknowledged(
                session=session,
                interaction_token=interaction.token,
                application_id=interaction.application_id,
                guild_id=interaction.guild_id,
                user_id=interaction.user.id,
                received_by=self._process(),
                in_place=in_place,
            )

    async def answered(self, interaction: Interaction) -> None:
        """The move was refused and the player told: a restart has nothing to add."""
        async with self.storage.sessions() as session:
            await outbox.forget_answered(session=session, interaction_token=interaction.token)

    async def answer_unsaved(self, *, shard: tuple[int, int] | None = None) -> int:
        """Answer the moves other processes acknowledged and neither saved nor answered; returns
        how many players were told to try again. Run after the outbox drain (which answers the
        moves that were saved)."""
        told = 0
        while True:
            async with self.storage.sessions() as session:
                rows = await outbox.unsaved_moves(
                    session=session,
                    not_by=self._process(),
                    older_than=self.lease,
                    shard=shard,
                    dead=f"{self.identity} ",
                )
            if not rows:
                return told
            for row in rows:
                told += await self._answer(row)
            async with self.storage.sessions() as session:
                await outbox.forget_acknowledged(session=session, ids=[row.id for row in rows])

    async def _answer(self, row: AcknowledgedMove) -> int:
        try:
            if row.in_place:  # a tap on the panel: no "thinking…" to look for, and no refusal was sent
                webhook = interaction_webhook(self.client, row.application_id, row.interaction_token)
                if not await acknowledged(webhook):  # killed before the defer: Discord said it failed
                    return 0
            else:
                webhook = await unanswered_webhook(self.client, row.application_id, row.interaction_token)
            if webhook is None:
                return 0
            t = await self.languages.for_user(row.user_id, row.guild_id)
            await webhook.send(
                "🔄 " + t.gettext("I restarted before your move was saved; please try again."), ephemeral=True
            )
        except discord.HTTPException:  # the token expired meanwhile: nothing more can be said
            log.warning("an unsaved move could not be answered", exc_info=True, extra={"user_id": row.user_id})
            return 0
        return 1
