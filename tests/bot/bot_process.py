"""`python -m tests.bot.bot_process`: exactly `python -m bot`, with discord.py pointed at the fake
Discord whose address is in FAKE_DISCORD_URL (the start-up tests run it as a child process)."""

from __future__ import annotations

import os
import sys

import discord.gateway
import discord.http
import yarl

from bot.__main__ import main
from tests.fakediscord.server import API_PREFIX

if __name__ == "__main__":
    base = os.environ["FAKE_DISCORD_URL"]
    discord.http.Route.BASE = base + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gateway/")
    sys.exit(main())
