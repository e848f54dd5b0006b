"""Tables the bot makes itself (a matchmaking queue's match, a tournament round): a thread under
the organizer's channel, the players seated and mentioned, the game started at once.

The game, its season and whatever the caller records about the table (its `link`) are stored in
one transaction (storage.games.create_game), so a table is either fully made or not at all; a
caller that retries after a crash passes the thread it made before (`TableSpec.thread_id`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.cog import Bot
from bot.messenger import PLAYER_COLORS
from bot.service import Cause, CauseKind, Outcome
from engine import GameOptions, load_map
from storage import leagues as stored_leagues

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

#: Game threads archive after a week without messages, Discord's longest (turn timers run up to 48
#: hours); a game thread that archives anyway while its game runs is opened again (cogs/lobby.py).
THREAD_ARCHIVE_MINUTES = 10080


@dataclass(frozen=True)
class TableSpec:
    """One table to make: where, who (seat order as given), and the game's settings."""

    guild_id: int
    channel_id: int  # the text channel the table's thread opens under
    name: str  # the thread's name, e.g. "Spring cup · round 2 · table 3"
    user_ids: tuple[int, ...]
    map_id: str
    host_id: int  # who may run the game (kick, pause, end): the organizer
    options: GameOptions = field(default_factory=GameOptions)
    clock: dict = field(default_factory=dict)  # the turn timer (bot/timers.py `configure`)
    season_id: int | None = None  # rated in this season
    thread_id: int | None = None  # a thread made by an earlier try: reused, not made again


async def open_table(
    bot: Bot, spec: TableSpec, *, link: Callable[[AsyncSession, int], Awaitable[None]] | None = None
) -> Outcome:
    """Make the table's thread, greet the players there and start the game (rated when the spec
    names a season). Raises discord.HTTPException when the thread cannot be made or reached, and
    storage's LeagueError when the season cannot rate this game; nothing is stored then."""
    thread = await _thread(bot, spec)
    public = await bot.languages.for_channel(spec.guild_id)
    game_map = load_map(spec.map_id)
    await thread.send(
        public.gettext(
            "🚂 Your table is ready, {players}: {map}. The game starts now.",
            players=public.join(f"<@{user}>" for user in spec.user_ids),
            map=public.map_name(game_map),
        ),
        allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
    )

    async def rows(session: AsyncSession, game_id: int) -> None:
        if spec.season_id is not None:
            await stored_leagues.add_new_game(
                session=session,
                season_id=spec.season_id,
                game_id=game_id,
                map_id=game_map.id,
                players=spec.user_ids,
                user_id=spec.host_id,
            )
        if link is not None:
            await link(session, game_id)

    return await bot.service.start(
        guild_id=spec.guild_id,
        channel_id=thread.id,
        map_id=game_map.id,
        options=spec.options,
        user_ids=list(spec.user_ids),
        colors=list(PLAYER_COLORS)[: len(spec.user_ids)],
        host_id=spec.host_id,
        cause=Cause(CauseKind.START, user_id=spec.host_id, clock=spec.clock),
        link=rows,
    )


async def _thread(bot: Bot, spec: TableSpec) -> discord.Thread:
    if spec.thread_id is not None:
        thread = bot.get_channel(spec.thread_id)
        return thread if thread is not None else await bot.fetch_channel(spec.thread_id)
    return await make_thread(bot, spec.channel_id, spec.name)


async def make_thread(bot: Bot, channel_id: int, name: str) -> discord.Thread:
    """A public game thread under `channel_id`; a caller that must survive a crash between making
    it and starting the game stores its id first and passes it back as `TableSpec.thread_id`."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return await channel.create_thread(
        name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_ARCHIVE_MINUTES
    )
