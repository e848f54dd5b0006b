"""Tournaments in storage (SQLite and PostgreSQL): sign-up limits, the start and each round claimed
once, a table's game linked in the game's transaction (or rolled back when another took it),
results, drops, the end, the CSV export."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import timedelta

import pytest
from sqlalchemy import select

from storage import games as stored_games
from storage import tournaments as stored
from storage.models import GameRecord, utcnow
from tests.storage.helpers import new_game


async def _tournament(db, players: int, **kwargs):
    async with db.sessions() as s:
        t = await stored.create_tournament(session=s, guild_id=1, channel_id=2, name="Cup", organizer_id=9,
                                           format="swiss", map_id="europe", **kwargs)
        for user in range(101, 101 + players):
            await stored.sign_up(session=s, tournament_id=t.id, user_id=user)
    return t


async def _finish_round(db, t_id: int, number: int) -> None:
    async with db.sessions() as s:
        for table in await stored.tables(session=s, tournament_id=t_id, round=number):
            if table.status != "done":
                await stored.adjudicate(session=s, table_id=table.id, order=table.players,
                                        scores=[10 * i for i in range(len(table.players))], user_id=9)


async def test_sign_up_is_capped_closed_by_its_deadline_and_once_per_player(db):
    t = await _tournament(db, 3, cap=4, signup_deadline=utcnow() + timedelta(hours=1))
    async with db.sessions() as s:
        with pytest.raises(stored.TournamentError, match="already"):
            await stored.sign_up(session=s, tournament_id=t.id, user_id=101)
        assert await stored.sign_up(session=s, tournament_id=t.id, user_id=200) == 4
        with pytest.raises(stored.TournamentError, match="full"):
            await stored.sign_up(session=s, tournament_id=t.id, user_id=201)
        assert await stored.withdraw(session=s, tournament_id=t.id, user_id=200) == 3
        with pytest.raises(stored.TournamentError, match="closed"):
            await stored.sign_up(session=s, tournament_id=t.id, user_id=201, now=utcnow() + timedelta(hours=2))
        with pytest.raises(stored.TournamentError, match="this server already has"):
            await stored.create_tournament(session=s, guild_id=1, channel_id=2, name="Cup", organizer_id=9,
                                           format="swiss", map_id="europe")


async def test_a_swiss_tournament_runs_its_rounds_once_each_and_ends(db):
    t = await _tournament(db, 12, rounds=3)
    async with db.sessions() as a, db.sessions() as b:
        started = await asyncio.gather(stored.start(session=a, tournament_id=t.id),
                                       stored.start(session=b, tournament_id=t.id))
    assert sorted(started) == [False, True]
    async with db.sessions() as s:
        first = await stored.tables(session=s, tournament_id=t.id)
        assert [len(x.players) for x in first] == [4, 4, 4] and all(x.status == "pending" for x in first)
        # one process claims a table; a second claim waits for the lease to run out
        assert await stored.claim_table(session=s, table_id=first[0].id, owner="a")
        assert not await stored.claim_table(session=s, table_id=first[0].id, owner="b")
        assert await stored.claim_table(session=s, table_id=first[0].id, owner="b",
                                        now=utcnow() + stored.CLAIM_LEASE * 2)
        # the game and the table's link in one transaction; a second game for the table is rolled back
        game = new_game("europe", 4)
        record = await stored_games.create_game(
            session=s, guild_id=1, channel_id=50, game=game, players=first[0].players,
            link=lambda session, gid: stored.link_game(session=session, table_id=first[0].id, game_id=gid))
        with pytest.raises(stored.TableTaken):
            await stored_games.create_game(
                session=s, guild_id=1, channel_id=51, game=new_game("europe", 4), players=first[0].players,
                link=lambda session, gid: stored.link_game(session=session, table_id=first[0].id, game_id=gid))
        assert (await s.execute(select(GameRecord.channel_id))).scalars().all() == [50]
        assert (await stored.table_of_game(session=s, game_id=record.id)).status == "playing"
        assert await stored.advance(session=s, tournament_id=t.id) == "waiting"
        assert await stored.drop(session=s, tournament_id=t.id, user_id=first[0].players[1]) == record.id
    await _finish_round(db, t.id, 1)
    async with db.sessions() as a, db.sessions() as b:
        opened = await asyncio.gather(stored.advance(session=a, tournament_id=t.id),
                                      stored.advance(session=b, tournament_id=t.id))
    assert sorted(opened) == ["opened", "waiting"]  # one opened round 2; the other saw its tables
    async with db.sessions() as s:
        second = await stored.tables(session=s, tournament_id=t.id, round=2)
        seated = [u for x in second for u in x.players]
        assert len(seated) == 11 and first[0].players[1] not in seated and [len(x.players) for x in second] == [4, 4, 3]
    await _finish_round(db, t.id, 2)
    async with db.sessions() as s:
        assert await stored.advance(session=s, tournament_id=t.id) == "opened"
    await _finish_round(db, t.id, 3)
    async with db.sessions() as s:
        assert await stored.advance(session=s, tournament_id=t.id) == "finished"
        assert await stored.advance(session=s, tournament_id=t.id) == "idle"
        assert await stored.mark_results_posted(session=s, tournament_id=t.id)
        assert not await stored.mark_results_posted(session=s, tournament_id=t.id)
        table = await stored.standings(session=s, tournament_id=t.id)
        dropped = next(r for r in table if r.dropped)
        assert dropped.user_id == first[0].players[1] and dropped.tables == 1
        seats_csv, standings_csv = await stored.export_csv(session=s, tournament_id=t.id)
    rows = list(csv.DictReader(io.StringIO(seats_csv)))
    assert len(rows) == 12 + 11 + 11 and {r["round"] for r in rows} == {"1", "2", "3"}
    ranking = list(csv.DictReader(io.StringIO(standings_csv)))
    assert [int(r["user_id"]) for r in ranking] == [r.user_id for r in table]
    assert float(ranking[0]["points"]) == max(r.points for r in table)
