"""The leagues' matchmaking queue: `/ttr-league queue join`, `leave`, `status` and `rules`, and the
matcher, a background loop that makes rated tables of 2–5 players by rating (storage/matchmaking.py
decides who sits together; bot/tables.py opens each table: a thread, the players mentioned, the
game started in the league's open season).

Every few seconds the loop, for each server this process serves (`bot.serves_guild`: with shards
in several processes, each server's matching runs in one of them), first opens the tables it
reserved and did not open yet (a crash, a failed post), then matches the players waiting. Each
table is reserved in storage before anything is posted, and its queue entries are removed in the
game's own transaction (storage/queue.py), so a player is seated once and a table is made once,
across restarts and processes. A table that keeps failing to open is given up after
`MAX_TRIES` and its players wait again.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str
from discord.ext import tasks

from bot import errors
from bot.background import Backoff
from bot.choices import MAP_CHOICES
from bot.cog import TTRCog
from bot.command_translator import slash
from bot.errors import UserError, league_map_name, not_league_admin
from bot.permissions import is_league_admin
from bot.service import new_error_id
from bot.tables import TableSpec, make_thread, open_table
from bot.transformers import League, find_league
from engine import available_maps, load_map
from i18n import N_, Translator
from storage import leagues as stored_leagues
from storage import queue as stored
from storage.errors import ChannelBusyError, LeagueError
from storage.matchmaking import Rules, Waiting, match
from storage.models import QueueMatch, QueueRules, Season, utcnow

log = logging.getLogger(__name__)

#: Seconds between two rounds of matching (a table forms at most this long after enough players wait).
MATCH_EVERY = 15
#: Failed tries to open a reserved table before its players are put back in the queue.
MAX_TRIES = 5
LEAGUE_OPTION = locale_str("Which league (if the server has several)")


class NoOpenSeason(UserError):
    message = N_("**{league}** has no open season: queue tables are rated, so the queue opens with a season.")


class MapNotInQueue(UserError):
    message = N_("**{league}** queue tables are played on {maps}.")


class SizeNotInQueue(UserError):
    message = N_("**{league}** queue tables have {sizes} players.")


def check_league_admin(interaction: Interaction, league: stored_leagues.League) -> None:
    """League admins: the league's role, or Manage Server (as the other `/ttr-league` commands check)."""
    if not is_league_admin(interaction, league):
        raise not_league_admin(league)


def season_open(season: Season, now: datetime) -> bool:
    return season.status == stored_leagues.SEASON_ACTIVE and season.starts_at <= now < season.ends_at


def queue_rules(rules: QueueRules | None, season: Season, league_id: int) -> Rules:
    """A league's queue rules narrowed to what its season rates (sizes and maps both allowed)."""
    rules = rules or QueueRules(league_id=league_id)  # the defaults
    sizes = [s for s in (rules.sizes or range(2, 6)) if not season.player_counts or s in season.player_counts]
    maps = [m for m in (rules.maps or available_maps()) if not season.maps or m in season.maps]
    return Rules(
        sizes=tuple(sizes),
        maps=tuple(maps),
        spread=rules.spread,
        widen=rules.widen,
        most={m: load_map(m).rules.max_players for m in maps},
    )


class Queue(TTRCog):
    under = "ttr-league"

    queue = app_commands.Group(
        name="queue", description=locale_str("Matchmaking: wait for a rated table the bot makes")
    )

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self._ticks = Backoff("matchmaking", base=5, most=300)
        self._lock = asyncio.Lock()  # one round of matching at a time in this process

    async def start_work(self) -> None:
        self.loop.start()

    async def stop_work(self) -> None:
        await self._ticks.stop(self.loop)

    @tasks.loop(seconds=MATCH_EVERY)
    async def loop(self) -> None:
        await self._ticks.run(self.tick)

    # ------------------------------------------------------------------ the matcher

    async def tick(self) -> int:
        """One round: open the tables reserved earlier, then match who waits. Returns the tables opened."""
        async with self._lock:
            async with self.bot.storage.sessions() as session:
                pending = await stored.pending_matches(session=session)
                guilds = await stored.busy_guilds(session=session)
            opened = 0
            for reserved in pending:
                if self.bot.serves_guild(reserved.guild_id):
                    opened += await self._open(reserved)
            for guild_id in guilds:
                if self.bot.serves_guild(guild_id):
                    for reserved in await self._reserve_tables(guild_id):
                        opened += await self._open(reserved)
            return opened

    async def _reserve_tables(self, guild_id: int) -> list[QueueMatch]:
        """Match the server's waiting players and reserve each table found."""
        now = utcnow()
        async with self.bot.storage.sessions() as session:
            waiting = await stored.entries(session=session, guild_id=guild_id, waiting_only=True)
            rules: dict[int, Rules] = {}
            channels: dict[int, int | None] = {}
            seasons: dict[int, int] = {}
            rated: dict[tuple[int, int], float] = {}
            for league_id in sorted({e.league_id for e in waiting}):
                season = await stored_leagues.active_season(session=session, league_id=league_id)
                if season is None or not season_open(season, now):
                    continue
                row = await stored.get_rules(session=session, league_id=league_id)
                rules[league_id], channels[league_id], seasons[league_id] = (
                    queue_rules(row, season, league_id),
                    row.channel_id if row else None,
                    season.id,
                )
                users = sorted({e.user_id for e in waiting if e.league_id == league_id})
                for user, rating in (
                    await stored.ratings(session=session, season_id=season.id, user_ids=users)
                ).items():
                    rated[(league_id, user)] = rating
        by_id = {e.id: e for e in waiting}
        pool = [
            Waiting(
                entry_id=e.id,
                user_id=e.user_id,
                league_id=e.league_id,
                rating=rated.get((e.league_id, e.user_id), 0.0),
                waited=(now - e.joined_at).total_seconds(),
                map_id=e.map_id or None,
                size=e.size or None,
            )
            for e in waiting
        ]
        reserved: list[QueueMatch] = []
        for table in match(pool, rules):
            anchor = by_id[table.entries[0].entry_id]
            async with self.bot.storage.sessions() as session:
                made = await stored.reserve(
                    session=session,
                    league_id=table.league_id,
                    season_id=seasons[table.league_id],
                    guild_id=guild_id,
                    channel_id=channels[table.league_id] or anchor.channel_id,
                    map_id=table.map_id,
                    entry_ids=[e.entry_id for e in table.entries],
                    user_ids=list(table.user_ids),
                )
            if made is not None:
                reserved.append(made)
            else:
                log.info("a queue table lost a player before it was reserved", extra={"guild_id": guild_id})
        return reserved

    async def _open(self, reserved: QueueMatch) -> int:
        """Open a reserved table (its thread, made once, then the game); 1 when the game started."""
        try:
            if reserved.thread_id is None:
                thread = await self._thread(reserved)
                async with self.bot.storage.sessions() as session:
                    await stored.set_thread(session=session, match_id=reserved.id, thread_id=thread.id)
                reserved.thread_id = thread.id

            async def link(session, game_id: int) -> None:
                await stored.take(session, reserved.id, game_id)

            spec = TableSpec(
                guild_id=reserved.guild_id,
                channel_id=reserved.channel_id,
                name="",  # thread made above
                user_ids=tuple(reserved.user_ids),
                map_id=reserved.map_id,
                host_id=self.bot.user.id,
                season_id=reserved.season_id,
                thread_id=reserved.thread_id,
            )
            await open_table(self.bot, spec, link=link)
            return 1
        except (stored.MatchGoneError, ChannelBusyError):
            return 0  # made into a game by another try already
        except LeagueError as exc:  # the season cannot rate it any more: the players wait again
            async with self.bot.storage.sessions() as session:
                await stored.release(session=session, match_id=reserved.id)
            await self._say_cancelled(reserved, exc)
            return 0
        except Exception:
            log.exception(
                "opening a queue table failed",
                extra={"guild_id": reserved.guild_id, "match_id": reserved.id, "error_id": new_error_id()},
            )
            async with self.bot.storage.sessions() as session:
                if await stored.failed_attempt(session=session, match_id=reserved.id) >= MAX_TRIES:
                    await stored.release(session=session, match_id=reserved.id)
            return 0

    async def _thread(self, reserved: QueueMatch) -> discord.Thread:
        """The table's thread, made before the game so that a retry reuses it (`TableSpec.thread_id`)."""
        async with self.bot.storage.sessions() as session:
            league = await stored_leagues.get_league(session=session, league_id=reserved.league_id)
        t = await self.bot.languages.for_channel(reserved.guild_id)
        name = t.gettext("{league} queue · table {number}", league=league.name if league else "", number=reserved.id)
        return await make_thread(self.bot, reserved.channel_id, name)

    async def _say_cancelled(self, reserved: QueueMatch, exc: LeagueError) -> None:
        thread = self.bot.get_channel(reserved.thread_id) if reserved.thread_id else None
        if thread is None:
            return
        t = await self.bot.languages.for_channel(reserved.guild_id)
        try:
            await thread.send(
                t.gettext(
                    "⚠️ This table can't start: {reason}. Its players wait in the queue again.",
                    reason=errors.reason(t, exc),
                )
            )
        except discord.HTTPException:
            log.warning("could not say a queue table was cancelled", extra={"match_id": reserved.id})

    # ------------------------------------------------------------------ words

    @staticmethod
    def queue_words(t: Translator, map_id: str | None, size: int | None) -> str:
        """One queue: its map and table size, or 'any'."""
        where = league_map_name(t, map_id) if map_id else t.gettext("any map")
        seats = t.ngettext("{n} player", "{n} players", size) if size else t.gettext("any table size")
        return f"{where} · {seats}"

    @staticmethod
    def rules_words(t: Translator, rules: Rules, channel_id: int | None) -> str:
        """A league's queue rules in one line: sizes, maps, rating spread, where tables open."""
        spread, widen, channel = format(rules.spread, "g"), format(rules.widen, "g"), f"<#{channel_id}>"
        parts = [
            t.gettext("{sizes} players", sizes=t.join(str(s) for s in rules.sizes))
            if rules.sizes
            else t.gettext("no table size the season rates"),
            t.join(league_map_name(t, m) for m in rules.maps) if rules.maps else t.gettext("no map the season rates"),
            t.gettext("ratings within {spread}, {widen} more a minute waited", spread=spread, widen=widen),
            t.gettext("tables open in {channel}", channel=channel)
            if channel_id
            else t.gettext("tables open where the longest-waiting player joined"),
        ]
        return " · ".join(parts)

    async def _league_rules(self, league_id: int) -> tuple[Season, Rules, QueueRules | None]:
        async with self.bot.storage.sessions() as session:
            season = await stored_leagues.active_season(session=session, league_id=league_id)
            row = await stored.get_rules(session=session, league_id=league_id)
        return season, queue_rules(row, season, league_id) if season else None, row

    # ------------------------------------------------------------------ the commands

    @queue.command(name="join", description=locale_str("Wait for a rated table: the bot seats you by rating"))
    @app_commands.describe(
        league=LEAGUE_OPTION,
        map=locale_str("Only this map (default: any the league plays)"),
        players=locale_str("Only tables of this many players (default: any)"),
    )
    @app_commands.choices(map=MAP_CHOICES)
    async def join(
        self,
        interaction: Interaction,
        league: League | None = None,
        map: app_commands.Choice[str] | None = None,
        players: app_commands.Range[int, 2, 5] | None = None,
    ) -> None:
        chosen = league or await find_league(interaction, None)
        season, rules, _ = await self._league_rules(chosen.id)
        if season is None or not season_open(season, utcnow()):
            raise NoOpenSeason(league=chosen.name)
        t = await self.bot.languages.for_interaction(interaction)
        map_id = map.value if map else None
        if not rules.maps or (map_id is not None and map_id not in rules.maps):
            raise MapNotInQueue(league=chosen.name, maps=t.join(league_map_name(t, m) for m in rules.maps) or "—")
        if not rules.sizes or (players is not None and players not in rules.sizes):
            raise SizeNotInQueue(league=chosen.name, sizes=t.join(str(s) for s in rules.sizes) or "—")
        async with self.bot.storage.sessions() as session:
            entry = await stored.join(
                session=session,
                league_id=chosen.id,
                guild_id=interaction.guild_id or 0,
                user_id=interaction.user.id,
                map_id=map_id,
                size=players,
                channel_id=interaction.channel_id,
            )
            waiting = await stored.entries(session=session, league_id=chosen.id)
        which = self.queue_words(t, map_id, players)
        if entry is None:
            await self.bot.reply(
                interaction,
                t.gettext(
                    "You are already waiting in the **{league}** queue ({queue}).", league=chosen.name, queue=which
                ),
            )
            return
        count = len({e.user_id for e in waiting})
        await self.bot.reply(
            interaction,
            "⏳ "
            + t.ngettext(
                "You are waiting for a **{league}** table ({queue}); {n} player waits in this league. When your table is "
                "ready you are mentioned in its new thread. `{leave}` leaves the queue.",
                "You are waiting for a **{league}** table ({queue}); {n} players wait in this league. When your table is "
                "ready you are mentioned in its new thread. `{leave}` leaves the queue.",
                count,
                league=chosen.name,
                queue=which,
                leave=slash(t, "ttr-league queue leave"),
            ),
        )

    @queue.command(name="leave", description=locale_str("Stop waiting in the server's queues (or one league's)"))
    @app_commands.describe(league=LEAGUE_OPTION)
    async def leave(self, interaction: Interaction, league: League | None = None) -> None:
        async with self.bot.storage.sessions() as session:
            left = await stored.leave(
                session=session,
                guild_id=interaction.guild_id or 0,
                user_id=interaction.user.id,
                league_id=league.id if league else None,
            )
        t = await self.bot.languages.for_interaction(interaction)
        lines = [
            t.ngettext("You left {n} queue.", "You left {n} queues.", left.left)
            if left.left
            else t.gettext("You were not waiting in any queue.")
        ]
        if left.seating:
            lines.append(t.gettext("A table that seats you is being opened right now: it is yours."))
        await self.bot.reply(interaction, " ".join(lines))

    @queue.command(name="status", description=locale_str("Who waits in the queues, and for how long"))
    @app_commands.describe(league=LEAGUE_OPTION)
    async def status(self, interaction: Interaction, league: League | None = None) -> None:
        t = await self.bot.languages.for_interaction(interaction)
        async with self.bot.storage.sessions() as session:
            leagues = (
                [league]
                if league
                else await stored_leagues.guild_leagues(session=session, guild_id=interaction.guild_id or 0)
            )
        if not leagues:
            await find_league(interaction, None)  # raises why there is none
        lines: list[str] = []
        for chosen in leagues:
            season, rules, row = await self._league_rules(chosen.id)
            async with self.bot.storage.sessions() as session:
                waiting = await stored.entries(session=session, league_id=chosen.id)
            lines.append(
                t.gettext(
                    "🎯 **{league}** queue: {rules}",
                    league=chosen.name,
                    rules=self.rules_words(t, rules, row.channel_id if row else None),
                )
                if season
                else t.gettext("🎯 **{league}** queue: closed until a season opens", league=chosen.name)
            )
            for e in waiting:
                words = {
                    "player": f"<@{e.user_id}>",
                    "queue": self.queue_words(t, e.map_id or None, e.size or None),
                    "since": f"<t:{int(e.joined_at.timestamp())}:R>",
                }
                lines.append(
                    t.gettext("• {player} · {queue} · waiting since {since} · being seated", **words)
                    if e.match_id
                    else t.gettext("• {player} · {queue} · waiting since {since}", **words)
                )
            if not waiting:
                lines.append(t.gettext("• nobody is waiting"))
        await self.bot.reply(interaction, "\n".join(lines))

    @queue.command(
        name="rules",
        description=locale_str("Set a league's queue: table sizes, map, rating spread, channel (league admins)"),
    )
    @app_commands.describe(
        league=LEAGUE_OPTION,
        min_players=locale_str("Smallest table (default 2)"),
        max_players=locale_str("Largest table (default 5)"),
        map=locale_str("Only this map (default: every map the season allows)"),
        spread=locale_str("How far ratings at a table may differ at first (default 10)"),
        widen=locale_str("How much further for each minute waited (default 0.5)"),
        channel=locale_str("Where tables open, as threads (default: where each joined)"),
    )
    @app_commands.choices(map=MAP_CHOICES)
    async def rules(
        self,
        interaction: Interaction,
        league: League | None = None,
        min_players: app_commands.Range[int, 2, 5] = 2,
        max_players: app_commands.Range[int, 2, 5] = 5,
        map: app_commands.Choice[str] | None = None,
        spread: app_commands.Range[float, 0, 100] | None = None,
        widen: app_commands.Range[float, 0, 100] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        chosen = league or await find_league(interaction, None)
        check_league_admin(interaction, chosen)
        defaults = QueueRules(league_id=chosen.id)
        sizes = list(range(min(min_players, max_players), max(min_players, max_players) + 1))
        async with self.bot.storage.sessions() as session:
            await stored.set_rules(
                session=session,
                league_id=chosen.id,
                user_id=interaction.user.id,
                sizes=sizes,
                maps=[map.value] if map else [],
                spread=defaults.spread if spread is None else spread,
                widen=defaults.widen if widen is None else widen,
                channel_id=channel.id if channel else None,
            )
        season, rules, row = await self._league_rules(chosen.id)
        t = await self.bot.languages.for_channel(interaction.guild_id)
        text = (
            t.gettext(
                "🎯 **{league}** queue rules set: {rules}",
                league=chosen.name,
                rules=self.rules_words(t, rules, row.channel_id),
            )
            if season
            else t.gettext("🎯 **{league}** queue rules set; the queue opens with the next season.", league=chosen.name)
        )
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot) -> None:
    await bot.add_cog(Queue(bot))
