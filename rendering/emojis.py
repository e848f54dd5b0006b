"""Train card icons for the bot's own Discord emojis: in text, a card shows as a small card drawn
as on the hand image instead of a colored square (`texts.present.CARD_EMOJI`)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from rendering.cards import card
from rendering.draw import encode

#: Discord shows emojis from a 128 x 128 picture.
ICON = 128


def card_icon(name: str) -> bytes:
    """The image file of a card's emoji (a card name of `engine.cards.ALL_CARD_NAMES`, or "gray"
    for a gray route): the card upright on a transparent square."""
    img = Image.new("RGBA", (ICON, ICON), (0, 0, 0, 0))
    card(ImageDraw.Draw(img), (18, 4, 109, 123), name, radius=14)
    return encode(img)
