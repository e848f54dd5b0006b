"""Tournaments in storage (SQLite and PostgreSQL): sign-up limits, the start and each round claimed
once, a table's game linked in the game's transaction (or rolled back when another took it),
results, drops, the end, the CSV export; after a restart, games that ended unheard recorded once and
abandoned tables left for the organizer; a guild's deletion taking its tournaments."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import timedelta

import pytest
from sqlalchemy import select

from engine import Resign
from storage import games as stored_games
from storage import tournaments as stored
from storage.guilds import delete_guild_data
from storage.models import GameRecord, utcnow
from tests.storage.helpers import new_game


async def _tournament(db, players: int, **kwargs):
    async with db.sessions() as s:
        t = await stored.create_tournament(
            session=s, guild_id=1, channel_id=2, name="Cup", organizer_id=9, format="swiss", map_id="europe", **kwargs
        )
        for user in range(101, 101 + players):
            await stored.sign_up(session=s, tournament_id=t.id, user_id=user)
    return t


async def _finish_round(db, t_id: int, number: int) -> None:
    async with db.sessions() as s:
        for table in await stored.tables(session=s, tournament_id=t_id, round=number):
            if table.status != "done":
                await stored.adjudicate(
                    session=s,
                    table_id=table.id,
                    order=table.players,
                    scores=[10 * i for i in range(len(table.players))],
                    user_id=9,
                )


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
            await stored.create_tournament(
                session=s, guild_id=1, channel_id=2, name="Cup", organizer_id=9, format="swiss", map_id="europe"
            )


async def test_a_swiss_tournament_runs_its_rounds_once_each_and_ends(db):
    t = await _tournament(db, 12, rounds=3)
    async with db.sessions() as a, db.sessions() as b:
        started = await asyncio.gather(
            stored.start(session=a, tournament_id=t.id), stored.start(session=b, tournament_id=t.id)
        )
    assert sorted(started) == [False, True]
    async with db.sessions() as s:
        first = await stored.tables(session=s, tournament_id=t.id)
        assert [len(x.players) for x in first] == [4, 4, 4] and all(x.status == "pending" for x in first)
        # one process claims a table; a second claim waits for the lease to run out
        assert await stored.claim_table(session=s, table_id=first[0].id, owner="a")
        assert not await stored.claim_table(session=s, table_id=first[0].id, owner="b")
        assert await stored.claim_table(
            session=s, table_id=first[0].id, owner="b", now=utcnow() + stored.CLAIM_LEASE * 2
        )
        # the game and the table's link in one transaction; a second game for the table is rolled back
        game = new_game("europe", 4)
        record = await stored_games.create_game(
            session=s,
            guild_id=1,
            channel_id=50,
            game=game,
            players=first[0].players,
            link=lambda session, gid: stored.link_game(session=session, table_id=first[0].id, game_id=gid),
        )
        with pytest.raises(stored.TableTaken):
            await stored_games.create_game(
                session=s,
                guild_id=1,
                channel_id=51,
                game=new_game("europe", 4),
                players=first[0].players,
                link=lambda session, gid: stored.link_game(session=session, table_id=first[0].id, game_id=gid),
            )
        assert (await s.execute(select(GameRecord.channel_id))).scalars().all() == [50]
        assert (await stored.table_of_game(session=s, game_id=record.id)).status == "playing"
        assert await stored.advance(session=s, tournament_id=t.id) == "waiting"
        assert await stored.drop(session=s, tournament_id=t.id, user_id=first[0].players[1]) == record.id
    await _finish_round(db, t.id, 1)
    async with db.sessions() as a, db.sessions() as b:
        opened = await asyncio.gather(
            stored.advance(session=a, tournament_id=t.id), stored.advance(session=b, tournament_id=t.id)
        )
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


async def _play(db, table, *, channel: int, finish: bool) -> int:
    """A game for the table, linked in its transaction; finished by resignations (all but the first
    seat) or ended without scores (`abandon_game`, as `/ttr-host end` does)."""
    game = new_game("europe", len(table.players))
    async with db.sessions() as s:
        record = await stored_games.create_game(
            session=s,
            guild_id=1,
            channel_id=channel,
            game=game,
            players=table.players,
            link=lambda session, gid: stored.link_game(session=session, table_id=table.id, game_id=gid),
        )
        if not finish:
            await stored_games.abandon_game(session=s, game_id=record.id)
            return record.id
        for seat in range(1, game.seats):
            game.apply(seat, Resign())
            await stored_games.save_action(session=s, game_id=record.id, expected_version=len(game.log) - 1, game=game)
    assert game.is_over()
    return record.id


async def test_games_that_ended_unheard_are_recorded_once_and_an_abandoned_table_waits_for_a_decision(db):
    t = await _tournament(db, 6, smallest=3, largest=3)
    async with db.sessions() as s:
        await stored.start(session=s, tournament_id=t.id)
        first, second = await stored.tables(session=s, tournament_id=t.id)
    finished = await _play(db, first, channel=60, finish=True)
    ended = await _play(db, second, channel=61, finish=False)
    async with db.sessions() as s:
        # a restart: both games ended while no process listened
        assert sorted(await stored.unrecorded_games(session=s, tournament_id=t.id)) == sorted([finished, ended])
        assert await stored.abandoned_tables(session=s, tournament_id=t.id) == []
        done = await stored.record_game(session=s, game_id=finished)
        seats = await stored_games.game_seats(session=s, game_id=finished)
        assert (done.status, done.ranks, done.scores) == ("done", [1, 2, 2], [x.final_score for x in seats])
        waiting = await stored.record_game(session=s, game_id=ended)
        assert (waiting.status, waiting.ranks) == ("abandoned", None)
        # a second process (or a repeat) changes nothing and is told so
        assert await stored.record_game(session=s, game_id=finished) is None
        assert await stored.record_game(session=s, game_id=ended) is None
        assert await stored.unrecorded_games(session=s, tournament_id=t.id) == []
        assert [x.id for x in await stored.abandoned_tables(session=s, tournament_id=t.id)] == [second.id]
        assert await stored.advance(session=s, tournament_id=t.id) == "waiting"  # the round waits for it
        await stored.adjudicate(
            session=s, table_id=second.id, order=list(reversed(second.players)), scores=None, user_id=9
        )
        assert await stored.abandoned_tables(session=s, tournament_id=t.id) == []
        assert await stored.advance(session=s, tournament_id=t.id) == "opened"
        assert [x.ranks for x in await stored.tables(session=s, tournament_id=t.id, round=1)] == [[1, 2, 2], [3, 2, 1]]


async def test_deleting_a_guilds_data_deletes_its_tournaments(db):
    t = await _tournament(db, 6)
    async with db.sessions() as s:
        other = await stored.create_tournament(
            session=s, guild_id=2, channel_id=3, name="Cup", organizer_id=9, format="swiss", map_id="europe"
        )
        await stored.sign_up(session=s, tournament_id=other.id, user_id=101)
        await stored.start(session=s, tournament_id=t.id)
        [table, _] = await stored.tables(session=s, tournament_id=t.id)
    await _play(db, table, channel=60, finish=False)
    async with db.sessions() as s:
        counts = await delete_guild_data(session=s, guild_id=1)
        assert (counts.tournaments, counts.games) == (1, 1)
        assert await stored.guild_tournaments(session=s, guild_id=1) == []
        assert await stored.tables(session=s, tournament_id=t.id) == []
        assert await stored.entrants(session=s, tournament_id=t.id) == []
        assert [x.id for x in await stored.guild_tournaments(session=s, guild_id=2)] == [other.id]
        assert await stored.entrants(session=s, tournament_id=other.id) != []
