"""The matchmaking queue: the pure matching (hypothesis: nobody twice, sizes and maps allowed,
spread respected, nobody left who could still make a table, the longest-waiting first, the same
tables for the same players in any order) and its storage (SQLite and PostgreSQL): joining and
leaving, reserving a table once however many matchers race, the game's transaction taking it."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from storage import leagues
from storage import queue as stored
from storage.games import create_game
from storage.matchmaking import Match, Rules, Waiting, match
from storage.models import GameRecord, LeagueRating, utcnow
from tests.storage.helpers import new_game

MAPS = ("usa", "europe", "nordic")


@st.composite
def queues(draw):
    """Up to 10 entries of up to 7 players in two leagues (some players in several queues)."""
    rules = {
        league: Rules(
            sizes=tuple(sorted(draw(st.sets(st.integers(2, 5), min_size=1)))),
            maps=tuple(draw(st.lists(st.sampled_from(MAPS), min_size=1, max_size=2, unique=True))),
            spread=draw(st.floats(0, 20)),
            widen=draw(st.sampled_from([0.0, 0.5, 2.0])),
            most={"nordic": 3},
        )
        for league in (1, 2)
    }
    ratings = {u: draw(st.floats(-15, 40)) for u in range(1, 8)}
    entries = []
    for entry_id in range(1, draw(st.integers(0, 10)) + 1):
        user = draw(st.integers(1, 7))
        entries.append(
            Waiting(
                entry_id=entry_id,
                user_id=user,
                league_id=draw(st.sampled_from([1, 2])),
                rating=ratings[user],
                waited=draw(st.sampled_from([0.0, 60.0, 600.0, 3600.0])),
                map_id=draw(st.sampled_from([None, *MAPS])),
                size=draw(st.sampled_from([None, 2, 3, 4])),
            )
        )
    return entries, rules


def valid(table: tuple[Waiting, ...], league_id: int, map_id: str, rules: Rules) -> bool:
    """A table the rules allow: one league, distinct players, an allowed size and map every
    player accepts, ratings within the spread allowed for its longest-waiting player."""
    ratings = [e.rating for e in table]
    return (
        len({e.user_id for e in table}) == len(table)
        and len(table) in rules.sizes
        and map_id in rules.maps
        and len(table) <= rules.most.get(map_id, 5)
        and all(e.league_id == league_id and e.map_id in (None, map_id) and e.size in (None, len(table)) for e in table)
        and max(ratings) - min(ratings) <= rules.allowed_spread(max(e.waited for e in table))
    )


def some_table(entries: list[Waiting], rules: dict[int, Rules], *, including: Waiting | None = None) -> bool:
    """Whether any valid table can be made of `entries` (by brute force)."""
    for size in range(2, 6):
        for table in itertools.combinations(entries, size):
            if including is not None and including not in table:
                continue
            league = table[0].league_id
            if any(valid(table, league, m, rules[league]) for m in rules[league].maps):
                return True
    return False


@given(queues())
def test_tables_are_valid_and_nobody_sits_twice(queue):
    entries, rules = queue
    tables = match(entries, rules)
    seated = [e.user_id for t in tables for e in t.entries]
    assert len(seated) == len(set(seated))
    for t in tables:
        assert valid(t.entries, t.league_id, t.map_id, rules[t.league_id]), t
        assert [e.waited for e in t.entries] == sorted((e.waited for e in t.entries), reverse=True)  # seat order


@given(queues())
def test_nobody_left_waiting_could_still_make_a_table(queue):
    entries, rules = queue
    seated = {e.user_id for t in match(entries, rules) for e in t.entries}
    left = [e for e in entries if e.user_id not in seated]
    assert not some_table(left, rules)


@given(queues())
def test_the_longest_waiting_are_seated_first(queue):
    """Tables come longest-waiting player first: when a table is made, nobody still unseated who
    waited longer could have had a table of their own."""
    entries, rules = queue
    seated: set[int] = set()
    for table in match(entries, rules):
        remaining = [e for e in entries if e.user_id not in seated]
        anchor = table.entries[0]
        for earlier in remaining:
            if (-earlier.waited, earlier.entry_id) < (-anchor.waited, anchor.entry_id):
                assert not some_table(remaining, rules, including=earlier), (earlier, table)
        seated.update(table.user_ids)


@given(queues(), st.randoms(use_true_random=False))
def test_the_same_players_in_any_order_make_the_same_tables(queue, rng):
    entries, rules = queue
    shuffled = list(entries)
    rng.shuffle(shuffled)
    assert match(shuffled, rules) == match(entries, rules)


def test_the_spread_grows_with_waiting_and_tables_fill_largest_first():
    rules = {1: Rules(sizes=(3, 4), maps=("usa",), spread=5.0, widen=1.0)}
    fresh = [Waiting(i, i, 1, rating=r, waited=0.0) for i, r in enumerate([0.0, 2.0, 4.0, 20.0], start=1)]
    [table] = match(fresh, rules)
    assert table.user_ids == (1, 2, 3)  # 20 is too far from the others just now
    waited = [Waiting(1, 1, 1, rating=0.0, waited=20 * 60.0), *fresh[1:]]
    assert match(waited, rules) == [Match(1, "usa", (waited[0], *fresh[1:]))]  # 20 minutes: 25 points
    # The longest waiter's wider window reaches below their rating too
    below = [
        Waiting(1, 1, 1, rating=10.0, waited=60.0),
        Waiting(2, 2, 1, rating=5.0, waited=0.0),
        Waiting(3, 3, 1, rating=8.0, waited=0.0),
        Waiting(4, 4, 1, rating=16.0, waited=0.0),
    ]
    assert [t.user_ids for t in match(below, {1: Rules(sizes=(3,), maps=("usa",), spread=2.0, widen=3.0)})] == [
        (1, 2, 3)
    ]


def test_the_longest_waiting_player_is_seated_before_those_who_joined_earlier_by_id():
    rules = {1: Rules(sizes=(2,), maps=("usa",), spread=5.0, widen=0.25)}
    waiting = [
        Waiting(1, 1, 1, rating=-1.0, waited=0.0),
        Waiting(2, 2, 1, rating=20.0, waited=3600.0),
        Waiting(3, 3, 1, rating=3.0, waited=0.0),
    ]
    assert [t.user_ids for t in match(waiting, rules)] == [(2, 3)]  # an hour: 20 points; 1 waits on


def test_eleven_players_make_three_tables():
    rules = {1: Rules(sizes=(3, 4), maps=("usa",), spread=10.0, widen=0.0)}
    players = [Waiting(i, i, 1, rating=float(i % 3), waited=1000.0 - i) for i in range(1, 12)]
    assert [len(t.entries) for t in match(players, rules)] == [4, 4, 3]


# ---------------------------------------------------------------------------- storage


async def open_season(session, *, guild_id: int = 7) -> leagues.Season:
    league = await leagues.create_league(session=session, guild_id=guild_id, name="Club", created_by=1)
    return await leagues.create_season(
        session=session,
        league_id=league.id,
        name="Cup",
        starts_at=utcnow(),
        ends_at=utcnow() + timedelta(days=30),
        created_by=1,
    )


async def test_join_leave_and_entries(db):
    async with db.sessions() as session:
        season = await open_season(session)
        first = await stored.join(
            session=session, league_id=season.league_id, guild_id=7, user_id=10, map_id="usa", size=None, channel_id=99
        )
        assert first is not None and first.map_id == "usa" and first.size == 0
        assert (
            await stored.join(
                session=session,
                league_id=season.league_id,
                guild_id=7,
                user_id=10,
                map_id="usa",
                size=None,
                channel_id=99,
            )
            is None
        )  # that queue already
        await stored.join(
            session=session, league_id=season.league_id, guild_id=7, user_id=10, map_id=None, size=3, channel_id=99
        )
        await stored.join(
            session=session, league_id=season.league_id, guild_id=7, user_id=11, map_id=None, size=None, channel_id=99
        )
        assert [(e.user_id, e.map_id, e.size) for e in await stored.entries(session=session, guild_id=7)] == [
            (10, "usa", 0),
            (10, "", 3),
            (11, "", 0),
        ]
        assert await stored.busy_guilds(session=session) == [7]
        left = await stored.leave(session=session, guild_id=7, user_id=10)
        assert (left.left, left.seating) == (2, 0)
        assert [e.user_id for e in await stored.entries(session=session, guild_id=7)] == [11]


async def test_a_reserved_table_becomes_one_game_and_its_players_leave_every_queue(db):
    async with db.sessions() as session:
        season = await open_season(session)
        ids = {}
        for user, map_id in ((1, None), (2, None), (2, "usa"), (3, None)):
            entry = await stored.join(
                session=session,
                league_id=season.league_id,
                guild_id=7,
                user_id=user,
                map_id=map_id,
                size=None,
                channel_id=99,
            )
            ids.setdefault(user, entry.id)
        reserved = await stored.reserve(
            session=session,
            league_id=season.league_id,
            season_id=season.id,
            guild_id=7,
            channel_id=99,
            map_id="europe",
            entry_ids=[ids[1], ids[2]],
            user_ids=[1, 2],
        )
        assert reserved is not None
        # Player 2's other queue is reserved too: no other table takes them, and leaving keeps it
        again = await stored.reserve(
            session=session,
            league_id=season.league_id,
            season_id=season.id,
            guild_id=7,
            channel_id=99,
            map_id="usa",
            entry_ids=[ids[3], ids[2] + 1],
            user_ids=[3, 2],
        )
        assert again is None
        left = await stored.leave(session=session, guild_id=7, user_id=2)
        assert (left.left, left.seating) == (0, 2)
        assert [m.id for m in await stored.pending_matches(session=session)] == [reserved.id]

        async def link(s, game_id):
            await stored.take(s, reserved.id, game_id)

        record = await create_game(
            session=session, guild_id=7, channel_id=500, game=new_game(seats=2), players=[1, 2], link=link
        )
        assert [e.user_id for e in await stored.entries(session=session, guild_id=7)] == [3]
        assert await stored.pending_matches(session=session) == []
        made = await stored.get_match(session=session, match_id=reserved.id)
        assert made.game_id == record.id
        with pytest.raises(stored.MatchGoneError):  # a retry cannot make it a second game
            await create_game(
                session=session, guild_id=7, channel_id=501, game=new_game(seats=2), players=[1, 2], link=link
            )
        assert [g.channel_id for g in await _active_games(session)] == [500]


async def _active_games(session):
    return list((await session.execute(select(GameRecord).where(GameRecord.status == "active"))).scalars())


async def test_a_released_table_puts_its_players_back(db):
    async with db.sessions() as session:
        season = await open_season(session)
        a = await stored.join(
            session=session, league_id=season.league_id, guild_id=7, user_id=1, map_id=None, size=None, channel_id=99
        )
        b = await stored.join(
            session=session, league_id=season.league_id, guild_id=7, user_id=2, map_id=None, size=None, channel_id=99
        )
        reserved = await stored.reserve(
            session=session,
            league_id=season.league_id,
            season_id=season.id,
            guild_id=7,
            channel_id=99,
            map_id="usa",
            entry_ids=[a.id, b.id],
            user_ids=[1, 2],
        )
        assert await stored.failed_attempt(session=session, match_id=reserved.id) == 1
        await stored.release(session=session, match_id=reserved.id)
        assert [e.match_id for e in await stored.entries(session=session, guild_id=7, waiting_only=True)] == [
            None,
            None,
        ]
        assert await stored.pending_matches(session=session) == []


async def test_matchers_racing_for_one_player_seat_them_once(db):
    """Eight matchers at once (separate sessions, so separate connections on PostgreSQL), each
    reserving player 1 with another partner: exactly one gets them."""
    async with db.sessions() as session:
        season = await open_season(session)
        entries = [
            await stored.join(
                session=session,
                league_id=season.league_id,
                guild_id=7,
                user_id=user,
                map_id=None,
                size=None,
                channel_id=99,
            )
            for user in range(1, 10)
        ]

    async def matcher(partner):
        async with db.sessions() as session:
            return await stored.reserve(
                session=session,
                league_id=season.league_id,
                season_id=season.id,
                guild_id=7,
                channel_id=99,
                map_id="usa",
                entry_ids=[entries[0].id, partner.id],
                user_ids=[1, partner.user_id],
            )

    results = await asyncio.gather(*(matcher(p) for p in entries[1:]))
    won = [r for r in results if r is not None]
    assert len(won) == 1
    async with db.sessions() as session:
        reserved = [e for e in await stored.entries(session=session, guild_id=7) if e.match_id is not None]
    assert sorted(e.user_id for e in reserved) == sorted(won[0].user_ids)


async def test_ratings_are_the_season_ordinals(db):
    async with db.sessions() as session:
        season = await open_season(session)
        session.add(LeagueRating(season_id=season.id, scope="all", user_id=1, mu=30.0, sigma=2.0))
        session.add(LeagueRating(season_id=season.id, scope="usa", user_id=1, mu=40.0, sigma=2.0))
        await session.commit()
        assert await stored.ratings(session=session, season_id=season.id, user_ids=[1, 2]) == {1: 24.0}
