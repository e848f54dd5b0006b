"""Discord's Components V2 cards: the table message and the private panel as one container, tinted
with a player's color, holding the text, the pictures (a media gallery each, full width on a
phone) and the buttons. The builders in bot/components.py keep making plain views of buttons and
selects; this module lays them out, so every message with game controls reads the same way.

Discord's rules for such a message (its "Components V2" reference): no content or embeds, at most
40 components counting nested ones, at most 4,000 characters of text in all, and the flag cannot
be taken off a message again; so a message that is edited in place (a panel) is a card from the
first time it is sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import discord

#: Discord's limits on a Components V2 message.
TEXT_TOTAL = 4000
#: Buttons in an action row (a select fills one alone).
ROW_WIDTH = 5


def card(
    texts: Sequence[str],
    *,
    images: Iterable[discord.File] = (),
    controls: discord.ui.View | None = None,
    accent: int | None = None,
    after: Sequence[str] = (),
) -> discord.ui.LayoutView:
    """One container: `texts`, then each image full width, then the `after` texts (whose turn it
    is, under the board), then the controls' rows. Texts are cut to fit Discord's 4,000
    characters: the `after` texts kept whole, then the first ones as long as possible."""
    late = fitted([text for text in after if text])
    head = fitted([text for text in texts if text], TEXT_TOTAL - sum(map(len, late)))
    galleries = [
        discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{f.filename}", description=f.description))
        for f in images
    ]
    container = discord.ui.Container(
        *map(discord.ui.TextDisplay, head),
        *galleries,
        *map(discord.ui.TextDisplay, late),
        *rows(controls),
        accent_colour=accent,
    )
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()  # its buttons are DynamicItems the cogs handle (bot/components.py `layout`)
    return view


def fitted(texts: Sequence[str], left: int = TEXT_TOTAL) -> list[str]:
    """The texts, the last ones shortened (with an ellipsis) or dropped so that all fit in
    `left` characters."""
    kept: list[str] = []
    for text in texts:
        if left <= 1:
            break
        kept.append(text if len(text) <= left else text[: left - 1] + "…")
        left -= len(kept[-1])
    return kept


def rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow]:
    """A view's items as action rows: the rows it numbered, in order, then the others five
    buttons (or one select) a row, as discord.py would have placed them."""
    if view is None:
        return []
    items = list(view.children)
    numbered = sorted({item.row for item in items if item.row is not None})
    grouped = [[item for item in items if item.row == number] for number in numbered]
    free: list[list[discord.ui.Item]] = []
    for item in (item for item in items if item.row is None):
        if not free or sum(i.width for i in free[-1]) + item.width > ROW_WIDTH:
            free.append([])
        free[-1].append(item)
    return [discord.ui.ActionRow(*group) for group in grouped + free if group]


def without_controls(message: discord.Message, controls: discord.ui.View | None = None) -> discord.ui.LayoutView:
    """A card as it was posted (its texts and pictures, as Discord gave them back), with
    `controls` in place of its buttons: none once it is no longer the live table."""
    view = discord.ui.LayoutView.from_message(message, timeout=None)
    view.stop()
    names = {a.id: a.filename for a in message.attachments}
    for gallery in (item for item in view.walk_children() if isinstance(item, discord.ui.MediaGallery)):
        for picture in gallery.items:
            # Its own attachment by name: the message keeps it, and a signed CDN link would expire.
            name = names.get(picture.media.attachment_id or 0)
            if name is not None:
                picture.media = f"attachment://{name}"
    for container in [item for item in view.children if isinstance(item, discord.ui.Container)]:
        for row in [child for child in container.children if isinstance(child, discord.ui.ActionRow)]:
            container.remove_item(row)
        for row in rows(controls):
            container.add_item(row)
    for row in [item for item in view.children if isinstance(item, discord.ui.ActionRow)]:
        view.remove_item(row)
    return view


def custom_ids(components: Iterable[object]) -> list[str]:
    """The custom ids of a message's (or a view's) components, nested ones included."""
    return [getattr(c, "custom_id", None) or "" for c in walk(components) if getattr(c, "custom_id", None)]


def walk(components: Iterable[object]) -> Iterator[object]:
    """Every component, the ones inside rows, sections and containers too, in order."""
    for component in components:
        yield component
        yield from walk(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory
