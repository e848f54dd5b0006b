"""Slash commands in Russian and Chinese (issue 10): the bot syncs /ttr, /ttr-host, /ttr-settings,
/ttr-league and its user menu through the fake Discord with every name, description and choice
localized from the catalogs, within Discord's rules (names lowercase letters, digits, - and _,
unique among siblings; a command at most 8000 characters counting each text's longest
localization) and, for room to grow, within 60% of its limits (issue 16). Autocomplete speaks
the user's language."""

from __future__ import annotations

from pathlib import Path

import regex

from bot import command_translator
from bot.cog import ROOTS
from bot.command_translator import CommandTranslator, option_name, slash
from i18n import language_for_locale, translator
from tests.fakediscord.limits import COMMAND_OPTIONS, COMMAND_TOTAL_CHARS, CONTEXT_MENU_COMMANDS, _command_size

LOCALES = ("ru", "zh-CN", "zh-TW")
NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
#: Texts that read the same in a language: the top-level commands, and a language's name in its own language.
SAME = {**dict.fromkeys(ROOTS, LOCALES), "Русский": ("ru",), "简体中文": ("zh-CN", "zh-TW")}
#: The share of each Discord limit a top-level command may use: the rest is room for new commands.
ROOM = 0.6


def nodes(command: dict, path: str = ""):
    """Every command, group and option of a synced command, with its path, and their choices."""
    here = f"{path} {command['name']}".strip()
    yield here, command
    for choice in command.get("choices") or []:
        yield f"{here} = {choice['value']}", choice
    for option in command.get("options") or []:
        yield from nodes(option, here)


def commands_and_options(command: dict, path: tuple = ()):
    """Every command and group of a synced command as (path of nodes, node); options separately as
    (None, option): Discord's option types 1 and 2 are subcommands and groups."""
    here = (*path, command)
    yield here, command
    for option in command.get("options") or []:
        if option["type"] in (1, 2):
            yield from commands_and_options(option, here)
        else:
            yield None, option


def shown(node: dict, locale: str) -> str:
    """A name as a Discord client in `locale` shows it."""
    return (node.get("name_localizations") or {}).get(locale, node["name"])


def widest(node: dict) -> int:
    """The most options (subcommands and groups, or one subcommand's options) of any level of `node`."""
    options = node.get("options") or []
    return max([len(options), *(widest(o) for o in options)])


async def synced(fake, make_bot) -> list[dict]:
    """The bot's slash commands as it synced them (every top-level one of `ROOTS`)."""
    await make_bot()
    return [c for c in fake.commands(fake.guild) if c.get("type", 1) == 1]


def everything(commands: list[dict]):
    """Every command, group and option of the synced top-level commands, as `commands_and_options` gives them."""
    for command in commands:
        yield from commands_and_options(command)


async def test_every_name_description_and_choice_is_in_russian_and_chinese(fake_discord, make_bot):
    await make_bot()
    missing = []
    for path, node in (found for command in fake_discord.commands(fake_discord.guild) for found in nodes(command)):
        names = node.get("name_localizations") or {}
        missing += [
            (path, locale) for locale in LOCALES if locale not in names and locale not in SAME.get(node["name"], ())
        ]
        if node.get("description"):
            descriptions = node.get("description_localizations") or {}
            missing += [(path, locale, "description") for locale in LOCALES if locale not in descriptions]
        assert names.get("zh-TW") == names.get("zh-CN"), path  # Simplified Chinese for both
        assert not {"en-US", "en-GB", "fr", "de"} & set(names), path  # the English stands for them
    assert not missing, missing[:20]


async def test_localized_names_follow_discords_rules(fake_discord, make_bot):
    for command in await synced(fake_discord, make_bot):
        for path, node in nodes(command):
            if "value" in node:
                continue  # choice names are free text
            for locale, name in (node.get("name_localizations") or {}).items():
                assert NAME.match(name) and name == name.lower(), (path, locale, name)
            for locale in LOCALES:  # siblings (subcommands or options) keep distinct names
                children = [
                    (c.get("name_localizations") or {}).get(locale, c["name"]) for c in node.get("options") or []
                ]
                assert len(children) == len(set(children)), (path, locale, children)


async def test_each_top_level_command_keeps_room_to_grow(fake_discord, make_bot):
    """/ttr once held Discord's 25 subcommands and 7,107 of its 8,000 characters: nothing more fitted.
    Each top-level command now stays within 60% of a limit, in its largest language, and so do the
    user menus of the bot (benchmarks/command_sizes.py prints the figures)."""
    commands = await synced(fake_discord, make_bot)
    assert sorted(c["name"] for c in commands) == sorted(ROOTS)
    for command in commands:
        assert widest(command) <= COMMAND_OPTIONS * ROOM, (command["name"], widest(command))
        assert _command_size(command) <= COMMAND_TOTAL_CHARS * ROOM, (command["name"], _command_size(command))
    menus = [c["name"] for c in fake_discord.commands(fake_discord.guild) if c.get("type") == 2]
    assert menus and len(menus) <= CONTEXT_MENU_COMMANDS * ROOM


async def test_language_is_a_setting(fake_discord, make_bot):
    settings = next(c for c in await synced(fake_discord, make_bot) if c["name"] == "ttr-settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    options = {o["name"]: o for o in language["options"]}
    assert [c["value"] for c in options["language"]["choices"]] == ["auto", "en", "ru", "zh"]
    assert [c["value"] for c in options["city_names"]["choices"]] == ["printed", "translated"]
    assert [c["value"] for c in options["for"]["choices"]] == ["me", "server"]
    assert language["name_localizations"]["ru"] == "язык" and language["name_localizations"]["zh-CN"] == "语言"


async def test_the_profile_menu_is_named_in_each_language(fake_discord, make_bot):
    """Context-menu names are phrases (spaces and capitals allowed), localized like any text."""
    await make_bot()
    [menu] = [c for c in fake_discord.commands(fake_discord.guild) if c.get("type") == 2]
    assert menu["name"] == "Ticket to Ride profile" and not menu.get("description")
    assert menu["name_localizations"] == {
        "ru": "Профиль Ticket to Ride",
        "zh-CN": "Ticket to Ride 档案",
        "zh-TW": "Ticket to Ride 档案",
    }


async def test_the_translator_answers_only_for_our_languages():
    import discord
    from discord import app_commands

    translator = CommandTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    text = app_commands.locale_str("Claim a route")
    assert await translator.translate(text, discord.Locale.russian, context) == "Занять маршрут"
    assert await translator.translate(text, discord.Locale.taiwan_chinese, context) == "占领一条路线"
    assert await translator.translate(text, discord.Locale.french, context) is None
    assert await translator.translate(text, discord.Locale.american_english, context) is None


async def test_route_and_city_autocomplete_in_the_users_language(fake_discord, make_bot):
    """A Russian player with translated city names sees routes and cities in Russian; typing the
    printed name or the translated one finds them; the value stays the notation."""
    from tests.bot.driver import Driver

    fake = fake_discord
    ivan = fake.add_user("ivan", locale="ru")
    bot = await make_bot()
    driver = Driver(fake, bot, fake.general, [ivan, fake.alice], seed=3)
    await driver.start_game("europe")
    while driver.game.phase == "choosing":
        await driver.act(driver.game.to_move()[0], driver.game.default_action(driver.game.to_move()[0]))
    assert driver.user_of(driver.game.current) is ivan  # seed 3: ivan plays first
    await driver.run(ivan, "ttr-settings language", language="ru", city_names="translated")
    claims = await fake.autocomplete(ivan, fake.general, "ttr claim", "route", "")
    assert claims.choices and all(regex.search(r"\p{Cyrillic}", c["name"]) for c in claims.choices)
    assert all(regex.fullmatch(r"[^\p{Cyrillic}]+", c["value"]) for c in claims.choices)  # notation, printed names
    for typed in ("Пар", "Par"):  # Париж / Paris
        found = await fake.autocomplete(ivan, fake.general, "ttr claim", "route", typed)
        assert found.choices and all("Paris" in c["value"] for c in found.choices), (typed, found.choices)
    for typed in ("Мадр", "madr"):
        cities = await fake.autocomplete(ivan, fake.general, "ttr station", "city", typed)
        assert cities.choices == [{"name": "Мадрид", "value": "Madrid"}], (typed, cities.choices)


async def test_commands_named_in_messages_read_as_the_client_lists_them(fake_discord, make_bot):
    """slash() and option_name() give, for every command, group and option, the name the synced
    tree carries for a Russian or Chinese client (English where it has no localization)."""
    commands = await synced(fake_discord, make_bot)
    for locale in ("ru", "zh-CN"):
        t = translator(language_for_locale(locale))
        for path, node in everything(commands):
            if path is None:
                assert option_name(t, node["name"]) == shown(node, locale), (locale, node["name"])
                continue
            english = " ".join(n["name"] for n in path)
            assert slash(t, english) == "/" + " ".join(shown(n, locale) for n in path), (locale, english)
    host = next(c for c in commands if c["name"] == "ttr-host")
    assert (
        slash(translator("ru"), "ttr-host new")
        == "/ttr-host " + shown(next(o for o in host["options"] if o["name"] == "new"), "ru")
        != "/ttr-host new"
    )


async def test_every_command_a_message_names_exists(fake_discord, make_bot):
    """The paths and option names the bot's messages pass to slash() / option_name() are in the tree."""
    commands = await synced(fake_discord, make_bot)
    paths = {" ".join(n["name"] for n in path) for path, _ in everything(commands) if path}
    options = {node["name"] for path, node in everything(commands) if path is None}
    source = "\n".join(f.read_text() for f in Path(command_translator.__file__).parent.glob("**/*.py"))
    named = set(regex.findall(r'\bslash\(\w+, "([^"]+)"\)|\bCommand\("([^"]+)"\)', source))
    named = {a or b for a, b in named}
    named_options = set(regex.findall(r'\boption_name\(\w+, "([^"]+)"\)|\bOption\("([^"]+)"\)', source))
    named_options = {a or b for a, b in named_options}
    assert len(named) > 15 and named_options  # the messages found
    assert named <= paths, named - paths
    assert named_options <= options, named_options - options


async def test_the_catalogs_hold_exactly_the_names_of_the_tree(fake_discord, make_bot):
    """Command and option names are identifiers Babel cannot extract: every one has its Russian and
    Chinese entry, and no entry of those contexts names something the tree no longer has."""
    from i18n import catalogs

    bot = await make_bot()
    names = {(context, name) for context, name, _ in command_translator.tree_names(bot.tree.get_commands())}
    for language in catalogs.languages_to_check():
        entries = {
            key
            for key, (_, string, _) in catalogs.load(language).items()
            if key[0] in catalogs.TREE_CONTEXTS and string
        }
        assert not names - entries, (language, sorted(names - entries)[:10])
        assert not entries - names, (language, sorted(entries - names)[:10])


async def test_russian_help_names_the_commands_in_russian(fake_discord, make_bot):
    """/ttr help in a Russian client names commands as that client lists them, never in English."""
    commands = await synced(fake_discord, make_bot)
    listed = {
        " ".join(shown(n, "ru") for n in path): " ".join(n["name"] for n in path)
        for path, _ in everything(commands)
        if path
    }
    ttr = next(c for c in commands if c["name"] == "ttr")
    ivan = fake_discord.add_user("ivan", locale="ru")
    reply = await fake_discord.slash(ivan, fake_discord.general, "ttr help")
    mentioned = regex.findall(r"`/(ttr[^`]*)`", reply.text)
    assert (
        len(mentioned) >= 10
        and "ttr " + shown(next(o for o in ttr["options"] if o["name"] == "join"), "ru") in mentioned
    )
    assert {m.split()[0] for m in mentioned} == {"ttr", "ttr-host", "ttr-settings"}
    assert all(m in listed for m in mentioned), [m for m in mentioned if m not in listed]
    assert all(listed[m] != m for m in mentioned), mentioned  # each one reads differently from the English
