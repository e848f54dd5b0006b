"""What a message's buttons and selects look like, and the custom ids they carry.

Every button and select survives restarts: its custom_id carries the game id and, for decisions,
the decision token the engine gave that seat's pending choice (the templates below). The cogs own
what a click does: each registers discord.py DynamicItems with these templates (bot/cogs/), so a
restarted bot handles old buttons exactly like new ones, and a click on a resolved decision is
refused by the service (stale token).

The builders word their labels with the reader's `Translator` (`t`, required): the channel's for a
channel message, the player's in a DM or an ephemeral reply.
"""

from __future__ import annotations

import re

import discord
from discord import ButtonStyle, Interaction

from bot import metrics
from bot.errors import ButtonNotValid
from engine import Action, Claim, DrawMarket, Game, NeutralClaim
from engine.cards import CARD_NAMES
from engine.errors import TemplateError
from i18n import Translator
from texts.present import CARD_EMOJI, claim_payment_label, payment_text, route_color, route_name, ticket_text

#: custom_id templates (regular expressions) of every component, by what a click does.
GAME = r"ttr:(?P<game>[0-9]+)"
DECISION = GAME + r":(?P<token>[0-9]+)"
DRAW = DECISION + r":draw:(?P<slot>[0-4]|deck)"
TICKETS = DECISION + r":tickets"
KEEP = DECISION + r":keep"
TUNNEL = DECISION + r":tunnel:(?P<choice>decline|[0-9])"
CHOICE = DECISION + r":do:(?P<text>.+)"
UNDO = GAME + r":(?P<ply>[0-9]+):undo"
UNDO_VOTE = GAME + r":(?P<ply>[0-9]+):undo:(?P<vote>yes|no)"
HAND = GAME + r":hand"
REMATCH = GAME + r":rematch"
LOBBY = r"ttr:lobby:(?P<lobby>[0-9]+):(?P<what>join|leave|start)"
KNOWN = (DRAW, TICKETS, KEEP, TUNNEL, CHOICE, UNDO, UNDO_VOTE, HAND, REMATCH, LOBBY)
#: Any other custom id (an old release's, a forged one): refused, not ignored. Every component the
#: bot sends is one of the templates above, so this never shadows a live one.
UNKNOWN = r"(?!(?:" + "|".join(re.sub(r"\(\?P<\w+>", "(?:", k) for k in KNOWN) + r")$).*"

#: Discord's limits on component texts, and on a message's content.
BUTTON_LABEL, OPTION_TEXT, PLACEHOLDER, CUSTOM_ID = 80, 100, 150, 100
MESSAGE_CONTENT = 2000


def fit(text: str | None, limit: int) -> str | None:
    """A text cut to one of Discord's limits (names and translations may run long)."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit - 1] + "…"


class Guarded:
    """Mixed into every DynamicItem, as `tree.on_error` is for slash commands: a refusal is worded
    for the user, an unexpected error becomes a short apology with an error id and a traceback in
    the log; `run` does the work."""

    async def callback(self, interaction: Interaction) -> None:
        try:
            with metrics.interaction(interaction):
                await self.run(interaction)  # type: ignore[attr-defined]
        except TemplateError as exc:
            await interaction.client.refuse(interaction, exc)  # type: ignore[attr-defined]
        except Exception as exc:
            await interaction.client.apologize(interaction, exc, what=type(self).__name__)  # type: ignore[attr-defined]


class Clicked(Guarded):
    """Mixed into a DynamicItem before it: the fields its custom id carries (its template's named
    groups, `fields`), read again from the id of whatever message was clicked."""

    def __init__(self, item: discord.ui.Item, fields: dict[str, str]) -> None:
        super().__init__(item)  # type: ignore[call-arg]
        self.fields = fields

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item, match.groupdict())

    def number(self, name: str) -> int:
        return int(self.fields[name])


class UnknownComponent(Clicked, discord.ui.DynamicItem[discord.ui.Item], template=UNKNOWN):
    """A click on a component no controller knows: a short private "no longer valid"."""

    async def run(self, interaction: Interaction) -> None:
        raise ButtonNotValid()


def button(custom_id: str, label: str | None, *, style: ButtonStyle = ButtonStyle.secondary,
           emoji: str | None = None, disabled: bool = False) -> discord.ui.Button:
    if len(custom_id) > CUSTOM_ID:
        raise ValueError(f"custom id too long: {custom_id}")
    return discord.ui.Button(label=fit(label, BUTTON_LABEL), style=style, emoji=emoji, disabled=disabled,
                             custom_id=custom_id)


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
    """The action a choice button carries. It can only be what choices are offered for — a claim,
    the neutral player's track, a way to pay for a typed claim or station — never another action
    (a forged `…:do:resign` is refused, not played)."""
    parts = text.split("|")
    try:
        if parts[0] == "C" and len(parts) == 5:
            return Claim(parts[1], int(parts[2]) if parts[2] else None, int(parts[3]),
                         tuple(int(c) for c in parts[4]))
        if parts[0] == "N" and len(parts) == 2:
            return NeutralClaim(parts[1])
    except ValueError:
        raise ButtonNotValid() from None
    if text.startswith(("claim ", "station ")):
        return text  # notation: a payment chosen for a typed claim or station
    raise ButtonNotValid()


def choice_button(game_id: int, token: int, choice: Action | str, *, label: str | None) -> discord.ui.Button:
    """One of several actions offered for a decision (which cards pay, which track the neutral
    player takes); carries the action (`encode_choice`, or notation)."""
    text = choice if isinstance(choice, str) else encode_choice(choice)
    return button(f"ttr:{game_id}:{token}:do:{text}", label, style=ButtonStyle.primary)


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
        items.append(button(
            f"ttr:{game_id}:{token}:draw:{slot}", t.card(card) if card >= 0 else t.pgettext("market", "empty"),
            emoji=CARD_EMOJI[CARD_NAMES[card]] if card >= 0 else None,
            disabled=not game.is_legal(seat, DrawMarket(slot)),  # e.g. no face-up loco as a second card
        ))
    items.append(button(f"ttr:{game_id}:{token}:draw:deck",
                        t.pgettext("button", "Deck ({n})", n=len(game.deck) + len(game.discard)),
                        style=ButtonStyle.primary, disabled=not (game.deck or game.discard)))
    return items


def turn_view(game_id: int, game: Game, *, t: Translator) -> discord.ui.View:
    """Components of the channel's turn message: the current player's draw, tickets, and My hand."""
    items: list[discord.ui.Item] = []
    if game.phase == "playing" and game.stage is None:
        items += draw_buttons(game_id, game, game.current, t=t)
        items.append(button(f"ttr:{game_id}:{game.decision_token(game.current)}:tickets",
                            t.pgettext("button", "Tickets"), emoji="🎟️",
                            disabled=not game.ticket_deck and not game.ticket_discard))
    items.append(button(f"ttr:{game_id}:hand", t.pgettext("button", "My hand"), emoji="🃏"))
    if game.undoable and game.phase == "playing":
        items.append(button(f"ttr:{game_id}:{game.version}:undo", t.pgettext("button", "Undo"), emoji="↩️"))
    return _view(items)


def undo_vote_view(game_id: int, ply: int, *, t: Translator) -> discord.ui.View:
    return _view([button(f"ttr:{game_id}:{ply}:undo:yes", t.pgettext("button", "Agree"), style=ButtonStyle.success),
                  button(f"ttr:{game_id}:{ply}:undo:no", t.pgettext("button", "Refuse"), style=ButtonStyle.danger)])


def second_card_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    return _view(draw_buttons(game_id, game, seat, t=t))


def tickets_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    m = game.map
    options = [discord.SelectOption(label=fit(ticket_text(t, m, ticket_id), OPTION_TEXT), value=str(ticket_id),
                                    description=t.gettext("long route") if m.ticket_by_id[ticket_id].long else None)
               for ticket_id in sorted(game.offers[seat])]
    keep = game.offer_keep[seat]
    return _view([discord.ui.Select(custom_id=f"ttr:{game_id}:{game.decision_token(seat)}:keep", options=options,
                                    min_values=min(keep, len(options)), max_values=len(options),
                                    placeholder=fit(t.gettext("Keep at least {n}", n=keep), PLACEHOLDER))])


def tunnel_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    from engine.payments import surcharge_options

    tunnel = game.tunnel
    token = game.decision_token(seat)
    items = [button(f"ttr:{game_id}:{token}:tunnel:{locos}", t.gettext(
                 "Pay {cards}", cards=payment_text(t, tunnel["color"], locos, tunnel["surcharge"])),
                 style=ButtonStyle.success)
             for locos in surcharge_options(game.hands[seat], tunnel["surcharge"], tunnel["color"])[:4]]
    items.append(button(f"ttr:{game_id}:{token}:tunnel:decline", t.pgettext("button", "Decline"),
                        style=ButtonStyle.danger))
    return _view(items)


def claim_choice_view(game_id: int, game: Game, seat: int, claims: list, *, t: Translator) -> discord.ui.View:
    """One button per way to pay for a route (`/ttr claim` left the payment open)."""
    token = game.decision_token(seat)
    return _view([choice_button(game_id, token, claim, label=claim_payment_label(t, game, claim))
                  for claim in claims[:20]])


def color_choice_view(game_id: int, game: Game, seat: int, text: str, colors: list[str], *,
                      t: Translator) -> discord.ui.View:
    """One button per color that can pay for the typed action (`text` in notation, e.g. a station);
    a choice too long for a button is left out (the message names them all)."""
    token = game.decision_token(seat)
    items = []
    for color in colors[:20]:
        try:
            items.append(choice_button(game_id, token, f"{text} {color}",
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
        items.append(choice_button(game_id, token, action, label=label))
    return _view(items)


def lobby_view(lobby_id: int, *, t: Translator) -> discord.ui.View:
    labels = {"join": t.pgettext("button", "Join"), "leave": t.pgettext("button", "Leave"),
              "start": t.pgettext("button", "Start")}
    styles = {"join": ButtonStyle.success, "leave": ButtonStyle.secondary, "start": ButtonStyle.primary}
    return _view([button(f"ttr:lobby:{lobby_id}:{what}", label, style=styles[what]) for what, label in labels.items()])


def final_view(game_id: int, *, t: Translator) -> discord.ui.View:
    return _view([button(f"ttr:{game_id}:rematch", t.pgettext("button", "Rematch"), emoji="🔁",
                         style=ButtonStyle.success)])
