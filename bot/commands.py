"""The `/ttr` slash commands. Each one only reads options and hands over to the lobby or turn
controllers; rules live in the engine, words in bot.present.

Every name, description and choice is a `locale_str` (bot/command_translator.py): Discord shows
them in the user's language. Replies are in the language `bot.languages` picks for the user.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot import components
from bot.admin import is_manager
from bot.ai_seats import AI_LEVELS
from bot.clocks import TIMERS, timestamp
from bot.command_translator import locale_format, locale_pstr, option_name, slash
from bot.language import Choice as LanguageChoice
from bot.present import route_choice_label
from bot.rules_text import rules_summary
from bot.service import Table
from bot.turns import PLAYER_COLORS
from engine import BuildStation, Claim, available_maps, load_map
from engine.cards import CARD_NAMES
from engine.mapdata import fold_name
from engine.notation import route_label
from i18n import N_, NC_, Translator
from i18n.translator import CARD_WORDS

if TYPE_CHECKING:
    from bot.client import TTRBot

#: Words of the choices below that come from tables elsewhere, for the catalogs.
TIMER_WORDS = (NC_("timer", "none"), NC_("timer", "5 minutes"), NC_("timer", "10 minutes"),
               NC_("timer", "1 hour"), NC_("timer", "12 hours"), NC_("timer", "24 hours"),
               NC_("timer", "48 hours"))  # bot.clocks.TIMERS
AI_LEVEL_WORDS = (NC_("AI level", "random"), NC_("AI level", "baseline"), NC_("AI level", "strong"))  # AI_LEVELS
PLAYER_COLOR_WORDS = (NC_("player color", "violet"), NC_("player color", "teal"), NC_("player color", "brown"),
                      NC_("player color", "sky"), NC_("player color", "lime"))  # bot.turns.PLAYER_COLORS

ttr = app_commands.Group(name="ttr", description=locale_str("Play Ticket to Ride"), guild_only=True)

MAP_CHOICES = [app_commands.Choice(name=locale_pstr("map", load_map(m).name), value=m) for m in available_maps()]
DECK_CHOICES = [
    app_commands.Choice(name=locale_format("{map}: {deck}", map=("map", load_map(m).name), deck=("deck", d.name)),
                        value=f"{m}:{d.id}")
    for m in available_maps() for d in load_map(m).rules.decks.values()
][:25]
COLOR_CHOICES = [app_commands.Choice(name=locale_pstr("player color", c), value=c) for c in PLAYER_COLORS]
TIMER_CHOICES = [app_commands.Choice(name=locale_pstr("timer", name), value=seconds)
                 for name, seconds in TIMERS.items()]
ABSENCE_CHOICES = [app_commands.Choice(name=locale_str("skip the turn"), value="skip"),
                   app_commands.Choice(name=locale_str("an AI plays the turn"), value="ai"),
                   app_commands.Choice(name=locale_str("skip, remove after several misses"), value="remove")]
CARD_CHOICES = [app_commands.Choice(name=locale_pstr("card", CARD_WORDS[i]), value=c) for i, c in enumerate(CARD_NAMES)]
AI_LEVEL_CHOICES = [app_commands.Choice(name=locale_pstr("AI level", level), value=level) for level in AI_LEVELS]
LANGUAGE_CHOICES = [app_commands.Choice(name=locale_pstr("language", "automatic (Discord's language)"), value="auto"),
                    app_commands.Choice(name=locale_pstr("language", "English"), value="en"),
                    app_commands.Choice(name=locale_pstr("language", "Русский"), value="ru"),
                    app_commands.Choice(name=locale_pstr("language", "简体中文"), value="zh")]
CITY_NAME_CHOICES = [app_commands.Choice(name=locale_str("as printed on the board"), value="printed"),
                     app_commands.Choice(name=locale_str("translated (where the map has them)"), value="translated")]
FOR_CHOICES = [app_commands.Choice(name=locale_str("me"), value="me"),
               app_commands.Choice(name=locale_str("this server (Manage Server)"), value="server")]


def _bot(interaction: Interaction) -> "TTRBot":
    return interaction.client  # type: ignore[return-value]


async def _t(interaction: Interaction) -> Translator:
    """The language to answer this user in."""
    return await _bot(interaction).languages.for_interaction(interaction)


async def _say(interaction: Interaction, text: str) -> None:
    """A private reply."""
    await interaction.response.send_message(text, ephemeral=True)


async def _table(interaction: Interaction) -> Table | None:
    """The game of this channel, or a private 'no game here' reply."""
    table = await _bot(interaction).service.table_in_channel(interaction.channel_id)
    if table is None:
        t = await _t(interaction)
        await _say(interaction, t.gettext("There is no game running in this channel. Start one with `{new}`.",
                                          new=slash(t, "ttr new")))
    return table


async def _act_here(interaction: Interaction, text: str) -> None:
    """Play `text` (engine notation) in this channel's game, or say there is none."""
    table = await _table(interaction)
    if table is not None:
        await _bot(interaction).turns.perform(interaction, table.id, text)


def _seat(table: Table, interaction: Interaction) -> int | None:
    return table.seat_of(interaction.user.id)


# ---------------------------------------------------------------------------- lobby


@ttr.command(name="new",
             description=locale_str("Open a new game in this channel (or a new thread)"))
@app_commands.describe(map=locale_str("The board"),
                       tickets=locale_str("Ticket deck (default: the map's base deck)"),
                       players=locale_str("Most players allowed (default: as many as the map allows)"),
                       thread=locale_str("Play in a new thread"),
                       tolls=locale_str("Nederland: play with bridge tolls (default yes)"),
                       neutral=locale_str("Nederland, 2 players: add the neutral player"),
                       timer=locale_str("Time for each turn (play-by-post: 24 hours)"),
                       absence=locale_str("When a turn's time runs out (default: skip it)"),
                       remove_after=locale_str("With absence 'remove': missed turns in a row before removal"),
                       reminder_minutes=locale_str("Remind this many minutes before the deadline (default: a "
                                                   "quarter of it)"))
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
            t = await _t(interaction)
            await _say(interaction, t.gettext("That ticket deck belongs to the {deck_map} map, not {map}.",
                                              deck_map=t.map_name(load_map(deck_map)),
                                              map=t.map_name(load_map(map_id))))
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


@ttr.command(name="join", description=locale_str("Join the open game in this channel"))
@app_commands.describe(color=locale_str("Your train color"))
@app_commands.choices(color=COLOR_CHOICES)
async def join(interaction: Interaction, color: app_commands.Choice[str] | None = None) -> None:
    await _bot(interaction).lobbies.join(interaction, color=color.value if color else None)


@ttr.command(name="leave", description=locale_str("Leave the open lobby in this channel"))
async def leave(interaction: Interaction) -> None:
    await _bot(interaction).lobbies.leave(interaction)


@ttr.command(name="start", description=locale_str("Start the game (host only)"))
@app_commands.describe(first=locale_str("Who plays first (default: random)"),
                       ai_players=locale_str("AI players to add (solo practice, or to fill the table)"),
                       ai_level=locale_str("How strong the AI players are"))
@app_commands.choices(ai_level=AI_LEVEL_CHOICES)
async def start(interaction: Interaction, first: discord.User | None = None,
                ai_players: app_commands.Range[int, 0, 4] = 0,
                ai_level: app_commands.Choice[str] | None = None) -> None:
    await _bot(interaction).lobbies.start(interaction, first=first, ai_players=ai_players,
                                          ai_level=ai_level.value if ai_level else "baseline")


@ttr.command(name="cancel",
             description=locale_str("Cancel the open lobby (host or server manager)"))
async def cancel(interaction: Interaction) -> None:
    await _bot(interaction).lobbies.cancel(interaction)


# ---------------------------------------------------------------------------- play


@ttr.command(name="draw",
             description=locale_str("Draw train cards: buttons for the face-up cards and the deck"))
async def draw(interaction: Interaction) -> None:
    table = await _table(interaction)
    if table is None:
        return
    t = await _t(interaction)
    seat, game = _seat(table, interaction), table.game
    if seat is None:
        await _say(interaction, t.gettext("You are not playing in this game."))
    elif game.phase != "playing" or game.current != seat or game.stage not in (None, "second_card"):
        await _say(interaction, _not_now(t, table, seat, _bot(interaction)))
    else:
        await interaction.response.send_message(t.gettext("Pick a face-up card or the deck:"), ephemeral=True,
                                                view=components.second_card_view(table.id, game, seat, t=t))


def _not_now(t: Translator, table: Table, seat: int, bot: TTRBot) -> str:
    """Why `seat` can't draw cards now."""
    game = table.game
    button = t.pgettext("button", "My hand")
    if game.phase == "choosing":
        if game.offers[seat]:
            return t.gettext("Everyone is still choosing starting tickets. Yours: press **{button}**.", button=button)
        return t.gettext("Everyone is still choosing starting tickets.")
    if game.phase == "over":
        return t.gettext("The game is over.")
    if game.current != seat:
        return t.gettext("It's {name}'s turn, not yours.", name=bot.turns.name(table, game.current, t))
    if game.stage == "tickets":
        return t.gettext("Choose which tickets to keep first (press **{button}**).", button=button)
    if game.stage == "tunnel":
        return t.gettext("Decide on the tunnel first: pay or decline (press **{button}**).", button=button)
    if game.stage == "second_card":
        return t.gettext("Draw your second card first.")
    return t.gettext("Not now.")


@ttr.command(name="claim", description=locale_str("Claim a route"))
@app_commands.describe(route=locale_str("The route (type to search the routes you can claim now)"),
                       color=locale_str("Card color to pay with (asked only if several fit)"),
                       locos=locale_str("How many locomotives to use (default: as few as needed)"))
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
    """(label, value) pairs where what was typed is in the label (the user's language) or in the
    value (printed names), case and accents ignored."""
    wanted = fold_name(current)
    return [app_commands.Choice(name=label[:100], value=value[:100])
            for label, value in options if wanted in fold_name(label) or wanted in fold_name(value)][:25]


@claim.autocomplete("route")
async def claim_route_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await _my_legal_actions(interaction, Claim)
    if found is None:
        return []
    table, claims = found
    t = await _t(interaction)
    m = table.game.map
    tracks = sorted({m.track_by_id[a.track] for a in claims}, key=lambda track: (t.route(m, track), track.id))
    return _matching([(route_choice_label(t, m, track), route_label(m, track)) for track in tracks], current)


@ttr.command(name="tickets", description=locale_str("Draw destination tickets"))
async def tickets(interaction: Interaction) -> None:
    await _act_here(interaction, "tickets draw")


@ttr.command(name="station", description=locale_str("Build a station (Europe)"))
@app_commands.describe(city=locale_str("The city"), color=locale_str("Card color to pay with"),
                       locos=locale_str("How many locomotives to use"))
@app_commands.choices(color=CARD_CHOICES)
async def station(interaction: Interaction, city: str, color: app_commands.Choice[str] | None = None,
                  locos: app_commands.Range[int, 0, 3] | None = None) -> None:
    table = await _table(interaction)
    if table is None:
        return
    if not table.game.map.rules.stations:
        t = await _t(interaction)
        await _say(interaction, t.gettext("The {map} map has no stations.", map=t.map_name(table.game.map)))
        return
    parts = ["station", city] + ([color.value] if color else []) + ([f"loco={locos}"] if locos is not None else [])
    await _bot(interaction).turns.perform(interaction, table.id, " ".join(parts))


@station.autocomplete("city")
async def station_city_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await _my_legal_actions(interaction, BuildStation)
    if found is None:
        return []
    table, stations = found
    t = await _t(interaction)
    cities = sorted((table.game.map.city_by_id[city] for city in {a.city for a in stations}), key=t.city)
    return _matching([(t.city(c), c.name) for c in cities], current)


@ttr.command(name="pass",
             description=locale_str("Pass your turn (only when you have no other move)"))
async def pass_(interaction: Interaction) -> None:
    await _act_here(interaction, "pass")


@ttr.command(name="resign", description=locale_str("Leave the game you play in this channel"))
async def resign(interaction: Interaction) -> None:
    await _act_here(interaction, "resign")


# ---------------------------------------------------------------------------- play-by-post


@ttr.command(name="vacation",
             description=locale_str("Pause your own deadlines in this game for some days"))
@app_commands.describe(days=locale_str("How many days"))
async def vacation(interaction: Interaction, days: app_commands.Range[int, 1, 30]) -> None:
    await _bot(interaction).clocks.vacation(interaction, days)


@ttr.command(name="notify",
             description=locale_str("DM pings when it's your turn, with optional quiet hours"))
@app_commands.describe(dm=locale_str("Ping me by DM when my turn starts and before deadlines"),
                       quiet_from=locale_str("Quiet hours start (hour, 0–23, your time)"),
                       quiet_to=locale_str("Quiet hours end (hour)"),
                       utc_offset=locale_str("Your time zone as hours from UTC (e.g. 2, -5)"))
async def notify(interaction: Interaction, dm: bool, quiet_from: app_commands.Range[int, 0, 23] | None = None,
                 quiet_to: app_commands.Range[int, 0, 23] | None = None,
                 utc_offset: app_commands.Range[int, -12, 14] = 0) -> None:
    from storage import players as stored_players

    bot = _bot(interaction)
    t = await _t(interaction)
    async with bot.storage.sessions() as session:
        player = await stored_players.get_player(session=session, user_id=interaction.user.id)
        prefs = dict(player.preferences) if player else {}
        prefs.update(notify_dm=dm, utc_offset=utc_offset)
        prefs["quiet"] = [quiet_from, quiet_to] if quiet_from is not None and quiet_to is not None else None
        await stored_players.update_player(session=session, user_id=interaction.user.id, preferences=prefs)
    hours = {"start": quiet_from, "end": quiet_to, "offset": f"{utc_offset:+d}"}
    if dm and prefs["quiet"]:
        text = t.gettext("DM pings on, quiet from {start}:00 to {end}:00 (UTC{offset}).", **hours)
    elif prefs["quiet"]:
        text = t.gettext("DM pings off, quiet from {start}:00 to {end}:00 (UTC{offset}).", **hours)
    else:
        text = t.gettext("DM pings on.") if dm else t.gettext("DM pings off.")
    await _say(interaction, text)


@ttr.command(name="games", description=locale_str("Your active games on every server"))
async def games(interaction: Interaction) -> None:
    from storage import queries

    bot = _bot(interaction)
    t = await _t(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with bot.storage.sessions() as session:
        records = await queries.player_active_games(session=session, user_id=interaction.user.id)
    lines = []
    for record in records[:20]:
        table = await bot.service.table(record.id)
        await bot.turns._load_names(table)
        channel, state = f"<#{record.channel_id}>", await _game_state(t, bot, table, interaction.user.id)
        lines.append(t.gettext("• {map} in {channel}: {state}", map=t.map_name(table.game.map), channel=channel,
                               state=state))
    await interaction.followup.send("\n".join(lines) if lines else t.gettext("You have no active games."),
                                    ephemeral=True)


async def _game_state(t: Translator, bot: TTRBot, table: Table, user_id: int) -> str:
    """Where a game stands for one of its players: whose turn (and its deadline)."""
    game = table.game
    if game.phase == "choosing":
        if table.seat_of(user_id) in game.to_move():
            return t.gettext("choosing starting tickets — **you too**")
        return t.gettext("choosing starting tickets")
    mover = game.current
    due = await bot.clocks.deadline(table, mover)
    if table.user_of(mover) == user_id:
        return t.gettext("**your turn**, ⏰ {deadline}", deadline=timestamp(due)) if due else t.gettext("**your turn**")
    name = bot.turns.name(table, mover, t)
    return (t.gettext("{name}'s turn, ⏰ {deadline}", name=name, deadline=timestamp(due)) if due
            else t.gettext("{name}'s turn", name=name))


@ttr.command(name="log",
             description=locale_str("The last moves (the whole log, or the game as JSON, once it is over)"))
@app_commands.describe(moves=locale_str("How many of the last moves"),
                       export=locale_str("The last finished game here as JSON: seed, options and full log, to "
                                         "replay anywhere"))
async def log_(interaction: Interaction, moves: app_commands.Range[int, 1, 100] = 20, export: bool = False) -> None:
    if export:
        await _bot(interaction).history.export(interaction)
    else:
        await _bot(interaction).history.log(interaction, moves)


# ---------------------------------------------------------------------------- admin

admin = app_commands.Group(name="admin",
                           description=locale_str("Run the game in this channel (host or server manager)"),
                           parent=ttr)


@admin.command(name="kick",
               description=locale_str("Remove a player from the game (their routes and tickets stay)"))
@app_commands.describe(player=locale_str("Who leaves"))
async def admin_kick(interaction: Interaction, player: discord.User) -> None:
    await _bot(interaction).admin.kick(interaction, player)


@admin.command(name="replace", description=locale_str("Give a player's seat to someone else"))
@app_commands.describe(player=locale_str("Who leaves"), new_player=locale_str("Who takes the seat over"))
async def admin_replace(interaction: Interaction, player: discord.User, new_player: discord.User) -> None:
    await _bot(interaction).admin.replace(interaction, player, new_player)


@admin.command(name="host", description=locale_str("Make someone else the host of this game"))
@app_commands.describe(player=locale_str("The new host"))
async def admin_host(interaction: Interaction, player: discord.User) -> None:
    await _bot(interaction).admin.transfer_host(interaction, player)


@admin.command(name="pause", description=locale_str("Pause the turn timers"))
async def admin_pause(interaction: Interaction) -> None:
    await _bot(interaction).clocks.pause(interaction, True)


@admin.command(name="resume", description=locale_str("Start the paused turn timers again"))
async def admin_resume(interaction: Interaction) -> None:
    await _bot(interaction).clocks.pause(interaction, False)


@admin.command(name="end", description=locale_str("End the game now, without scores"))
async def admin_end(interaction: Interaction) -> None:
    await _bot(interaction).admin.end(interaction)


settings = app_commands.Group(name="settings",
                              description=locale_str("Your settings, and the server's (Manage Server)"), parent=ttr)


async def _manager_only(interaction: Interaction) -> bool:
    if is_manager(interaction):
        return True
    t = await _t(interaction)
    await _say(interaction, t.gettext("Only members with **Manage Server** can change the server's settings."))
    return False


@settings.command(name="colorblind",
                  description=locale_str("Images with letters on every color, for you (and any board of a game you "
                                         "play)"))
@app_commands.describe(on=locale_str("Letters on or off"))
async def settings_colorblind(interaction: Interaction, on: bool) -> None:
    from storage import players as stored_players

    bot = _bot(interaction)
    t = await _t(interaction)
    async with bot.storage.sessions() as session:
        await stored_players.update_player(session=session, user_id=interaction.user.id, color_blind=on)
    bot.turns.set_colorblind(interaction.user.id, on)
    await _say(interaction, t.gettext("Color-blind images on: every car and card carries its color's letter.") if on
               else t.gettext("Color-blind images off."))


@settings.command(name="language",
                  description=locale_str("The bot's language, for you or (Manage Server) the server"))
@app_commands.rename(for_="for")
@app_commands.describe(language=locale_str("The language (automatic: your Discord's, or the server's)"),
                       city_names=locale_str("City names as printed on the board, or translated"),
                       for_=locale_str("You (default) or the whole server's messages"))
@app_commands.choices(language=LANGUAGE_CHOICES, city_names=CITY_NAME_CHOICES, for_=FOR_CHOICES)
async def settings_language(interaction: Interaction, language: app_commands.Choice[str],
                            city_names: app_commands.Choice[str] | None = None,
                            for_: app_commands.Choice[str] | None = None) -> None:
    bot = _bot(interaction)
    chosen = LanguageChoice(None if language.value == "auto" else language.value,
                            city_names.value if city_names else None)
    if for_ is not None and for_.value == "server":
        if not await _manager_only(interaction):
            return
        await bot.languages.set_guild(interaction.guild_id, chosen)
        await bot.admin.show_settings(interaction, t=await bot.languages.for_channel(interaction.guild_id))
        return
    await bot.languages.set_player(interaction.user.id, chosen)
    t = await _t(interaction)
    await _say(interaction, _language_text(t, chosen))


def _language_text(t: Translator, chosen: LanguageChoice) -> str:
    """The reply to a player's language choice, in the new language (each catalog names its own
    language where the English says "in English")."""
    if chosen.language is None:
        return (t.gettext("I'll follow your Discord language; city names as translated where the map has them.")
                if chosen.city_names == "translated" else t.gettext("I'll follow your Discord language."))
    return (t.gettext("I'll write to you in English; city names as translated where the map has them.")
            if chosen.city_names == "translated" else t.gettext("I'll write to you in English."))


@settings.command(name="show", description=locale_str("This server's game settings"))
async def settings_show(interaction: Interaction) -> None:
    await _bot(interaction).admin.show_settings(interaction)


@settings.command(name="map",
                  description=locale_format("The map /ttr {new} uses when none is given", new=("command", "new")))
@app_commands.describe(map=locale_str("The board"))
@app_commands.choices(map=MAP_CHOICES)
async def settings_map(interaction: Interaction, map: app_commands.Choice[str]) -> None:
    if await _manager_only(interaction):
        await _bot(interaction).admin.set_default_map(interaction, map.value)


@settings.command(name="forget",
                  description=locale_str("Delete all of this server's games, lobbies, leagues and settings"))
@app_commands.describe(confirm=locale_str("Type DELETE to confirm"))
async def settings_forget(interaction: Interaction, confirm: str) -> None:
    if not await _manager_only(interaction):
        return
    t = await _t(interaction)
    if confirm != "DELETE":
        await _say(interaction, t.gettext("Nothing deleted: type `DELETE` in `{confirm}` to delete every game, lobby, "
                                          "league and setting of this server.", confirm=option_name(t, "confirm")))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _bot(interaction).forget_guild(interaction.guild_id)
    await interaction.followup.send(t.gettext("🗑️ This server's games, lobbies, leagues and settings are deleted."),
                                    ephemeral=True)


@settings.command(name="channel",
                  description=locale_str("Allow or stop games in a channel (none allowed = everywhere)"))
@app_commands.describe(channel=locale_str("The channel"), allowed=locale_str("Games allowed there"))
async def settings_channel(interaction: Interaction, channel: discord.TextChannel, allowed: bool) -> None:
    if await _manager_only(interaction):
        await _bot(interaction).admin.set_channel(interaction, channel, allowed)


# ---------------------------------------------------------------------------- information


@ttr.command(name="hand", description=locale_str("Your cards and tickets (only you see them)"))
async def hand(interaction: Interaction) -> None:
    table = await _table(interaction)
    if table is None:
        return
    await _bot(interaction).turns.show_hand(interaction, table.id)


@ttr.command(name="board",
             description=locale_str("Show the board (or a finished game's board after any move)"))
@app_commands.describe(public=locale_str("Post it for everyone (default: only you)"),
                       move=locale_str("The last finished game here: its board after this many moves"))
async def board(interaction: Interaction, public: bool = False,
                move: app_commands.Range[int, 0, 5000] | None = None) -> None:
    if move is not None:
        await _bot(interaction).history.replay(interaction, move)
        return
    table = await _table(interaction)
    if table is None:
        return
    bot = _bot(interaction)
    t = await bot.languages.for_channel(interaction.guild_id) if public else await _t(interaction)
    await interaction.response.defer(ephemeral=not public, thinking=True)
    await interaction.followup.send(file=await bot.turns.board_file(table, t), ephemeral=not public)


@ttr.command(name="status",
             description=locale_str("Whose turn, scores, trains, cards and tickets"))
async def status(interaction: Interaction) -> None:
    table = await _table(interaction)
    if table is None:
        return
    bot = _bot(interaction)
    t = await _t(interaction)
    await bot.turns._load_names(table)
    await _say(interaction, status_text(t, table, lambda seat: bot.turns.name(table, seat, t)))


#: The game's phases in the status line.
PHASES = {"choosing": N_("choosing starting tickets"), "playing": N_("playing"), "over": N_("game over")}


def status_text(t: Translator, table: Table, name) -> str:
    """`/ttr status`: the phase, then one line per player (`name(seat)` names a seat)."""
    game = table.game
    view = game.view(None)
    phase = t.gettext(PHASES[view["phase"]])
    lines = [t.gettext("**{map}** · {phase} · 🔔 last round", map=t.map_name(game.map), phase=phase)
             if view["last_round"] else t.gettext("**{map}** · {phase}", map=t.map_name(game.map), phase=phase)]
    for p in view["players"]:
        stats = [t.npgettext("status", "{n} point", "{n} points", p["score"]),
                 t.npgettext("status", "{n} train", "{n} trains", p["trains"]),
                 t.npgettext("status", "{n} card", "{n} cards", p["hand_size"]),
                 t.npgettext("status", "{n} ticket", "{n} tickets", p["tickets"])]
        if game.map.rules.stations:
            stats.append(t.npgettext("status", "{n} station", "{n} stations", p["stations_left"]))
        if p.get("loans"):
            stats.append(t.npgettext("status", "{n} loan", "{n} loans", p["loans"]))
        marker = "➡️ " if view["current"] == p["seat"] else ""
        who, line = name(p["seat"]), " · ".join(stats)
        if p["left"] == "resigned":
            lines.append(marker + t.gettext("**{name}** (resigned): {stats}", name=who, stats=line))
        elif p["left"]:
            lines.append(marker + t.gettext("**{name}** (removed): {stats}", name=who, stats=line))
        else:
            lines.append(marker + t.gettext("**{name}**: {stats}", name=who, stats=line))
    return "\n".join(lines)


@ttr.command(name="rules",
             description=locale_str("The rules of this channel's map (or a map you name)"))
@app_commands.describe(map=locale_str("The board"))
@app_commands.choices(map=MAP_CHOICES)
async def rules(interaction: Interaction, map: app_commands.Choice[str] | None = None) -> None:
    map_id = map.value if map else None
    if map_id is None:
        table = await _bot(interaction).service.table_in_channel(interaction.channel_id)
        map_id = table.game.map.id if table else "usa"
    await _say(interaction, rules_summary(map_id, t=await _t(interaction)))


@ttr.command(name="help", description=locale_str("How to play with this bot"))
async def help_(interaction: Interaction) -> None:
    t = await _t(interaction)
    await _say(interaction, t.gettext(
        "**Ticket to Ride** — one game per channel or thread.\n"
        "**Start:** `{new}` → others `{join}` (or the **{join_button}** button) → host `{start}`.\n"
        "**Your turn** (one of): draw cards (buttons on the turn message, or `{draw}`) · `{claim}` a route "
        "(type to search the routes you can afford) · `{tickets}` · `{station}` (Europe).\n"
        "**Private:** your cards and tickets come by DM; **{hand_button}** or `{hand}` shows them here, only to you.\n"
        "**Info:** `{board}` · `{status}` · `{rules}`. **Leave:** `{resign}`.\n"
        "**Language:** `{settings_language}`.",
        join_button=t.pgettext("button", "Join"), hand_button=t.pgettext("button", "My hand"),
        new=slash(t, "ttr new"), join=slash(t, "ttr join"), start=slash(t, "ttr start"), draw=slash(t, "ttr draw"),
        claim=slash(t, "ttr claim"), tickets=slash(t, "ttr tickets"), station=slash(t, "ttr station"),
        hand=slash(t, "ttr hand"), board=slash(t, "ttr board"), status=slash(t, "ttr status"),
        rules=slash(t, "ttr rules"), resign=slash(t, "ttr resign"), settings_language=slash(t, "ttr settings language")))


def setup(bot: "TTRBot") -> None:
    from bot import leagues  # noqa: F401  (adds /ttr league … to the group)
    bot.tree.add_command(ttr)
