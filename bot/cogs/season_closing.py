"""Seasons that close on their date: every minute the bot closes the seasons past their last day on
its servers (storage decides which process does each), then does the Discord work a close
leaves — reward roles given and taken, the results posted in the league's channel."""

from __future__ import annotations

import logging

import discord
from discord.ext import tasks

from bot.background import Backoff
from bot.cog import TTRCog
from bot.league_words import (
    ROLE_PROBLEMS,
    role_problem,
)
from i18n import Translator
from storage import leagues as stored
from storage.models import ADD_ROLE, ANNOUNCE

log = logging.getLogger(__name__)

#: How often (seconds) the bot looks for seasons past their last day and for close work left to do.
CLOSE_EVERY = 60


class SeasonClosing(TTRCog):
    under = "ttr-league"

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self._closer = Backoff("season closer", base=60, most=3600)

    async def start_work(self) -> None:
        self.close_seasons.start()

    async def stop_work(self) -> None:
        await self._closer.stop(self.close_seasons)

    @tasks.loop(seconds=CLOSE_EVERY)
    async def close_seasons(self) -> None:
        await self._closer.run(self.close_due_seasons)

    @close_seasons.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()  # type: ignore[attr-defined]

    async def close_due_seasons(self) -> None:
        """Close the seasons past their last day on this process's servers (each close is claimed
        in the database: one process does it), then do the Discord work closes left: roles, then
        the results post. A process that died mid-way left its tasks leased; they are taken over
        once the lease runs out."""
        served = [g.id for g in self.bot.guilds if self.bot.serves_guild(g.id)]  # type: ignore[attr-defined]
        async with self.bot.storage.sessions() as session:
            for season, guild_id in await stored.due_seasons(session=session):
                if guild_id in served:
                    await stored.close_season(session=session, season_id=season.id)
            while claimed := await stored.claim_close_tasks(session=session, guild_ids=served):
                for task in claimed:
                    if not await self._do_close_task(session, task):
                        return  # Discord is failing: the rest waits for the next round

    async def _do_close_task(self, session, task) -> bool:  # type: ignore[no-untyped-def]
        """One task; False when Discord failed in a way worth trying again (its lease runs out)."""
        if task.kind == ANNOUNCE:
            return await self._post_results(session, task)
        guild = self.bot.get_guild(task.guild_id)  # type: ignore[attr-defined]
        problem = role_problem(guild, task.role_id)
        if problem is None:
            change = self.bot.http.add_role if task.kind == ADD_ROLE else self.bot.http.remove_role  # type: ignore[attr-defined]
            try:
                await change(task.guild_id, task.user_id, task.role_id, reason="Ticket to Ride league season results")
            except discord.Forbidden:
                problem = "forbidden"
            except discord.NotFound:
                problem = "not_found"
            except discord.HTTPException:
                log.warning("a league reward role change failed; tried again later", extra={"task": task.id})
                return False
        await stored.finish_close_task(session=session, task_id=task.id, error=problem)
        return True

    async def _post_results(self, session, task) -> bool:  # type: ignore[no-untyped-def]
        season = await stored.get_season(session=session, season_id=task.season_id)
        league = await stored.get_league(session=session, league_id=season.league_id)
        channel = self.bot.get_channel(league.channel_id) if league.channel_id else None
        if channel is not None:
            t = await self.bot.languages.for_channel(league.guild_id)
            text = await self.results_text(session, t, league, season)
            try:
                await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                if exc.status >= 500:
                    return False
                log.warning("could not post a season's results", extra={"season_id": season.id})
        await stored.finish_close_task(session=session, task_id=task.id, error=None if channel else "no channel")
        return True

    async def results_text(self, session, t: Translator, league: stored.League, season: stored.Season) -> str:  # type: ignore[no-untyped-def]
        """The closed season's post: each division's final order with who went up or down, the
        reward roles given, and the role changes the bot could not make (and why)."""
        divisions = {d.id: d for d in await stored.league_divisions(session=session, league_id=league.id)}
        results = await stored.season_results(session=session, season_id=season.id)
        lines = [
            t.gettext("🏁 **{league} · {season}** is over. Final standings:", league=league.name, season=season.name)
        ]
        shown: dict[int | None, list[str]] = {}
        for r in results:
            target = divisions.get(r.to_division_id)
            rating = f"{r.rating:.1f}"
            entry = t.gettext("{place}. <@{user}> {rating}", place=r.place, user=r.user_id, rating=rating)
            if r.outcome == "up" and target:
                entry += " " + t.gettext("⬆️ {division}", division=target.name)
            elif r.outcome == "down" and target:
                entry += " " + t.gettext("⬇️ {division}", division=target.name)
            elif r.outcome == "new" and target:
                entry = t.gettext("<@{user}> joins {division}", user=r.user_id, division=target.name)
            shown.setdefault(r.division_id, []).append(entry)
        for division_id, entries in shown.items():
            head = (
                divisions[division_id].name
                if division_id in divisions
                else (t.gettext("New players") if divisions else t.gettext("Standings"))
            )
            more = t.ngettext(" … and {n} more", " … and {n} more", len(entries) - 10) if len(entries) > 10 else ""
            lines.append(f"**{head}**: " + " · ".join(entries[:10]) + more)
        given: dict[int, list[int]] = {}
        failed: dict[tuple[int, str], int] = {}
        for task in await stored.close_tasks(session=session, season_id=season.id):
            if task.kind == ADD_ROLE and task.error is None:
                given.setdefault(task.role_id, []).append(task.user_id)
            if task.kind != ANNOUNCE and task.error:
                failed[(task.role_id, task.error)] = failed.get((task.role_id, task.error), 0) + 1
        for role_id, users in given.items():
            role, mentions = f"<@&{role_id}>", t.join(f"<@{u}>" for u in users)
            lines.append(t.gettext("🎖️ {role}: {users}", role=role, users=mentions))
        for (role_id, error), n in failed.items():
            role, problem = f"<@&{role_id}>", t.pgettext("league", ROLE_PROBLEMS.get(error, ROLE_PROBLEMS["forbidden"]))
            lines.append(
                t.ngettext(
                    "⚠️ I could not change {role} for {n} member: {problem}.",
                    "⚠️ I could not change {role} for {n} members: {problem}.",
                    n,
                    role=role,
                    problem=problem,
                )
            )
        if not results:
            lines.append(t.gettext("Nobody played enough games to be ranked."))
        return "\n".join(lines)


async def setup(bot) -> None:
    await bot.add_cog(SeasonClosing(bot))
