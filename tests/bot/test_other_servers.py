"""Nobody acts on a game, lobby, tournament or league from outside the server (and channel) it
lives in (issue 38): every component template is forged with server A's ids and pressed in
server B — by B's manager, and by A's own players — and every command is run in B; A's stored
state stays exactly as it was and each refusal is private and says why."""

from __future__ import annotations

import asyncio
import re

import pytest
from sqlalchemy import select

from bot import components
from storage import tournaments as stored_tournaments
from storage.models import League, Lobby, LobbyMember, Tournament, TournamentEntrant
from tests.bot.driver import Driver
from tests.bot.test_play import private_reply


@pytest.fixture
def world(fake_discord):
    """Server A is the fake's default guild; server B is eve's, and alice is a member of both."""
    fake = fake_discord
    fake.eve = fake.add_user("eve", member=False)
    fake.other = fake.add_guild("Other Club", owner=fake.eve)
    fake.other_play = fake.add_channel(fake.other, "play")
    fake.other.members[fake.alice.id] = fake.alice
    return fake


async def _game_in_a(fake, make_bot):
    """A two-player USA game in A's #general (tickets kept, alice to move), a lobby in A's
    #games, a tournament signing up in #general and a league: one of each thing an id can name."""
    bot = await make_bot(dev_guild_id=None)  # commands synced globally: both servers have them
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    await driver.run(fake.alice, "ttr-host new", map="usa", players=2)
    await driver.run(fake.bob, "ttr join")
    reply = await fake.slash(fake.alice, fake.general, "ttr-host start", first=fake.alice)
    await reply.wait_resolved()
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    await (await fake.slash(fake.dirk, fake.games, "ttr-host new", map="europe", players=3)).wait_resolved()
    await fake.slash(fake.owner, fake.general, "ttr-tournament create", name="Cup", format="swiss", map="usa")
    await fake.slash(fake.owner, fake.general, "ttr-league create", name="Club")
    return bot, driver


async def _a_state(bot, driver) -> tuple:
    """Everything of A's that a forged click or command could change."""
    a = driver.fake.guild.id
    table = await bot.service.table(driver.game_id)
    async with bot.storage.sessions() as session:
        rows = [x for model in (Lobby, Tournament, League) for x in (await session.execute(select(model))).scalars()]
        mine = {(type(x).__name__, x.id): x for x in rows if x.guild_id == a}
        lobbies = {i for kind, i in mine if kind == "Lobby"}
        tournaments = {i for kind, i in mine if kind == "Tournament"}
        members = sorted(
            (m.lobby_id, m.user_id)
            for m in (await session.execute(select(LobbyMember))).scalars()
            if m.lobby_id in lobbies
        )
        entrants = sorted(
            (e.tournament_id, e.user_id, e.status)
            for e in (await session.execute(select(TournamentEntrant))).scalars()
            if e.tournament_id in tournaments
        )
    things = sorted(
        (kind, i, getattr(x, "status", None), x.name if hasattr(x, "name") else None) for (kind, i), x in mine.items()
    )
    return (
        table.record.status,
        table.game.version,
        [(s.seat, s.user_id) for s in table.seats],
        things,
        members,
        entrants,
    )


async def _ids(bot, driver, fake) -> dict[str, str]:
    """One custom id per template, naming A's game, lobby, tournament and league."""
    game = driver.game
    g, turn, token = driver.game_id, game.turn_token(0), game.decision_token(0)
    async with bot.storage.sessions() as session:
        lobby = (await session.execute(select(Lobby))).scalars().first()
        tournament = (await stored_tournaments.guild_tournaments(session=session, guild_id=fake.guild.id))[0]
        league = (await session.execute(select(League))).scalars().first()
    track = game.map.tracks[0].id
    city = game.map.cities[0].id
    return {
        components.DRAW: f"ttr:{g}:{turn}:draw:0:{game.market[0]}",
        components.TICKETS: f"ttr:{g}:{turn}:tickets",
        components.ROUTES: f"ttr:{g}:{turn}:routes:0",
        components.ROUTE: f"ttr:{g}:{turn}:route",
        components.CITIES: f"ttr:{g}:{turn}:cities:0",
        components.CITY: f"ttr:{g}:{turn}:city",
        components.KEEP: f"ttr:{g}:{token}:keep",
        components.TUNNEL: f"ttr:{g}:{token}:tunnel:decline",
        components.CHOICE: f"ttr:{g}:{token}:do:N|{track}",
        components.UNDO: f"ttr:{g}:{game.version}:undo",
        components.UNDO_VOTE: f"ttr:{g}:{game.version}:undo:yes",
        components.HAND: f"ttr:{g}:hand",
        components.LAUNCH: f"ttr:{g}:map",
        components.REMATCH: f"ttr:{g}:rematch",
        components.LOBBY: f"ttr:lobby:{lobby.id}:join",
        components.KICK: f"ttr:{g}:kick:1:{fake.bob.id}:yes",
        components.SEAT_BACK: f"ttr:{g}:back:1",
        components.TOURNAMENT: f"ttr:tournament:{tournament.id}:join",
        components.LEAGUE_DELETE: f"ttr:league:{league.id}:delete:yes",
        components.MIX: f"ttr:{g}:{token}:mix:1",
        components.MIXES: f"ttr:{g}:{turn}:mixes",
        components.PASSENGERS: f"ttr:{g}:{turn}:passengers",
        components.PASSENGER: f"ttr:{g}:{turn}:passenger",
        components.TRIP: f"ttr:{g}:{turn}:trip:{city}",
        components.END: f"ttr:{g}:{turn}:end:{track}:{city}",
    }


SELECTS = {components.ROUTE, components.CITY, components.KEEP, components.PASSENGER, components.TRIP}


async def _press(fake, user, channel, template: str, custom_id: str):
    values = None
    if template in SELECTS:
        values = ["0"] if template == components.KEEP else ["x"]
    reply = await fake.forge_component(user, channel, custom_id, values)
    return reply, await private_reply(fake, reply)


async def test_no_component_acts_from_another_server_or_channel(world, make_bot):
    fake = world
    bot, driver = await _game_in_a(fake, make_bot)
    ids = await _ids(bot, driver, fake)
    assert set(ids) == set(components.KNOWN), "every template is tried"
    for custom_id in ids.values():
        assert any(re.fullmatch(template, custom_id) for template in components.KNOWN), custom_id
    await fake.say(fake.eve, fake.other_play, "hello")  # a message to press forged components on
    before = await _a_state(bot, driver)
    refused = 0
    for template, custom_id in ids.items():
        for user, channel, where in (
            (fake.eve, fake.other_play, "another server"),  # B's manager
            (fake.alice, fake.other_play, "another server"),  # A's own player and host, from B
        ):
            reply, text = await _press(fake, user, channel, template, custom_id)
            assert reply.ephemeral and where in text, (custom_id, user.name, text)
            refused += 1
        if "lobby" not in custom_id and "tournament" not in custom_id and "league" not in custom_id:
            reply, text = await _press(fake, fake.alice, fake.games, template, custom_id)
            assert reply.ephemeral and "another channel" in text, (custom_id, text)
            refused += 1
    assert refused == 2 * len(ids) + len(ids) - 3
    assert await _a_state(bot, driver) == before


async def test_a_manager_of_another_server_cannot_decide_a_tournament_game(world, make_bot):
    fake = world
    bot = await make_bot(dev_guild_id=None)
    await fake.slash(fake.owner, fake.general, "ttr-tournament create", name="Duel", format="swiss", map="usa")
    post = next(m for m in fake.channel_messages(fake.general) if "Duel" in m.text)
    for user in (fake.alice, fake.bob, fake.dirk):
        await fake.click(user, post, post.custom_ids[0])
    started = await fake.slash(fake.owner, fake.general, "ttr-tournament start")
    await started.wait_resolved()
    async with bot.storage.sessions() as session:
        [tournament] = await stored_tournaments.guild_tournaments(session=session, guild_id=fake.guild.id)

    async def table_open():
        async with bot.storage.sessions() as session:
            rows = await stored_tournaments.tables(session=session, tournament_id=tournament.id, round=1)
        return rows if rows and rows[0].game_id else None

    for _ in range(100):
        if rows := await table_open():
            break
        await asyncio.sleep(0.05)
    assert rows, started.message.text
    game_id = rows[0].game_id
    reply = await fake.slash(
        fake.eve,
        fake.other_play,
        "ttr-tournament adjudicate",
        game=game_id,
        order=f"<@{fake.alice.id}> <@{fake.bob.id}>",
    )
    text = await private_reply(fake, reply)
    assert reply.ephemeral and "another server" in text and "decided" not in text
    table = await bot.service.table(game_id)
    assert table.record.status == "active"


def _leaves(commands: list[dict]) -> list[tuple[str, list[dict]]]:
    """Every slash command as typed ("ttr-league season") and its options, from the synced tree."""
    found = []

    def walk(prefix: str, options: list[dict]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            found.append((prefix, options))
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub.get("options") or [])

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command.get("options") or [])
    return found


def _plausible(option: dict, fake, game_id: int, role):
    """A value a Discord client could send, naming A's things where the option names something."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind, name = option["type"], option["name"]
    if kind == 3:
        return {"league": "Club", "tournament": "Cup", "name": "Club", "confirm": "DELETE"}.get(name, "Club")
    if kind == 4:
        return game_id if name == "game" else max(option.get("min_value", 1), 1)
    if kind == 10:
        return option.get("min_value", 1.0)
    if kind == 5:
        return True
    if kind in (6, 9):
        return fake.alice
    if kind == 7:
        return fake.other_play
    if kind == 8:
        return role
    raise AssertionError(option)


async def test_no_command_run_in_another_server_changes_anything_of_this_one(world, make_bot):
    fake = world
    role = fake.add_role(fake.other, "Other admins")
    bot, driver = await _game_in_a(fake, make_bot)
    before = await _a_state(bot, driver)
    commands = _leaves(fake.commands(None))
    assert len(commands) > 55
    for command, options in commands:
        values = {o["name"]: _plausible(o, fake, driver.game_id, role) for o in options}
        reply = await fake.slash(fake.eve, fake.other_play, command, options=values)
        if reply.kind in ("deferred", "deferred_update"):
            await reply.wait_resolved()
        assert await _a_state(bot, driver) == before, command
    async with bot.storage.sessions() as session:  # the commands ran in B: B has its own now
        b_leagues = [x.name for x in (await session.execute(select(League))).scalars() if x.guild_id == fake.other.id]
    assert b_leagues, "no command worked in the other server"
