"""Buttons and selects that survive restarts: discord.py DynamicItems whose custom_id carries
the game id and, for decisions, the decision token the engine gave that seat's pending choice.

A click on a resolved decision is refused politely by the service (stale token). Nothing is kept
in memory between clicks, so a restarted bot handles old buttons exactly like new ones.

Items carry mechanics; the view builders below word their labels with the reader's `Translator`
(`t`, required): the channel's for a channel message, the player's in a DM or an ephemeral reply.
An item rebuilt from a click's custom id has no label: nobody sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import ButtonStyle, Interaction

from bot.present import (
    CARD_EMOJI,
    claim_payment_label,
    payment_text,
    route_color,
    route_name,
    ticket_text,
)
from engine import (
    Action,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Game,
    KeepTickets,
    NeutralClaim,
    PayTunnel,
)
from engine.cards import CARD_NAMES
from i18n import Translator

if TYPE_CHECKING:
    from bot.client import TTRBot

GAME = r"ttr:(?P<game>[0-9]+)"
DECISION = GAME + r":(?P<token>[0-9]+)"


#: Discord's limits on component texts.
BUTTON_LABEL, OPTION_TEXT, PLACEHOLDER = 80, 100, 150


def _bot(interaction: Interaction) -> "TTRBot":
    return interaction.client  # type: ignore[return-value]


def fit(text: str | None, limit: int) -> str | None:
    """A text cut to one of Discord's limits (names and translations may run long)."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit - 1] + "…"


class Guarded:
    """Every button and select: an unexpected error becomes a short apology with an error id for
    the user and a traceback in the log, as for slash commands."""

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self.run(interaction)  # type: ignore[attr-defined]
        except Exception as exc:
            await _bot(interaction).apologize(interaction, exc, what=type(self).__name__)


class DrawCardButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=DECISION + r":draw:(?P<slot>[0-4]|deck)"):
    def __init__(self, game_id: int, token: int, slot: str, *, label: str | None = None, disabled: bool = False,
                 emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=fit(label, BUTTON_LABEL), emoji=emoji, disabled=disabled,
            style=ButtonStyle.primary if slot == "deck" else ButtonStyle.secondary,
            custom_id=f"ttr:{game_id}:{token}:draw:{slot}",
        ))
        self.game_id, self.token, self.slot = game_id, token, slot

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]), match["slot"])

    async def run(self, interaction: Interaction) -> None:
        action = DrawDeck() if self.slot == "deck" else DrawMarket(int(self.slot))
        await _bot(interaction).turns.perform(interaction, self.game_id, action, token=self.token)


class DrawTicketsButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=DECISION + r":tickets"):
    def __init__(self, game_id: int, token: int, *, label: str | None = None, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), emoji="🎟️", style=ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"ttr:{game_id}:{token}:tickets"))
        self.game_id, self.token = game_id, token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).turns.perform(interaction, self.game_id, DrawTickets(), token=self.token)


class KeepTicketsSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select], template=DECISION + r":keep"):
    def __init__(self, game_id: int, token: int, options: list[discord.SelectOption] | None = None,
                 keep: int = 1, *, placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(
            custom_id=f"ttr:{game_id}:{token}:keep", options=options, min_values=min(keep, len(options)),
            max_values=len(options), placeholder=fit(placeholder, PLACEHOLDER),
        ))
        self.game_id, self.token = game_id, token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]))

    async def run(self, interaction: Interaction) -> None:
        ids = tuple(sorted(int(v) for v in self.item.values))
        await _bot(interaction).turns.perform(interaction, self.game_id, KeepTickets(ids), token=self.token)


class TunnelButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=DECISION + r":tunnel:(?P<choice>decline|[0-9])"):
    def __init__(self, game_id: int, token: int, choice: str, *, label: str | None = None) -> None:
        style = ButtonStyle.danger if choice == "decline" else ButtonStyle.success
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), style=style, custom_id=f"ttr:{game_id}:{token}:tunnel:{choice}"))
        self.game_id, self.token, self.choice = game_id, token, choice

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]), match["choice"])

    async def run(self, interaction: Interaction) -> None:
        action = DeclineTunnel() if self.choice == "decline" else PayTunnel(int(self.choice))
        await _bot(interaction).turns.perform(interaction, self.game_id, action, token=self.token)


def encode_choice(action: Action) -> str:
    """An action short enough for a custom id (100 characters): claims by track id and card
    indices ('C|track|color|locos|subs'), anything else in the engine's notation."""
    if isinstance(action, Claim):
        color = "" if action.color is None else str(action.color)
        return f"C|{action.track}|{color}|{action.locos}|{''.join(map(str, action.subs))}"
    if isinstance(action, NeutralClaim):
        return f"N|{action.track}"
    raise TypeError(f"no short form for {action!r}")


def decode_choice(text: str) -> Action | str:
    parts = text.split("|")
    if parts[0] == "C" and len(parts) == 5:
        return Claim(parts[1], int(parts[2]) if parts[2] else None, int(parts[3]), tuple(int(c) for c in parts[4]))
    if parts[0] == "N" and len(parts) == 2:
        return NeutralClaim(parts[1])
    return text  # notation (e.g. a payment choice for a station)


class ChoiceButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=DECISION + r":do:(?P<text>.+)"):
    """One of several actions offered for a decision (which cards pay, which track the neutral
    player takes); carries the action (`encode_choice`, or notation)."""

    def __init__(self, game_id: int, token: int, choice: Action | str, *, label: str | None = None) -> None:
        text = choice if isinstance(choice, str) else encode_choice(choice)
        custom_id = f"ttr:{game_id}:{token}:do:{text}"
        if len(custom_id) > 100:
            raise ValueError(f"custom id too long: {custom_id}")
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), style=ButtonStyle.primary, custom_id=custom_id))
        self.game_id, self.token, self.text = game_id, token, text

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]), match["text"])

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).turns.perform(interaction, self.game_id, decode_choice(self.text), token=self.token)


class UndoButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=GAME + r":(?P<ply>[0-9]+):undo"):
    """On a turn message: the player who just moved asks to take it back."""

    def __init__(self, game_id: int, ply: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), emoji="↩️", style=ButtonStyle.secondary,
                                           custom_id=f"ttr:{game_id}:{ply}:undo"))
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["ply"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).undos.request(interaction, self.game_id, self.ply)


class UndoVoteButton(Guarded, discord.ui.DynamicItem[discord.ui.Button],
                     template=GAME + r":(?P<ply>[0-9]+):undo:(?P<vote>yes|no)"):
    def __init__(self, game_id: int, ply: int, vote: str, *, label: str | None = None) -> None:
        style = ButtonStyle.success if vote == "yes" else ButtonStyle.danger
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), style=style, custom_id=f"ttr:{game_id}:{ply}:undo:{vote}"))
        self.game_id, self.ply, self.vote = game_id, ply, vote

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["ply"]), match["vote"])

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).undos.vote(interaction, self.game_id, self.ply, self.vote == "yes")


class MyHandButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=GAME + r":hand"):
    def __init__(self, game_id: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), emoji="🃏", style=ButtonStyle.secondary,
                                           custom_id=f"ttr:{game_id}:hand"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).turns.show_hand(interaction, self.game_id)


class RematchButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=GAME + r":rematch"):
    def __init__(self, game_id: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), emoji="🔁", style=ButtonStyle.success,
                                           custom_id=f"ttr:{game_id}:rematch"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).lobbies.rematch(interaction, self.game_id)


class LobbyButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"ttr:lobby:(?P<lobby>[0-9]+):(?P<what>join|leave|start)"):
    STYLES = {"join": ButtonStyle.success, "leave": ButtonStyle.secondary, "start": ButtonStyle.primary}

    def __init__(self, lobby_id: int, what: str, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, BUTTON_LABEL), style=self.STYLES[what], custom_id=f"ttr:lobby:{lobby_id}:{what}"))
        self.lobby_id, self.what = lobby_id, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["lobby"]), match["what"])

    async def run(self, interaction: Interaction) -> None:
        lobbies = _bot(interaction).lobbies
        await {"join": lobbies.join, "leave": lobbies.leave, "start": lobbies.start}[self.what](
            interaction, lobby_id=self.lobby_id)


DYNAMIC_ITEMS = (DrawCardButton, DrawTicketsButton, KeepTicketsSelect, TunnelButton, ChoiceButton,
                 MyHandButton, RematchButton, LobbyButton, UndoButton, UndoVoteButton)


# ---------------------------------------------------------------------------- views


def _view(items) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def draw_buttons(game_id: int, game: Game, seat: int, *, t: Translator) -> list[discord.ui.Item]:
    """Market and deck buttons for `seat`'s draw, with the second-card rule on the buttons."""
    token = game.decision_token(seat)
    items: list[discord.ui.Item] = []
    for slot, card in enumerate(game.market):
        items.append(DrawCardButton(
            game_id, token, str(slot), label=t.card(card) if card >= 0 else t.pgettext("market", "empty"),
            emoji=CARD_EMOJI[CARD_NAMES[card]] if card >= 0 else None,
            disabled=not game.is_legal(seat, DrawMarket(slot)),  # e.g. no face-up loco as a second card
        ))
    items.append(DrawCardButton(game_id, token, "deck",
                                label=t.pgettext("button", "Deck ({n})", n=len(game.deck) + len(game.discard)),
                                disabled=not (game.deck or game.discard)))
    return items


def turn_view(game_id: int, game: Game, *, t: Translator) -> discord.ui.View:
    """Components of the channel's turn message: the current player's draw, tickets, and My hand."""
    items: list[discord.ui.Item] = []
    if game.phase == "playing" and game.stage is None:
        items += draw_buttons(game_id, game, game.current, t=t)
        items.append(DrawTicketsButton(game_id, game.decision_token(game.current), label=t.pgettext("button", "Tickets"),
                                       disabled=not game.ticket_deck and not game.ticket_discard))
    items.append(MyHandButton(game_id, label=t.pgettext("button", "My hand")))
    if game.undoable and game.phase == "playing":
        items.append(UndoButton(game_id, len(game.log), label=t.pgettext("button", "Undo")))
    return _view(items)


def undo_vote_view(game_id: int, ply: int, *, t: Translator) -> discord.ui.View:
    return _view([UndoVoteButton(game_id, ply, "yes", label=t.pgettext("button", "Agree")),
                  UndoVoteButton(game_id, ply, "no", label=t.pgettext("button", "Refuse"))])


def second_card_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    return _view(draw_buttons(game_id, game, seat, t=t))


def tickets_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    m = game.map
    options = [discord.SelectOption(label=fit(ticket_text(t, m, ticket_id), OPTION_TEXT), value=str(ticket_id),
                                    description=t.gettext("long route") if m.ticket_by_id[ticket_id].long else None)
               for ticket_id in sorted(game.offers[seat])]
    keep = game.offer_keep[seat]
    return _view([KeepTicketsSelect(game_id, game.decision_token(seat), options, keep,
                                    placeholder=t.gettext("Keep at least {n}", n=keep))])


def tunnel_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    from engine.payments import surcharge_options

    tunnel = game.tunnel
    token = game.decision_token(seat)
    items = [TunnelButton(game_id, token, str(locos), label=t.gettext(
                 "Pay {cards}", cards=payment_text(t, tunnel["color"], locos, tunnel["surcharge"])))
             for locos in surcharge_options(game.hands[seat], tunnel["surcharge"], tunnel["color"])[:4]]
    items.append(TunnelButton(game_id, token, "decline", label=t.pgettext("button", "Decline")))
    return _view(items)


def claim_choice_view(game_id: int, game: Game, seat: int, claims: list, *, t: Translator) -> discord.ui.View:
    """One button per way to pay for a route (`/ttr claim` left the payment open)."""
    token = game.decision_token(seat)
    return _view([ChoiceButton(game_id, token, claim, label=claim_payment_label(t, game, claim)) for claim in claims[:20]])


def color_choice_view(game_id: int, game: Game, seat: int, text: str, colors: list[str], *,
                      t: Translator) -> discord.ui.View:
    """One button per color that can pay for the typed action (`text` in notation, e.g. a station);
    a choice too long for a button is left out (the message names them all)."""
    token = game.decision_token(seat)
    items = []
    for color in colors[:20]:
        try:
            items.append(ChoiceButton(game_id, token, f"{text} {color}",
                                      label=t.gettext("Pay with {card}", card=t.card(CARD_NAMES.index(color)))))
        except ValueError:
            continue
    return _view(items)


def hook_choice_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    """Buttons for a map hook's decision (Nederland: which track the neutral player takes)."""
    from engine import format_action

    token = game.decision_token(seat)
    items = []
    for action in game.legal_actions(seat)[:20]:
        track = getattr(action, "track", None)
        if track is None:
            label = format_action(game, action)
        else:
            track = game.map.track_by_id[track]
            label = f"{route_name(t, game.map, track)} ({route_color(t, track)})"
        items.append(ChoiceButton(game_id, token, action, label=label))
    return _view(items)


def lobby_view(lobby_id: int, *, t: Translator) -> discord.ui.View:
    labels = {"join": t.pgettext("button", "Join"), "leave": t.pgettext("button", "Leave"),
              "start": t.pgettext("button", "Start")}
    return _view([LobbyButton(lobby_id, what, label=label) for what, label in labels.items()])


def final_view(game_id: int, *, t: Translator) -> discord.ui.View:
    return _view([RematchButton(game_id, label=t.pgettext("button", "Rematch"))])
