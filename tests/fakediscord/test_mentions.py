"""Who each message pings, from its text and ``allowed_mentions`` (Discord's "Allowed Mentions
Object"), recorded on the message (`Message.pings`) and in `FakeDiscord.pings`, and sent back in the
message payload (``mentions``, ``mention_roles``, ``mention_everyone``) that discord.py reads."""

from __future__ import annotations

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fakediscord import FakeDiscord
from tests.fakediscord.mentions import Pings, compute_pings
from tests.fakediscord.state import MENTION_EVERYONE
from tests.fakediscord.test_limits import call
from tests.fakediscord.tinybot import TinyBot

MARKDOWN_NAMES = "**bold** and `tick`"


@pytest.fixture
async def world(fake_discord: FakeDiscord, run_bot):
    fake = fake_discord
    fake.mods = fake.add_role(fake.guild, "mods", mentionable=True)
    fake.secret = fake.add_role(fake.guild, "secret", mentionable=False)
    fake.muted = fake.add_channel(fake.guild, "muted", bot_deny=MENTION_EVERYONE)
    bot = await run_bot(TinyBot())
    return fake, bot


def everything(fake: FakeDiscord) -> str:
    return (
        f"@everyone @here {fake.alice.mention} {fake.bob.mention} <@!{fake.dirk.id}> {fake.stranger.mention} "
        f"{fake.mods.mention} {fake.secret.mention} {MARKDOWN_NAMES}"
    )


async def test_no_allowed_mentions_pings_everything_in_a_channel_message(world) -> None:
    fake, bot = world
    sent = await bot.get_channel(fake.general.id).send(everything(fake))
    record = fake.messages[sent.id]
    assert record.content == everything(fake)  # markdown kept as sent
    assert record.pings == Pings(
        users=[fake.alice.id, fake.bob.id, fake.dirk.id],  # the stranger is no member
        roles=[fake.mods.id, fake.secret.id],
        everyone=True,
        here=True,
    )
    assert sorted(m.id for m in sent.mentions) == sorted([fake.alice.id, fake.bob.id, fake.dirk.id])
    assert sent.mention_everyone and set(sent.raw_role_mentions) == {fake.mods.id, fake.secret.id}
    assert fake.pings[-1] == (record, record.pings)


async def test_without_mention_everyone_only_mentionable_roles_ping(world) -> None:
    fake, bot = world
    sent = await bot.get_channel(fake.muted.id).send(everything(fake))
    pings = fake.messages[sent.id].pings
    assert (pings.everyone, pings.here, pings.roles) == (False, False, [fake.mods.id])
    assert not sent.mention_everyone


async def test_parse_and_explicit_ids(world) -> None:
    fake, bot = world
    channel = bot.get_channel(fake.general.id)
    none = await channel.send(everything(fake), allowed_mentions=discord.AllowedMentions.none())
    assert fake.messages[none.id].pings.nobody and none.mentions == [] and not none.mention_everyone
    only_bob = await channel.send(
        everything(fake),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, users=[discord.Object(fake.bob.id), discord.Object(fake.carol.id)], roles=False
        ),
    )
    assert fake.messages[only_bob.id].pings == Pings(users=[fake.bob.id])  # carol is listed but not in the text
    roles_only = await channel.send(
        everything(fake),
        allowed_mentions=discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(fake.secret.id)]),
    )
    assert fake.messages[roles_only.id].pings == Pings(roles=[fake.secret.id])
    mass = await channel.send(
        everything(fake), allowed_mentions=discord.AllowedMentions(everyone=True, users=False, roles=False)
    )
    assert fake.messages[mass.id].pings == Pings(everyone=True, here=True)


async def test_parse_and_a_list_of_the_same_kind_are_refused(world) -> None:
    fake, _ = world
    body = {"content": fake.alice.mention, "allowed_mentions": {"parse": ["users"], "users": [str(fake.alice.id)]}}
    status, answer = await call(fake, "POST", f"/channels/{fake.general.id}/messages", body)
    assert (status, answer["code"]) == (400, 50035)
    assert (
        answer["errors"]["allowed_mentions"]["parse"]["_errors"][0]["code"]
        == "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"
    )
    status, answer = await call(
        fake,
        "POST",
        f"/channels/{fake.general.id}/messages",
        {"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
    )
    assert status == 400 and "users" in answer["errors"]["allowed_mentions"]
    assert fake.channel_messages(fake.general) == []


async def test_replies_ping_the_replied_author_unless_told_not_to(world) -> None:
    fake, bot = world
    question = await fake.say(fake.alice, fake.general, "who is next?")
    channel = bot.get_channel(fake.general.id)
    loud = await channel.get_partial_message(question.id).reply("bob is")
    assert fake.messages[loud.id].pings.users == [fake.alice.id]
    quiet = await channel.get_partial_message(question.id).reply("bob is", mention_author=False)
    assert fake.messages[quiet.id].pings.nobody
    status, _ = await call(
        fake,
        "POST",
        f"/channels/{fake.general.id}/messages",
        {"content": "raw reply", "message_reference": {"message_id": str(question.id)}, "allowed_mentions": {}},
    )
    assert status == 200 and fake.channel_messages(fake.general)[-1].pings.nobody  # replied_user defaults to false


async def test_interaction_responses_parse_only_users_by_default(world) -> None:
    fake, _ = world
    reply = await fake.slash(
        fake.alice,
        fake.general,
        "ttr claim",
        start=f"@everyone {fake.mods.mention}",
        end=f"{fake.bob.mention} {MARKDOWN_NAMES}",
    )
    assert reply.content == f"Claimed @everyone {fake.mods.mention}-{fake.bob.mention} {MARKDOWN_NAMES} grey"
    assert reply.message.pings == Pings(users=[fake.bob.id])


async def test_interaction_responses_follow_allowed_mentions(world) -> None:
    fake, bot = world
    # The bot's own default (Client(allowed_mentions=...)) is sent with every message.
    bot.allowed_mentions = discord.AllowedMentions(everyone=True, users=False, roles=True)
    reply = await fake.slash(
        fake.alice, fake.general, "ttr claim", start=f"@here {fake.mods.mention}", end=fake.bob.mention
    )
    assert reply.message.pings == Pings(roles=[fake.mods.id], here=True)


async def test_edits_follow_up_and_dms_are_recorded(world) -> None:
    fake, bot = world
    sent = await bot.get_channel(fake.general.id).send("plain")
    assert fake.messages[sent.id].pings.nobody
    await sent.edit(content=f"now {fake.alice.mention}")
    assert fake.messages[sent.id].pings == Pings(users=[fake.alice.id])
    assert [p for m, p in fake.pings if m.id == sent.id] == [Pings(), Pings(users=[fake.alice.id])]
    dm = await (await bot.fetch_user(fake.alice.id)).send(f"@everyone {fake.alice.mention} {fake.bob.mention}")
    assert fake.messages[dm.id].pings == Pings(users=[fake.alice.id])  # no @everyone in DMs, bob is not there
    silent = await bot.get_channel(fake.general.id).send(fake.bob.mention, silent=True)
    assert fake.messages[silent.id].pings == Pings(users=[fake.bob.id], silent=True)


async def test_members_messages_ping_too(world) -> None:
    fake, _ = world
    message = await fake.say(fake.alice, fake.general, f"{fake.bob.mention} your turn @here")
    assert message.pings == Pings(users=[fake.bob.id], here=True)


ids = st.sampled_from([11, 12, 13])


@given(
    mentioned=st.lists(ids, max_size=5),
    listed=st.lists(ids, max_size=3),
    parse_users=st.booleans(),
    absent=st.booleans(),
    interaction=st.booleans(),
)
def test_pings_never_exceed_what_the_text_mentions(mentioned, listed, parse_users, absent, interaction) -> None:
    """No phantom pings: whatever allowed_mentions says, only users mentioned in the text are pinged,
    each once, and listed users only when they are."""
    text = " ".join(f"<@{i}>" for i in mentioned)
    allowed = None if absent else {"parse": ["users"] if parse_users else [], "users": [] if parse_users else listed}
    pings = compute_pings(
        text,
        allowed,
        interaction=interaction,
        can_mention_everyone=True,
        visible_user_ids=[11, 12, 13],
        mentionable_role_ids=[],
        role_ids=[],
        author_id=99,
    )
    assert set(pings.users) <= set(mentioned) and len(pings.users) == len(set(pings.users))
    if absent or parse_users:
        assert set(pings.users) == set(mentioned)
    else:
        assert set(pings.users) == set(mentioned) & set(listed)
