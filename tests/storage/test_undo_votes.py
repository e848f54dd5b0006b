"""Undo votes (SQLite and PostgreSQL): one row per voter, idempotent, and players voting at the
same moment are all counted (the message text lost one of two simultaneous approvals)."""

from __future__ import annotations

import asyncio

import pytest

from storage.errors import GameNotFoundError, StaleVersionError
from storage.games import create_game, save_action
from storage.undo_votes import clear_votes, record_vote, votes_for
from tests.storage.helpers import advance, new_game

A, B, C, D = 201, 202, 203, 204


async def game_at(db, plies: int) -> int:  # type: ignore[no-untyped-def]
    game = new_game(seats=5, seed=8)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=60 + plies, game=game, players=[1, A, B, C, D])
        for v in range(plies):
            advance(game, 1)
            await save_action(session=s, game_id=record.id, expected_version=v, game=game)
    return record.id


async def test_a_vote_per_voter_idempotent_and_replaceable(db) -> None:
    game_id = await game_at(db, 2)
    async with db.sessions() as s:
        assert await record_vote(session=s, game_id=game_id, ply=2, user_id=A, approve=True) == {A: True}
        assert await record_vote(session=s, game_id=game_id, ply=2, user_id=A, approve=True) == {A: True}
        assert await record_vote(session=s, game_id=game_id, ply=2, user_id=B, approve=True) == {A: True, B: True}
        assert await record_vote(session=s, game_id=game_id, ply=2, user_id=B, approve=False) == {A: True, B: False}
        assert await votes_for(session=s, game_id=game_id, ply=2) == {A: True, B: False}
        assert await votes_for(session=s, game_id=game_id, ply=1) == {}
        assert await clear_votes(session=s, game_id=game_id, ply=2) == 2
        assert await votes_for(session=s, game_id=game_id, ply=2) == {}


async def test_a_vote_on_a_request_the_game_moved_past_is_refused(db) -> None:
    game_id = await game_at(db, 3)
    async with db.sessions() as s:
        with pytest.raises(StaleVersionError) as stale:
            await record_vote(session=s, game_id=game_id, ply=2, user_id=A, approve=True)
        assert stale.value.current == 3
        assert await votes_for(session=s, game_id=game_id, ply=2) == {}
        with pytest.raises(GameNotFoundError):
            await record_vote(session=s, game_id=game_id + 100, ply=0, user_id=A, approve=True)


async def test_players_voting_at_the_same_moment_are_all_counted(db) -> None:
    game_id = await game_at(db, 1)
    for _ in range(3):

        async def vote(user: int) -> dict[int, bool]:
            async with db.sessions() as s:
                return await record_vote(session=s, game_id=game_id, ply=1, user_id=user, approve=True)

        results = await asyncio.gather(*(vote(u) for u in (A, B, C, D)))
        async with db.sessions() as s:
            assert await votes_for(session=s, game_id=game_id, ply=1) == dict.fromkeys((A, B, C, D), True)
            await clear_votes(session=s, game_id=game_id, ply=1)
        # The votes were taken one after another: each saw those before it, the last saw all four,
        # so exactly one voter finds the request approved.
        assert sorted(len(r) for r in results) == [1, 2, 3, 4]
