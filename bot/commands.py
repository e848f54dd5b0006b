"""The `/ttr` slash commands. Each one only reads options and hands over to the lobby or turn
controllers; rules live in the engine, words in bot.present."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import Interaction, app_commands

from bot import components
from bot.admin import is_manager
from bot.ai_seats import AI_LEVELS
from bot.clocks import TIMERS, timestamp
from bot.present import route_choice_label
from bot.rules_text import rules_summary
from bot.service import Table
from bot.turns import PLAYER_COLORS
from engine import BuildStation, Claim, available_maps, load_map
from engine.cards import COLORS
from engine.mapdata import fold_name
from engine.notation import route_label

if TYPE_CHECKING:
    from bot.client import TTRBot

ttr = app_commands.Group(name="ttr", description="Play Ticket to Ride", guild_only=True)

MAP_CHOICES = [app_commands.Choice(name=load_map(m).name, value=m) for m in available_maps()]
DECK_CHOICES = [
    app_commands.Choice(name=f"{load_map(m).name}: {d.name}", value=f"{m}:{d.id}")
    for m in available_maps() for d in load_map(m).rules.decks.values()
][:25]
COLOR_CHOICES = [app_commands.Choice(name=c, value=c) for c in PLAYER_COLORS]
TIMER_CHOICES = [app_commands.Choice(name=name, value=seconds) for name, seconds in TIMERS.items()]
ABSENCE_CHOICES = [app_commands.Choice(name="skip the turn", value="skip"),
                   app_commands.Choice(name="an AI plays the turn", value="ai"),
                   app_commands.Choice(name="skip, remove after several misses", value="remove")]
CARD_CHOICES = [app_commands.Choice(name=c, value=c) for c in (*COLORS, "loco")]


def _bot(interaction: Interaction) -> "TTRBot":
    return interaction.client  # type: ignore[return-value]


async def _table(interaction: Interaction) -> Table | None:
    """The game of this channel, or a private 'no game here' reply."""
    table = await _bot(interaction).service.table_in_channel(interaction.channel_id)
    if table is None:
        await interaction.response.send_message(
            "There is no game running in this channel. Start one with `/ttr new`.", ephemeral=True)
    return table


async def _act_here(interaction: Interaction, text: str) -> None:
    """Play `text` (engine notation) in this channel's game, or say there is none."""
    table = await _table(interaction)
    if table is not None:
        await _bot(interaction).turns.perform(interaction, table.id, text)


def _seat(table: Table, interaction: Interaction) -> int | None:
    return table.seat_of(interaction.user.id)


# ---------------------------------------------------------------------------- lobby


@ttr.command(name="new", description="Open a new game in this channel (or a new thread)")
@app_commands.describe(map="The board", tickets="Ticket deck (default: the map's base deck)",
                       players="Most players allowed (default: as many as the map allows)",
                       thread="Play in a new thread",
                       tolls="Nederland: play with bridge tolls (default yes)",
                       neutral="Nederland, 2 players: add the neutral player",
                       timer="Time for each turn (play-by-post: 24 hours)",
                       absence="When a turn's time runs out (default: skip it)",
                       remove_after="With absence 'remove': missed turns in a row before removal",
                       reminder_minutes="Remind this many minutes before the deadline (default: a quarter of it)")
@app_commands.choices(map=MAP_CHOICES, tickets=DECK_CHOICES, timer=TIMER_CHOICES, absence=ABSENCE_CHOICES)
async def new(interaction: Interaction, map: app_commands.Choice[str] | None = None,
              tickets: app_commands.Choice[str] | None = None,
              players: app_commands.Range[int, 2, 5] | None = None, thread: bool = False, tolls: bool | None = None,
              neutral: bool | None = None, timer: app_commands.Choice[int] | None = None,
              absence: app_commands.Choice[str] | None = None, remove_after: app_commands.Range[int, 1, 20] = 3,
              reminder_minutes: app_commands.Range[int, 0, 2880] | None = None) -> None:
    deck = None
    map_id = map.value if map else None
    if tickets is not None:
        deck_map, deck = tickets.value.split(":", 1)
        map_id = map_id or deck_map
        if deck_map != map_id:
            await interaction.response.send_message(
                f"That ticket deck belongs to the {load_map(deck_map).name} map, not {load_map(map_id).name}.",
                ephemeral=True)
            return
    variants = {k: v for k, v in (("tolls", tolls), ("neutral", neutral)) if v is not None}
    clock = {}
    if timer is not None and timer.value:
        clock = {"turn_seconds": timer.value, "absence": absence.value if absence else "skip",
                 "remove_after": remove_after}
        if reminder_minutes is not None:
            clock["reminder_seconds"] = min(reminder_minutes * 60, timer.value)
    await _bot(interaction).lobbies.new(interaction, map_id=map_id, deck=deck, players=players, thread=thread,
                                        variants=variants, clock=clock)


@ttr.command(name="join", description="Join the open game in this channel")
@app_commands.describe(color="Your train color")
@app_commands.choices(color=COLOR_CHOICES)
async def join(interaction: Interaction, color: app_commands.Choice[str] | None = None) -> None:
    await _bot(interaction).lobbies.join(interaction, color=color.value if color else None)


@ttr.command(name="leave", description="Leave the open lobby in this channel")
async def leave(interaction: Interaction) -> None:
    await _bot(interaction).lobbies.leave(interaction)


@ttr.command(name="start", description="Start the game (host only)")
@app_commands.describe(first="Who plays first (default: random)", ai_players="AI players to add (solo practice, "
                       "or to fill the table)", ai_level="How strong the AI players are")
@app_commands.choices(ai_level=[app_commands.Choice(name=level, value=level) for level in AI_LEVELS])
async def start(interaction: Interaction, first: discord.User | None = None,
                ai_players: app_commands.Range[int, 0, 4] = 0,
                ai_level: app_commands.Choice[str] | None = None) -> None:
    await _bot(interaction).lobbies.start(interaction, first=first, ai_players=ai_players,
                                          ai_level=ai_level.value if ai_level else "baseline")


@ttr.command(name="cancel", description="Cancel the open lobby (host or server manager)")
async def cancel(interaction: Interaction) -> None:
    await _bot(interaction).lobbies.cancel(interaction)


# ---------------------------------------------------------------------------- play


@ttr.command(name="draw", description="Draw train cards: buttons for the face-up cards and the deck")
async def draw(interaction: Interaction) -> None:
    table = await _table(interaction)
    if table is None:
        return
    seat, game = _seat(table, interaction), table.game
    if seat is None:
        await interaction.response.send_message("You are not playing in this game.", ephemeral=True)
    elif game.phase != "playing" or game.current != seat or game.stage not in (None, "second_card"):
        await interaction.response.send_message(_not_now(table, seat, _bot(interaction)), ephemeral=True)
    else:
        await interaction.response.send_message(
            "Pick a face-up card or the deck:", view=components.second_card_view(table.id, game, seat), ephemeral=True)


def _not_now(table: Table, seat: int, bot: "TTRBot") -> str:
    game = table.game
    if game.phase == "choosing":
        return "Everyone is still choosing starting tickets." + (" Yours: press **My hand**." if game.offers[seat] else "")
    if game.phase == "over":
        return "The game is over."
    if game.current != seat:
        return f"It's {bot.turns.name(table, game.current)}'s turn, not yours."
    return {"tickets": "Choose which tickets to keep first (press **My hand**).",
            "tunnel": "Decide on the tunnel first: pay or decline (press **My hand**).",
            "second_card": "Draw your second card first."}.get(game.stage or "", "Not now.")


@ttr.command(name="claim", description="Claim a route")
@app_commands.describe(route="The route (type to search the routes you can claim now)",
                       color="Card color to pay with (asked only if several fit)",
                       locos="How many locomotives to use (default: as few as needed)")
@app_commands.choices(color=CARD_CHOICES)
async def claim(interaction: Interaction, route: str, color: app_commands.Choice[str] | None = None,
                locos: app_commands.Range[int, 0, 9] | None = None) -> None:
    table = await _table(interaction)
    if table is None:
        return
    await _bot(interaction).turns.claim(interaction, table.id, route, color.value if color else None, locos)


async def _my_legal_actions(interaction: Interaction, kind: type) -> tuple[Table, list] | None:
    """The caller's legal actions of one kind in this channel's game (for autocomplete)."""
    table = await _bot(interaction).service.table_in_channel(interaction.channel_id)
    seat = table.seat_of(interaction.user.id) if table else None
    if table is None or seat is None:
        return None
    return table, [a for a in table.game.legal_actions(seat, collapse_payments=True) if isinstance(a, kind)]


def _matching(options: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """(label, value) pairs whose label contains what was typed (case and accents ignored)."""
    wanted = fold_name(current)
    return [app_commands.Choice(name=label[:100], value=value[:100])
            for label, value in options if wanted in fold_name(label)][:25]


@claim.autocomplete("route")
async def claim_route_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await _my_legal_actions(interaction, Claim)
    if found is None:
        return []
    table, claims = found
    m = table.game.map
    tracks = sorted({m.track_by_id[a.track] for a in claims}, key=lambda t: (m.route_name(t), t.id))
    return _matching([(route_choice_label(m, t), route_label(m, t)) for t in tracks], current)


@ttr.command(name="tickets", description="Draw destination tickets")
async def tickets(interaction: Interaction) -> None:
    await _act_here(interaction, "tickets draw")


@ttr.command(name="station", description="Build a station (Europe)")
@app_commands.describe(city="The city", color="Card color to pay with", locos="How many locomotives to use")
@app_commands.choices(color=CARD_CHOICES)
async def station(interaction: Interaction, city: str, color: app_commands.Choice[str] | None = None,
                  locos: app_commands.Range[int, 0, 3] | None = None) -> None:
    table = await _table(interaction)
    if table is None:
        return
    if not table.game.map.rules.stations:
        await interaction.response.send_message(f"The {table.game.map.name} map has no stations.", ephemeral=True)
        return
    parts = ["station", city] + ([color.value] if color else []) + ([f"loco={locos}"] if locos is not None else [])
    await _bot(interaction).turns.perform(interaction, table.id, " ".join(parts))


@station.autocomplete("city")
async def station_city_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await _my_legal_actions(interaction, BuildStation)
    if found is None:
        return []
    table, stations = found
    names = sorted({table.game.map.city_by_id[a.city].name for a in stations})
    return _matching([(n, n) for n in names], current)


@ttr.command(name="pass", description="Pass your turn (only when you have no other move)")
async def pass_(interaction: Interaction) -> None:
    await _act_here(interaction, "pass")


@ttr.command(name="resign", description="Leave the game you play in this channel")
async def resign(interaction: Interaction) -> None:
    await _act_here(interaction, "resign")


# ---------------------------------------------------------------------------- play-by-post


@ttr.command(name="vacation", description="Pause your own deadlines in this game for some days")
async def vacation(interaction: Interaction, days: app_commands.Range[int, 1, 30]) -> None:
    await _bot(interaction).clocks.vacation(interaction, days)


@ttr.command(name="notify", description="DM pings when it's your turn, with optional quiet hours")
@app_commands.describe(dm="Ping me by DM when my turn starts and before deadlines",
                       quiet_from="Quiet hours start (hour, 0–23, your time)", quiet_to="Quiet hours end (hour)",
                       utc_offset="Your time zone as hours from UTC (e.g. 2, -5)")
async def notify(interaction: Interaction, dm: bool, quiet_from: app_commands.Range[int, 0, 23] | None = None,
                 quiet_to: app_commands.Range[int, 0, 23] | None = None,
                 utc_offset: app_commands.Range[int, -12, 14] = 0) -> None:
    from storage import players as stored_players

    bot = _bot(interaction)
    async with bot.storage.sessions() as session:
        player = await stored_players.get_player(session=session, user_id=interaction.user.id)
        prefs = dict(player.preferences) if player else {}
        prefs.update(notify_dm=dm, utc_offset=utc_offset)
        prefs["quiet"] = [quiet_from, quiet_to] if quiet_from is not None and quiet_to is not None else None
        await stored_players.update_player(session=session, user_id=interaction.user.id, preferences=prefs)
    quiet = f", quiet from {quiet_from}:00 to {quiet_to}:00 (UTC{utc_offset:+d})" if prefs["quiet"] else ""
    await interaction.response.send_message(f"DM pings {'on' if dm else 'off'}{quiet}.", ephemeral=True)


@ttr.command(name="games", description="Your active games on every server")
async def games(interaction: Interaction) -> None:
    from storage import queries

    bot = _bot(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with bot.storage.sessions() as session:
        records = await queries.player_active_games(session=session, user_id=interaction.user.id)
    lines = []
    for record in records[:20]:
        table = await bot.service.table(record.id)
        await bot.turns._load_names(table)
        game = table.game
        if game.phase == "choosing":
            state = "choosing tickets" + (" — **you too**" if table.seat_of(interaction.user.id) in game.to_move()
                                          else "")
        else:
            mover = game.current
            whose = "**your turn**" if table.user_of(mover) == interaction.user.id else f"{bot.turns.name(table, mover)}'s turn"
            due = await bot.clocks.deadline(table, mover)
            state = whose + (f", ⏰ {timestamp(due)}" if due else "")
        lines.append(f"• {game.map.name} in <#{record.channel_id}>: {state}")
    await interaction.followup.send("\n".join(lines) if lines else "You have no active games.", ephemeral=True)


@ttr.command(name="log", description="The last moves (the whole log, or the game as JSON, once it is over)")
@app_commands.describe(moves="How many of the last moves", export="The last finished game here as JSON: seed, "
                       "options and full log, to replay anywhere")
async def log_(interaction: Interaction, moves: app_commands.Range[int, 1, 100] = 20, export: bool = False) -> None:
    if export:
        await _bot(interaction).history.export(interaction)
    else:
        await _bot(interaction).history.log(interaction, moves)


# ---------------------------------------------------------------------------- admin

admin = app_commands.Group(name="admin", description="Run the game in this channel (host or server manager)",
                           parent=ttr)


@admin.command(name="kick", description="Remove a player from the game (their routes and tickets stay)")
async def admin_kick(interaction: Interaction, player: discord.User) -> None:
    await _bot(interaction).admin.kick(interaction, player)


@admin.command(name="replace", description="Give a player's seat to someone else")
@app_commands.describe(player="Who leaves", new_player="Who takes the seat over")
async def admin_replace(interaction: Interaction, player: discord.User, new_player: discord.User) -> None:
    await _bot(interaction).admin.replace(interaction, player, new_player)


@admin.command(name="host", description="Make someone else the host of this game")
async def admin_host(interaction: Interaction, player: discord.User) -> None:
    await _bot(interaction).admin.transfer_host(interaction, player)


@admin.command(name="pause", description="Pause the turn timers")
async def admin_pause(interaction: Interaction) -> None:
    await _bot(interaction).clocks.pause(interaction, True)


@admin.command(name="resume", description="Start the paused turn timers again")
async def admin_resume(interaction: Interaction) -> None:
    await _bot(interaction).clocks.pause(interaction, False)


@admin.command(name="end", description="End the game now, without scores")
async def admin_end(interaction: Interaction) -> None:
    await _bot(interaction).admin.end(interaction)


settings = app_commands.Group(name="settings", description="Your settings, and the server's (Manage Server)",
                              parent=ttr)


async def _manager_only(interaction: Interaction) -> bool:
    if is_manager(interaction):
        return True
    await interaction.response.send_message("Only members with **Manage Server** can change the server's "
                                            "settings.", ephemeral=True)
    return False


@settings.command(name="colorblind", description="Images with letters on every color, for you (and any "
                                                  "board of a game you play)")
async def settings_colorblind(interaction: Interaction, on: bool) -> None:
    from storage import players as stored_players

    bot = _bot(interaction)
    async with bot.storage.sessions() as session:
        await stored_players.update_player(session=session, user_id=interaction.user.id, color_blind=on)
    bot.turns.set_colorblind(interaction.user.id, on)
    await interaction.response.send_message(
        "Color-blind images on: every car and card carries its color's letter." if on else "Color-blind images off.",
        ephemeral=True)


@settings.command(name="show", description="This server's game settings")
async def settings_show(interaction: Interaction) -> None:
    await _bot(interaction).admin.show_settings(interaction)


@settings.command(name="map", description="The map /ttr new uses when none is given")
@app_commands.choices(map=MAP_CHOICES)
async def settings_map(interaction: Interaction, map: app_commands.Choice[str]) -> None:
    if await _manager_only(interaction):
        await _bot(interaction).admin.set_default_map(interaction, map.value)


@settings.command(name="forget", description="Delete all of this server's games, lobbies, leagues and settings")
@app_commands.describe(confirm="Type DELETE to confirm")
async def settings_forget(interaction: Interaction, confirm: str) -> None:
    if not await _manager_only(interaction):
        return
    if confirm != "DELETE":
        await interaction.response.send_message("Nothing deleted: type `DELETE` in `confirm` to delete every game, "
                                                "lobby, league and setting of this server.", ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _bot(interaction).forget_guild(interaction.guild_id)
    await interaction.followup.send("🗑️ This server's games, lobbies, leagues and settings are deleted.",
                                    ephemeral=True)


@settings.command(name="channel", description="Allow or stop games in a channel (none allowed = everywhere)")
async def settings_channel(interaction: Interaction, channel: discord.TextChannel, allowed: bool) -> None:
    if await _manager_only(interaction):
        await _bot(interaction).admin.set_channel(interaction, channel, allowed)


# ---------------------------------------------------------------------------- information


@ttr.command(name="hand", description="Your cards and tickets (only you see them)")
async def hand(interaction: Interaction) -> None:
    table = await _table(interaction)
    if table is None:
        return
    await _bot(interaction).turns.show_hand(interaction, table.id)


@ttr.command(name="board", description="Show the board (or a finished game's board after any move)")
@app_commands.describe(public="Post it for everyone (default: only you)",
                       move="The last finished game here: its board after this many moves")
async def board(interaction: Interaction, public: bool = False,
                move: app_commands.Range[int, 0, 5000] | None = None) -> None:
    if move is not None:
        await _bot(interaction).history.replay(interaction, move)
        return
    table = await _table(interaction)
    if table is None:
        return
    await interaction.response.defer(ephemeral=not public, thinking=True)
    await interaction.followup.send(file=await _bot(interaction).turns.board_file(table), ephemeral=not public)


@ttr.command(name="status", description="Whose turn, scores, trains, cards and tickets")
async def status(interaction: Interaction) -> None:
    table = await _table(interaction)
    if table is None:
        return
    bot = _bot(interaction)
    await bot.turns._load_names(table)
    view = table.game.view(None)
    lines = [f"**{table.game.map.name}** · " + {"choosing": "choosing starting tickets", "playing": "playing",
                                                "over": "game over"}[view["phase"]]
             + (" · 🔔 last round" if view["last_round"] else "")]
    for p in view["players"]:
        marker = "➡️ " if view["current"] == p["seat"] else ""
        left = f" ({p['left']})" if p["left"] else ""
        stations = f" · {p['stations_left']} stations" if table.game.map.rules.stations else ""
        loans = f" · {p['loans']} loans" if p.get("loans") else ""
        lines.append(f"{marker}**{bot.turns.name(table, p['seat'])}**{left}: {p['score']} pts · {p['trains']} trains · "
                     f"{p['hand_size']} cards · {p['tickets']} tickets{stations}{loans}")
    await interaction.response.send_message("\n".join(lines), ephemeral=True)


@ttr.command(name="rules", description="The rules of this channel's map (or a map you name)")
@app_commands.choices(map=MAP_CHOICES)
async def rules(interaction: Interaction, map: app_commands.Choice[str] | None = None) -> None:
    map_id = map.value if map else None
    if map_id is None:
        table = await _bot(interaction).service.table_in_channel(interaction.channel_id)
        map_id = table.game.map.id if table else "usa"
    await interaction.response.send_message(rules_summary(map_id), ephemeral=True)


@ttr.command(name="help", description="How to play with this bot")
async def help_(interaction: Interaction) -> None:
    await interaction.response.send_message(HELP, ephemeral=True)


HELP = """\
**Ticket to Ride** — one game per channel or thread.
**Start:** `/ttr new` → others `/ttr join` (or the Join button) → host `/ttr start`.
**Your turn** (one of): draw cards (buttons on the turn message, or `/ttr draw`) · `/ttr claim` a route \
(type to search the routes you can afford) · `/ttr tickets` · `/ttr station` (Europe).
**Private:** your cards and tickets come by DM; **My hand** or `/ttr hand` shows them here, only to you.
**Info:** `/ttr board` · `/ttr status` · `/ttr rules`. **Leave:** `/ttr resign`."""


def setup(bot: "TTRBot") -> None:
    from bot import leagues  # noqa: F401  (adds /ttr league … to the group)
    bot.tree.add_command(ttr)
