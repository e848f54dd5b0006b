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
from collections.abc import Iterable

import discord
from discord import ButtonStyle, Interaction

from bot import metrics
from bot.errors import ButtonNotValid
from bot.web.links import LAUNCH, launch_button, offers_the_map, page_button
from engine import Action, BuildStation, Claim, DrawDeck, DrawMarket, DrawTickets, Game, NeutralClaim
from engine.actions import Move
from engine.cards import ALL_CARD_NAMES, CARD_NAMES
from engine.errors import TemplateError
from engine.phases import TICKETS as TICKET_STAGE
from engine.phases import TUNNEL as TUNNEL_STAGE
from i18n import Translator
from texts.present import (
    CARD_EMOJI,
    claim_payment_label,
    payment_text,
    route_choice_label,
    route_color,
    route_name,
    ticket_text,
    toll_note,
)

#: custom_id templates (regular expressions) of every component, by what a click does.
GAME = r"ttr:(?P<game>[0-9]+)"
#: A decision's token (`Game.decision_token`): stale once that decision is resolved.
DECISION = GAME + r":(?P<token>[0-9]+)"
#: A turn's token (`Game.turn_token`): good for every step of the turn it was offered in.
TURN = GAME + r":(?P<turn>[0-9]+)"
#: A draw names the face-up card it showed, so a market that changed under it is not drawn blind.
DRAW = TURN + r":draw:(?P<slot>[0-4]|deck)(?::(?P<card>[0-9]{1,2}))?"
TICKETS = TURN + r":tickets"
#: The claim and station menus: a page of routes (cities) the hand pays for, and the select in it.
ROUTES = TURN + r":routes:(?P<page>[0-9]+)"
ROUTE = TURN + r":route"
CITIES = TURN + r":cities:(?P<page>[0-9]+)"
CITY = TURN + r":city"
#: Märklin: the ticket mix named (how many long), the passengers menu, a passenger's city picked,
#: its destination picked, and a claim's passenger end (a city id, or none) after the route.
MIX = DECISION + r":mix:(?P<long>[0-9])"  # a decision: the starting mix has no turn
MIXES = TURN + r":mixes"
PASSENGERS = TURN + r":passengers"
PASSENGER = TURN + r":passenger"
TRIP = TURN + r":trip:(?P<start>[a-z0-9_]+)"
END = TURN + r":end:(?P<track>[^:]+):(?P<city>[a-z0-9_]*)"
KEEP = DECISION + r":keep"
TUNNEL = DECISION + r":tunnel:(?P<choice>decline|[0-9])"
CHOICE = DECISION + r":do:(?P<text>.+)"
UNDO = GAME + r":(?P<ply>[0-9]+):undo"
UNDO_VOTE = GAME + r":(?P<ply>[0-9]+):undo:(?P<vote>yes|no)"
HAND = GAME + r":hand"
REMATCH = GAME + r":rematch"
LOBBY = r"ttr:lobby:(?P<lobby>[0-9]+):(?P<what>join|leave|start)"
#: A host's confirmation of a kick: the seat and the user it held when asked.
#: "ai": an AI keeps the seat warm instead (storage/stand_ins.py).
KICK = GAME + r":kick:(?P<seat>[0-9]+):(?P<user>[0-9]+):(?P<answer>yes|no|ai)"
#: A seat's player taking it back from the AI that kept it warm.
SEAT_BACK = GAME + r":back:(?P<seat>[0-9]+)"
#: A tournament's sign-up post (bot/cogs/tournaments.py).
TOURNAMENT = r"ttr:tournament:(?P<tournament>[0-9]+):(?P<what>join|leave)"
#: A server manager's confirmation of a league's deletion.
LEAGUE_DELETE = r"ttr:league:(?P<league>[0-9]+):delete:(?P<answer>yes|no)"
KNOWN = (
    LAUNCH,  # **Open the map** as the Activity's launch (bot/web/links.py)
    DRAW,
    TICKETS,
    ROUTES,
    ROUTE,
    CITIES,
    CITY,
    KEEP,
    TUNNEL,
    CHOICE,
    UNDO,
    UNDO_VOTE,
    HAND,
    REMATCH,
    LOBBY,
    KICK,
    SEAT_BACK,
    TOURNAMENT,
    LEAGUE_DELETE,
    MIX,
    MIXES,
    PASSENGERS,
    PASSENGER,
    TRIP,
    END,
)
#: Any other custom id (an old release's, a forged one): refused, not ignored. Every component the
#: bot sends is one of the templates above, so this never shadows a live one.
UNKNOWN = r"(?s)(?!(?:" + "|".join(re.sub(r"\(\?P<\w+>", "(?:", k) for k in KNOWN) + r")\Z).*"  # (?s), \Z: "\n" too

#: Discord's limits on component texts, and on a message's content.
BUTTON_LABEL, OPTION_TEXT, PLACEHOLDER, CUSTOM_ID = 80, 100, 150, 100
MESSAGE_CONTENT = 2000


def fit(text: str | None, limit: int) -> str | None:
    """A text cut to one of Discord's limits (names and translations may run long)."""
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


class Guarded:
    """Mixed into every DynamicItem, as `tree.on_error` is for slash commands: what its custom id
    names is checked against where it was clicked (`bot.authorize`), a refusal is worded for the
    user, an unexpected error becomes a short apology with an error id and a traceback in the log;
    `run` does the work."""

    async def callback(self, interaction: Interaction) -> None:
        try:
            with metrics.interaction(interaction):
                # What the custom id names must live where it was clicked (bot/permissions.py).
                await interaction.client.authorize(interaction, getattr(self, "fields", {}))  # type: ignore[attr-defined]
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

    @property
    def values(self) -> list[str]:
        """A select's picked values; a button sent with a select's custom id, or a pick of nothing,
        names no choice (refused)."""
        values = getattr(self.item, "values", None)
        if not isinstance(values, list) or not values:
            raise ButtonNotValid()
        return values


class UnknownComponent(Clicked, discord.ui.DynamicItem[discord.ui.Item], template=UNKNOWN):
    """A click on a component no controller knows: a short private "no longer valid"."""

    async def run(self, interaction: Interaction) -> None:
        raise ButtonNotValid()


def button(
    custom_id: str,
    label: str | None,
    *,
    style: ButtonStyle = ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
) -> discord.ui.Button:
    if len(custom_id) > CUSTOM_ID:
        raise ValueError(f"custom id too long: {custom_id}")
    return discord.ui.Button(
        label=fit(label, BUTTON_LABEL), style=style, emoji=emoji, disabled=disabled, custom_id=custom_id
    )


def encode_choice(action: Action) -> str:
    """An action short enough for a custom id (100 characters): claims by track id and card
    indices ('C|track|color|locos|subs', with '|city' for a Märklin passenger), anything else in
    the engine's notation."""
    if isinstance(action, Claim):
        color = "" if action.color is None else str(action.color)
        text = f"C|{action.track}|{color}|{action.locos}|{''.join(map(str, action.subs))}"
        return text if action.passenger is None else f"{text}|{action.passenger}"
    if isinstance(action, NeutralClaim):
        return f"N|{action.track}"
    if isinstance(action, BuildStation):
        return f"S|{action.city}|{'' if action.color is None else action.color}|{action.locos}"
    raise TypeError(f"no short form for {action!r}")


def decode_choice(text: str) -> Action | str:
    """The action a choice button carries. It can only be what choices are offered for — a claim,
    a station, the neutral player's track, a way to pay for a typed claim or station — never another action
    (a forged `…:do:resign` is refused, not played)."""
    parts = text.split("|")
    try:
        if parts[0] == "C" and len(parts) in (5, 6):
            return Claim(
                parts[1],
                int(parts[2]) if parts[2] else None,
                int(parts[3]),
                tuple(int(c) for c in parts[4]),
                parts[5] if len(parts) == 6 else None,
            )
        if parts[0] == "N" and len(parts) == 2:
            return NeutralClaim(parts[1])
        if parts[0] == "S" and len(parts) == 4:
            return BuildStation(parts[1], int(parts[2]) if parts[2] else None, int(parts[3]))
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


def seat_back_view(game_id: int, seat: int, *, t: Translator) -> discord.ui.View:
    """The button that gives a seat back to its player (only they may use it)."""
    return layout([button(f"ttr:{game_id}:back:{seat}", t.pgettext("button", "Take my seat back"), emoji="🪑")])


def layout(items: Iterable[discord.ui.Item]) -> discord.ui.View:
    """A message's components as a view discord.py does not listen on (stopped at once).

    A click reaches the DynamicItem whose template matches its custom id (the cogs register them),
    so a listening view would do nothing for it, yet discord.py would keep it, and its buttons, in
    its view store for good (timeout=None): one view for every message ever sent (issue 23)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def draw_buttons(game_id: int, game: Game, seat: int, *, t: Translator) -> list[discord.ui.Item]:
    """Market and deck buttons for `seat`'s draws this turn (first or second card: one message
    serves both), each enabled only when that draw is legal for `seat` now."""
    turn = game.turn_token(seat)
    items: list[discord.ui.Item] = []
    for slot, card in enumerate(game.market):
        items.append(
            button(
                f"ttr:{game_id}:{turn}:draw:{slot}:{card}" if card >= 0 else f"ttr:{game_id}:{turn}:draw:{slot}",
                t.card(card) if card >= 0 else t.pgettext("market", "empty"),
                emoji=CARD_EMOJI[ALL_CARD_NAMES[card]] if card >= 0 else None,
                disabled=not game.is_legal(seat, DrawMarket(slot)),  # e.g. no face-up loco as a second card
            )
        )
    items.append(
        button(
            f"ttr:{game_id}:{turn}:draw:deck",
            t.pgettext("button", "Deck ({n})", n=len(game.deck) + len(game.discard)),
            style=ButtonStyle.primary,
            disabled=not game.is_legal(seat, DrawDeck()),
        )
    )
    return items


def move_buttons(game_id: int, game: Game, seat: int, *, t: Translator) -> list[discord.ui.Item]:
    """Claim, Tickets and (on maps with stations) Station: what `seat` may start a turn with
    besides drawing cards. Claim and Station open a menu of what the hand pays for."""
    turn = game.turn_token(seat)
    starting = game.phase == "playing" and game.current == seat and game.stage is None
    marklin = is_marklin(game)
    items: list[discord.ui.Item] = [
        button(
            f"ttr:{game_id}:{turn}:routes:0",
            t.pgettext("button", "Claim"),
            emoji="🛤️",
            style=ButtonStyle.success,
            disabled=not starting,
        ),
        button(
            f"ttr:{game_id}:{turn}:{'mixes' if marklin else 'tickets'}",
            t.pgettext("button", "Tickets"),
            emoji="🎟️",
            disabled=not (
                starting and (bool(ticket_mixes(game, seat)) if marklin else game.is_legal(seat, DrawTickets()))
            ),
        ),
    ]
    if game.map.rules.stations:
        items.append(
            button(
                f"ttr:{game_id}:{turn}:cities:0",
                t.pgettext("button", "Station"),
                emoji="🏠",
                disabled=not (starting and game.stations_left[seat] > 0),
            )
        )
    if marklin:
        items.append(
            button(
                f"ttr:{game_id}:{turn}:passengers",
                t.pgettext("button", "Passenger"),
                emoji="🧳",
                disabled=not (starting and bool(game.hooks.placed[seat])),
            )
        )
    return items


def is_marklin(game: Game) -> bool:
    return "marklin" in game.map.rules.hooks


def ticket_mixes(game: Game, seat: int) -> list[DrawTickets]:
    """Märklin: the ticket mixes `seat` may name now (at the start or as a turn)."""
    if game.phase == "choosing":
        return list(game.hooks.choosing_actions(game, seat)) if game.hooks.choosing(game, seat) else []
    return [DrawTickets(k) for k in range(game.hooks.ticket_rules["draw"] + 1) if game.is_legal(seat, DrawTickets(k))]


def ticket_mix_text(t: Translator, game: Game, seat: int) -> str:
    """What the mix buttons ask (docs/rules.md §8.3)."""
    rules = game.hooks.ticket_rules
    start = game.phase == "choosing"
    return "🎟️ " + t.gettext(
        "**Name your ticket mix:** how many of the {n} tickets you draw come from the long deck "
        "(the others are short); you keep at least {keep}. Left: {short} short, {long} long.",
        n=rules["start_draw" if start else "draw"],
        keep=rules["start_keep" if start else "draw_keep"],
        short=len(game.hooks.short),
        long=len(game.hooks.long),
    )


def ticket_mix_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View | None:
    """Märklin: one button per ticket mix ('1 long + 3 short')."""
    token = game.decision_token(seat)
    count = game.hooks.ticket_rules["start_draw" if game.phase == "choosing" else "draw"]
    mixes = ticket_mixes(game, seat)
    if not mixes:
        return None
    return layout(
        [
            button(
                f"ttr:{game_id}:{token}:mix:{a.long}",
                t.gettext("{long} long + {short} short", long=a.long, short=max(0, count - a.long)),
                style=ButtonStyle.primary,
            )
            for a in mixes
        ]
    )


def passenger_menu(
    game_id: int, game: Game, seat: int, moves: list[Move], start: str | None, *, t: Translator
) -> tuple[str, discord.ui.View | None]:
    """Märklin's passenger move: a select of the cities where the seat's passengers wait, then
    (`start` picked, or only one city) a select of where that passenger can go, each with the
    token points it collects and the passenger cards it costs (the engine's best path to it)."""
    m = game.map
    starts = list(dict.fromkeys(a.path[0] for a in moves))
    if not starts:
        return "🧳 " + t.gettext("None of your passengers can travel now."), None
    turn = game.turn_token(seat)
    if start is None and len(starts) > 1:
        select = discord.ui.Select(
            custom_id=f"ttr:{game_id}:{turn}:passenger",
            placeholder=fit(t.gettext("Pick a passenger"), PLACEHOLDER),
            options=[discord.SelectOption(label=fit(t.city(m.city_by_id[c]), OPTION_TEXT), value=c) for c in starts],
        )
        return "🧳 " + t.gettext("Which passenger travels?"), layout([select])
    start = start if start in starts else starts[0]
    stacks = game.hooks.public_view(game)["merchandise"]

    def points(path) -> int:
        return sum((stacks.get(c, {}).get("stack") or [0])[0] for c in dict.fromkeys(path))

    trips = sorted((a for a in moves if a.path[0] == start), key=lambda a: (-points(a.path), a.cards))[:SELECT_OPTIONS]
    select = discord.ui.Select(
        custom_id=f"ttr:{game_id}:{turn}:trip:{start}",
        placeholder=fit(t.gettext("Pick where the passenger goes"), PLACEHOLDER),
        options=[
            discord.SelectOption(
                label=fit(
                    t.gettext("→ {city} · +{points}", city=t.city(m.city_by_id[a.path[-1]]), points=points(a.path)),
                    OPTION_TEXT,
                ),
                value=a.path[-1],
                description=fit(
                    " → ".join(t.city(m.city_by_id[c]) for c in a.path)
                    + " · "
                    + t.ngettext("{n} passenger card", "{n} passenger cards", a.cards),
                    OPTION_TEXT,
                ),
            )
            for a in trips
        ],
    )
    return "🧳 " + t.gettext(
        "Where does the passenger from {city} go? It takes the top token of every city on the way.",
        city=t.city(m.city_by_id[start]),
    ), layout([select])


def passenger_end_view(game_id: int, game: Game, seat: int, claims: list[Claim], *, t: Translator) -> discord.ui.View:
    """Märklin, after the route: put a passenger on one of its German cities, or none."""
    turn = game.turn_token(seat)
    track = claims[0].track
    ends = list(dict.fromkeys(c.passenger for c in claims if c.passenger))
    items = [button(f"ttr:{game_id}:{turn}:end:{track}:", t.gettext("No passenger"))]
    items += [
        button(
            f"ttr:{game_id}:{turn}:end:{track}:{city}",
            t.city(game.map.city_by_id[city]),
            emoji="🧳",
            style=ButtonStyle.primary,
        )
        for city in ends
    ]
    return layout(items)


def _rows(*rows: list[discord.ui.Item]) -> discord.ui.View:
    """A view with each list on its own row (Discord: 5 items a row, 5 rows)."""
    for number, items in enumerate(r for r in rows if r):
        for item in items:
            item.row = number
    return layout(item for items in rows for item in items)


def table_view(game_id: int, game: Game, *, t: Translator) -> discord.ui.View:
    """The live controls of a game's table message in the channel: the current player's draws
    and moves (anyone may tap; the service refuses others with the reason), My hand, Undo, and
    Open the map when the table is an Activity."""
    playing = game.phase == "playing"
    seat = game.current
    extra = [button(f"ttr:{game_id}:hand", t.pgettext("button", "My hand"), emoji="🃏")]
    if game.undoable and playing:
        extra.append(button(f"ttr:{game_id}:{game.version}:undo", t.pgettext("button", "Undo"), emoji="↩️"))
    if (launch := launch_button(game_id, t=t)) is not None:  # anyone in the channel may open the map
        extra.append(launch)
    if not playing:
        return _rows(extra)
    draws = draw_buttons(game_id, game, seat, t=t)
    return _rows(draws[:-1], [draws[-1], *move_buttons(game_id, game, seat, t=t), *extra[:1]], extra[1:])


@offers_the_map  # bot/web/links.py: the web table's link for the seat, when it is on
def panel_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View | None:
    """The controls of a player's private panel: their pending decision (tickets, tunnel, the
    neutral player), else on their turn the same draws and moves as the table; None off turn."""
    if game.phase == "choosing" and game.offers[seat]:
        return tickets_view(game_id, game, seat, t=t)
    if game.phase == "choosing" and game.hooks.choosing(game, seat):  # Märklin: name the mix first
        return ticket_mix_view(game_id, game, seat, t=t)
    if game.phase != "playing" or game.current != seat:
        return None
    if game.stage == TICKET_STAGE:
        return tickets_view(game_id, game, seat, t=t)
    if game.stage == TUNNEL_STAGE:
        return tunnel_view(game_id, game, seat, t=t)
    if game.stage in game.hooks.stages:
        return hook_choice_view(game_id, game, seat, t=t)
    draws = draw_buttons(game_id, game, seat, t=t)
    return _rows(draws[:-1], [draws[-1], *move_buttons(game_id, game, seat, t=t)])


def undo_vote_view(game_id: int, ply: int, *, t: Translator) -> discord.ui.View:
    return layout(
        [
            button(f"ttr:{game_id}:{ply}:undo:yes", t.pgettext("button", "Agree"), style=ButtonStyle.success),
            button(f"ttr:{game_id}:{ply}:undo:no", t.pgettext("button", "Refuse"), style=ButtonStyle.danger),
        ]
    )


def tickets_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View | None:
    """The offer's select (keep at least N); on Märklin before the offer, the mix buttons."""
    if not game.offers[seat] and game.hooks.choosing(game, seat):
        return ticket_mix_view(game_id, game, seat, t=t)
    m = game.map
    options = [
        discord.SelectOption(
            label=fit(ticket_text(t, m, ticket_id), OPTION_TEXT),
            value=str(ticket_id),
            description=t.gettext("long route") if m.ticket_by_id[ticket_id].long else None,
        )
        for ticket_id in sorted(game.offers[seat])
    ]
    keep = game.offer_keep[seat]
    return layout(
        [
            discord.ui.Select(
                custom_id=f"ttr:{game_id}:{game.decision_token(seat)}:keep",
                options=options,
                min_values=min(keep, len(options)),
                max_values=len(options),
                placeholder=fit(t.gettext("Keep at least {n}", n=keep), PLACEHOLDER),
            )
        ]
    )


def tunnel_view(game_id: int, game: Game, seat: int, *, t: Translator) -> discord.ui.View:
    from engine.payments import surcharge_options

    tunnel = game.tunnel
    token = game.decision_token(seat)
    items = [
        button(
            f"ttr:{game_id}:{token}:tunnel:{locos}",
            t.gettext("Pay {cards}", cards=payment_text(t, tunnel["color"], locos, tunnel["surcharge"])),
            style=ButtonStyle.success,
        )
        for locos in surcharge_options(game.hands[seat], tunnel["surcharge"], tunnel["color"])[:4]
    ]
    items.append(
        button(f"ttr:{game_id}:{token}:tunnel:decline", t.pgettext("button", "Decline"), style=ButtonStyle.danger)
    )
    return layout(items)


#: Options a select holds (Discord's limit): a longer menu is paged.
SELECT_OPTIONS = 25


def _page(items: list, page: int) -> tuple[list, int, int]:
    """The items of one page, the page (clamped) and how many pages there are."""
    pages = max(1, -(-len(items) // SELECT_OPTIONS))
    page = min(max(page, 0), pages - 1)
    return items[page * SELECT_OPTIONS : (page + 1) * SELECT_OPTIONS], page, pages


def _pager(game_id: int, turn: int, what: str, page: int, pages: int, *, t: Translator) -> list[discord.ui.Item]:
    if pages < 2:
        return []
    # Ids stay distinct at either end (a disabled button names its own page).
    return [
        button(
            f"ttr:{game_id}:{turn}:{what}:{max(page - 1, 0)}",
            t.pgettext("button", "Previous"),
            emoji="◀️",
            disabled=page == 0,
        ),
        button(
            f"ttr:{game_id}:{turn}:{what}:{min(page + 1, pages - 1)}",
            t.pgettext("button", "More"),
            emoji="▶️",
            disabled=page == pages - 1,
        ),
    ]


def claim_menu(
    game_id: int, game: Game, seat: int, claims: list[Claim], planned: set[str], page: int, *, t: Translator
) -> tuple[str, discord.ui.View | None]:
    """The claim menu: the routes the hand pays for now (one option a route), those on the seat's
    ticket plan first (⭐), longest next; paged past 25. Off turn, the same list as text, to plan."""
    by_track: dict[str, list[Claim]] = {}
    for claim in claims:
        by_track.setdefault(claim.track, []).append(claim)
    m = game.map
    order = sorted(
        by_track, key=lambda tid: (tid not in planned, -m.track_by_id[tid].length, route_name(t, m, m.track_by_id[tid]))
    )
    if not order:
        return "🛤️ " + t.gettext("Your hand pays for no route now."), None
    shown, page, pages = _page(order, page)

    def label(tid: str) -> str:
        return ("⭐ " if tid in planned else "") + route_choice_label(t, m, m.track_by_id[tid])

    my_turn = game.phase == "playing" and game.current == seat and game.stage is None
    head = t.ngettext("Your hand pays for {n} route", "Your hand pays for {n} routes", len(order))
    if planned.intersection(order):
        head += " " + t.gettext("(⭐ on your tickets)")
    if pages > 1:
        head += " · " + t.gettext("page {page} of {pages}", page=page + 1, pages=pages)
    if not my_turn:
        lines = [label(tid) for tid in shown]
        return fit(
            "🛤️ " + t.gettext("Not your turn. {list}", list=t.gettext("{what}:", what=head)) + "\n" + "\n".join(lines),
            MESSAGE_CONTENT,
        ), None
    turn = game.turn_token(seat)
    select = discord.ui.Select(
        custom_id=f"ttr:{game_id}:{turn}:route",
        placeholder=fit(t.gettext("Pick a route to claim"), PLACEHOLDER),
        options=[
            discord.SelectOption(
                label=fit(label(tid), OPTION_TEXT),
                value=tid,
                description=fit(
                    " · ".join(
                        filter(
                            None,
                            (
                                " / ".join(claim_payment_label(t, game, claim) for claim in by_track[tid]),
                                toll_note(t, game, m.track_by_id[tid], seat),
                            ),
                        )
                    ),
                    OPTION_TEXT,
                ),
            )
            for tid in shown
        ],
    )
    return "🛤️ " + t.gettext("{what}:", what=head), _rows([select], _pager(game_id, turn, "routes", page, pages, t=t))


def station_menu(
    game_id: int, game: Game, seat: int, builds: list[BuildStation], wanted: set[str], page: int, *, t: Translator
) -> tuple[str, discord.ui.View | None]:
    """The station menu: the cities a station may be built in now, those on the seat's open
    tickets first (⭐); paged past 25."""
    m = game.map
    cities = sorted({b.city for b in builds}, key=lambda cid: (cid not in wanted, t.city(m.city_by_id[cid])))
    if not cities:
        return "🏠 " + t.gettext("You cannot build a station now."), None
    shown, page, pages = _page(cities, page)
    cost = m.rules.station_costs[len(game.stations[seat])]
    head = t.ngettext("Build a station for {n} card", "Build a station for {n} cards", cost)
    if pages > 1:
        head += " · " + t.gettext("page {page} of {pages}", page=page + 1, pages=pages)
    turn = game.turn_token(seat)
    select = discord.ui.Select(
        custom_id=f"ttr:{game_id}:{turn}:city",
        placeholder=fit(t.gettext("Pick a city"), PLACEHOLDER),
        options=[
            discord.SelectOption(
                label=fit(("⭐ " if cid in wanted else "") + t.city(m.city_by_id[cid]), OPTION_TEXT), value=cid
            )
            for cid in shown
        ],
    )
    return "🏠 " + t.gettext("{what}:", what=head), _rows([select], _pager(game_id, turn, "cities", page, pages, t=t))


def payment_view(game_id: int, game: Game, seat: int, actions: list, *, t: Translator) -> discord.ui.View:
    """One button per way to pay for the chosen route or station."""
    token = game.decision_token(seat)
    items = []
    for action in actions[:20]:
        if isinstance(action, BuildStation):
            cost = game.map.rules.station_costs[len(game.stations[seat])]
            label = payment_text(t, action.color, action.locos, cost)
        else:
            label = claim_payment_label(t, game, action)
            if action.passenger:
                label += " · 🧳 " + t.city(game.map.city_by_id[action.passenger])
        items.append(choice_button(game_id, token, action, label=label))
    return layout(items)


def color_choice_view(
    game_id: int, game: Game, seat: int, text: str, colors: list[str], *, t: Translator
) -> discord.ui.View:
    """One button per color that can pay for the typed action (`text` in notation, e.g. a station);
    a choice too long for a button is left out (the message names them all)."""
    token = game.decision_token(seat)
    items = []
    for color in colors[:20]:
        try:
            items.append(
                choice_button(
                    game_id,
                    token,
                    f"{text} {color}",
                    label=t.gettext("Pay with {card}", card=t.card(CARD_NAMES.index(color))),
                )
            )
        except ValueError:
            continue
    return layout(items)


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
    return layout(items)


def lobby_view(lobby_id: int, *, t: Translator) -> discord.ui.View:
    labels = {
        "join": t.pgettext("button", "Join"),
        "leave": t.pgettext("button", "Leave"),
        "start": t.pgettext("button", "Start"),
    }
    styles = {"join": ButtonStyle.success, "leave": ButtonStyle.secondary, "start": ButtonStyle.primary}
    return layout([button(f"ttr:lobby:{lobby_id}:{what}", label, style=styles[what]) for what, label in labels.items()])


def final_view(game_id: int, *, t: Translator) -> discord.ui.View:
    """Rematch, and the game's replay on the map when the web table is on (bot/web/pages.py)."""
    rematch = button(f"ttr:{game_id}:rematch", t.pgettext("button", "Rematch"), emoji="🔁", style=ButtonStyle.success)
    replay = page_button("r", game_id, t.pgettext("button", "Replay on the map"))
    return layout([rematch] if replay is None else [rematch, replay])
