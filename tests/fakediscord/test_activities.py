"""An Activity's OAuth2 and its instances, as Discord documents them: a LAUNCH_ACTIVITY response
puts the user in the channel's instance, the bot reads who is in it, and the code the Discord client
gave the Activity is exchanged once for a Bearer token that reads the user at /users/@me."""

from __future__ import annotations

import base64

import aiohttp

from tests.fakediscord import FakeDiscord
from tests.fakediscord.tinybot import TinyBot


async def test_a_launch_activity_response_puts_the_user_in_the_channels_instance(
    fake_discord: FakeDiscord, run_bot
) -> None:
    bot = await run_bot(TinyBot())
    reply = await fake_discord.slash(fake_discord.alice, fake_discord.general, "ttr play")
    assert reply.kind == "launch_activity" and reply.message is None
    instance = reply.activity
    assert instance is not None and bot.launched == [instance.id]
    await fake_discord.slash(fake_discord.bob, fake_discord.general, "ttr play")
    assert fake_discord.join_activity(fake_discord.dirk, fake_discord.general) is instance
    assert instance.users == [fake_discord.alice, fake_discord.bob, fake_discord.dirk]
    route = f"{fake_discord.api_url}/applications/{fake_discord.application_id}/activity-instances/{instance.id}"
    async with aiohttp.ClientSession() as http:
        async with http.get(route, headers={"Authorization": f"Bot {fake_discord.token}"}) as answer:
            body = await answer.json()
        assert body["location"]["channel_id"] == str(fake_discord.general.id)
        assert body["users"] == [str(u.id) for u in instance.users]
        async with http.get(route) as answer:
            assert answer.status == 401  # the bot's own token only
        async with http.get(route[:-3] + "xyz", headers={"Authorization": f"Bot {fake_discord.token}"}) as answer:
            assert answer.status == 404


async def test_a_code_is_exchanged_once_for_a_token_that_reads_its_user(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    code = fake.authorize(fake.bob)
    client = {"client_id": str(fake.application_id), "client_secret": fake.client_secret}
    async with aiohttp.ClientSession() as http:
        form = {**client, "grant_type": "authorization_code", "code": code}
        async with http.post(fake.api_url + "/oauth2/token", data=form) as answer:
            grant = await answer.json()
        assert grant["token_type"] == "Bearer" and grant["scope"] == "identify" and grant["expires_in"] == 604800
        async with http.post(fake.api_url + "/oauth2/token", data=form) as answer:  # used up
            assert answer.status == 400 and (await answer.json())["error"] == "invalid_grant"
        bearer = {"Authorization": f"Bearer {grant['access_token']}"}
        async with http.get(fake.api_url + "/users/@me", headers=bearer) as answer:
            me = await answer.json()
        assert me["id"] == str(fake.bob.id) and me["locale"] == "fr"
        async with http.get(fake.api_url + "/users/@me", headers={"Authorization": "Bearer forged"}) as answer:
            assert answer.status == 401
        async with http.get(fake.api_url + f"/users/{fake.alice.id}", headers=bearer) as answer:
            assert answer.status == 401  # a user's token reads only what its scopes allow
        wrong = {**form, "code": fake.authorize(fake.bob), "client_secret": "guessed"}
        async with http.post(fake.api_url + "/oauth2/token", data=wrong) as answer:
            assert answer.status == 401 and (await answer.json())["error"] == "invalid_client"
        basic = {
            "Authorization": "Basic "
            + base64.b64encode(f"{fake.application_id}:{fake.client_secret}".encode()).decode()
        }
        stale = fake.authorize(fake.bob)
        fake.advance(601)
        form = {"grant_type": "authorization_code", "code": stale}
        async with http.post(fake.api_url + "/oauth2/token", data=form, headers=basic) as answer:
            assert answer.status == 400  # a code waits ten minutes at most


async def test_with_activities_on_a_bulk_overwrite_must_keep_the_entry_point(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    entry = fake.enable_activities()
    bot = {"Authorization": f"Bot {fake.token}"}
    route = f"{fake.api_url}/applications/{fake.application_id}/commands"
    ping = {"type": 1, "name": "ping", "description": "Ping"}
    async with aiohttp.ClientSession(headers=bot) as http:
        async with http.put(route, json=[ping]) as answer:
            assert answer.status == 400 and (await answer.json())["code"] == 50240
        async with http.put(
            route, json=[ping, {"id": entry["id"], "type": 4, "name": "launch", "handler": 2}]
        ) as answer:
            assert answer.status == 200
        assert sorted(c["name"] for c in fake.commands()) == ["launch", "ping"]
        assert next(c for c in fake.commands() if c["type"] == 4)["id"] == entry["id"]
        guild = f"{fake.api_url}/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
        async with http.put(guild, json=[ping]) as answer:  # a guild's commands never hold it
            assert answer.status == 200
