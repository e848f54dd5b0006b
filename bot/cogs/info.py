"""What a player looks up: `/ttr status`, `games`, `rules`, `help`."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.app_commands import locale_str

from bot.choices import MAP_CHOICES
from bot.cog import TTRCog
from bot.command_translator import slash
from bot.service import Table
from bot.timers import timestamp
from bot.transformers import table_here
from i18n import N_, Translator
from storage import queries
from texts.rules_text import rules_summary

#: The game's phases in the status line.
PHASES = {"choosing": N_("choosing starting tickets"), "playing": N_("playing"), "over": N_("game over")}


def status_text(t: Translator, table: Table, name) -> str:
    """`/ttr status`: the phase, then one line per player (`name(seat)` names a seat)."""
    game = table.game
    seen = game.view(None)
    phase = t.gettext(PHASES[seen["phase"]])
    lines = [
        t.gettext("**{map}** · {phase} · 🔔 last round", map=t.map_name(game.map), phase=phase)
        if seen["last_round"]
        else t.gettext("**{map}** · {phase}", map=t.map_name(game.map), phase=phase)
    ]
    for p in seen["players"]:
        stats = [
            t.npgettext("status", "{n} point", "{n} points", p["score"]),
            t.npgettext("status", "{n} train", "{n} trains", p["trains"]),
            t.npgettext("status", "{n} card", "{n} cards", p["hand_size"]),
            t.npgettext("status", "{n} ticket", "{n} tickets", p["tickets"]),
        ]
        if game.map.rules.stations:
            stats.append(t.npgettext("status", "{n} station", "{n} stations", p["stations_left"]))
        if p.get("loans"):
            stats.append(t.npgettext("status", "{n} loan", "{n} loans", p["loans"]))
        marker = "➡️ " if seen["current"] == p["seat"] else ""
        who, line = name(p["seat"]), " · ".join(stats)
        if p["left"] == "resigned":
            lines.append(marker + t.gettext("**{name}** (resigned): {stats}", name=who, stats=line))
        elif p["left"]:
            lines.append(marker + t.gettext("**{name}** (removed): {stats}", name=who, stats=line))
        else:
            lines.append(marker + t.gettext("**{name}**: {stats}", name=who, stats=line))
    return "\n".join(lines)


class Info(TTRCog):
    async def _t(self, interaction: Interaction) -> Translator:
        return await self.bot.languages.for_interaction(interaction)

    @app_commands.command(name="status", description=locale_str("Whose turn, scores, trains, cards and tickets"))
    async def status(self, interaction: Interaction) -> None:
        table = await table_here(interaction)
        t = await self._t(interaction)
        await self.bot.messenger.load_names(table)
        await self.bot.reply(interaction, status_text(t, table, lambda seat: self.bot.messenger.name(table, seat, t)))

    @app_commands.command(name="games", description=locale_str("Your active games on every server"))
    async def games(self, interaction: Interaction) -> None:
        bot = self.bot
        t = await self._t(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with bot.storage.sessions() as session:
            records = await queries.player_active_games(session=session, user_id=interaction.user.id)
        lines = []
        for record in records[:20]:
            table = await bot.service.table(record.id)
            await bot.messenger.load_names(table)
            channel, state = f"<#{record.channel_id}>", await self._game_state(t, table, interaction.user.id)
            lines.append(
                t.gettext("• {map} in {channel}: {state}", map=t.map_name(table.game.map), channel=channel, state=state)
            )
        await interaction.followup.send(
            "\n".join(lines) if lines else t.gettext("You have no active games."), ephemeral=True
        )

    async def _game_state(self, t: Translator, table: Table, user_id: int) -> str:
        """Where a game stands for one of its players: whose turn (and its deadline)."""
        game = table.game
        if game.phase == "choosing":
            if table.seat_of(user_id) in game.to_move():
                return t.gettext("choosing starting tickets — **you too**")
            return t.gettext("choosing starting tickets")
        mover = game.current
        due = await self.bot.timers.deadline(table, mover)
        if table.user_of(mover) == user_id:
            return (
                t.gettext("**your turn**, ⏰ {deadline}", deadline=timestamp(due))
                if due
                else t.gettext("**your turn**")
            )
        name = self.bot.messenger.name(table, mover, t)
        return (
            t.gettext("{name}'s turn, ⏰ {deadline}", name=name, deadline=timestamp(due))
            if due
            else t.gettext("{name}'s turn", name=name)
        )

    @app_commands.command(name="rules", description=locale_str("The rules of this channel's map (or a map you name)"))
    @app_commands.describe(map=locale_str("The board"))
    @app_commands.choices(map=MAP_CHOICES)
    async def rules(self, interaction: Interaction, map: app_commands.Choice[str] | None = None) -> None:
        map_id = map.value if map else None
        if map_id is None:
            table = await self.bot.service.table_in_channel(interaction.channel_id)
            map_id = table.game.map.id if table else "usa"
        await self.bot.reply(interaction, rules_summary(map_id, t=await self._t(interaction)))

    @app_commands.command(name="help", description=locale_str("How to play with this bot"))
    async def help_(self, interaction: Interaction) -> None:
        t = await self._t(interaction)
        await self.bot.reply(
            interaction,
            t.gettext(
                "**Ticket to Ride** — one game per channel or thread.\n"
                "**Start:** `{new}` → others `{join}` (or the **{join_button}** button) → host `{start}`.\n"
                "**Your turn** (one of), by the turn message's buttons: two cards (face-up or from the deck) · "
                "**{claim_button}** → a route · **{tickets_button}** · **{station_button}** (Europe); or typed: "
                "`{draw}`, `{claim}`, `{tickets}`, `{station}`.\n"
                "**Private:** your cards and tickets come by DM; **{hand_button}** or `{hand}` shows them here, only to "
                "you.\n"
                "**Info:** `{board}` · `{status}` · `{rules}`. **Leave:** `{resign}`.\n"
                "**Language:** `{settings_language}`.",
                join_button=t.pgettext("button", "Join"),
                hand_button=t.pgettext("button", "My hand"),
                claim_button=t.pgettext("button", "Claim"),
                tickets_button=t.pgettext("button", "Tickets"),
                station_button=t.pgettext("button", "Station"),
                new=slash(t, "ttr-host new"),
                join=slash(t, "ttr join"),
                start=slash(t, "ttr-host start"),
                draw=slash(t, "ttr draw"),
                claim=slash(t, "ttr claim"),
                tickets=slash(t, "ttr tickets"),
                station=slash(t, "ttr station"),
                hand=slash(t, "ttr hand"),
                board=slash(t, "ttr board"),
                status=slash(t, "ttr status"),
                rules=slash(t, "ttr rules"),
                resign=slash(t, "ttr resign"),
                settings_language=slash(t, "ttr-settings language"),
            ),
        )


async def setup(bot) -> None:
    await bot.add_cog(Info(bot))
