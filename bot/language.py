"""Which language each text is written in.

Private text (replies, DMs, private images) follows the player: their own choice
(`/ttr-settings language`), else the language of their Discord client (the interaction's locale,
remembered for DMs sent outside an interaction), else the server's language, else English.
Channel text (turn messages, boards, final results) follows the server: its chosen language, else
the server's Discord locale, else English. City names follow the same order ("printed" by default).

`FORCE_LANGUAGE` (settings) puts everything in one language: `qps`, the pseudo-locale, shows
which text skipped the catalogs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import discord

from i18n import DEFAULT_LANGUAGE, Translator, language_for_locale, translator
from storage import Storage
from storage import players as stored_players

CACHE_SECONDS = 60.0


@dataclass
class Choice:
    """A stored choice (player or server): a language and city names, None where not chosen."""

    language: str | None = None
    city_names: str | None = None


class Languages:
    def __init__(self, storage: Storage, *, forced: str | None = None) -> None:
        self.storage = storage
        self.forced = forced
        # Stored choices, with when they were read: re-read after CACHE_SECONDS, so a choice made
        # through another process (shards run apart) reaches this one too.
        self.clock = time.monotonic  # seconds; tests move it
        self._players: dict[int, tuple[float, Choice]] = {}
        self._guilds: dict[int, tuple[float, Choice]] = {}
        self._seen_locale: dict[int, str] = {}  # user -> language of their last interaction
        self._guild_locale: dict[int, str] = {}  # guild -> language of its Discord locale

    # ------------------------------------------------------------------ translators

    async def for_interaction(self, interaction: discord.Interaction) -> Translator:
        """The language to answer this interaction's user in (privately)."""
        await self.note(interaction)
        return await self.for_user(interaction.user.id, interaction.guild_id)

    async def for_user(self, user_id: int | None, guild_id: int | None = None) -> Translator:
        """A player's language for private text (DMs, ephemeral replies, private images)."""
        if self.forced:
            return translator(self.forced)
        mine = await self.player(user_id) if user_id is not None else Choice()
        server = await self.guild(guild_id) if guild_id is not None else Choice()
        language = (
            mine.language
            or (self._seen_locale.get(user_id) if user_id is not None else None)
            or server.language
            or (self._guild_locale.get(guild_id) if guild_id is not None else None)
            or DEFAULT_LANGUAGE
        )
        return translator(language, mine.city_names or server.city_names or "printed")

    async def for_channel(self, guild_id: int | None) -> Translator:
        """The server's language, for everything posted in its channels."""
        if self.forced:
            return translator(self.forced)
        if guild_id is None:
            return translator(DEFAULT_LANGUAGE)
        server = await self.guild(guild_id)
        language = server.language or self._guild_locale.get(guild_id) or DEFAULT_LANGUAGE
        return translator(language, server.city_names or "printed")

    async def note(self, interaction: discord.Interaction) -> None:
        """Remember the languages of the user's client and of the server (for later DMs and posts)."""
        language = language_for_locale(interaction.locale)
        user_id = interaction.user.id
        if language and self._seen_locale.get(user_id) != language:
            self._seen_locale[user_id] = language
            mine = await self.player(user_id)
            if mine.language is None:  # remembered across restarts for DMs (turn pings, reminders)
                async with self.storage.sessions() as session:
                    player = await stored_players.get_player(session=session, user_id=user_id)
                    prefs = dict(player.preferences) if player else {}
                    if prefs.get("client_language") != language:
                        prefs["client_language"] = language
                        await stored_players.update_player(session=session, user_id=user_id, preferences=prefs)
        if interaction.guild_id is not None:
            guild_language = language_for_locale(interaction.guild_locale)
            if guild_language:
                self._guild_locale[interaction.guild_id] = guild_language

    # ------------------------------------------------------------------ stored choices

    async def player(self, user_id: int) -> Choice:
        async def load() -> Choice:
            async with self.storage.sessions() as session:
                player = await stored_players.get_player(session=session, user_id=user_id)
            prefs = (player.preferences if player else {}) or {}
            if prefs.get("client_language") and user_id not in self._seen_locale:
                self._seen_locale[user_id] = prefs["client_language"]
            return Choice(player.language if player else None, prefs.get("city_names"))

        return await self._cached(self._players, user_id, load)

    async def guild(self, guild_id: int) -> Choice:
        async def load() -> Choice:
            async with self.storage.sessions() as session:
                row = await stored_players.get_guild_settings(session=session, guild_id=guild_id)
            settings = (row.settings if row else {}) or {}
            return Choice(row.language if row else None, settings.get("city_names"))

        return await self._cached(self._guilds, guild_id, load)

    async def _cached(self, cache: dict, key: int, load) -> Choice:
        """A stored choice from `cache`, loaded again when older than CACHE_SECONDS."""
        hit = cache.get(key)
        if hit is None or self.clock() - hit[0] > CACHE_SECONDS:
            hit = cache[key] = (self.clock(), await load())
        return hit[1]

    async def set_player(self, user_id: int, choice: Choice) -> None:
        """Store a player's choice (None fields: follow the client / server again)."""
        async with self.storage.sessions() as session:
            player = await stored_players.get_player(session=session, user_id=user_id)
            prefs = _with_city_names(player.preferences if player else {}, choice.city_names)
            await stored_players.update_player(
                session=session, user_id=user_id, language=choice.language, preferences=prefs
            )
        self._players[user_id] = (self.clock(), choice)

    async def set_guild(self, guild_id: int, choice: Choice) -> None:
        async with self.storage.sessions() as session:
            row = await stored_players.get_guild_settings(session=session, guild_id=guild_id)
            settings = _with_city_names(row.settings if row else {}, choice.city_names)
            await stored_players.update_guild_settings(
                session=session, guild_id=guild_id, language=choice.language, settings=settings
            )
        self._guilds[guild_id] = (self.clock(), choice)

    def forget_guild(self, guild_id: int) -> None:
        self._guilds.pop(guild_id, None)
        self._guild_locale.pop(guild_id, None)


def _with_city_names(stored: dict, city_names: str | None) -> dict:
    """A copy of stored preferences / settings with the city-name choice set (or cleared)."""
    out = {k: v for k, v in (stored or {}).items() if k != "city_names"}
    if city_names:
        out["city_names"] = city_names
    return out
