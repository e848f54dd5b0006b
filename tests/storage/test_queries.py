"""Queries the bot needs, export and replay elsewhere, deleting a guild's data, lobbies, players."""

from __future__ import annotations

import json

import pytest

from engine import Resign
from storage import ExportFormatError, ExportRefusedError, LobbyError
from storage.export import export_game, replay_export
from storage.games import abandon_game, create_game, game_seats, get_game, save_action
from storage.guilds import delete_guild_data
from storage.lobbies import cancel_lobby, join_lobby, leave_lobby, lobby_members, open_lobby, open_lobby_in_channel
from storage.players import get_guild_settings, get_player, update_guild_settings, update_player
from storage.queries import game_history, leaderboard, player_active_games, player_stats
from tests.storage.helpers import advance, finished_game, new_game

ALICE, BOB, CAROL, DAVE = 2**60 + 1, 2**60 + 2, 2**60 + 3, 2**60 + 4


async def play_out(db, guild: int, channel: int, players: list[int], seed: int) -> int:  # type: ignore[no-untyped-def]
    """A finished game, stored with its whole log at once (test_games stores one action by action)."""
    game = finished_game(seats=len(players), seed=seed)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=guild, channel_id=channel, game=game, players=players)
    return record.id


async def test_a_players_active_games_across_servers(db) -> None:
    async with db.sessions() as s:
        a = await create_game(session=s, guild_id=1, channel_id=10, game=new_game(seed=1), players=[ALICE, BOB, CAROL])
        b = await create_game(
            session=s, guild_id=2, channel_id=20, game=new_game(seats=2, seed=2), players=[DAVE, ALICE]
        )
        c = await create_game(
            session=s, guild_id=2, channel_id=21, game=new_game(seats=2, seed=3), players=[BOB, CAROL]
        )
        await abandon_game(session=s, game_id=c.id)
        assert {g.id for g in await player_active_games(session=s, user_id=ALICE)} == {a.id, b.id}
        assert {g.id for g in await player_active_games(session=s, user_id=BOB)} == {a.id}
        assert await player_active_games(session=s, user_id=12345) == []


async def test_a_seat_that_resigns_leaves_the_players_active_games(db) -> None:
    game = advance(new_game(seed=14), 3)
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=10, game=game, players=[ALICE, BOB, CAROL])
        seat = game.current
        game.apply(seat, Resign())
        await save_action(session=s, game_id=record.id, expected_version=3, game=game)
        seats = await game_seats(session=s, game_id=record.id)
        assert [x.left for x in seats] == ["resigned" if x.seat == seat else None for x in seats]
        assert await player_active_games(session=s, user_id=[ALICE, BOB, CAROL][seat]) == []
        assert len(await player_active_games(session=s, user_id=[ALICE, BOB, CAROL][seat - 1])) == 1


async def test_history_and_stats(db) -> None:
    first = await play_out(db, guild=1, channel=10, players=[ALICE, BOB, CAROL], seed=41)
    second = await play_out(db, guild=1, channel=10, players=[BOB, ALICE], seed=42)
    elsewhere = await play_out(db, guild=2, channel=30, players=[ALICE, DAVE], seed=43)
    async with db.sessions() as s:
        history = await game_history(session=s, guild_id=1)
        assert [h.record.id for h in history] == [second, first]
        assert [seat.user_id for seat in history[1].seats] == [ALICE, BOB, CAROL]
        assert [h.record.id for h in await game_history(session=s, user_id=DAVE)] == [elsewhere]
        assert len(await game_history(session=s, user_id=ALICE)) == 3

        everywhere = await player_stats(session=s, user_id=ALICE)
        in_guild = await player_stats(session=s, user_id=ALICE, guild_id=1)
        seats = [
            seat for h in await game_history(session=s, user_id=ALICE) for seat in h.seats if seat.user_id == ALICE
        ]
        assert everywhere.games == 3 and in_guild.games == 2
        assert everywhere.wins == sum(seat.rank == 1 for seat in seats)
        assert everywhere.average_score == pytest.approx(sum(seat.final_score for seat in seats) / 3)
        assert everywhere.tickets_completed == sum(seat.tickets_completed for seat in seats)
        assert everywhere.longest_bonuses == sum(bool(seat.longest_bonus) for seat in seats)
        nobody = await player_stats(session=s, user_id=999)
        assert (nobody.games, nobody.wins, nobody.average_score) == (0, 0, None)

        board = await leaderboard(session=s, guild_id=1)
        assert {p.user_id for p in board} == {ALICE, BOB, CAROL}
        assert [p.wins for p in board] == sorted((p.wins for p in board), reverse=True)


async def test_export_replays_elsewhere(db) -> None:
    game_id = await play_out(db, guild=1, channel=10, players=[ALICE, BOB, CAROL], seed=44)
    async with db.sessions() as s:
        data = await export_game(session=s, game_id=game_id)
        record = await get_game(session=s, game_id=game_id)
    text = json.dumps(data)  # plain JSON
    game = replay_export(json.loads(text))
    assert game.is_over() and game.to_json() == record.state
    assert [p["user_id"] for p in data["players"]] == [str(ALICE), str(BOB), str(CAROL)]
    assert data["seed"] == record.seed and len(data["log"]) == record.version

    forged = json.loads(text)
    forged["players"][0]["score"] += 1
    with pytest.raises(ExportFormatError):
        replay_export(forged)
    broken = json.loads(text)
    broken["log"][5][1] = "claim Nowhere-Somewhere red"
    with pytest.raises(ExportFormatError):
        replay_export(broken)


async def test_an_active_game_is_not_exported(db) -> None:
    async with db.sessions() as s:
        record = await create_game(session=s, guild_id=1, channel_id=10, game=new_game(), players=[1, 2, 3])
        with pytest.raises(ExportRefusedError):
            await export_game(session=s, game_id=record.id)


async def test_deleting_a_guilds_data(db) -> None:
    kept = await play_out(db, guild=2, channel=30, players=[ALICE, DAVE], seed=45)
    await play_out(db, guild=1, channel=10, players=[ALICE, BOB], seed=46)
    async with db.sessions() as s:
        await create_game(session=s, guild_id=1, channel_id=10, game=new_game(), players=[1, 2, 3])
        lobby = await open_lobby(session=s, guild_id=1, channel_id=11, host_id=ALICE, map_id="usa")
        await join_lobby(session=s, lobby_id=lobby.id, user_id=BOB)
        await update_guild_settings(session=s, guild_id=1, language="fr")
        await update_player(session=s, user_id=ALICE, display_name="Alice")
        from storage.leagues import create_league, guild_leagues

        await create_league(session=s, guild_id=1, name="Sunday league", created_by=ALICE)
        await create_league(session=s, guild_id=2, name="Other server", created_by=ALICE)
        counts = await delete_guild_data(session=s, guild_id=1)
        assert (counts.games, counts.seats, counts.lobbies, counts.settings, counts.leagues) == (2, 5, 1, 1, 1)
        assert await guild_leagues(session=s, guild_id=1) == []
        assert len(await guild_leagues(session=s, guild_id=2)) == 1
        assert counts.actions > 0
        assert await game_history(session=s, guild_id=1) == []
        assert await get_guild_settings(session=s, guild_id=1) is None
        assert [h.record.id for h in await game_history(session=s)] == [kept]
        assert (await get_player(session=s, user_id=ALICE)).display_name == "Alice"
        # The channel is free again.
        await create_game(session=s, guild_id=1, channel_id=10, game=new_game(), players=[1, 2, 3])


async def test_lobbies(db) -> None:
    async with db.sessions() as s:
        lobby = await open_lobby(session=s, guild_id=1, channel_id=5, host_id=ALICE, map_id="europe", max_seats=3)
        with pytest.raises(LobbyError):
            await open_lobby(session=s, guild_id=1, channel_id=5, host_id=BOB, map_id="usa")
        assert (await open_lobby_in_channel(session=s, channel_id=5)).id == lobby.id
        await join_lobby(session=s, lobby_id=lobby.id, user_id=BOB)
        with pytest.raises(LobbyError):
            await join_lobby(session=s, lobby_id=lobby.id, user_id=BOB)
        members = await join_lobby(session=s, lobby_id=lobby.id, user_id=CAROL)
        assert [m.user_id for m in members] == [ALICE, BOB, CAROL]
        with pytest.raises(LobbyError, match="full"):
            await join_lobby(session=s, lobby_id=lobby.id, user_id=DAVE)
        assert await leave_lobby(session=s, lobby_id=lobby.id, user_id=CAROL)
        assert not await leave_lobby(session=s, lobby_id=lobby.id, user_id=CAROL)

        players = [m.user_id for m in await lobby_members(session=s, lobby_id=lobby.id)]
        record = await create_game(
            session=s, guild_id=1, channel_id=5, game=new_game(seats=2), players=players, lobby_id=lobby.id
        )
        assert await open_lobby_in_channel(session=s, channel_id=5) is None
        with pytest.raises(LobbyError):  # a second "start" click
            await create_game(
                session=s, guild_id=1, channel_id=6, game=new_game(seats=2), players=players, lobby_id=lobby.id
            )
        assert record.id is not None

        other = await open_lobby(session=s, guild_id=1, channel_id=5, host_id=DAVE, map_id="usa")
        await cancel_lobby(session=s, lobby_id=other.id)
        with pytest.raises(LobbyError):
            await join_lobby(session=s, lobby_id=other.id, user_id=ALICE)


async def test_players_and_guild_settings(db) -> None:
    async with db.sessions() as s:
        assert await get_player(session=s, user_id=ALICE) is None
        player = await update_player(session=s, user_id=ALICE, display_name="Alice")
        assert (player.display_name, player.color_blind, player.preferences) == ("Alice", False, {})
        player = await update_player(session=s, user_id=ALICE, color_blind=True, preferences={"dm": False})
        assert (player.display_name, player.color_blind, player.preferences) == ("Alice", True, {"dm": False})
        with pytest.raises(TypeError):
            await update_player(session=s, user_id=ALICE, nickname="x")
        settings = await update_guild_settings(session=s, guild_id=7, default_map="europe")
        settings = await update_guild_settings(session=s, guild_id=7, settings={"turn_minutes": 30})
        assert (settings.default_map, settings.settings) == ("europe", {"turn_minutes": 30})


async def test_idle_lobbies_expire_and_busy_ones_stay(db) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from storage.lobbies import expire_idle_lobbies
    from storage.models import Lobby, utcnow

    async with db.sessions() as s:
        idle = await open_lobby(session=s, guild_id=1, channel_id=21, host_id=ALICE, map_id="usa")
        busy = await open_lobby(session=s, guild_id=1, channel_id=22, host_id=BOB, map_id="usa")
        await s.execute(update(Lobby).where(Lobby.id == idle.id).values(updated_at=utcnow() - timedelta(hours=2)))
        await s.commit()
        expired = await expire_idle_lobbies(session=s, idle_minutes=60)
        assert [lobby.id for lobby in expired] == [idle.id]
        assert await open_lobby_in_channel(session=s, channel_id=21) is None
        assert (await open_lobby_in_channel(session=s, channel_id=22)).id == busy.id
