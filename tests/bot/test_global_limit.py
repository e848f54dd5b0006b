"""Discord's global rate limit shared by the bot's processes (bot/global_limit.py): each paces its
REST requests to its shards' share, the shares add up to the limit, and three shard processes
under load never meet a global 429 of the fake Discord (which counts them together)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot import global_limit
from bot.global_limit import Pacer, share
from storage import Storage
from storage.models import Announcement
from storage.settings import database_url
from tests.bot.bot_process import BotProcess
from tests.fakediscord import FakeDiscord
from tests.fakediscord.gateway import shard_for
from tests.storage.conftest import PG_URL, wipe_postgres


@given(
    limit=st.integers(1, 500),
    owners=st.lists(st.integers(0, 7), min_size=1, max_size=64),  # shard n runs in process owners[n]
)
def test_the_shares_of_processes_running_every_shard_once_add_up_to_the_limit(limit: int, owners: list[int]) -> None:
    count = len(owners)
    processes = {p: [n for n, owner in enumerate(owners) if owner == p] for p in set(owners)}
    shares = [share(limit, count, ids) for ids in processes.values()]
    assert sum(shares) == pytest.approx(limit)
    assert share(limit, None, None) == share(limit, count, list(range(count))) == limit


class Clock:
    """A clock for the pacer: `sleep` moves it on instead of waiting."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.yield_ = asyncio.sleep  # the real one, to let the other requests run

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await self.yield_(0)


@pytest.mark.parametrize("per_second", [50.0, 50 / 3, 2.5, 0.5, 50 / 100])
async def test_a_pacer_never_lets_more_than_its_share_through_in_any_second(
    per_second: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(global_limit.time, "monotonic", clock.monotonic)
    monkeypatch.setattr(global_limit.asyncio, "sleep", clock.sleep)
    pacer = Pacer(per_second)
    sent: list[float] = []

    async def request() -> None:
        await pacer.take()
        sent.append(clock.now)

    await asyncio.gather(*(request() for _ in range(200)))  # all at once
    assert len(sent) == 200 and sent == sorted(sent)
    for i, start in enumerate(sent):  # in any second from any request on, at most the share
        in_second = sum(1 for when in sent[i:] if when < start + 1.0)
        assert in_second <= max(1, per_second)
    took = sent[-1] - sent[0]
    whole = max(1, int(per_second)) if per_second >= 1 else per_second  # a share's whole requests a second
    assert took <= 200 / whole * 1.1  # and close to that, not slower


SHARDS = 3
LIMIT = 9  # requests a second, all three processes together: 3 each


@pytest.mark.slow
@pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set")
@pytest.mark.xdist_group("postgresql")
async def test_three_shard_processes_under_load_never_meet_the_global_limit(tmp_path: Path) -> None:
    """Games starting at once in the guilds of three shard processes (each start posts the board
    and DMs both players, which Discord's global limit counts): the fake sees requests at nearly
    the limit, and no global 429."""
    fake = FakeDiscord(global_rate_limit=(LIMIT, 1.0)).add_default_world()
    channels = []
    for shard in range(SHARDS):
        while shard_for(fake.ids.peek(), SHARDS) != shard:
            fake.ids.next()
        guild = fake.add_guild(f"Shard {shard} Club")
        for user in (fake.alice, fake.bob):
            guild.members[user.id] = user
        channels += [fake.add_channel(guild, f"table-{n}") for n in range(4)]
    await fake.start()
    url = database_url(PG_URL)
    await wipe_postgres(url)
    storage = Storage(url)
    await storage.start()
    procs = []
    for shard in range(SHARDS):
        (tmp_path / str(shard)).mkdir()
        settings = {"SHARD_COUNT": str(SHARDS), "SHARD_IDS": f"[{shard}]", "DISCORD_GLOBAL_LIMIT": str(LIMIT)}
        procs.append(BotProcess(fake, tmp_path / str(shard), DATABASE_URL=url, AUTO_MIGRATE="false", **settings))
    try:
        await asyncio.gather(*(proc.start() for proc in procs))

        async def command(user, channel, name: str, **options) -> None:  # type: ignore[no-untyped-def]
            reply = await fake.slash(user, channel, name, **options)
            if reply.kind == "deferred":
                await reply.wait_resolved(30)

        async def new_game(channel) -> None:  # type: ignore[no-untyped-def]
            await command(fake.alice, channel, "ttr-host new", map="usa", players=2)
            await command(fake.bob, channel, "ttr join")
            await command(fake.alice, channel, "ttr-host start", first=fake.alice)

        await asyncio.gather(*(new_game(channel) for channel in channels))

        async def announced() -> int:
            async with storage.sessions() as session:
                return (
                    await session.execute(
                        select(func.count()).select_from(Announcement).where(Announcement.announced_at.is_not(None))
                    )
                ).scalar_one()

        async with asyncio.timeout(60):
            while await announced() < len(channels):
                await asyncio.sleep(0.2)
        await fake.settled()
        for channel in channels:  # every game's board and buttons are in its channel
            assert any(m.attachments and m.custom_ids for m in fake.channel_messages(channel)), channel
        assert fake.rate_limits.global_refused == []
        assert fake.rate_limits.busiest_second() >= LIMIT * 2 // 3  # the load came near the limit
        assert not [e for proc in procs for e in proc.errors()]
    finally:
        for proc in procs:
            await proc.stop()
        await storage.close()
        await fake.close()
