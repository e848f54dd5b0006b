"""`python -m tests.bot.bot_process`: exactly `python -m bot`, with discord.py pointed at the fake
Discord whose address is in FAKE_DISCORD_URL (the start-up and kill tests run it as a child
process). `BotProcess` is the parent's handle on such a child: start it, wait until it is ready,
SIGKILL it, start it again, read its log."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Variables of the test run that would change what the child reads from its .env.
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "SYNC_COMMANDS",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "SHARD_COUNT",
    "SHARD_IDS",
    "AUTO_MIGRATE",
    "LOBBY_IDLE_MINUTES",
    "FORCE_LANGUAGE",
    "HEALTH_PORT",
    "HEALTH_HOST",
    "OUTBOX_LEASE",
    "AI_DELAY",
    "RENDER_WORKERS",
    "DB_POOL_SIZE",
    "DB_MAX_OVERFLOW",
    "DB_PGBOUNCER",
)


def child_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings)
    return env


class BotProcess:
    """One bot at a time in a child process, logging in to `fake` (served by the caller's loop)."""

    def __init__(
        self,
        fake,
        cwd: Path,
        *,
        command: tuple[str, ...] = ("-m", "tests.bot.bot_process"),  # type: ignore[no-untyped-def]
        **settings: str,
    ) -> None:
        """`command`: the Python arguments that run the bot (a benchmark runs its own wrapper)."""
        self.fake, self.cwd, self.command = fake, cwd, command
        self.settings = {"DISCORD_TOKEN": fake.token, **settings}
        self.proc: asyncio.subprocess.Process | None = None
        self.log: list[dict] = []  # every JSON log line of every run, in order
        self.other: list[str] = []  # anything else the children wrote on stderr
        self.starts = self.kills = 0
        self._reader: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 60) -> None:
        """Start the bot and return once it said it is ready (its start-up drain is done by then)."""
        assert self.proc is None or self.proc.returncode is not None, "the bot is running already"
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *self.command,
            cwd=self.cwd,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env=child_env(FAKE_DISCORD_URL=self.fake.base_url, **self.settings),
        )
        self.starts += 1
        ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(self.proc, ready))
        await asyncio.wait_for(ready, timeout)

    async def _read(self, proc: asyncio.subprocess.Process, ready: asyncio.Future[None]) -> None:
        assert proc.stderr is not None
        while line := (await proc.stderr.readline()).decode():
            if line.startswith("{"):
                entry = json.loads(line)
                self.log.append(entry)
                if entry["message"].startswith("ready as") and not ready.done():
                    ready.set_result(None)
            else:
                self.other.append(line)
        if not ready.done():
            ready.set_exception(AssertionError("the bot stopped before it was ready:\n" + "".join(self.other[-30:])))

    async def kill(self) -> None:
        """kill -9: no clean-up of any kind in the child."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.kills += 1
        if self._reader is not None:
            await self._reader

    async def stop(self) -> int | None:
        """SIGTERM (a clean stop); returns the exit status (None if it was not running)."""
        if self.proc is None or self.proc.returncode is not None:
            return None
        self.proc.terminate()
        try:
            code = await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            code = await self.proc.wait()
        if self._reader is not None:
            await self._reader
        return code

    def errors(self) -> list[dict]:
        """The ERROR (and worse) log lines of every run."""
        return [entry for entry in self.log if entry.get("level") in ("ERROR", "CRITICAL")]

    def error_report(self) -> str:
        """The ERROR log lines with their tracebacks, for an assertion's message: a failure that
        shows only truncated log entries cannot be diagnosed after the run."""
        return "\n".join(f"{e.get('message')}\n{e.get('traceback', '')}" for e in self.errors())


if __name__ == "__main__":
    import discord.gateway
    import discord.http
    import yarl

    from bot.__main__ import main
    from tests.fakediscord.server import API_PREFIX

    base = os.environ["FAKE_DISCORD_URL"]
    discord.http.Route.BASE = base + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gateway/")
    sys.exit(main())
