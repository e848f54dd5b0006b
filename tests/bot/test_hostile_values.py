"""Values a hostile client sends (issue 38), through the fake Discord: options outside their
declared choices, ranges and lengths, numbers past 2^63, names full of invisible characters, and
component values no menu offered. Each gets a short private refusal that says what was wrong —
never an apology, never a traceback in the log — and nothing is stored."""

from __future__ import annotations

import logging
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot import components
from storage.models import League, Lobby, QueueRules, Season, Tournament
from tests.bot.test_play import _claim_something, private_reply, state_of, two_player_game


async def _counts(bot) -> dict[str, int]:
    async with bot.storage.sessions() as session:
        return {
            model.__name__: (await session.execute(select(func.count()).select_from(model))).scalar_one()
            for model in (Lobby, League, Season, Tournament, QueueRules)
        }


def _refused(reply, text: str, what: object = None) -> None:
    assert reply.ephemeral, (what, text)
    assert text.startswith("⚠️") and "Sorry" not in text and len(text) < 400, (what, text)


#: (command, options) a Discord client never sends: outside declared choices, ranges and lengths.
OPTION_PROBES = [
    ("ttr-host new", {"map": "atlantis"}),
    ("ttr-host new", {"map": "usa", "players": -5}),
    ("ttr-host new", {"map": "usa", "players": 0}),
    ("ttr-host new", {"map": "usa", "remove_after": -1}),
    ("ttr-host new", {"map": "usa", "remove_after": 10**30}),
    ("ttr-host new", {"map": "usa", "timer": 7}),
    ("ttr-host new", {"map": "usa", "absence": "vanish"}),
    ("ttr-host new", {"map": "usa", "tickets": "usa:secret"}),
    ("ttr-host new", {"map": "usa", "reminder_minutes": 2**64}),
    ("ttr join", {"color": "gold"}),
    ("ttr-host start", {"ai_level": "godlike"}),
    ("ttr-host start", {"ai_players": -3}),
    ("ttr claim", {"route": "Denver-Omaha", "color": "gold"}),
    ("ttr claim", {"route": "Denver-Omaha", "locos": 99}),
    ("ttr board", {"move": -1}),
    ("ttr log", {"moves": 10**9}),
    ("ttr rules", {"map": "narnia"}),
    ("ttr-settings language", {"language": "klingon"}),
    ("ttr-settings map", {"map": "mars"}),
    ("ttr-settings notify", {"quiet_from": 99, "quiet_to": -1}),
    ("ttr-settings notify", {"utc_offset": 99}),
    ("ttr-settings vacation", {"days": -30}),
    ("ttr-league create", {"name": "x" * 6000}),
    ("ttr-league create", {"name": ""}),
    ("ttr-league create", {"name": "\x00\u202e\u200b"}),
    ("ttr-league season", {"name": "S", "min_games": -1}),
    ("ttr-league leaderboard", {"map": "atlantis"}),
    ("ttr-league queue join", {"players": 9}),
    ("ttr-league queue rules", {"spread": -1e308}),
    ("ttr-league queue rules", {"min_players": 7, "max_players": 1}),
    ("ttr-tournament create", {"name": "Cup", "format": "roundrobin", "map": "usa"}),
    ("ttr-tournament create", {"name": "Cup", "format": "swiss", "map": "atlantis"}),
    ("ttr-tournament create", {"name": "Cup", "format": "swiss", "map": "usa", "cap": -5}),
    ("ttr-tournament create", {"name": "Cup", "format": "groups", "map": "usa", "group_size": 0}),
    ("ttr-tournament create", {"name": "Cup", "format": "swiss", "map": "usa", "signup_hours": -2}),
    ("ttr-tournament create", {"name": "Cup", "format": "swiss", "map": "usa", "timer": 1}),
    ("ttr-tournament adjudicate", {"game": 2**70, "order": "x"}),
    ("ttr-league void", {"game": -(2**70)}),
]


@pytest.mark.parametrize(("command", "options"), OPTION_PROBES, ids=lambda v: str(v)[:40])
async def test_an_option_no_client_sends_is_refused_and_stores_nothing(
    fake_discord, make_bot, caplog, command, options
):
    fake = fake_discord
    bot = await make_bot()
    before = await _counts(bot)
    with caplog.at_level(logging.WARNING):
        reply = await fake.forge_slash(fake.owner, fake.general, command, **options)
        text = await private_reply(fake, reply)
    _refused(reply, text)
    assert await _counts(bot) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


async def test_a_name_is_cleaned_of_invisible_characters_before_it_is_stored(fake_discord, make_bot):
    fake = fake_discord
    bot = await make_bot()
    reply = await fake.forge_slash(
        fake.owner, fake.general, "ttr-league create", name=" Club\u202e\x00 \u200bNight\r\n"
    )
    await private_reply(fake, reply)
    async with bot.storage.sessions() as session:
        [league] = (await session.execute(select(League))).scalars().all()
    assert league.name == "Club Night"


def _component_probes(game, g: int, turn: int, token: int) -> list[tuple[str, list[str] | None, int | None]]:
    """(custom id, select values, component type) the menus never offered."""
    return [
        (f"ttr:{g}:{turn}:route", ["no-such-route"], None),  # a route id not offered
        (f"ttr:{g}:{turn}:route", [], None),  # no value at all
        (f"ttr:{g}:{token}:keep", ["x"], None),  # ticket ids that are not numbers
        (f"ttr:{g}:{turn}:route", None, 2),  # a select's id sent as a button
        (f"ttr:{g}:{token}:keep", None, 2),
        (f"ttr:{g}:{turn}:city", ["atlantis"], None),
        (f"ttr:{g}:{turn}:mixes", None, None),  # Märklin's buttons on a USA game
        (f"ttr:{g}:{token}:mix:1", None, None),
        (f"ttr:{g}:{turn}:passengers", None, None),
        (f"ttr:{g}:{turn}:trip:atlantis", ["narnia"], None),
        (f"ttr:{g}:{turn}:end:{game.map.tracks[0].id}:atlantis", None, None),
        (f"ttr:{g}:{turn}:draw:0:99", None, None),  # a card that does not exist
        (f"ttr:{g}:{token}:do:C|no-such-route|1|0|", None, None),
        (f"ttr:{g}:{token}:do:S|atlantis||0", None, None),
        (f"ttr:{2**64}:{turn}:draw:deck", None, None),  # numbers past 2^63
        (f"ttr:{g}:{2**64}:draw:deck", None, None),
        (f"ttr:{g}:kick:{2**64}:{2**70}:yes", None, None),
        (f"ttr:lobby:{2**64}:join", None, None),
        (f"ttr:tournament:{10**25}:join", None, None),
        (f"ttr:league:{2**63}:delete:yes", None, None),
    ]


async def test_component_values_no_menu_offered_are_refused_and_change_nothing(fake_discord, make_bot, caplog):
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    game = driver.game
    before = state_of(driver)
    probes = _component_probes(game, driver.game_id, game.turn_token(0), game.decision_token(0))
    with caplog.at_level(logging.WARNING):
        for custom_id, values, kind in probes:
            reply = await fake.forge_component(fake.alice, fake.general, custom_id, values, component_type=kind)
            text = await private_reply(fake, reply)
            _refused(reply, text, (custom_id, values))
    assert state_of(driver) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


async def test_replayed_components_change_no_message_they_do_not_own(fake_discord, make_bot):
    """A kick's Cancel pressed by someone who may not kick, a late undo vote pressed on the live
    table, bob's tap replayed on alice's own panel: each refused or answered apart, and no message
    of someone else's changes."""
    fake = fake_discord
    bot, driver = await two_player_game(fake, make_bot)
    g = driver.game_id

    kick = await fake.slash(fake.alice, fake.general, "ttr-host kick", player=fake.bob)
    confirmation = kick.message
    asked = confirmation.text
    reply = await fake.forge_component(fake.dirk, fake.general, f"ttr:{g}:kick:1:{fake.bob.id}:no", on=confirmation)
    _refused(reply, await private_reply(fake, reply), "kick cancel")
    assert confirmation.text == asked and confirmation.custom_ids

    await _claim_something(driver)  # alice moves and asks to take it back; bob plays on instead
    turn = fake.channel_messages(fake.general)[-1]
    request = (await fake.click(fake.alice, turn, next(c for c in turn.custom_ids if c.endswith(":undo")))).message
    vote = next(c for c in request.custom_ids if c.endswith(":yes"))
    await driver.act(1, driver.game.default_action(1))
    asked = request.text
    reply = await fake.forge_component(fake.dirk, fake.general, vote, on=request)  # not a player
    _refused(reply, await private_reply(fake, reply), "late undo vote")
    assert request.text == asked and request.custom_ids
    # Discord checks a custom id against the clicked message, and discord.py drops one that is not on
    # it: a vote's id replayed on the live table reaches no handler, and the table keeps its controls.
    table_message = next(m for m in reversed(fake.channel_messages(fake.general)) if f"ttr:{g}:hand" in m.custom_ids)
    controls, versions = list(table_message.custom_ids), len(table_message.history)
    await fake.forge_component(fake.bob, fake.general, vote, on=table_message, wait=False)
    await fake.settled()
    assert table_message.custom_ids == controls and len(table_message.history) == versions

    while driver.game.current != 0:  # alice's turn: her panel has her controls
        await driver.act(1, driver.game.default_action(1))
    table_message = next(m for m in reversed(fake.channel_messages(fake.general)) if f"ttr:{g}:hand" in m.custom_ids)
    hand = await fake.click(fake.alice, table_message, f"ttr:{g}:hand")
    await hand.wait_resolved()
    panel = hand.message
    shown = panel.text
    claim = next(c for c in panel.custom_ids if ":routes:" in c)
    reply = await fake.forge_component(fake.bob, fake.general, claim, on=panel)
    text = await private_reply(fake, reply)
    assert reply.message is not panel and panel.text == shown, text


def _custom_ids(game_id: int) -> st.SearchStrategy[tuple[str, list[str] | None]]:
    """Any custom id of any template (its game, when it names one, the running game's half the
    time), or any text at all; with select values or as a button."""

    @st.composite
    def build(draw) -> tuple[str, list[str] | None]:
        template = draw(st.sampled_from(components.KNOWN))
        custom_id = draw(st.from_regex(template, fullmatch=True).filter(lambda s: len(s) <= 100))
        match = re.fullmatch(template, custom_id)
        if match and "game" in match.groupdict() and draw(st.booleans()):
            start, end = match.span("game")
            custom_id = custom_id[:start] + str(game_id) + custom_id[end:]
        custom_id = draw(st.one_of(st.just(custom_id), st.text(max_size=100)))
        values = draw(st.one_of(st.none(), st.lists(st.text(min_size=1, max_size=100), min_size=1, max_size=5)))
        return custom_id, values

    return build()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
async def test_any_custom_id_of_any_template_is_answered_privately_never_with_an_apology(
    fake_discord, make_bot, caplog, data
):
    fake = fake_discord
    if not hasattr(fake, "hostile_game"):  # one game for every example (the fixtures are per test)
        fake.hostile_game = await two_player_game(fake, make_bot)
    bot, driver = fake.hostile_game
    custom_id, values = data.draw(_custom_ids(driver.game_id))
    if not custom_id.strip():
        return  # Discord requires a custom id of at least one character
    with caplog.at_level(logging.WARNING):
        caplog.clear()
        reply = await fake.forge_component(fake.alice, fake.general, custom_id, values)
        text = await private_reply(fake, reply)
    assert reply.ephemeral or reply.kind in ("deferred_update", "update"), (custom_id, values, text)
    assert "Sorry" not in (text or ""), (custom_id, values, text)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], (custom_id, values)
