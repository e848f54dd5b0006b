"""Issue 8 leagues through the fake Discord: who may create leagues and seasons or void results,
a lobby made a league game and rated when it ends, standings and profile images, CSV export.

The fake server has no roles besides @everyone and the bot's (docs/fakediscord.md), so these
tests give it one: a "League Admins" role in the guild (GUILD_CREATE), held by bob, and role
options (type 8) in slash commands. The owner (`fake.owner`) has every permission; alice, bob
and dirk have Discord's default member permissions (no Manage Server)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import pytest
import regex

from bot.errors import league_text
from i18n import translator
from storage import leagues as stored
from tests.bot.driver import Driver
from tests.fakediscord import api as fake_api
from tests.fakediscord import state as fake_state

ROLE_ID = 424242


@dataclass(frozen=True)
class Role:
    id: int
    name: str

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 2,
            "permissions": "0",
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }


LEAGUE_ADMINS = Role(ROLE_ID, "League Admins")


@pytest.fixture
def roles(monkeypatch):
    """bob holds the League Admins role; slash commands may pass a `Role`."""
    holders: set[int] = set()
    guild_roles = fake_state.Guild.roles.fget
    member_payload = fake_state.Guild.member_payload
    option_value = fake_api.FakeDiscord._option_value

    monkeypatch.setattr(fake_state.Guild, "roles", property(lambda g: guild_roles(g) + [LEAGUE_ADMINS.payload()]))

    def payload(guild, user):
        data = member_payload(guild, user)
        if user.id in holders:
            data = {**data, "roles": [*data["roles"], str(ROLE_ID)]}
        return data

    def value(self, option, value, resolved, channel, command, **kwargs):
        if option["type"] == 8 and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return {"name": option["name"], "type": 8, "value": str(value.id)}
        return option_value(self, option, value, resolved, channel, command, **kwargs)

    monkeypatch.setattr(fake_state.Guild, "member_payload", payload)
    monkeypatch.setattr(fake_api.FakeDiscord, "_option_value", value)
    return holders


async def text_of(reply) -> str:
    if reply.kind in ("deferred", "deferred_update"):
        await reply.wait_resolved()
    return reply.message.text if reply.message else reply.text


async def league_with_season(fake, holders, **season):
    holders.add(fake.bob.id)
    reply = await fake.slash(fake.owner, fake.general, "ttr-league create", name="Club", admin_role=LEAGUE_ADMINS)
    assert "League **Club** created" in reply.text and not reply.ephemeral
    reply = await fake.slash(fake.bob, fake.general, "ttr-league season", name="Autumn", **season)
    assert "season **Autumn** is open" in await text_of(reply), reply.text


async def test_only_managers_create_leagues_and_only_league_admins_run_them(fake_discord, make_bot, roles):
    fake = fake_discord
    await make_bot()
    reply = await fake.slash(fake.alice, fake.general, "ttr-league leaderboard")
    assert reply.ephemeral and "no league yet" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-league create", name="Club")
    assert reply.ephemeral and "Manage Server" in reply.text
    await league_with_season(fake, roles, maps="usa", players="2-3", min_games=1)
    reply = await fake.slash(fake.alice, fake.general, "ttr-league season", name="Winter")
    assert reply.ephemeral and "Only league admins of **Club**" in reply.text and f"<@&{ROLE_ID}>" in reply.text
    for command, options in (("ttr-league void", {"game": 1}), ("ttr-league export", {}), ("ttr-league audit", {})):
        reply = await fake.slash(fake.dirk, fake.general, command, **options)
        assert reply.ephemeral and "Only league admins" in reply.text, command
    reply = await fake.slash(fake.bob, fake.general, "ttr-league void", game=99)
    assert "not a game of **Club**" in reply.text
    reply = await fake.slash(fake.bob, fake.general, "ttr-league season", name="Bad", maps="atlantis")
    assert "unknown map 'atlantis'" in reply.text
    reply = await fake.slash(fake.owner, fake.general, "ttr-league season", name="Owner's", end="2020-01-01")
    assert "must end after it starts" in reply.text  # Manage Server is a league admin too
    reply = await fake.slash(fake.bob, fake.general, "ttr-league audit")
    assert "create league" in reply.text and "create season" in reply.text
    reply = await fake.slash(fake.dirk, fake.general, "ttr-league info")
    assert (
        f"**Club** · admins: <@&{ROLE_ID}>" in reply.text
        and "**Autumn** (open, 0 rated games)" in reply.text
        and "USA · 2, 3 players · 1 game to appear" in reply.text
    )
    reply = await fake.slash(fake.bob, fake.general, "ttr-league role")  # a league admin, not a manager
    assert reply.ephemeral and "Manage Server" in reply.text
    reply = await fake.slash(fake.owner, fake.general, "ttr-league role")
    assert "league admins are now anyone with Manage Server" in reply.text
    reply = await fake.slash(fake.bob, fake.general, "ttr-league season", name="Winter")
    assert reply.ephemeral and "Only league admins" in reply.text  # bob's role no longer counts


async def test_a_lobby_made_rated_is_rated_when_it_ends_then_voided(fake_discord, make_bot, roles):
    fake = fake_discord
    bot = await make_bot()
    await league_with_season(fake, roles, maps="usa", players="2", min_games=1)
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=2)
    await driver.run(fake.bob, "ttr join")
    reply = await fake.slash(fake.dirk, fake.general, "ttr-league rated")
    assert reply.ephemeral and "Only the host" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-league rated")
    assert "counts for **Club · Autumn**" in reply.text and not reply.ephemeral
    await (await fake.slash(fake.alice, fake.general, "ttr-host start", first=fake.alice)).wait_resolved()
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    await driver.run(fake.bob, "ttr resign")  # bob leaves: the last rank for rating, alice wins
    rated = await fake.wait_for_message(fake.general, lambda m: "rated:" in m.text)
    assert f"game #{driver.game_id} rated" in rated.text
    assert rated.text.index(f"<@{fake.alice.id}>") < rated.text.index(f"<@{fake.bob.id}>")
    assert "(+" in rated.text and "(-" in rated.text

    reply = await fake.slash(fake.dirk, fake.general, "ttr-league leaderboard")
    image = await reply.wait_resolved()
    assert image.ephemeral and image.attachments[0].is_image
    alt = image.attachments[0].description
    assert alt.startswith("Club · Standings: 1. alice") and "2. bob" in alt
    reply = await fake.slash(fake.dirk, fake.general, "ttr-league profile", player=fake.alice, public=True)
    card = await reply.wait_resolved()
    assert not card.ephemeral and card.attachments[0].is_image
    assert (
        card.attachments[0].description.startswith("alice, Club Autumn: rating")
        and "1st of 2" in card.attachments[0].description
    )
    # The same card from alice's user menu (a long press on her name), only for dirk to see
    menu = await (
        await fake.user_command(fake.dirk, fake.general, "Ticket to Ride profile", fake.alice)
    ).wait_resolved()
    assert menu.ephemeral and menu.attachments[0].description == card.attachments[0].description
    menu = await (await fake.user_command(fake.alice, fake.general, "Ticket to Ride profile", fake.bob)).wait_resolved()
    assert (
        menu.attachments[0].description.startswith("bob, Club Autumn: rating")
        and "2nd of 2" in menu.attachments[0].description
    )

    reply = await fake.slash(fake.bob, fake.general, "ttr-league export")
    files = reply.message.files if reply.message else {}
    assert set(files) == {"club-autumn-results.csv", "club-autumn-standings.csv"}
    rows = list(csv.DictReader(io.StringIO(files["club-autumn-results.csv"].decode())))
    assert [(r["name"], r["status"], r["rating_rank"], r["left"]) for r in rows] == [
        ("alice", "rated", "1", ""),
        ("bob", "rated", "2", "resigned"),
    ]

    reply = await fake.slash(fake.bob, fake.general, "ttr-league void", game=driver.game_id, reason="test game")
    assert "voided the result of game" in await text_of(reply)
    reply = await fake.slash(fake.dirk, fake.general, "ttr-league leaderboard")
    assert "no rated games yet" in (await reply.wait_resolved()).attachments[0].description
    async with bot.storage.sessions() as session:
        audit = await stored.audit_log(session=session, league_id=1)
    assert audit[0].action == "void_game" and audit[0].user_id == fake.bob.id


async def test_a_game_joins_before_its_first_turn_and_season_limits_hold(fake_discord, make_bot, roles):
    fake = fake_discord
    bot = await make_bot()
    await league_with_season(fake, roles, maps="usa", players="3-5")
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.dirk])
    await driver.start_game("usa")
    reply = await fake.slash(fake.alice, fake.general, "ttr-league rated")
    assert "allows games of 3, 4, or 5 players, not 2" in reply.text  # the season's limits
    europe = Driver(fake, bot, fake.games, [fake.alice, fake.dirk, fake.bob])
    await europe.start_game("europe")
    reply = await fake.slash(fake.alice, fake.games, "ttr-league rated")
    assert "is played on USA, not Europe" in reply.text  # the maps' names
    await driver.run(fake.alice, "ttr-host end")
    usa = Driver(fake, bot, fake.general, [fake.alice, fake.dirk, fake.bob])
    await usa.start_game("usa")
    for seat in range(3):
        await usa.act(seat, usa.game.default_action(seat))
    reply = await fake.slash(fake.alice, fake.general, "ttr-league rated")
    assert "under way" in reply.text  # the host, after the first turn began
    reply = await fake.slash(fake.bob, fake.general, "ttr-league rated")  # a league admin may
    assert "counts for **Club · Autumn**" in reply.text
    reply = await fake.slash(fake.bob, fake.general, "ttr-league rated")
    assert "already belongs to a league season" in reply.text


def latin_words(text: str, *data: str) -> list[str]:
    """Words in Latin letters in a text, besides the data (names) it quotes."""
    for name in data:
        text = text.replace(name, "")
    return regex.findall(r"\p{Latin}+", text)


async def test_league_errors_read_in_the_players_language(fake_discord, make_bot, roles):
    """Refusals from the league's storage reach a Russian league admin in Russian: only the league's
    and season's names (data) stay as typed; maps by their Russian names, player counts as a list."""
    fake = fake_discord
    bot = await make_bot()
    ivan = fake.add_user("ivan", locale="ru")
    await league_with_season(fake, roles, maps="usa", players="3-5")
    roles.add(ivan.id)
    reply = await fake.slash(ivan, fake.general, "ttr-league season", name="Зима", end="2020-01-01")
    assert reply.ephemeral and reply.text == "⚠️ сезон должен заканчиваться позже, чем начинается."
    reply = await fake.slash(ivan, fake.general, "ttr-league season", name="Autumn")
    assert reply.text == "⚠️ в этой лиге уже есть сезон «Autumn»."
    europe = Driver(fake, bot, fake.games, [ivan, fake.alice, fake.bob])
    await europe.start_game("europe")
    reply = await fake.slash(ivan, fake.games, "ttr-league rated")
    assert "карта Европа не входит в сезон «Autumn» (его карты: США)" in reply.text, reply.text
    assert not latin_words(reply.text, "Club", "Autumn"), reply.text
    usa = Driver(fake, bot, fake.general, [ivan, fake.alice])
    await usa.start_game("usa")
    reply = await fake.slash(ivan, fake.general, "ttr-league rated")
    assert "допустимое число игроков: 3, 4 или 5, а не 2" in reply.text, reply.text
    assert not latin_words(reply.text, "Club", "Autumn"), reply.text


def test_unrated_reasons_with_data_are_worded_for_the_reader():
    map_reason = stored.Unrated("map {map} not in the season", map="europe")
    players_reason = stored.Unrated("{players} players not allowed", players=2)
    assert (str(map_reason), str(players_reason)) == ("map europe not in the season", "2 players not allowed")
    assert league_text(translator("en"), map_reason) == "map Europe not in the season"
    assert league_text(translator("ru"), map_reason) == "карта Европа не входит в сезон"
    assert league_text(translator("zh"), players_reason) == "不允许 2 人对局"
    assert league_text(translator("ru"), stored.Unrated("AI seats")) == "за столом были ИИ"


async def test_a_league_lobby_started_with_an_ai_seat_is_not_rated(fake_discord, make_bot, roles):
    fake = fake_discord
    bot = await make_bot()
    bot.get_cog("AISeats").delay = 3600  # the AI never gets to move here: what matters is that its seat is there
    await league_with_season(fake, roles, maps="usa")
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=3)
    await driver.run(fake.bob, "ttr join")
    reply = await fake.slash(fake.alice, fake.general, "ttr-league rated")
    assert "counts for **Club · Autumn**" in reply.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-host start", first=fake.alice, ai_players=1)
    await reply.wait_resolved()
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    await driver.run(fake.bob, "ttr resign")
    await driver.run(fake.alice, "ttr resign")  # only the AI is left: the game is over
    note = await fake.wait_for_message(fake.general, lambda m: "not rated" in m.text)
    assert "This Club game is not rated: AI seats." in note.text
    async with bot.storage.sessions() as session:
        row = await stored.league_game(session=session, game_id=driver.game_id)
        assert (row.rated, row.note) == (False, "AI seats")
        assert (await stored.standings(session=session, season_id=row.season_id))[0] == []


async def test_the_issue_season_through_discord(fake_discord, make_bot, roles):
    """Issue 8's league test with the commands: 4 players, 6 finished games where A (alice) always
    wins and D (dirk) is always last (two are 3-player games of B, C and D); the leaderboard shows
    A > B > C > D; a league admin voids A's four wins; then B leads and A has no rating left."""
    from storage.games import create_game
    from storage.players import update_player
    from tests.storage.helpers import finished_game
    from tests.storage.test_leagues import seating

    fake = fake_discord
    bot = await make_bot()
    await league_with_season(fake, roles, min_games=1)
    a, b, c, d = fake.alice, fake.bob, fake.carol, fake.dirk
    orders = [[a, b, c, d], [b, c, d], [a, b, c, d], [a, b, c, d], [b, c, d], [a, b, c, d]]
    ids = []
    async with bot.storage.sessions() as session:
        for user in (a, b, c, d):
            await update_player(session=session, user_id=user.id, display_name=user.name)
        for n, order in enumerate(orders):
            game = finished_game("usa", len(order), 1)
            record = await create_game(
                session=session,
                guild_id=fake.guild.id,
                channel_id=900 + n,
                game=game,
                players=seating(game, [u.id for u in order]),
            )
            session.add(stored.LeagueGame(game_id=record.id, season_id=1, added_by=a.id))
            await session.commit()
            ids.append(record.id)
    # The bot was not told (as after a restart): the leaderboard settles the season first.
    reply = await fake.slash(fake.alice, fake.general, "ttr-league leaderboard", public=True)
    alt = (await reply.wait_resolved()).attachments[0].description
    assert alt.startswith("Club · Standings: 1. alice") and alt.index("2. bob") < alt.index("3. carol") < alt.index(
        "4. dirk"
    ), alt
    for game_id, order in zip(ids, orders):
        if order[0] is a:
            reply = await fake.slash(fake.bob, fake.general, "ttr-league void", game=game_id, reason="fixed")
            assert "voided" in await text_of(reply)
    reply = await fake.slash(fake.alice, fake.general, "ttr-league leaderboard")
    alt = (await reply.wait_resolved()).attachments[0].description
    assert alt.startswith("Club · Standings: 1. bob") and "alice" not in alt, alt
    reply = await fake.slash(fake.alice, fake.general, "ttr-league profile")
    assert (
        "alice, Club Autumn: rating –, no rated games yet" in (await reply.wait_resolved()).attachments[0].description
    )
    reply = await fake.slash(fake.alice, fake.general, "ttr-league leaderboard", map="usa")
    assert (await reply.wait_resolved()).attachments[0].description.startswith("Club · Standings: 1. bob")
    reply = await fake.slash(fake.alice, fake.general, "ttr-league leaderboard", map="europe")
    assert "no rated games yet" in (await reply.wait_resolved()).attachments[0].description


# ---------------------------------------------------------------------------- divisions, seasons closing, minimum play

ROLE_PUT = "PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}"


def bot_manages_roles(fake) -> None:
    """The bot may manage roles and its role sits above the ones tests add (before it starts)."""
    fake.guild.bot_role_permissions |= fake_state.MANAGE_ROLES
    fake.guild.bot_role_position = 10


async def add_games(bot, fake, season_id: int, orders) -> list[int]:
    """Finished games in the season, stored as after a restart (the bot was not told)."""
    from storage.games import create_game
    from storage.players import update_player
    from tests.storage.helpers import finished_game
    from tests.storage.test_leagues import seating

    ids = []
    async with bot.storage.sessions() as session:
        for user in {u for order in orders for u in order}:
            await update_player(session=session, user_id=user.id, display_name=user.name)
        for n, order in enumerate(orders):
            game = finished_game("usa", len(order), 1)
            record = await create_game(
                session=session,
                guild_id=fake.guild.id,
                channel_id=800 + n,
                game=game,
                players=seating(game, [u.id for u in order]),
            )
            session.add(stored.LeagueGame(game_id=record.id, season_id=season_id, added_by=order[0].id))
            await session.commit()
            ids.append(record.id)
    return ids


async def test_a_season_closes_on_its_date_with_promotion_relegation_and_roles(fake_discord, make_bot, roles):
    """Gold (bottom 1 down) over Silver (top 1 up), a role for Gold's winner (last season's holder,
    bob, loses it), one for the champion, one above the bot's role (refused, and said so). The
    season's last day has passed: the restarted bot closes it by itself and posts the results."""
    fake = fake_discord
    bot_manages_roles(fake)
    gold_role = fake.add_role(fake.guild, "Gold winner")
    champion = fake.add_role(fake.guild, "Champion")
    legend = fake.add_role(fake.guild, "Legend")
    legend.position = 20  # above the bot's role
    fake.guild.member_roles[fake.bob.id] = {gold_role.id}
    bot = await make_bot()
    await league_with_season(fake, roles, start="2020-01-01", end="2020-01-31", min_games=1)
    a, b, c, d = fake.alice, fake.bob, fake.carol, fake.dirk
    reply = await fake.slash(b, fake.general, "ttr-league division set", name="Gold", relegate=1)
    assert "1. **Gold**: top 0 up, bottom 0 down" in reply.text  # the only division: nowhere to go
    reply = await fake.slash(b, fake.general, "ttr-league division set", name="Silver", promote=1)
    assert "1. **Gold**: top 0 up, bottom 1 down\n2. **Silver**: top 1 up, bottom 0 down" in reply.text
    reply = await fake.slash(a, fake.general, "ttr-league division set", name="Bronze")
    assert reply.ephemeral and "Only league admins" in reply.text
    for player, division in ((a, "Gold"), (b, "Gold"), (c, "Silver"), (d, "Silver")):
        reply = await fake.slash(b, fake.general, "ttr-league division assign", player=player, division=division)
        assert f"{player.mention} plays in **{division}**" in reply.text
    reply = await fake.autocomplete(b, fake.general, "ttr-league division assign", "division", "")
    assert reply.choice_values == ["Gold", "Silver"]
    reply = await fake.slash(b, fake.general, "ttr-league division reward", role=gold_role, division="Gold")
    assert "the winner of **Gold** gets" in reply.text and "⚠️" not in reply.text
    reply = await fake.slash(b, fake.general, "ttr-league division reward", role=champion)
    assert "the champion gets" in reply.text
    reply = await fake.slash(b, fake.general, "ttr-league division reward", role=legend, top=2)
    assert "⚠️ I can't give" in reply.text and "above my highest role" in reply.text
    async with bot.storage.sessions() as session:
        session.add(stored.RoleHolder(league_id=1, role_id=gold_role.id, user_id=b.id))  # the last close's
        await session.commit()
    await add_games(bot, fake, 1, [[a, b], [c, d], [c, d]])
    async with bot.storage.sessions() as session:
        await stored.recompute_season(session=session, season_id=1)
        top = [s.user_id for s in (await stored.standings(session=session, season_id=1))[0]]

    bot = await make_bot()  # a restart: the season's end has passed, nobody asked for anything
    post = await fake.wait_for_message(fake.general, lambda m: "is over" in m.text)
    text = post.text
    assert "**Club · Autumn** is over" in text
    assert f"**Gold**: 1. <@{a.id}>" in text and f"2. <@{b.id}>" in text and "⬇️ Silver" in text
    assert f"**Silver**: 1. <@{c.id}>" in text and "⬆️ Gold" in text
    assert f"🎖️ <@&{gold_role.id}>: <@{a.id}>" in text and f"🎖️ <@&{champion.id}>: <@{top[0]}>" in text
    assert f"I could not change <@&{legend.id}> for 2 members: the role is above my highest role" in text
    assert post.pings.nobody
    held = fake.guild.member_roles
    assert gold_role.id in held[a.id] and gold_role.id not in held[b.id] and champion.id in held[top[0]]
    assert not any(legend.id in roles_ for roles_ in held.values())
    assert fake.requests.count(ROLE_PUT) == 2
    reply = await fake.slash(d, fake.general, "ttr-league leaderboard", division="Gold")
    alt = (await reply.wait_resolved()).attachments[0].description
    assert alt.startswith("Club · Standings: 1. alice") and "2. bob" in alt and "carol" not in alt
    async with bot.storage.sessions() as session:
        assert await stored.placements(session=session, league_id=1) == {a.id: 1, b.id: 2, c.id: 1, d.id: 2}
    reply = await fake.slash(d, fake.general, "ttr-league info")
    assert "**Autumn** (closed, 3 rated games)" in reply.text


async def test_a_close_interrupted_by_a_restart_resumes_without_doing_anything_twice(fake_discord, make_bot, roles):
    """A process closed the season (in the database), gave the first of two roles, claimed the
    second and died. The next bot takes the second over once its lease ran out and posts the
    results once; a further restart finds nothing to do."""
    fake = fake_discord
    bot_manages_roles(fake)
    podium = fake.add_role(fake.guild, "Podium")
    bot = await make_bot()
    await league_with_season(fake, roles, start="2020-01-01", end="2020-01-31", min_games=1)
    await fake.slash(fake.bob, fake.general, "ttr-league division reward", role=podium, top=2)
    await add_games(bot, fake, 1, [[fake.alice, fake.bob]])
    url = bot.settings.database_url
    await fake.stop_client(bot)

    from datetime import UTC, datetime, timedelta

    from storage import Storage

    async with Storage(url) as storage, storage.sessions() as session:  # the process that died
        assert await stored.close_season(session=session, season_id=1)
        then = datetime.now(UTC) - timedelta(seconds=stored.TASK_LEASE_SECONDS + 5)
        first, second = await stored.claim_close_tasks(session=session, now=then)
        fake.guild.member_roles.setdefault(first.user_id, set()).add(podium.id)
        await stored.finish_close_task(session=session, task_id=first.id)
    bot = await make_bot()
    post = await fake.wait_for_message(fake.general, lambda m: "is over" in m.text)
    assert f"🎖️ <@&{podium.id}>: <@{first.user_id}> and <@{second.user_id}>" in post.text
    assert fake.requests.count(ROLE_PUT) == 1 and podium.id in fake.guild.member_roles[second.user_id]
    bot = await make_bot()
    await bot.get_cog("SeasonClosing").close_due_seasons()
    assert fake.requests.count(ROLE_PUT) == 1
    assert len([m for m in fake.channel_messages(fake.general) if "is over" in m.text]) == 1
    async with bot.storage.sessions() as session:
        audit = await stored.audit_log(session=session, league_id=1, limit=100)
    assert [e.action for e in audit].count("close_season") == 1


async def test_an_early_resign_is_a_loss_for_the_resigner_not_a_game_for_the_other(fake_discord, make_bot, roles):
    fake = fake_discord
    bot = await make_bot()
    await league_with_season(fake, roles, maps="usa", players="2", min_games=1, min_turns=5)
    reply = await fake.slash(fake.dirk, fake.general, "ttr-league info")
    assert "a game counts once each seat took 5 turns" in reply.text
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=2)
    await driver.run(fake.bob, "ttr join")
    await fake.slash(fake.alice, fake.general, "ttr-league rated")
    await (await fake.slash(fake.alice, fake.general, "ttr-host start", first=fake.alice)).wait_resolved()
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    await driver.run(fake.bob, "ttr resign")  # after 1 turn each: an early resign
    rated = await fake.wait_for_message(fake.general, lambda m: "rated:" in m.text)
    assert f"<@{fake.bob.id}> " in rated.text and "(-" in rated.text
    assert f"<@{fake.alice.id}>" not in rated.text  # no game for alice
    async with bot.storage.sessions() as session:
        table, _ = await stored.standings(session=session, season_id=1)
    assert [(s.user_id, s.games, s.wins) for s in table] == [(fake.bob.id, 1, 0)]


async def test_a_league_is_renamed_then_deleted_after_its_export_and_a_confirmation(fake_discord, make_bot, roles):
    fake = fake_discord
    bot = await make_bot()
    await league_with_season(fake, roles, min_games=1)
    await add_games(bot, fake, 1, [[fake.alice, fake.bob]])
    reply = await fake.slash(fake.bob, fake.general, "ttr-league rename", name="Club Two")
    assert reply.ephemeral and "Manage Server" in reply.text  # a league admin, not a manager
    reply = await fake.slash(fake.owner, fake.general, "ttr-league rename", name="Club Two")
    assert "League **Club** is now called **Club Two**" in reply.text and not reply.ephemeral
    reply = await fake.slash(fake.bob, fake.general, "ttr-league delete")
    assert reply.ephemeral and "Manage Server" in reply.text
    asked = await (await fake.slash(fake.owner, fake.general, "ttr-league delete")).wait_resolved()
    assert asked.ephemeral and "Delete the league **Club Two**" in asked.text
    rows = list(csv.DictReader(io.StringIO(asked.files["club-two-all-results.csv"].decode())))
    assert [(r["season"], r["name"], r["status"]) for r in rows] == [
        ("Autumn", "alice", "rated"),
        ("Autumn", "bob", "rated"),
    ]
    assert "club-two-all-standings.csv" in asked.files
    answer = await fake.click(fake.owner, asked, "ttr:league:1:delete:no")
    assert "Nothing was deleted" in answer.message.text
    asked = await (await fake.slash(fake.owner, fake.general, "ttr-league delete")).wait_resolved()
    answer = await fake.click(fake.owner, asked, "ttr:league:1:delete:yes")
    assert "League **Club Two** deleted" in answer.message.text
    said = await fake.wait_for_message(fake.general, lambda m: "deleted the league" in m.text)
    assert f"<@{fake.owner.id}> deleted the league **Club Two**" in said.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-league leaderboard")
    assert "no league yet" in reply.text
