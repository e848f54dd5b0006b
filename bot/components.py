"""Buttons and selects that survive restarts: discord.py DynamicItems whose custom_id carries
the game id and, for decisions, the decision token the engine gave that seat's pending choice.

A click on a resolved decision is refused politely by the service (stale token). Nothing is kept
in memory between clicks, so a restarted bot handles old buttons exactly like new ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import ButtonStyle, Interaction

from bot.present import CARD_EMOJI, ticket_text
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

if TYPE_CHECKING:
    from bot.client import TTRBot

GAME = r"ttr:(?P<game>[0-9]+)"
DECISION = GAME + r":(?P<token>[0-9]+)"


def _bot(interaction: Interaction) -> "TTRBot":
    return interaction.client  # type: ignore[return-value]


class Guarded:
    """Every button and select: an unexpected error becomes a short apology with an error id for
    the user and a traceback in the log, as for slash commands."""

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self.run(interaction)  # type: ignore[attr-defined]
        except Exception as exc:
            await _bot(interaction).apologize(interaction, exc, what=type(self).__name__)


class DrawCardButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=DECISION + r":draw:(?P<slot>[0-4]|deck)"):
    def __init__(self, game_id: int, token: int, slot: str, *, label: str = "Deck", disabled: bool = False,
                 emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, emoji=emoji, disabled=disabled,
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
    def __init__(self, game_id: int, token: int, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label="Tickets", emoji="🎟️", style=ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"ttr:{game_id}:{token}:tickets"))
        self.game_id, self.token = game_id, token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).turns.perform(interaction, self.game_id, DrawTickets(), token=self.token)


class KeepTicketsSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select], template=DECISION + r":keep"):
    def __init__(self, game_id: int, token: int, options: list[discord.SelectOption] | None = None,
                 keep: int = 1) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(
            custom_id=f"ttr:{game_id}:{token}:keep", options=options, min_values=min(keep, len(options)),
            max_values=len(options), placeholder=f"Keep at least {keep}",
        ))
        self.game_id, self.token = game_id, token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]))

    async def run(self, interaction: Interaction) -> None:
        ids = tuple(sorted(int(v) for v in self.item.values))
        await _bot(interaction).turns.perform(interaction, self.game_id, KeepTickets(ids), token=self.token)


class TunnelButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=DECISION + r":tunnel:(?P<choice>decline|[0-9])"):
    def __init__(self, game_id: int, token: int, choice: str, *, label: str = "Decline") -> None:
        style = ButtonStyle.danger if choice == "decline" else ButtonStyle.success
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"ttr:{game_id}:{token}:tunnel:{choice}"))
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

    def __init__(self, game_id: int, token: int, choice: Action | str, *, label: str = "Choose") -> None:
        text = choice if isinstance(choice, str) else encode_choice(choice)
        custom_id = f"ttr:{game_id}:{token}:do:{text}"
        if len(custom_id) > 100:
            raise ValueError(f"custom id too long: {custom_id}")
        super().__init__(discord.ui.Button(label=label[:80], style=ButtonStyle.primary, custom_id=custom_id))
        self.game_id, self.token, self.text = game_id, token, text

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["token"]), match["text"])

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).turns.perform(interaction, self.game_id, decode_choice(self.text), token=self.token)


class UndoButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=GAME + r":(?P<ply>[0-9]+):undo"):
    """On a turn message: the player who just moved asks to take it back."""

    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(discord.ui.Button(label="Undo", emoji="↩️", style=ButtonStyle.secondary,
                                           custom_id=f"ttr:{game_id}:{ply}:undo"))
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["ply"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).undos.request(interaction, self.game_id, self.ply)


class UndoVoteButton(Guarded, discord.ui.DynamicItem[discord.ui.Button],
                     template=GAME + r":(?P<ply>[0-9]+):undo:(?P<vote>yes|no)"):
    def __init__(self, game_id: int, ply: int, vote: str) -> None:
        label, style = ("Agree", ButtonStyle.success) if vote == "yes" else ("Refuse", ButtonStyle.danger)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"ttr:{game_id}:{ply}:undo:{vote}"))
        self.game_id, self.ply, self.vote = game_id, ply, vote

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["ply"]), match["vote"])

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).undos.vote(interaction, self.game_id, self.ply, self.vote == "yes")


class MyHandButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=GAME + r":hand"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="My hand", emoji="🃏", style=ButtonStyle.secondary,
                                           custom_id=f"ttr:{game_id}:hand"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).turns.show_hand(interaction, self.game_id)


class RematchButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=GAME + r":rematch"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", emoji="🔁", style=ButtonStyle.success,
                                           custom_id=f"ttr:{game_id}:rematch"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        await _bot(interaction).lobbies.rematch(interaction, self.game_id)


class LobbyButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"ttr:lobby:(?P<lobby>[0-9]+):(?P<what>join|leave|start)"):
    LABELS = {"join": ("Join", ButtonStyle.success), "leave": ("Leave", ButtonStyle.secondary),
              "start": ("Start", ButtonStyle.primary)}

    def __init__(self, lobby_id: int, what: str) -> None:
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"ttr:lobby:{lobby_id}:{what}"))
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


def draw_buttons(game_id: int, game: Game, seat: int) -> list[discord.ui.Item]:
    """Market and deck buttons for `seat`'s draw, with the second-card rule on the buttons."""
    token = game.decision_token(seat)
    items: list[discord.ui.Item] = []
    for slot, card in enumerate(game.market):
        name = CARD_NAMES[card] if card >= 0 else None
        items.append(DrawCardButton(
            game_id, token, str(slot), label=name or "empty", emoji=CARD_EMOJI.get(name or ""),
            disabled=not game.is_legal(seat, DrawMarket(slot)),  # e.g. no face-up loco as a second card
        ))
    items.append(DrawCardButton(game_id, token, "deck", label=f"Deck ({len(game.deck) + len(game.discard)})",
                                disabled=not (game.deck or game.discard)))
    return items


def turn_view(game_id: int, game: Game) -> discord.ui.View:
    """Components of the channel's turn message: the current player's draw, tickets, and My hand."""
    view = discord.ui.View(timeout=None)
    if game.phase == "playing" and game.stage is None:
        for item in draw_buttons(game_id, game, game.current):
            view.add_item(item)
        view.add_item(DrawTicketsButton(game_id, game.decision_token(game.current),
                                        disabled=not game.ticket_deck and not game.ticket_discard))
    view.add_item(MyHandButton(game_id))
    if game.undoable and game.phase == "playing":
        view.add_item(UndoButton(game_id, len(game.log)))
    return view


def undo_vote_view(game_id: int, ply: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoVoteButton(game_id, ply, "yes"))
    view.add_item(UndoVoteButton(game_id, ply, "no"))
    return view


def second_card_view(game_id: int, game: Game, seat: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in draw_buttons(game_id, game, seat):
        view.add_item(item)
    return view


def tickets_view(game_id: int, game: Game, seat: int) -> discord.ui.View:
    m = game.map
    options = []
    for ticket_id in sorted(game.offers[seat]):
        options.append(discord.SelectOption(label=ticket_text(m, ticket_id)[:100], value=str(ticket_id),
                                            description="long route" if m.ticket_by_id[ticket_id].long else None))
    view = discord.ui.View(timeout=None)
    view.add_item(KeepTicketsSelect(game_id, game.decision_token(seat), options, game.offer_keep[seat]))
    return view


def tunnel_view(game_id: int, game: Game, seat: int) -> discord.ui.View:
    from engine.payments import surcharge_options

    tunnel = game.tunnel
    token = game.decision_token(seat)
    view = discord.ui.View(timeout=None)
    for locos in surcharge_options(game.hands[seat], tunnel["surcharge"], tunnel["color"])[:4]:
        colored = tunnel["surcharge"] - locos
        parts = ([f"{colored} {CARD_NAMES[tunnel['color']]}"] if colored else []) + ([f"{locos} loco"] if locos else [])
        view.add_item(TunnelButton(game_id, token, str(locos), label="Pay " + " + ".join(parts)))
    view.add_item(TunnelButton(game_id, token, "decline", label="Decline"))
    return view


def hook_choice_view(game_id: int, game: Game, seat: int) -> discord.ui.View:
    """Buttons for a map hook's decision (Nederland: which track the neutral player takes)."""
    from engine import format_action
    from engine.notation import route_label

    view = discord.ui.View(timeout=None)
    token = game.decision_token(seat)
    for action in game.legal_actions(seat)[:20]:
        label = format_action(game, action)
        track = getattr(action, "track", None)
        if track is not None:
            t = game.map.track_by_id[track]
            label = f"{route_label(game.map, t)} ({'gray' if t.color is None else CARD_NAMES[t.color]})"
        view.add_item(ChoiceButton(game_id, token, action, label=label))
    return view


def lobby_view(lobby_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in ("join", "leave", "start"):
        view.add_item(LobbyButton(lobby_id, what))
    return view


def final_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view
