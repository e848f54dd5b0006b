"""What every message the bot posts for a game needs: whom it may ping, whether its follow-ups
may carry files, an image as an attachment, and the nonce of an outbox row's message."""

from __future__ import annotations

import io

import discord
from discord import Interaction

from bot.service import Table
from rendering import RenderedImage
from storage.announcements import nonce
from storage.models import Announcement


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Who a message may ping: exactly these users; never everyone, here or a role."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids if u]
    )


def files_allowed(interaction: Interaction) -> bool:
    """Whether the follow-ups of `interaction` may carry files: in a server channel they need the
    bot's own Attach Files (Discord's 2023-11-01 change); in a DM they always may."""
    return not interaction.guild_id or interaction.app_permissions.attach_files


def as_file(image: RenderedImage, stem: str) -> discord.File:
    """An image as an attachment named `stem` and its format's extension ("board.webp"), its alt
    text as the description (Discord's limit: 1,024)."""
    return discord.File(io.BytesIO(image.data), filename=image.filename(stem), description=image.alt_text[:1024])


def row_nonce(row: Announcement | None, part: int) -> str | None:
    """The Discord nonce of a message posted for an outbox row (None outside the outbox)."""
    return nonce(row, part) if row is not None else None


def channel_mention(table: Table) -> str:
    """The game's channel as Discord markup (shown as a link in DMs)."""
    return f"<#{table.record.channel_id}>"
