"""The bot's own emojis for the train cards: Discord's application emojis, made once at start-up.

Text shows a card as a small drawn card (`rendering.emojis.card_icon`) instead of a colored square:
`ensure_card_emojis` fetches the application's emojis, creates the cards' missing ones (only the
process that may: with several processes, the one with shard 0) and hands the markup to the texts
(`texts.present.use_card_emojis`). Any failure keeps the Unicode squares for the cards it missed.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from rendering.emojis import card_icon
from texts.present import UNICODE_CARD_EMOJI, use_card_emojis

log = logging.getLogger(__name__)

#: An emoji's name is this and the card's ("ttr_red"): the application's emojis are shared by
#: every process and release of the bot, and this is how it finds its own.
PREFIX = "ttr_"


async def ensure_card_emojis(client: discord.Client, *, create: bool = True) -> dict[str, str]:
    """The cards' emoji markup by card name, now in use by the texts; never creates an emoji the
    application already has. `create` False: only those that exist (another process makes them)."""
    emojis: dict[str, discord.Emoji] = {}
    try:
        emojis.update((e.name, e) for e in await client.fetch_application_emojis())
        for card in UNICODE_CARD_EMOJI:
            if PREFIX + card not in emojis and create:
                image = await asyncio.to_thread(card_icon, card)
                emojis[PREFIX + card] = await client.create_application_emoji(name=PREFIX + card, image=image)
    except (discord.HTTPException, discord.MissingApplicationID) as exc:
        log.warning("card emojis: %s; the cards without one keep their Unicode marks", exc)
    marks = {card: str(emojis[PREFIX + card]) for card in UNICODE_CARD_EMOJI if PREFIX + card in emojis}
    use_card_emojis(marks)
    return marks
