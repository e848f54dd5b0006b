"""Issue 10 through the fake Discord: players in English, Russian and Chinese at one table, and a
whole game in the pseudo-locale where every translated string is marked ⟦ ⟧.

Private text follows each player's Discord client (the interaction's locale) or their own
`/ttr-settings language`; channel text follows the server's language (docs/i18n.md)."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from datetime import UTC

import pytest

from bot.render_pool import POOL
from rendering import fonts
from tests.bot.driver import Driver

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
#: mentions, channels, timestamps, the bot's card emojis, and the top-level commands (/ttr, /ttr-host ...: their
#: subcommands are translated)
DISCORD_MARKUP = re.compile(r"<(?:@[!&]?|#|t:)\d+(?::[A-Za-z])?>|<a?:\w+:\d+>|/ttr(?:-[a-z]+)?\b")


def texts(message) -> list[str]:
    """Everything a player reads in a message: content, embeds, components, image descriptions."""
    out = [message.text]
    for embed in message.embeds:
        out += [
            embed.get("title", ""),
            embed.get("description", ""),
            (embed.get("footer") or {}).get("text", ""),
            (embed.get("author") or {}).get("name", ""),
        ]
        for field in embed.get("fields", []):
            out += [field.get("name", ""), field.get("value", "")]
    for component in message._walk():
        out += [component.get("label") or "", component.get("placeholder") or ""]
        for option in component.get("options", []):
            out += [option.get("label", ""), option.get("description") or ""]
    out += [a.description or "" for a in message.attachments]
    return [text for text in out if text]


def unmarked_letters(text: str, names: list[str]) -> str:
    """Letters that skipped the catalogs: any outside ⟦ ⟧ marks, and plain ASCII letters inside
    them (the pseudo-locale swaps every letter it translates), apart from Discord markup and the
    players' names."""
    text = DISCORD_MARKUP.sub("", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    ascii_letters = "".join(LATIN.findall(text))
    previous = None
    while previous != text:
        previous, text = text, MARKED.sub("", text)
    return ascii_letters + "".join(ch for ch in text if ch.isalpha())


class DrawnText:
    """Records the text every image draws (all drawing goes through rendering.fonts.draw_text)."""

    def __init__(self, monkeypatch) -> None:
        self.items: list[str] = []
        self._lock = threading.Lock()
        original = fonts.draw_text

        def recording(draw, xy, text, *args, **kwargs):
            with self._lock:
                self.items.append(text)
            return original(draw, xy, text, *args, **kwargs)

        monkeypatch.setattr(fonts, "draw_text", recording)
        # Drawn here, in this process's threads, and drawn anew: not by the image workers (their
        # text is drawn in other processes) nor taken from the images the pool keeps.
        monkeypatch.setattr(POOL, "_executor", None)
        monkeypatch.setattr(POOL, "_images", OrderedDict())


def private_messages(fake, user) -> list:
    return fake.dms(user) + fake.ephemeral(user)


def letters_outside(text: str, allowed: list[str]) -> str:
    """Latin letters of `text` that are not part of an allowed word (names, printed city names)."""
    text = DISCORD_MARKUP.sub("", text)
    for word in sorted(allowed, key=len, reverse=True):
        text = text.replace(word, "")
    return "".join(LATIN.findall(text))


async def test_each_player_reads_their_own_language_privately(fake_discord, make_bot):
    """A table of alice (en-US), ivan (ru) and mei (zh-CN): DMs, ticket selects, hands and errors come
    in each player's client language; the channel follows the server (English, then Chinese once a
    manager sets it)."""
    fake = fake_discord
    ivan = fake.add_user("ivan", locale="ru")
    mei = fake.add_user("mei", locale="zh-CN")
    bot = await make_bot()
    driver = Driver(fake, bot, fake.general, [fake.alice, ivan, mei], seed=5)
    await driver.start_game("europe")
    game = driver.game
    printed = [c.name for c in game.map.cities]
    names = ["alice", "ivan", "mei"]

    # The ticket offer by DM: Russian for ivan, Chinese for mei, English for alice.
    offer = {u.name: next(m for m in reversed(fake.dms(u)) if m.selects) for u in (fake.alice, ivan, mei)}
    assert CYRILLIC.search(" ".join(texts(offer["ivan"])))
    assert CJK.search(" ".join(texts(offer["mei"])))
    assert not CYRILLIC.search(" ".join(texts(offer["alice"]))) and not CJK.search(" ".join(texts(offer["alice"])))
    for text in texts(offer["mei"]):  # Chinese, printed city names and names only
        assert not letters_outside(text, printed + names), text

    # Ivan prefers translated city names: after that his private texts have no Latin letters but names.
    reply = await driver.run(ivan, "ttr-settings language", language="ru", city_names="translated")
    assert CYRILLIC.search(reply.message.text)
    for _ in range(12):  # a few turns of play, by buttons, selects and commands
        seat = driver.game.to_move()[0]
        await driver.act(seat, driver.choose(seat))
    later = [m for m in private_messages(fake, ivan) if m.id > reply.message.id]
    assert later
    for message in later:
        for text in texts(message):
            assert not letters_outside(text, names), text

    # An illegal move is refused in the player's language.
    game = driver.game
    waiting = next(u for u in (ivan, mei) if driver.user_of(game.current) is not u)
    refused = await driver.run(waiting, "ttr pass")
    refusal = refused.message.text if refused.message else ""
    assert (CYRILLIC if waiting is ivan else CJK).search(refusal), refusal

    # Channel messages follow the server: English by default, Chinese once a manager says so.
    before = len(fake.channel_messages(fake.general))
    assert not CJK.search(fake.channel_messages(fake.general)[-1].text)
    await driver.run(fake.owner, "ttr-settings language", language="zh", **{"for": "server"})

    def boards_since():  # turn messages with a board picture (turns that changed the map)
        return [m for m in fake.channel_messages(fake.general)[before:] if m.attachments]

    while not boards_since():
        seat = driver.game.to_move()[0]
        await driver.act(seat, driver.choose(seat))
    assert all(CJK.search(m.text) for m in fake.channel_messages(fake.general)[before:])
    assert CJK.search(boards_since()[0].attachments[0].description or "")


@pytest.mark.slow
async def test_pseudo_locale_game_leaves_no_unmarked_text(fake_discord, make_bot, monkeypatch):
    """FORCE_LANGUAGE=qps: a whole Europe game (tunnels, stations, final scores) plus the other
    commands; every message, button, select option, image description and the text drawn in every
    image is inside ⟦ ⟧ marks, apart from players' names, numbers and Discord markup."""
    fake = fake_discord
    drawn = DrawnText(monkeypatch)
    bot = await make_bot(force_language="qps")
    users = [fake.alice, fake.bob]
    driver = Driver(fake, bot, fake.general, users, seed=7)
    await driver.start_game("europe")
    for command, options in (
        ("ttr hand", {}),
        ("ttr status", {}),
        ("ttr board", {}),
        ("ttr rules", {}),
        ("ttr help", {}),
        ("ttr games", {}),
        ("ttr-settings show", {}),
    ):
        await driver.run(fake.alice, command, **options)
    typed = "Nowhere"
    await driver.run(fake.bob, "ttr claim", route=f"Paris-{typed}")  # an error, worded by the catalogs
    choices = await fake.autocomplete(fake.alice, fake.general, "ttr claim", "route", "Pa")
    await driver.play_to_end()
    for command in ("ttr log", "ttr-league profile", "ttr-league leaderboard"):
        await driver.run(fake.alice, command)

    names = [u.name for u in users] + [typed]  # players' names and their own words are shown as they are
    seen = [m for m in fake.channel_messages(fake.general)] + [m for u in users for m in private_messages(fake, u)]
    assert len(seen) > 50
    leaks = [(text, unmarked_letters(text, names)) for m in seen for text in texts(m) if unmarked_letters(text, names)]
    leaks += [
        (c["name"], unmarked_letters(c["name"], names)) for c in choices.choices if unmarked_letters(c["name"], names)
    ]
    assert not leaks, leaks[:10]
    assert drawn.items, "no image text was recorded"
    image_leaks = sorted({text for text in drawn.items if unmarked_letters(text, names)})
    assert not image_leaks, image_leaks[:20]


async def test_options_that_do_not_go_together_are_refused_in_the_players_language(fake_discord, make_bot):
    """The engine's GameOptionsError ("the neutral player is a 2-player variant ...") worded for a
    Russian client, and for a USA game asked for the neutral player (a variant the map lacks)."""
    fake = fake_discord
    ivan = fake.add_user("ivan", locale="ru")
    await make_bot()
    reply = await fake.slash(ivan, fake.general, "ttr-host new", map="nederland", players=3, neutral=True)
    assert "нейтральный игрок" in reply.message.text.lower() and "3" in reply.message.text
    reply = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa", neutral=True)
    assert "the USA map has no variant 'neutral'" in reply.message.text.replace("The USA", "the USA")
    assert fake.channel_messages(fake.general) == []  # nothing was opened


async def test_pseudo_locale_every_command_timer_and_league_text(fake_discord, make_bot, monkeypatch):
    """FORCE_LANGUAGE=qps beyond the game itself: lobbies, settings, admin, notify, vacation,
    deadlines (reminder, skip, removal), refusals, and a league season with its rating, standings,
    profile and audit — all inside the pseudo-locale's marks."""
    from datetime import datetime, timedelta

    fake = fake_discord
    drawn = DrawnText(monkeypatch)
    bot = await make_bot(force_language="qps")
    now = [datetime(2026, 12, 1, 12, 0, tzinfo=UTC)]
    bot.timers.now = lambda: now[0]
    users = [fake.alice, fake.bob]
    driver = Driver(fake, bot, fake.general, users, seed=11)

    await driver.run(fake.owner, "ttr-league create", name="Club")
    await driver.run(fake.owner, "ttr-league season", name="Autumn")
    await driver.run(fake.owner, "ttr-league season", name="Bad", end="2020-01-01")  # refused
    await driver.run(fake.alice, "ttr-host new", map="usa", players=2, timer=3600, absence="remove", remove_after=2)
    await driver.run(fake.bob, "ttr join")
    await driver.run(fake.alice, "ttr-league rated")
    await driver.run(fake.alice, "ttr-host start", first=fake.alice)
    driver.game_id = (await bot.service.table_in_channel(fake.general.id)).id
    for seat in (0, 1):
        await driver.act(seat, driver.game.default_action(seat))
    for command, options in (
        ("ttr-settings notify", {"dm": True}),
        ("ttr-settings colorblind", {"on": True}),
        ("ttr-settings show", {}),
        ("ttr station", {"city": "Denver"}),
        ("ttr-host pause", {}),
        ("ttr-host resume", {}),
        ("ttr-settings vacation", {"days": 1}),
    ):
        await driver.run(fake.alice, command, **options)
    await driver.run(fake.bob, "ttr claim", route="Atlanta-Miami")  # not bob's turn
    await driver.run(fake.bob, "ttr-host end")  # bob may not
    now[0] += timedelta(days=1, minutes=50)
    await bot.get_cog("Clocks").tick()  # alice's reminder
    now[0] += timedelta(minutes=15)
    await bot.get_cog("Clocks").tick()  # alice misses a deadline
    while not driver.game.is_over():
        seat = driver.game.to_move()[0]
        await driver.act(seat, driver.choose(seat))
    for user, command, options in (
        (fake.alice, "ttr-league leaderboard", {}),
        (fake.alice, "ttr-league profile", {}),
        (fake.owner, "ttr-league info", {}),
        (fake.owner, "ttr-league audit", {}),
        (fake.alice, "ttr board", {"move": 2}),
        (fake.alice, "ttr log", {"export": True}),
        (fake.owner, "ttr-league void", {"game": driver.game_id, "reason": "test"}),
    ):
        await driver.run(user, command, **options)

    names = [u.name for u in users] + ["owner", "Club", "Autumn", "Bad", "test"]
    people = users + [fake.owner]
    seen = fake.channel_messages(fake.general) + [m for u in people for m in private_messages(fake, u)]
    leaks = [(text, unmarked_letters(text, names)) for m in seen for text in texts(m) if unmarked_letters(text, names)]
    assert not leaks, leaks[:10]
    image_leaks = sorted({text for text in drawn.items if unmarked_letters(text, names)})
    assert not image_leaks, image_leaks[:20]


async def test_a_choice_made_by_another_process_is_seen_within_a_minute(fake_discord, make_bot):
    """Shards may run in separate processes over one database: a player's language chosen through
    one reaches the others when their cached copy expires (bot/language.py CACHE_SECONDS)."""
    from bot import language
    from storage import players as stored_players

    fake = fake_discord
    bot = await make_bot()
    ivan = fake.add_user("ivan", locale="ru")
    assert (await bot.languages.for_user(ivan.id)).language == "en"  # no choice, no interaction yet
    async with bot.storage.sessions() as session:  # what another process's /ttr-settings language writes
        await stored_players.update_player(session=session, user_id=ivan.id, language="zh")
    assert (await bot.languages.for_user(ivan.id)).language == "en"  # still the cached copy
    later = bot.languages.clock() + language.CACHE_SECONDS + 1
    bot.languages.clock = lambda: later
    assert (await bot.languages.for_user(ivan.id)).language == "zh"
