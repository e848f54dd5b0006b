"""Tournaments on Discord: `/ttr-tournament …` (create, signup, withdraw, start, standings, bracket,
next, adjudicate, drop, export), the sign-up post's Join/Leave buttons, and the work that runs a
tournament by itself: each round's tables opened as threads with their games started
(bot/tables.py) with the tournament's map, deck and timer, results recorded as games end (an
outcome listener, after the leagues rate; a game ended without scores is left to the organizer,
who is told in the channel), the next round opened when the last table finishes, sign-up closed
and rounds forced at their deadlines (a sweep every minute, which also finishes what a restart
interrupted).

Organizers are members with Manage Server. Only the process serving the guild's shard
(`bot.serves_guild`) does a guild's tournament work; what two processes might both try is
claimed in the database (storage/tournaments.py). Pairings: storage/pairings.py.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import socket
from datetime import timedelta

import discord
from discord import Interaction, app_commands
from discord.app_commands import locale_str
from discord.ext import tasks

from bot import components
from bot.background import Backoff
from bot.choices import DECK_CHOICES, MAP_CHOICES, deck_choice
from bot.cog import TTRCog
from bot.command_translator import locale_pstr, slash
from bot.errors import reason
from bot.permissions import Place, check_place, is_manager
from bot.posting import as_file
from bot.service import LEAGUES, Cause, CauseKind, Outcome
from bot.standings import FORMAT_WORDS, bracket, member_name
from bot.tables import TableSpec, open_table
from bot.timers import TIMERS
from bot.transformers import GameOption, TournamentOption
from bot.web.links import page_button
from engine import Game, GameOptions, GameOptionsError, Remove, load_map
from i18n import N_, Translator
from rendering.tournament import render_bracket, render_tournament_standings
from storage import leagues as stored_leagues
from storage import tournaments as stored
from storage.models import (
    TABLE_ABANDONED,
    TABLE_DONE,
    TABLE_PENDING,
    TOURNAMENT_FINISHED,
    TOURNAMENT_SIGNUP,
    Tournament,
    TournamentTable,
    utcnow,
)

log = logging.getLogger(__name__)

#: Heard after the leagues rated the game (bot/service.py's order).
TOURNAMENTS = LEAGUES + 5
FORMAT_CHOICES = [
    app_commands.Choice(name=locale_pstr("format", word), value=key) for key, word in FORMAT_WORDS.items()
]
TIMER_CHOICES = [
    app_commands.Choice(name=locale_pstr("timer", name), value=seconds) for name, seconds in TIMERS.items()
]
ABSENCE_CHOICES = [
    app_commands.Choice(name=locale_str("skip the turn"), value="skip"),
    app_commands.Choice(name=locale_str("skip, remove after several misses"), value="remove"),
]
TOURNAMENT_OPTION = locale_str("Which tournament (default: the latest)")
MENTION = re.compile(r"<@!?([0-9]+)>")


def _cog(interaction: Interaction) -> Tournaments:
    return interaction.client.get_cog("Tournaments")  # type: ignore[attr-defined,return-value]


class SignupButton(components.Clicked, discord.ui.DynamicItem[discord.ui.Button], template=components.TOURNAMENT):
    async def run(self, interaction: Interaction) -> None:
        await _cog(interaction).sign(interaction, self.number("tournament"), join=self.fields["what"] == "join")


class Tournaments(TTRCog):
    under = "ttr-tournament"
    items = (SignupButton,)

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self.owner = f"{socket.gethostname()}:{id(self)}"  # this process's claims on tables
        self._locks: dict[int, asyncio.Lock] = {}
        self._sweeps = Backoff("tournament sweep", base=60, most=600)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.subscribe(TOURNAMENTS, self.on_outcome)

    async def cog_unload(self) -> None:
        self.bot.service.unsubscribe(self.on_outcome)
        await super().cog_unload()

    async def start_work(self) -> None:
        self.sweep.start()

    async def stop_work(self) -> None:
        await self._sweeps.stop(self.sweep)

    # ------------------------------------------------------------------ running a tournament

    async def on_outcome(self, outcome: Outcome) -> None:
        record = outcome.table.record
        if record.status == "active" or not self.bot.serves_guild(record.guild_id):
            return
        async with self.bot.storage.sessions() as session:
            table = await stored.record_game(session=session, game_id=outcome.table.id)
        if table is not None:
            await self._recorded(table)
            await self.progress(table.tournament_id)

    async def _recorded(self, table: TournamentTable) -> None:
        """A table's game ended without a result (`/ttr-host end`): the organizer is told, in the
        tournament's channel, how it gets decided (docs/leagues.md, "Tournaments")."""
        if table.status != TABLE_ABANDONED:
            return
        async with self.bot.storage.sessions() as session:
            t = await stored.get_tournament(session=session, tournament_id=table.tournament_id)
        if t is None:
            return
        public = await self.bot.languages.for_channel(t.guild_id)
        text = public.gettext(
            "⚠️ <@{organizer}>, **{tournament}** round {round}, table {table}: game #{game} was ended "
            "without a result. Decide it with `{adjudicate}`; otherwise `{next}` or the round's "
            "deadline decides it by the score it had.",
            organizer=t.organizer_id,
            tournament=t.name,
            round=table.round,
            table=table.number,
            game=table.game_id,
            adjudicate=slash(public, "ttr-tournament adjudicate"),
            next=slash(public, "ttr-tournament next"),
        )
        await self._post(t, text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(t.organizer_id)]))

    @tasks.loop(seconds=60)
    async def sweep(self) -> None:
        await self._sweeps.run(self.sweep_once)

    async def sweep_once(self) -> None:
        """Deadlines, and whatever a restart left half done (unrecorded results, unopened tables)."""
        async with self.bot.storage.sessions() as session:
            mine = [t for t in await stored.unfinished(session=session) if self.bot.serves_guild(t.guild_id)]
        now = utcnow()
        for t in mine:
            if t.status == TOURNAMENT_SIGNUP:
                if t.signup_deadline is not None and now >= t.signup_deadline:
                    await self.begin(t)
                continue
            async with self.bot.storage.sessions() as session:
                current = await stored.current_round(session=session, tournament_id=t.id)
            if current is not None and current.deadline is not None and now >= current.deadline:
                await self.force(t, user_id=t.organizer_id)
            await self.progress(t.id)

    async def begin(self, t: Tournament) -> bool:
        try:
            async with self.bot.storage.sessions() as session:
                started = await stored.start(session=session, tournament_id=t.id)
        except stored.TournamentError:
            log.info("tournament could not start", extra={"tournament": t.id})
            return False
        await self.progress(t.id)
        return started

    async def progress(self, tournament_id: int) -> None:
        """Record what ended unheard, open the next round once the last table is done, open every
        table still pending, post the results once it is over.

        Only the records and the round are under the tournament's lock: opening a table publishes
        its game's start, and a game that ended by then brings its listener back here."""
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            async with self.bot.storage.sessions() as session:
                recorded = [
                    await stored.record_game(session=session, game_id=game_id)
                    for game_id in await stored.unrecorded_games(session=session, tournament_id=tournament_id)
                ]
                state = await stored.advance(session=session, tournament_id=tournament_id)
                t = await stored.get_tournament(session=session, tournament_id=tournament_id)
                pending = [
                    x
                    for x in await stored.tables(session=session, tournament_id=tournament_id)
                    if x.status == TABLE_PENDING
                ]
        if t is None:
            return
        for table in recorded:
            if table is not None:
                await self._recorded(table)
        if state == "opened":
            await self._announce_round(t)
        for table in pending:  # claimed one by one: what another call opened first is skipped
            await self._open(t, table)
        if t.status == TOURNAMENT_FINISHED:
            async with self.bot.storage.sessions() as session:
                if await stored.mark_results_posted(session=session, tournament_id=t.id):
                    await self._post_results(t)

    async def _open(self, t: Tournament, table) -> None:
        async with self.bot.storage.sessions() as session:
            if not await stored.claim_table(session=session, table_id=table.id, owner=self.owner):
                return
        public = await self.bot.languages.for_channel(t.guild_id)
        spec = TableSpec(
            guild_id=t.guild_id,
            channel_id=t.channel_id,
            user_ids=tuple(table.players),
            map_id=t.map_id,
            host_id=t.organizer_id,
            options=GameOptions.from_json(t.options),
            clock=dict(t.clock),
            season_id=t.season_id,
            name=public.gettext(
                "{tournament} · round {round} · table {table}", tournament=t.name, round=table.round, table=table.number
            ),
        )

        async def link(session, game_id: int) -> None:
            await stored.link_game(session=session, table_id=table.id, game_id=game_id)

        try:
            await open_table(self.bot, spec, link=link)
        except stored.TableTaken:
            pass
        except Exception:
            log.exception("a tournament table could not open", extra={"tournament": t.id, "table": table.id})

    async def _channel(self, t: Tournament):
        channel = self.bot.get_channel(t.channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(t.channel_id)

    async def _post(self, t: Tournament, text: str, **kwargs) -> None:
        """A post in the tournament's channel (pinging nobody unless `allowed_mentions` says)."""
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        try:
            channel = await self._channel(t)
            await channel.send(text[:2000], **kwargs)
        except discord.HTTPException:
            log.warning("could not post to the tournament channel", extra={"tournament": t.id})

    async def _announce_round(self, t: Tournament) -> None:
        async with self.bot.storage.sessions() as session:
            current = await stored.current_round(session=session, tournament_id=t.id)
            tables = await stored.tables(session=session, tournament_id=t.id, round=current.number)
        public = await self.bot.languages.for_channel(t.guild_id)
        lines = [
            public.ngettext(
                "🏁 **{tournament}**: round {round} opens, {n} table.",
                "🏁 **{tournament}**: round {round} opens, {n} tables.",
                len(tables),
                tournament=t.name,
                round=current.number,
            )
        ]
        lines += [
            public.gettext("Table {n}: {players}", n=x.number, players=public.join(f"<@{u}>" for u in x.players))
            for x in tables
        ]
        await self._post(t, "\n".join(lines))

    async def _post_results(self, t: Tournament) -> None:
        public = await self.bot.languages.for_channel(t.guild_id)
        standing, bracket = await self._images(t, public, None)
        async with self.bot.storage.sessions() as session:
            table = await stored.standings(session=session, tournament_id=t.id)
        podium = " · ".join(f"{s.place}. <@{s.user_id}>" for s in table[:3])
        await self._post(
            t,
            public.gettext(
                "🏆 **{tournament}** is over. Champion: <@{winner}>. {podium}",
                tournament=t.name,
                winner=table[0].user_id,
                podium=podium,
            ),
            files=[standing, bracket],
        )

    async def force(self, t: Tournament, *, user_id: int) -> int:
        """Finish the round now: every unfinished table is decided by its game's current score
        (leavers last), its game ended (`progress` goes on from there). Returns the tables decided."""
        async with self.bot.storage.sessions() as session:
            current = await stored.current_round(session=session, tournament_id=t.id)
            open_tables = (
                [
                    x
                    for x in await stored.tables(session=session, tournament_id=t.id, round=current.number)
                    if x.status != TABLE_DONE
                ]
                if current
                else []
            )
        for x in open_tables:
            scores = [0] * len(x.players)
            order = list(x.players)
            if x.game_id is not None:
                table = await self.bot.service.table(x.game_id)
                game = table.game
                by_user = {s.user_id: s.seat for s in table.seats}
                scores = [game.score[by_user[u]] for u in x.players]
                order = sorted(
                    x.players, key=lambda u: (game.left[by_user[u]] is not None, -game.score[by_user[u]], by_user[u])
                )
            async with self.bot.storage.sessions() as session:
                await stored.adjudicate(session=session, table_id=x.id, order=order, scores=scores, user_id=user_id)
            await self._end_game(x.game_id, user_id)
        return len(open_tables)

    async def _end_game(self, game_id: int | None, user_id: int) -> None:
        if game_id is None:
            return
        try:
            await self.bot.service.end(game_id, cause=Cause(CauseKind.ADMIN, user_id=user_id))
        except Exception:  # over already
            pass

    # ------------------------------------------------------------------ lookups

    async def _find(self, interaction: Interaction, name: str | None) -> Tournament:
        async with self.bot.storage.sessions() as session:
            found = await stored.guild_tournaments(session=session, guild_id=interaction.guild_id or 0)
        if name:
            match = next((x for x in found if x.name.lower() == name.strip().lower()), None)
        else:
            match = next((x for x in found if x.status != TOURNAMENT_FINISHED), found[0] if found else None)
        if match is None:
            raise stored.TournamentError(N_("this server has no tournament called {name!r}"), name=name or "")
        return match

    async def _organizer(self, interaction: Interaction) -> bool:
        if is_manager(interaction):
            return True
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(
            interaction, t.gettext("Only someone with the **Manage Server** permission runs tournaments.")
        )
        return False

    def _name(self, t: Translator, guild: discord.Guild | None, user_id: int, stored_names: dict[int, str]) -> str:
        return member_name(t, guild, user_id, stored_names.get(user_id))

    async def _images(
        self, tournament: Tournament, t: Translator, interaction: Interaction | None
    ) -> list[discord.File]:
        async with self.bot.storage.sessions() as session:
            table = await stored.standings(session=session, tournament_id=tournament.id)
            every = await stored.tables(session=session, tournament_id=tournament.id)
            names = await stored.names(session=session, user_ids=[s.user_id for s in table])
        guild = self.bot.get_guild(tournament.guild_id)  # type: ignore[attr-defined]
        shown = bracket(
            t,
            tournament,
            table,
            every,
            name=lambda u: self._name(t, guild, u, names),
            me=interaction.user.id if interaction else None,
        )
        standing = await asyncio.to_thread(
            render_tournament_standings, shown.rows, t=t, subtitle=shown.subtitle, title=shown.standings_title
        )
        tables = await asyncio.to_thread(
            render_bracket, shown.tables, t=t, subtitle=shown.format, title=shown.tables_title
        )
        return [
            as_file(standing, "standings"),
            as_file(tables, "bracket"),
        ]

    def _signup_text(self, t: Translator, tournament: Tournament, count: int) -> str:
        words = {
            "tournament": tournament.name,
            "format": t.pgettext("format", FORMAT_WORDS[tournament.format]),
            "map": t.map_name(load_map(tournament.map_id)),
            "n": count,
            "tables": (
                str(tournament.smallest)
                if tournament.smallest == tournament.largest
                else f"{tournament.smallest}–{tournament.largest}"
            ),
        }
        text = t.gettext("🏆 **{tournament}**: {format} on {map}, tables of {tables}. Signed up: {n}.", **words)
        deck = tournament.options.get("deck")
        if deck:
            text += " " + t.gettext(
                "Tickets: {deck}.", deck=t.pgettext("deck", load_map(tournament.map_id).rules.decks[deck].name)
            )
        if tournament.cap:
            text += " " + t.gettext("At most {cap} players.", cap=tournament.cap)
        if tournament.signup_deadline:
            text += " " + t.gettext("Sign-up closes <t:{when}:R>.", when=int(tournament.signup_deadline.timestamp()))
        return text

    def _signup_buttons(self, t: Translator, tournament_id: int) -> discord.ui.View:
        return components.layout(
            [
                components.button(
                    f"ttr:tournament:{tournament_id}:join",
                    t.pgettext("button", "Sign up"),
                    style=discord.ButtonStyle.success,
                ),
                components.button(f"ttr:tournament:{tournament_id}:leave", t.pgettext("button", "Withdraw")),
            ]
        )

    # ------------------------------------------------------------------ the commands' work

    async def create(self, interaction: Interaction, **settings) -> None:
        if not await self._organizer(interaction):
            return
        season_id = None
        if settings.pop("rated"):
            async with self.bot.storage.sessions() as session:
                leagues = await stored_leagues.guild_leagues(session=session, guild_id=interaction.guild_id or 0)
                seasons = [await stored_leagues.active_season(session=session, league_id=lg.id) for lg in leagues]
            open_seasons = [s for s in seasons if s is not None]
            if len(open_seasons) != 1:
                raise stored.TournamentError(N_("a rated tournament needs exactly one league with an open season"))
            season_id = open_seasons[0].id
        hours = settings.pop("signup_hours")
        async with self.bot.storage.sessions() as session:
            tournament = await stored.create_tournament(
                session=session,
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                organizer_id=interaction.user.id,
                season_id=season_id,
                signup_deadline=utcnow() + timedelta(hours=hours) if hours else None,
                **settings,
            )
        t = await self.bot.languages.for_channel(interaction.guild_id)
        await interaction.response.send_message(
            self._signup_text(t, tournament, 0),
            view=self._signup_buttons(t, tournament.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        message = await interaction.original_response()
        async with self.bot.storage.sessions() as session:
            await stored.set_signup_message(session=session, tournament_id=tournament.id, message_id=message.id)

    async def sign(self, interaction: Interaction, tournament_id: int, *, join: bool) -> None:
        async with self.bot.storage.sessions() as session:
            if join:
                count = await stored.sign_up(session=session, tournament_id=tournament_id, user_id=interaction.user.id)
            else:
                count = await stored.withdraw(session=session, tournament_id=tournament_id, user_id=interaction.user.id)
            tournament = await stored.get_tournament(session=session, tournament_id=tournament_id)
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(
            interaction,
            t.gettext("✅ You are signed up for **{tournament}**.", tournament=tournament.name)
            if join
            else t.gettext("You withdrew from **{tournament}**.", tournament=tournament.name),
        )
        if tournament.signup_message_id:
            public = await self.bot.languages.for_channel(tournament.guild_id)
            try:
                channel = await self._channel(tournament)
                await channel.get_partial_message(tournament.signup_message_id).edit(
                    content=self._signup_text(public, tournament, count)
                )
            except discord.HTTPException:
                log.warning("could not update the sign-up post", extra={"tournament": tournament_id})

    async def start_now(self, interaction: Interaction, name: str | None) -> None:
        if not await self._organizer(interaction):
            return
        tournament = await self._find(interaction, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.storage.sessions() as session:
            await stored.start(session=session, tournament_id=tournament.id)
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(interaction, t.gettext("🏁 **{tournament}** has started.", tournament=tournament.name))
        await self.progress(tournament.id)

    async def show(self, interaction: Interaction, name: str | None, public: bool) -> None:
        tournament = await self._find(interaction, name)
        t = (
            await self.bot.languages.for_channel(interaction.guild_id)
            if public
            else await self.bot.languages.for_interaction(interaction)
        )
        await interaction.response.defer(ephemeral=not public, thinking=True)
        link = page_button("t", tournament.id, t.pgettext("button", "Tables on the web"))
        await interaction.followup.send(
            files=await self._images(tournament, t, interaction),
            ephemeral=not public,
            **({"view": components.layout([link])} if link else {}),
        )

    async def next_round(self, interaction: Interaction, name: str | None) -> None:
        if not await self._organizer(interaction):
            return
        tournament = await self._find(interaction, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        decided = await self.force(tournament, user_id=interaction.user.id)
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(
            interaction,
            t.ngettext(
                "⏩ {n} unfinished table was decided by its current score.",
                "⏩ {n} unfinished tables were decided by their current scores.",
                decided,
            ),
        )
        await self.progress(tournament.id)

    async def adjudicate(self, interaction: Interaction, game_id: int, order: str) -> None:
        if not await self._organizer(interaction):
            return
        users = [int(u) for u in MENTION.findall(order)]
        async with self.bot.storage.sessions() as session:
            table = await stored.table_of_game(session=session, game_id=game_id)
            if table is None:
                raise stored.TournamentError(N_("game {game} is not a tournament table"), game=game_id)
            tournament = await stored.get_tournament(session=session, tournament_id=table.tournament_id)
            check_place(interaction, Place(tournament.guild_id))
            await stored.adjudicate(
                session=session, table_id=table.id, order=users, scores=None, user_id=interaction.user.id
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._end_game(game_id, interaction.user.id)
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(
            interaction,
            t.gettext("⚖️ Game #{game} decided: {order}.", game=game_id, order=t.join(f"<@{u}>" for u in users)),
        )
        await self.progress(table.tournament_id)

    async def drop_player(self, interaction: Interaction, user: discord.abc.User, name: str | None) -> None:
        if not await self._organizer(interaction):
            return
        tournament = await self._find(interaction, name)
        async with self.bot.storage.sessions() as session:
            game_id = await stored.drop(session=session, tournament_id=tournament.id, user_id=user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if game_id is not None:  # their seat leaves the game: they place last at this table
            table = await self.bot.service.table(game_id)
            seat = table.seat_of(user.id)
            if table.record.status == "active" and seat is not None and table.game.left[seat] is None:
                await self.bot.service.act(
                    game_id, Remove(seat), as_table=True, cause=Cause(CauseKind.KICK, user_id=interaction.user.id)
                )
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(
            interaction,
            t.gettext("{player} is dropped from **{tournament}**.", player=user.mention, tournament=tournament.name),
        )

    async def export(self, interaction: Interaction, name: str | None) -> None:
        if not await self._organizer(interaction):
            return
        tournament = await self._find(interaction, name)
        async with self.bot.storage.sessions() as session:
            seats, standing = await stored.export_csv(session=session, tournament_id=tournament.id)
        stem = re.sub(r"[^A-Za-z0-9]+", "-", tournament.name).strip("-").lower() or "tournament"
        t = await self.bot.languages.for_interaction(interaction)
        await self.bot.reply(
            interaction,
            t.gettext(
                "📄 **{tournament}**: every table (one row per seat) and the standings.", tournament=tournament.name
            ),
            files=[
                discord.File(io.BytesIO(seats.encode()), filename=f"{stem}-tables.csv"),
                discord.File(io.BytesIO(standing.encode()), filename=f"{stem}-standings.csv"),
            ],
        )

    # ------------------------------------------------------------------ the commands

    @app_commands.command(
        name="create", description=locale_str("Create a tournament; its tables open here (Manage Server)")
    )
    @app_commands.describe(
        name=locale_str("The tournament's name"),
        format=locale_str("Swiss, elimination or groups"),
        map=locale_str("The board"),
        tickets=locale_str("Ticket deck (default: the map's base deck)"),
        rounds=locale_str("Swiss rounds (groups: rounds in each pod)"),
        smallest=locale_str("Fewest players at a table"),
        largest=locale_str("Most players at a table"),
        advance=locale_str("Knockout: how many of each table or pod go on"),
        group_size=locale_str("Groups: most players in a pod"),
        cap=locale_str("Most players who may sign up"),
        signup_hours=locale_str("Sign-up closes and the tournament starts after these hours"),
        round_hours=locale_str("A round's deadline, in hours"),
        timer=locale_str("Time for each turn (play-by-post: 24 hours)"),
        absence=locale_str("When a turn's time runs out (default: skip it)"),
        rated=locale_str("Rated in the league's open season"),
    )
    @app_commands.choices(
        format=FORMAT_CHOICES, map=MAP_CHOICES, tickets=DECK_CHOICES, timer=TIMER_CHOICES, absence=ABSENCE_CHOICES
    )
    async def tournament_create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        format: app_commands.Choice[str],
        map: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 10] = 3,
        smallest: app_commands.Range[int, 2, 5] = 3,
        largest: app_commands.Range[int, 2, 5] = 4,
        advance: app_commands.Range[int, 1, 4] = 1,
        group_size: app_commands.Range[int, 3, 20] = 8,
        cap: app_commands.Range[int, 2, 500] | None = None,
        signup_hours: app_commands.Range[int, 1, 720] | None = None,
        round_hours: app_commands.Range[int, 1, 720] | None = None,
        timer: app_commands.Choice[int] | None = None,
        absence: app_commands.Choice[str] | None = None,
        rated: bool = False,
        tickets: app_commands.Choice[str] | None = None,
    ) -> None:
        clock = (
            {"turn_seconds": timer.value, "absence": absence.value if absence else "skip"}
            if timer is not None and timer.value
            else {}
        )
        t = await self.bot.languages.for_interaction(interaction)
        deck = None
        if tickets is not None:
            deck_map, deck = deck_choice(tickets.value)
            if deck_map != map.value:
                await self.bot.reply(
                    interaction,
                    t.gettext(
                        "That ticket deck belongs to the {deck_map} map, not {map}.",
                        deck_map=t.map_name(load_map(deck_map)),
                        map=t.map_name(load_map(map.value)),
                    ),
                )
                return
        options = GameOptions(deck=deck)
        try:  # every table size must be playable on this map with these options
            for seats in range(smallest, largest + 1):
                Game(load_map(map.value), seats, 0, options)
        except GameOptionsError as exc:
            await self.bot.reply(
                interaction, t.gettext("⚠️ These options don't go together: {reason}", reason=reason(t, exc, name=str))
            )
            return
        await self.create(
            interaction,
            name=name,
            format=format.value,
            map_id=map.value,
            options=options.to_json(),
            rounds=rounds,
            smallest=smallest,
            largest=largest,
            advance=advance,
            group_size=group_size,
            cap=cap,
            signup_hours=signup_hours,
            round_hours=round_hours,
            clock=clock,
            rated=rated,
        )

    @app_commands.command(name="signup", description=locale_str("Sign up for a tournament"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def tournament_signup(self, interaction: Interaction, tournament: TournamentOption | None = None) -> None:
        await self.sign(interaction, (await self._find(interaction, tournament)).id, join=True)

    @app_commands.command(name="withdraw", description=locale_str("Take your name off a tournament's sign-up"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def tournament_withdraw(self, interaction: Interaction, tournament: TournamentOption | None = None) -> None:
        await self.sign(interaction, (await self._find(interaction, tournament)).id, join=False)

    @app_commands.command(name="start", description=locale_str("Close sign-up and open round 1 (Manage Server)"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def tournament_start(self, interaction: Interaction, tournament: TournamentOption | None = None) -> None:
        await self.start_now(interaction, tournament)

    @app_commands.command(name="standings", description=locale_str("A tournament's standings and tables, as images"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION, public=locale_str("Post it for everyone (default: only you)"))
    async def tournament_standings(
        self, interaction: Interaction, tournament: TournamentOption | None = None, public: bool = False
    ) -> None:
        await self.show(interaction, tournament, public)

    @app_commands.command(
        name="next", description=locale_str("End the round now: unfinished tables go by score (Manage Server)")
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def tournament_next(self, interaction: Interaction, tournament: TournamentOption | None = None) -> None:
        await self.next_round(interaction, tournament)

    @app_commands.command(name="adjudicate", description=locale_str("Decide a table's result (Manage Server)"))
    @app_commands.describe(
        game=locale_str("The table's game number"), order=locale_str("Its players, best first, as mentions")
    )
    async def tournament_adjudicate(self, interaction: Interaction, game: GameOption, order: str) -> None:
        await self.adjudicate(interaction, game, order)

    @app_commands.command(name="drop", description=locale_str("Drop a player from a tournament (Manage Server)"))
    @app_commands.describe(player=locale_str("Who"), tournament=TOURNAMENT_OPTION)
    async def tournament_drop(
        self, interaction: Interaction, player: discord.User, tournament: TournamentOption | None = None
    ) -> None:
        await self.drop_player(interaction, player, tournament)

    @app_commands.command(
        name="export", description=locale_str("A tournament's tables and standings as CSV (Manage Server)")
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def tournament_export(self, interaction: Interaction, tournament: TournamentOption | None = None) -> None:
        await self.export(interaction, tournament)


async def setup(bot) -> None:
    await bot.add_cog(Tournaments(bot))
