"""Leagues in storage (SQLite and PostgreSQL): seasons, rating by openskill, voiding, carry-over,
abandonment, AI seats, per-map ladders, audit and CSV export."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from engine import Game, GameOptions, Remove
from storage import leagues
from storage.errors import (
    AlreadyInSeasonError,
    LeagueError,
    LeagueNameTakenError,
    LeagueNotFoundError,
    NotEligibleError,
    SeasonNotOpenError,
    StorageError,
    VoidStateError,
)
from storage.games import create_game
from storage.leagues import seasons
from storage.lobbies import open_lobby
from storage.models import (
    SEASON_CLOSED,
    LeagueGame,
    Season,
    SeatRecord,
)
from storage.players import update_player
from storage.ratings import (
    OVERALL,
    GameResult,
    compute_ratings,
    displayed,
    rating_places,
)
from tests.storage.helpers import advance, finished_game

A, B, C, D = 101, 102, 103, 104
GUILD = 1
NOW = datetime.now(UTC)
channels = iter(range(10_000, 20_000))


def seating(game: Game, order: list[int]) -> list[int]:
    """Players per seat so that `order[0]` finished first, `order[1]` second, ... (distinct ranks)."""
    by_rank = sorted(game.final, key=lambda s: s.rank)
    assert len({s.rank for s in game.final}) == len(order), "the engine game must have distinct ranks"
    players = [0] * game.seats
    for user, score in zip(order, by_rank):
        players[score.seat] = user
    return players


async def finished(s, order: list[int], map_id: str = "usa", season_id: int | None = None) -> int:
    """A finished game whose final order is `order`, attached to the season while 'running'."""
    game = finished_game(map_id, len(order), 1)
    record = await create_game(
        session=s, guild_id=GUILD, channel_id=next(channels), game=game, players=seating(game, order)
    )
    if season_id is not None:
        s.add(LeagueGame(game_id=record.id, season_id=season_id, added_by=A))
        await s.commit()
        await leagues.settle_game(session=s, game_id=record.id)
    return record.id


async def league_and_season(s, **season):
    league = await leagues.create_league(session=s, guild_id=GUILD, name="Club", created_by=A, admin_role_id=77)
    season = await leagues.create_season(
        session=s,
        league_id=league.id,
        name=season.pop("name", "S1"),
        starts_at=NOW - timedelta(days=1),
        ends_at=NOW + timedelta(days=30),
        created_by=A,
        **season,
    )
    return league, season


async def ratings(s, season_id: int, scope: str = OVERALL) -> dict[int, float]:
    table, _ = await leagues.standings(session=s, season_id=season_id, scope=scope, min_games=0)
    return {row.user_id: row.rating for row in table}


async def test_the_issue_season_a_always_wins_d_always_last_then_voiding_a_s_wins(db) -> None:
    """Issue 8: 4 players, 6 games, A always wins and D is always last (two of the games are
    3-player games of B, C and D): A > B > C > D; voiding all of A's wins drops A below B."""
    async with db.sessions() as s:
        _, season = await league_and_season(s)
        orders = [[A, B, C, D], [B, C, D], [A, B, C, D], [A, B, C, D], [B, C, D], [A, B, C, D]]
        ids = [await finished(s, order, season_id=season.id) for order in orders]
        r = await ratings(s, season.id)
        assert r[A] > r[B] > r[C] > r[D]
        table, _ = await leagues.standings(session=s, season_id=season.id)
        assert [row.user_id for row in table] == [A, B, C, D]
        assert [row.wins for row in table] == [4, 2, 0, 0] and [row.games for row in table] == [4, 6, 6, 6]
        for game_id, order in zip(ids, orders):
            if order[0] == A:
                await leagues.void_game(session=s, game_id=game_id, user_id=A, reason="collusion")
        r = await ratings(s, season.id)
        assert A not in r  # no rated game left: a new player's 0, below B
        assert r[B] > 0 > r[D] and r[B] > r[C] > r[D]
        # Recomputed from the remaining games in order = rating only those games from scratch.
        alone = compute_ratings(
            [GameResult(i, "usa", ((B, 1), (C, 2), (D, 3))) for i, order in zip(ids, orders) if order[0] == B]
        )
        assert r[B] == pytest.approx(displayed(alone.ratings[("all", B)].mu, alone.ratings[("all", B)].sigma))
        # Restoring the games gives the first ratings back exactly.
        for game_id, order in zip(ids, orders):
            if order[0] == A:
                await leagues.void_game(session=s, game_id=game_id, user_id=A, restore=True)
        again = await ratings(s, season.id)
        assert again[A] > again[B] > again[C] > again[D]
        audit = await leagues.audit_log(session=s, league_id=season.league_id, limit=100)
        assert [e.action for e in audit].count("void_game") == 4 and audit[0].action == "restore_game"
        assert any(e.details.get("reason") == "collusion" for e in audit)


async def test_displayed_rating_is_mu_minus_three_sigma_and_ties_share(db) -> None:
    async with db.sessions() as s:
        _, season = await league_and_season(s)
        await finished(s, [A, B, C], season_id=season.id)
        table, _ = await leagues.standings(session=s, season_id=season.id)
        for row in table:
            assert row.rating == pytest.approx(row.mu - 3 * row.sigma)
    tied = compute_ratings([GameResult(1, "usa", ((A, 1), (B, 1), (C, 3)))])
    a, b = tied.ratings[("all", A)], tied.ratings[("all", B)]
    assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    assert a.wins == b.wins == 1


async def test_per_map_ladders_and_minimum_games(db) -> None:
    async with db.sessions() as s:
        _, season = await league_and_season(s, min_games=2)
        await finished(s, [A, B], map_id="europe", season_id=season.id)
        await finished(s, [C, A, B], map_id="usa", season_id=season.id)
        table, below = await leagues.standings(session=s, season_id=season.id)
        assert {row.user_id for row in table} == {A, B} and below == 1  # C played once
        assert set(await ratings(s, season.id, "europe")) == {A, B}
        assert set(await ratings(s, season.id, "usa")) == {A, B, C}
        usa = await ratings(s, season.id, "usa")
        assert usa[C] > usa[A] > usa[B]


async def test_a_removed_player_takes_the_last_rank(db) -> None:
    game = Game.new("usa", 3, 5, GameOptions())
    advance(game, 30)
    game.apply(None, Remove(1))
    advance(game)
    assert game.is_over() and game.left[1] == "removed"
    async with db.sessions() as s:
        _, season = await league_and_season(s)
        record = await create_game(session=s, guild_id=GUILD, channel_id=next(channels), game=game, players=[A, B, C])
        s.add(LeagueGame(game_id=record.id, season_id=season.id))
        await s.commit()
        await leagues.settle_game(session=s, game_id=record.id)
        export = list(csv.DictReader(io.StringIO(await leagues.export_results_csv(session=s, season_id=season.id))))
        removed = next(row for row in export if row["user_id"] == str(B))
        assert removed["left"] == "removed" and removed["rating_rank"] == "3"
    seats = [
        SeatRecord(game_id=1, seat=0, user_id=A, rank=2),
        SeatRecord(game_id=1, seat=1, user_id=B, rank=1, left="removed"),
        SeatRecord(game_id=1, seat=2, user_id=C, rank=3, left="resigned"),
        SeatRecord(game_id=1, seat=3, user_id=D, rank=4),
    ]
    assert rating_places(seats) == ((A, 1), (B, 3), (C, 3), (D, 2))


def test_refusals_are_english_templates_with_their_data() -> None:
    """The bot words them in the reader's language (bot/leagues.py league_text); `str` stays English.
    (Unrated reasons: tests/storage/test_ratings.py.)"""
    season = Season(
        league_id=1,
        name="S1",
        starts_at=NOW,
        ends_at=NOW + timedelta(days=30),
        maps=["europe", "usa"],
        player_counts=[3, 4],
    )
    with pytest.raises(NotEligibleError) as refused:
        leagues.check_game_fits(season, map_id="nordic", players=3)
    assert str(refused.value) == "season 'S1' is played on europe, usa, not nordic"
    assert refused.value.template == "season {season!r} is played on {maps}, not {map}"
    assert refused.value.params == {"season": "S1", "maps": ["europe", "usa"], "map": "nordic"}
    with pytest.raises(NotEligibleError) as refused:
        leagues.check_game_fits(season, map_id="usa", players=2)
    assert str(refused.value) == "season 'S1' allows games of 3, 4 players, not 2"
    season.starts_at = NOW + timedelta(days=1)
    with pytest.raises(SeasonNotOpenError) as refused:
        seasons._check_season_open(season, NOW)
    assert str(refused.value) == f"season 'S1' starts on {season.starts_at:%Y-%m-%d}"


async def test_void_refusals_and_lookups_have_their_own_classes(db) -> None:
    """The bot catches the class (storage/errors.py), never matches the English text."""
    async with db.sessions() as s:
        _, season = await league_and_season(s)
        game_id = await finished(s, [A, B, C], season_id=season.id)
        outside = await finished(s, [A, B])
        with pytest.raises(VoidStateError, match="is not voided"):
            await leagues.void_game(session=s, game_id=game_id, user_id=A, restore=True)
        await leagues.void_game(session=s, game_id=game_id, user_id=A)
        with pytest.raises(VoidStateError, match="already voided"):
            await leagues.void_game(session=s, game_id=game_id, user_id=A)
        with pytest.raises(LeagueNotFoundError, match="not a league game") as refused:
            await leagues.void_game(session=s, game_id=outside, user_id=A)
        assert isinstance(refused.value, LookupError) and refused.value.params == {"game": outside}
        with pytest.raises(LeagueNotFoundError, match="no season"):
            await leagues.standings(session=s, season_id=season.id + 99)
    for cls in (
        AlreadyInSeasonError,
        LeagueNameTakenError,
        LeagueNotFoundError,
        NotEligibleError,
        SeasonNotOpenError,
        VoidStateError,
    ):
        assert issubclass(cls, LeagueError) and issubclass(cls, StorageError)


async def test_ai_seats_abandoned_games_and_season_limits(db) -> None:
    async with db.sessions() as s:
        _, season = await league_and_season(s, maps=["usa"], player_counts=[3, 4])
        game = Game.new("usa", 3, 9, GameOptions())
        with_ai = await create_game(
            session=s, guild_id=GUILD, channel_id=next(channels), game=game, players=[A, None, B]
        )
        with pytest.raises(NotEligibleError, match="AI seats"):
            await leagues.attach_game(session=s, season_id=season.id, game_id=with_ai.id, user_id=A)
        two = await create_game(
            session=s,
            guild_id=GUILD,
            channel_id=next(channels),
            game=Game.new("usa", 2, 9, GameOptions()),
            players=[A, B],
        )
        with pytest.raises(NotEligibleError, match="not 2"):
            await leagues.attach_game(session=s, season_id=season.id, game_id=two.id, user_id=A)
        europe = await create_game(
            session=s,
            guild_id=GUILD,
            channel_id=next(channels),
            game=Game.new("europe", 3, 9, GameOptions()),
            players=[A, B, C],
        )
        with pytest.raises(NotEligibleError, match="played on usa"):
            await leagues.attach_game(session=s, season_id=season.id, game_id=europe.id, user_id=A)
        small = await open_lobby(
            session=s, guild_id=GUILD, channel_id=next(channels), host_id=A, map_id="usa", max_seats=2
        )
        with pytest.raises(NotEligibleError, match="needs at least 3 players"):
            await leagues.attach_lobby(session=s, season_id=season.id, lobby_id=small.id, user_id=A)
        ok = await create_game(
            session=s,
            guild_id=GUILD,
            channel_id=next(channels),
            game=Game.new("usa", 3, 9, GameOptions()),
            players=[A, B, C],
        )
        await leagues.attach_game(session=s, season_id=season.id, game_id=ok.id, user_id=A)
        with pytest.raises(AlreadyInSeasonError, match="already belongs"):
            await leagues.attach_game(session=s, season_id=season.id, game_id=ok.id, user_id=A)
        from storage.games import abandon_game

        await abandon_game(session=s, game_id=ok.id)
        await leagues.settle_game(session=s, game_id=ok.id)
        row = await leagues.league_game(session=s, game_id=ok.id)
        assert row.rated is False and row.note == "abandoned"
        assert await ratings(s, season.id) == {}


async def test_a_lobby_s_game_is_rated_when_it_ends_and_seasons_close_and_carry_over(db) -> None:
    async with db.sessions() as s:
        league, first = await league_and_season(s, carry_over=True)
        lobby = await open_lobby(session=s, guild_id=GUILD, channel_id=555, host_id=A, map_id="usa")
        await leagues.attach_lobby(session=s, season_id=first.id, lobby_id=lobby.id, user_id=A)
        game = finished_game("usa", 3, 1)
        record = await create_game(
            session=s, guild_id=GUILD, channel_id=555, game=game, players=seating(game, [A, B, C]), lobby_id=lobby.id
        )
        assert await leagues.needs_recompute(session=s, season_id=first.id)
        assert await leagues.settle_game(session=s, game_id=record.id) == first.id
        assert not await leagues.needs_recompute(session=s, season_id=first.id)
        before = await ratings(s, first.id)
        assert before[A] > before[B] > before[C]
        end_of_first = {r.user_id: r for r in (await leagues.standings(session=s, season_id=first.id))[0]}
        second = await leagues.create_season(
            session=s, league_id=league.id, name="S2", starts_at=NOW, ends_at=NOW + timedelta(days=10), created_by=A
        )
        assert (await leagues.get_season(session=s, season_id=first.id)).status == SEASON_CLOSED
        assert (await leagues.active_season(session=s, league_id=league.id)).id == second.id
        with pytest.raises(SeasonNotOpenError, match="closed"):
            await leagues.attach_lobby(session=s, season_id=first.id, lobby_id=lobby.id, user_id=A)
        await finished(s, [C, B], season_id=second.id)
        profile = await leagues.player_profile(session=s, season_id=second.id, user_id=C)
        change = profile.recent[0].change
        start = displayed(end_of_first[C].mu, end_of_first[C].sigma)
        assert profile.history[0] == pytest.approx(start + change)  # started from the first season's rating
        # A change to the first season flows into the second.
        await leagues.void_game(session=s, game_id=record.id, user_id=A)
        profile = await leagues.player_profile(session=s, season_id=second.id, user_id=C)
        assert profile.history[0] == pytest.approx(profile.recent[0].change)  # from 0 again
        with pytest.raises(LeagueNameTakenError, match="already has a season"):
            await leagues.create_season(
                session=s, league_id=league.id, name="S2", starts_at=NOW, ends_at=NOW + timedelta(days=1), created_by=A
            )
        with pytest.raises(LeagueNameTakenError, match="already has a league"):
            await leagues.create_league(session=s, guild_id=GUILD, name="Club", created_by=A)


async def test_profile_and_csv_export(db) -> None:
    async with db.sessions() as s:
        await update_player(session=s, user_id=A, display_name='Anna, "the" winner')
        _, season = await league_and_season(s)
        ids = [await finished(s, order, season_id=season.id) for order in ([A, B, C], [B, A], [A, C, B])]
        profile = await leagues.player_profile(session=s, season_id=season.id, user_id=A)
        assert profile.games == 3 and profile.wins == 2 and profile.place == 1
        assert [g.game_id for g in profile.recent] == list(reversed(ids)) and len(profile.history) == 3
        assert profile.history[-1] == pytest.approx(profile.rating)
        assert profile.ticket_rate is None or 0 <= profile.ticket_rate <= 1
        assert profile.average_score is not None and "usa" in profile.map_ratings
        text = await leagues.export_results_csv(session=s, season_id=season.id)
        rows = list(csv.DictReader(io.StringIO(text)))
        assert list(rows[0]) == list(leagues.RESULTS_COLUMNS)
        assert len(rows) == 3 + 2 + 3 and {r["status"] for r in rows} == {"rated"}
        anna = [r for r in rows if r["user_id"] == str(A)]
        assert anna[0]["name"] == 'Anna, "the" winner' and anna[0]["game_rank"] == "1"
        assert float(anna[-1]["rating_after"]) == pytest.approx(profile.rating, abs=1e-3)
        await leagues.void_game(session=s, game_id=ids[1], user_id=A)
        rows = list(csv.DictReader(io.StringIO(await leagues.export_results_csv(session=s, season_id=season.id))))
        assert [r["status"] for r in rows].count("voided") == 2
        standings = list(
            csv.DictReader(io.StringIO(await leagues.export_standings_csv(session=s, season_id=season.id)))
        )
        assert standings[0]["user_id"] == str(A) and standings[0]["qualified"] == "1"


async def test_two_games_finishing_at_once_are_both_rated(db) -> None:
    async with db.sessions() as s:
        _, season = await league_and_season(s)
        ids = [await finished(s, order) for order in ([A, B], [C, D])]
        for game_id in ids:
            s.add(LeagueGame(game_id=game_id, season_id=season.id))
        await s.commit()

    async def settle(game_id: int) -> None:
        async with db.sessions() as s:
            await leagues.settle_game(session=s, game_id=game_id)

    await asyncio.gather(*(settle(i) for i in ids))
    async with db.sessions() as s:
        assert set(await ratings(s, season.id)) == {A, B, C, D}


# ---------------------------------------------------------------------------- divisions, closing, minimum play

E = 105


async def test_a_season_closes_once_with_promotion_relegation_and_reward_roles(db) -> None:
    """Gold (bottom 1 down) over Silver (top 1 up): B, last of Gold, goes down; C, first of Silver,
    goes up; E, who played without a division, is placed in Silver. Two closes at once: one wins.
    The Gold role moves from last season's holder to A; the champion role goes to the overall first."""
    async with db.sessions() as s:
        league, season = await league_and_season(s, min_games=1)
        await leagues.set_division(session=s, league_id=league.id, name="Gold", user_id=A, relegate=1)
        await leagues.set_division(session=s, league_id=league.id, name="Silver", user_id=A, promote=1)
        for player, division in ((A, "Gold"), (B, "Gold"), (C, "Silver"), (D, "Silver")):
            await leagues.place_player(
                session=s,
                league_id=league.id,
                player_id=player,
                division="gold" if division == "Gold" else division,
                user_id=A,
            )
        await leagues.set_reward(session=s, league_id=league.id, role_id=900, top=1, division="Gold", user_id=A)
        await leagues.set_reward(session=s, league_id=league.id, role_id=901, top=1, user_id=A)
        s.add(leagues.RoleHolder(league_id=league.id, role_id=900, user_id=B))  # given at the last close
        await s.commit()
        for order in ([A, B], [C, D], [C, D], [E, D]):
            await finished(s, order, season_id=season.id)
        gold, silver = await leagues.league_divisions(session=s, league_id=league.id)
        table, _ = await leagues.standings(session=s, season_id=season.id, division_id=gold.id)
        assert [r.user_id for r in table] == [A, B]  # the open season: by today's placements
        champion = (await leagues.standings(session=s, season_id=season.id))[0][0].user_id
        later = season.ends_at + timedelta(seconds=1)
        assert [x.id for x, _ in await leagues.due_seasons(session=s, now=later)] == [season.id]
        assert await leagues.due_seasons(session=s, now=NOW) == []

    async def close() -> bool:
        async with db.sessions() as other:
            return await leagues.close_season(session=other, season_id=season.id, now=later)

    assert sorted(await asyncio.gather(close(), close())) == [False, True]
    async with db.sessions() as s:
        assert await leagues.close_season(session=s, season_id=season.id) is False
        assert await leagues.due_seasons(session=s, now=later) == []
        assert await leagues.placements(session=s, league_id=league.id) == {
            A: gold.id,
            B: silver.id,
            C: gold.id,
            D: silver.id,
            E: silver.id,
        }
        outcome = {
            r.user_id: (r.division_id, r.place, r.outcome)
            for r in await leagues.season_results(session=s, season_id=season.id)
        }
        assert outcome[A] == (gold.id, 1, "stay") and outcome[B] == (gold.id, 2, "down")
        assert outcome[C] == (silver.id, 1, "up") and outcome[E][2] == "new"
        table, _ = await leagues.standings(session=s, season_id=season.id, division_id=gold.id)
        assert [r.user_id for r in table] == [A, B]  # closed: the division they played it in
        tasks = await leagues.close_tasks(session=s, season_id=season.id)
        assert sorted((t.kind, t.role_id, t.user_id) for t in tasks) == sorted(
            [("remove_role", 900, B), ("add_role", 900, A), ("add_role", 901, champion), ("announce", None, None)]
        )
        first = await leagues.claim_close_tasks(session=s, now=later)
        assert {t.kind for t in first} == {"add_role", "remove_role"}  # the post waits for the roles
        assert await leagues.claim_close_tasks(session=s, now=later) == []  # leased
        assert await leagues.claim_close_tasks(session=s, now=later, guild_ids=[GUILD + 1]) == []
        retaken = await leagues.claim_close_tasks(
            session=s, now=later + timedelta(seconds=leagues.TASK_LEASE_SECONDS + 1)
        )
        assert {t.id for t in retaken} == {t.id for t in first}  # a process that died: its lease runs out
        for task in first:
            await leagues.finish_close_task(session=s, task_id=task.id, error="403" if task.user_id == B else None)
        (post,) = await leagues.claim_close_tasks(session=s, now=later)
        assert post.kind == "announce"
        await leagues.finish_close_task(session=s, task_id=post.id)
        assert await leagues.claim_close_tasks(session=s, now=later + timedelta(days=1)) == []
        audit = await leagues.audit_log(session=s, league_id=league.id)
        assert [e.action for e in audit].count("close_season") == 1


async def test_opening_a_season_closes_the_last_one_with_its_moves(db) -> None:
    async with db.sessions() as s:
        league, season = await league_and_season(s, min_games=1)
        await leagues.set_division(session=s, league_id=league.id, name="Gold", user_id=A)
        await leagues.set_division(session=s, league_id=league.id, name="Silver", user_id=A, promote=1)
        await leagues.place_player(session=s, league_id=league.id, player_id=C, division="Silver", user_id=A)
        await finished(s, [C, D], season_id=season.id)
        await leagues.create_season(
            session=s, league_id=league.id, name="S2", starts_at=NOW, ends_at=NOW + timedelta(days=9), created_by=A
        )
        gold, silver = await leagues.league_divisions(session=s, league_id=league.id)
        assert await leagues.placements(session=s, league_id=league.id) == {C: gold.id, D: silver.id}
        s2 = await leagues.active_season(session=s, league_id=league.id)
        await finished(s, [C, D], "europe", season_id=s2.id)
        await finished(s, [D, C], "usa", season_id=s2.id)
        profile = await leagues.player_profile(session=s, season_id=s2.id, user_id=C)
        assert [name for name, _ in profile.seasons] == ["S1", "S2"] and profile.seasons[-1][1] == profile.rating
        assert set(profile.map_history) == {"europe", "usa"} and len(profile.history) == 2
        assert profile.map_history["europe"] == [(0, (await ratings(s, s2.id, "europe"))[C])]
        assert [i for i, _ in profile.map_history["usa"]] == [1]
        await leagues.remove_division(session=s, league_id=league.id, name="gold", user_id=A)
        (left,) = await leagues.league_divisions(session=s, league_id=league.id)
        assert (left.name, left.level) == ("Silver", 1)
        assert await leagues.placements(session=s, league_id=league.id) == {D: silver.id}
        with pytest.raises(LeagueNotFoundError):
            await leagues.place_player(session=s, league_id=league.id, player_id=A, division="Gold", user_id=A)


def test_division_moves_promotion_first_and_never_off_the_ends() -> None:
    assert leagues.division_moves([1, 2, 3, 4], promote=1, relegate=2, top=False, bottom=False) == {
        1: "up",
        3: "down",
        4: "down",
    }
    assert leagues.division_moves([1, 2], promote=2, relegate=2, top=False, bottom=False) == {1: "up", 2: "up"}
    assert leagues.division_moves([1, 2, 3], promote=1, relegate=1, top=True, bottom=True) == {}


async def test_an_early_resign_is_a_loss_for_the_resigner_only(db) -> None:
    """The issue's example with a minimum of 5 turns: a 2-player game B resigns after one turn
    each is a loss for B and no game for A; the same game played to its end counts for both."""
    from engine import Resign

    game = Game.new("usa", 2, 5, GameOptions())
    while game.phase.value == "choosing":
        seat = game.to_move()[0]
        game.apply(seat, game.default_action(seat))
    for _ in range(2):  # one turn each
        seat = game.current
        while game.current == seat:
            game.apply(seat, game.default_action(seat))
    game.apply(game.current, Resign())
    async with db.sessions() as s:
        _, season = await league_and_season(s, min_games=1, min_turns=5)
        record = await create_game(session=s, guild_id=GUILD, channel_id=next(channels), game=game, players=[A, B])
        resigner = B if game.left[1] else A
        assert leagues.turns_taken(record, [(seat, text) for seat, text in await _log(s, record.id)]) == [1, 1]
        s.add(LeagueGame(game_id=record.id, season_id=season.id, added_by=A))
        await s.commit()
        await leagues.settle_game(session=s, game_id=record.id)
        row = await leagues.league_game(session=s, game_id=record.id)
        assert row.rated and row.turns == [1, 1]
        table, _ = await leagues.standings(session=s, season_id=season.id)
        assert [(r.user_id, r.games, r.wins) for r in table] == [(resigner, 1, 0)] and table[0].rating < 0
        await finished(s, [A, B], season_id=season.id)  # a whole game: both rated
        table, _ = await leagues.standings(session=s, season_id=season.id)
        assert sorted((r.user_id, r.games) for r in table) == sorted(
            [(A, 1 + (resigner == A)), (B, 1 + (resigner == B))]
        )


async def _log(s, game_id: int):  # type: ignore[no-untyped-def]
    from storage.games import action_log

    return await action_log(session=s, game_id=game_id)


async def test_rename_and_delete_a_league(db) -> None:
    async with db.sessions() as s:
        league, season = await league_and_season(s)
        other = await leagues.create_league(session=s, guild_id=GUILD, name="Other", created_by=A)
        game_id = await finished(s, [A, B], season_id=season.id)
        with pytest.raises(LeagueNameTakenError):
            await leagues.rename_league(session=s, league_id=league.id, name="Other", user_id=A)
        await leagues.rename_league(session=s, league_id=league.id, name="Club Two", user_id=A)
        assert (await leagues.get_league(session=s, league_id=league.id)).name == "Club Two"
        await leagues.delete_league(session=s, league_id=league.id)
        assert [lg.name for lg in await leagues.guild_leagues(session=s, guild_id=GUILD)] == [other.name]
        assert await leagues.league_game(session=s, game_id=game_id) is None
        assert await leagues.get_season(session=s, season_id=season.id) is None
        assert (await s.get(SeatRecord, (game_id, 0))) is not None  # the game itself stays
