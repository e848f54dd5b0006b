"""Two shard processes on one PostgreSQL: the real `python -m bot` twice (shard 0 and shard 1 of 2,
AUTO_MIGRATE=false after one `migrate`), each logging in to the fake Discord, which routes each
guild's events to its shard's session and every DM to shard 0.

Games in a guild of each shard play to the end (AI seats, deadlines forced in the database, the
people's starting tickets chosen in DMs, so shard 0 moves the other shard's games too); each
deadline and each AI move is acted on once, by the process serving the game's guild; a SIGKILL of
shard 1's process leaves shard 0's game going and its own games untouched until it restarts, then
they go on; a league game in shard 1's guild, whose players are in guilds of both shards, is rated
once; only shard 0's process syncs the commands."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from storage import Storage
from storage.clocks import DEADLINE, Timer
from storage.games import get_game, load_game
from storage.models import Announcement, GameRecord, LeagueGame, LeagueRating, LeagueRatingChange, utcnow
from storage.settings import database_url
from tests.bot.bot_process import BotProcess
from tests.fakediscord import FakeDiscord
from tests.fakediscord.gateway import shard_for
from tests.storage.conftest import PG_URL, wipe_postgres

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set"),
    pytest.mark.xdist_group("postgresql"),  # it wipes the one database the other PostgreSQL tests use
]

TIMEOUT = 25.0


def guild_on(fake: FakeDiscord, shard: int, name: str, *channels: str):  # type: ignore[no-untyped-def]
    """A guild on `shard` of 2, with alice, bob and dirk as members and these text channels."""
    while shard_for(fake.ids.peek(), 2) != shard:
        fake.ids.next()
    guild = fake.add_guild(name)
    for user in (fake.alice, fake.bob, fake.dirk):
        guild.members[user.id] = user
    return guild, [fake.add_channel(guild, channel) for channel in channels]


class Shards:
    """The test's view of both processes and the database they share."""

    def __init__(self, fake: FakeDiscord, storage: Storage, procs: dict[int, BotProcess]) -> None:
        self.fake, self.storage, self.procs = fake, storage, procs

    async def command(self, user, channel, command: str, /, **options):  # type: ignore[no-untyped-def]
        reply = await self.fake.slash(user, channel, command, **options)
        if reply.kind == "deferred":
            await reply.wait_resolved(TIMEOUT)
        return reply

    async def record(self, game_id: int):  # type: ignore[no-untyped-def]
        async with self.storage.sessions() as session:
            return await get_game(session=session, game_id=game_id)

    async def until(self, predicate, what: str, timeout: float = TIMEOUT) -> None:  # type: ignore[no-untyped-def]
        try:
            async with asyncio.timeout(timeout):
                while not await predicate():
                    await asyncio.sleep(0.1)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what}: {await self.where()}") from None

    async def where(self) -> list:  # type: ignore[type-arg]
        """Every game's phase, whom it waits on and its pending timers (for a failure's report)."""
        found = []
        async with self.storage.sessions() as session:
            for record in (await session.execute(select(GameRecord))).scalars().all():
                loaded = await load_game(session=session, game_id=record.id)
                timers = (await session.execute(select(Timer).where(Timer.game_id == record.id))).scalars().all()
                found.append(
                    (
                        record.id,
                        record.guild_id >> 22 & 1,
                        record.status,
                        loaded.game.phase,
                        loaded.game.to_move(),
                        [(t.seat, t.kind, t.decision, t.fired_at is not None) for t in timers],
                    )
                )
        return found

    async def new_game(self, channel, host, others=(), *, ai: int = 0) -> int:  # type: ignore[no-untyped-def]
        """A Nordic game on a 5-minute timer whose missed turns an AI plays; returns its id."""
        await self.command(
            host,
            channel,
            "ttr-host new",
            map="nordic",
            players=1 + len(others) + ai,
            timer=300,
            absence="ai",
            reminder_minutes=0,
        )
        for user in others:
            await self.command(user, channel, "ttr join")
        return await self.start(host, channel, ai)

    async def start(self, host, channel, ai: int) -> int:  # type: ignore[no-untyped-def]
        await self.command(host, channel, "ttr-host start", first=host, **({"ai_players": ai} if ai else {}))
        async with self.storage.sessions() as session:
            from storage.games import active_game_in_channel

            record = await active_game_in_channel(session=session, channel_id=channel.id)
        assert record is not None
        return record.id

    async def keep_tickets_by_dm(self, user, game_id: int) -> None:  # type: ignore[no-untyped-def]
        """The user keeps every offered starting ticket in the DM the game sent (DMs reach shard 0)."""

        def offer():  # type: ignore[no-untyped-def]
            return next(
                (
                    (m, c)
                    for m in reversed(self.fake.dms(user))
                    for c in m.custom_ids
                    if c.startswith(f"ttr:{game_id}:") and c.endswith(":keep")
                ),
                None,
            )

        await self.until(lambda: asyncio.sleep(0, offer() is not None), "the ticket offer by DM")
        message, custom_id = offer()
        values = [o["value"] for o in message.component(custom_id)["options"]]
        before = (await self.record(game_id)).version
        await self.fake.select(user, message, custom_id, values)
        await self.until(lambda: self._past(game_id, before), "the DM's ticket choice to be saved")

    async def _past(self, game_id: int, version: int) -> bool:
        return (await self.record(game_id)).version > version

    async def force_deadline(self, game_id: int, seat: int) -> None:
        """Wait until the game waits on `seat`, move its deadline to now, wait until it fired (a
        deadline replaced meanwhile, its turn having ended, is looked for again)."""

        async def pending() -> Timer | None:
            async with self.storage.sessions() as session:
                return (
                    (
                        await session.execute(
                            select(Timer).where(
                                Timer.game_id == game_id,
                                Timer.seat == seat,
                                Timer.kind == DEADLINE,
                                Timer.fired_at.is_(None),
                            )
                        )
                    )
                    .scalars()
                    .first()
                )

        async def fired(timer_id: int) -> bool | None:
            async with self.storage.sessions() as session:
                timer = await session.get(Timer, timer_id, populate_existing=True)
            return None if timer is None else timer.fired_at is not None

        while True:
            await self.until(lambda: _truthy(pending()), f"game {game_id} to wait on seat {seat}")
            timer = await pending()
            if timer is None:
                continue
            async with self.storage.sessions() as session:
                await session.execute(
                    update(Timer).where(Timer.id == timer.id).values(due_at=utcnow() - timedelta(seconds=1))
                )
                await session.commit()
            await self.until(lambda: _settled(fired(timer.id)), f"game {game_id}'s forced deadline to fire")  # noqa: B023
            if await fired(timer.id):
                return

    async def finished(self, game_id: int) -> bool:
        return (await self.record(game_id)).status == "finished"

    async def causes(self, game_id: int) -> list[str]:
        async with self.storage.sessions() as session:
            rows = (
                (
                    await session.execute(
                        select(Announcement).where(Announcement.game_id == game_id).order_by(Announcement.version)
                    )
                )
                .scalars()
                .all()
            )
        return [row.cause for row in rows]

    def applied(self, cause: str) -> dict[int, list[int]]:
        """Shard -> the games of the "action applied" log lines with this cause, from that process."""
        return {
            shard: [e["game_id"] for e in proc.log if e["message"] == "action applied" and e["cause"] == cause]
            for shard, proc in self.procs.items()
        }


async def _truthy(awaitable) -> bool:  # type: ignore[no-untyped-def]
    return bool(await awaitable)


async def _settled(awaitable) -> bool:  # type: ignore[no-untyped-def]
    """Fired (True) or gone (None), not still waiting (False)."""
    return await awaitable is not False


async def test_two_shard_processes_on_one_postgresql(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    g0, (home,) = guild_on(fake, 0, "Shard Zero Club", "general")
    g1, (away, ranked) = guild_on(fake, 1, "Shard One Club", "lobby", "league")
    url = database_url(PG_URL)
    await wipe_postgres(url)
    storage = Storage(url)
    await storage.start()  # `python -m storage migrate`, once per release: the processes do not migrate
    procs: dict[int, BotProcess] = {}
    for shard in (0, 1):
        (tmp_path / str(shard)).mkdir()
        procs[shard] = BotProcess(
            fake,
            tmp_path / str(shard),
            DATABASE_URL=url,
            SHARD_COUNT="2",
            SHARD_IDS=f"[{shard}]",
            AUTO_MIGRATE="false",
            AI_DELAY="0",
            OUTBOX_LEASE="3",
        )
    shards = Shards(fake, storage, procs)
    try:
        await procs[0].start()  # shard 0 syncs the commands (global: every guild has them)
        await procs[1].start()
        ready = {s: next(e["message"] for e in p.log if e["message"].startswith("ready as")) for s, p in procs.items()}
        assert "commands synced globally" in ready[0] and "left to the process with shard 0" in ready[1], ready
        assert fake.requests.count("PUT /applications/{application_id}/commands") == 1
        for shard in (0, 1):  # each process holds only its own shard's guilds
            count = sum(1 for g in fake.bot_guilds() if shard_for(g.id, 2) == shard)
            assert f"in {count} servers" in ready[shard], ready

        for command, options in (
            ("ttr-league create", {"name": "Two Shards League"}),
            ("ttr-league season", {"name": "Season 1"}),
        ):
            await shards.command(fake.owner, ranked, command, **options)
        first = await shards.new_game(home, fake.alice, ai=2)  # shard 0's
        second = await shards.new_game(away, fake.bob, ai=2)  # shard 1's
        await shards.command(
            fake.alice, ranked, "ttr-host new", map="nordic", players=2, timer=300, absence="ai", reminder_minutes=0
        )
        await shards.command(fake.bob, ranked, "ttr join")
        reply = await shards.command(fake.alice, ranked, "ttr-league rated")
        assert "This game counts for **Two Shards League · Season 1**" in reply.text, reply.text
        league = await shards.start(fake.alice, ranked, 0)
        # Every starting ticket choice by DM: shard 0's process moves shard 1's games too.
        await asyncio.gather(
            shards.keep_tickets_by_dm(fake.alice, first),
            shards.keep_tickets_by_dm(fake.bob, second),
            shards.keep_tickets_by_dm(fake.alice, league),
            shards.keep_tickets_by_dm(fake.bob, league),
        )
        # Deadlines, forced in the database: the process serving the game's guild plays the missed
        # turn from the game as stored now (shard 1's copy of its games is stale after the DMs).
        await asyncio.gather(shards.force_deadline(first, 0), shards.force_deadline(second, 0))
        await shards.force_deadline(league, 0)
        # The people leave the AI games: their AI seats play them to the end.
        await shards.command(fake.alice, home, "ttr resign")
        await shards.command(fake.bob, away, "ttr resign")

        await procs[1].kill()
        still = {game: (await shards.record(game)).version for game in (first, second, league)}
        await asyncio.sleep(3)
        assert (await shards.record(second)).version == still[second]  # nobody else plays shard 1's AIs
        assert (await shards.record(league)).version == still[league]
        assert (await shards.finished(first)) or (await shards.record(first)).version > still[first]
        await procs[1].start()
        await shards.until(lambda: shards.finished(first), "shard 0's game to end", timeout=60)
        await shards.until(lambda: shards.finished(second), "shard 1's game to end after the restart", timeout=60)
        await shards.command(fake.bob, ranked, "ttr resign")  # the league game ends, in shard 1's guild
        await shards.until(lambda: shards.finished(league), "the league game to end")

        async def settled() -> bool:  # the league listener comes after the final message
            async with storage.sessions() as session:
                return (await session.get(LeagueGame, league, populate_existing=True)) is not None

        await shards.until(settled, "the league game to be rated")

        async def all_announced() -> bool:
            async with storage.sessions() as session:
                rows = (await session.execute(select(Announcement))).scalars().all()
            return all(row.announced_at is not None for row in rows)

        await shards.until(all_announced, "every stored change to be announced")
        async with storage.sessions() as session:
            errors = [
                (r.game_id, r.version, r.error)
                for r in (await session.execute(select(Announcement).where(Announcement.error.is_not(None)))).scalars()
            ]
            changes = (await session.execute(select(LeagueRatingChange))).scalars().all()
            ratings = (await session.execute(select(LeagueRating))).scalars().all()
            rated = (await session.execute(select(LeagueGame))).scalars().all()
            fired = {
                game: len(
                    (
                        await session.execute(
                            select(Timer.id).where(
                                Timer.game_id == game, Timer.kind == DEADLINE, Timer.fired_at.is_not(None)
                            )
                        )
                    ).all()
                )
                for game in (first, second, league)
            }
        assert not errors, errors
        # Each forced deadline played one turn (a run of timeout changes), each by the serving process.
        for game, forced in ((first, 1), (second, 1), (league, 1)):
            causes = await shards.causes(game)
            runs = sum(1 for i, c in enumerate(causes) if c == "timeout" and (i == 0 or causes[i - 1] != "timeout"))
            assert fired[game] == runs == forced, (game, fired[game], causes)
        timeouts, ai_moves = shards.applied("timeout"), shards.applied("ai")
        assert set(timeouts[0]) == {first} and set(timeouts[1]) == {second, league}, timeouts
        # AI seats: played only by the process serving their guild, each decision once. The league
        # game's timed-out seat is kept warm from its timeout on: the AI seats controller may play
        # the rest of that turn before the timer's loop does (bot/cogs/clocks.py), so some "ai"
        # moves there are fine, as long as shard 1 made them.
        played = {s: set(g) for s, g in ai_moves.items()}
        assert played[0] == {first} and second in played[1] <= {second, league}, played
        # Each stored AI move was logged by the process that made it, but for one: shard 1 was
        # killed once, and a SIGKILL between a move's commit and its "action applied" line leaves
        # that move stored and unlogged (at most one per game of that shard).
        for game, killed in ((first, 0), (second, 1), (league, 1)):
            unlogged = (await shards.causes(game)).count("ai") - ai_moves[0].count(game) - ai_moves[1].count(game)
            assert 0 <= unlogged <= killed, (game, unlogged)
        # The league game is rated once: one game in each player's ratings (every ladder).
        assert [(g.game_id, g.rated) for g in rated] == [(league, True)]
        assert {c.game_id for c in changes} == {league} and {c.user_id for c in changes} == {fake.alice.id, fake.bob.id}
        assert ratings and {(r.user_id, r.games) for r in ratings} == {(fake.alice.id, 1), (fake.bob.id, 1)}
        for channel in (home, away, ranked):  # one final message each
            assert sum(1 for m in fake.channel_messages(channel) if m.text.startswith("## 🏁")) == 1, channel
        troubles = [e for p in procs.values() for e in p.errors()]
        assert not troubles, troubles
    finally:
        for shard, proc in procs.items():
            await proc.stop()
            for entry in proc.log:  # what went wrong, for a failure's report
                if entry.get("level") in ("WARNING", "ERROR", "CRITICAL"):
                    print(f"shard {shard}:", entry)
        await storage.close()
