"""Playing a turn from Discord: apply the action (stored before any reply), then tell each person
what they may know: the actor privately, the channel when a turn ends, players by DM.
"""

from __future__ import annotations

import asyncio
import io
import logging
import uuid
from typing import TYPE_CHECKING, Callable

import discord
from discord import Interaction

from bot import components
from bot.ai_seats import AI_NAMES
from bot.clocks import timestamp
from bot.command_translator import slash
from bot.error_text import describe_error
from bot.present import (
    card,
    describe,
    drawn,
    final_fields,
    merge_turn,
    private_summary,
    route_name,
    ticket_line,
)
from bot.service import Outcome, Table, UserError
from engine import Action, ActionError, AmbiguousActionError, Claim, parse_action
from engine.cards import CARD_NAMES
from engine.events import SeatLeft
from engine.game import SECOND_CARD, TICKETS, TUNNEL
from engine.mapdata import fold_name
from i18n import Translator, translator
from rendering import (
    PlayerStyle,
    render_board,
    render_final,
    render_hand,
    render_player_board,
    render_ticket_offer,
)
from rendering.style import DEFAULT_PLAYER_COLORS
from storage import players as stored_players

if TYPE_CHECKING:
    from bot.client import TTRBot

log = logging.getLogger(__name__)

#: Player colors offered at join, in the renderer's palette order (distinct from route colors).
PLAYER_COLORS: dict[str, tuple[int, int, int]] = dict(zip(("violet", "teal", "brown", "sky", "lime"),
                                                          DEFAULT_PLAYER_COLORS))


class Turns:
    def __init__(self, bot: "TTRBot") -> None:
        self.bot = bot
        self.service = bot.service
        self._names: dict[int, str] = {}  # user id -> display name ("" when storage has none)
        self._colorblind: dict[int, bool] = {}
        self._dm_closed: set[int] = set()

    # ------------------------------------------------------------------ languages

    async def channel_t(self, table: Table) -> Translator:
        """The language of the game's channel (turn messages, boards, results)."""
        return await self.bot.languages.for_channel(table.record.guild_id)

    async def seat_t(self, table: Table, seat: int) -> Translator:
        """The language of a seat's player, for their DMs and private images."""
        return await self.bot.languages.for_user(table.user_of(seat), table.record.guild_id)

    # ------------------------------------------------------------------ names and styles

    async def remember_name(self, user: discord.abc.User) -> None:
        if self._names.get(user.id) != user.display_name:
            self._names[user.id] = user.display_name
            async with self.bot.storage.sessions() as session:
                await stored_players.update_player(session=session, user_id=user.id, display_name=user.display_name)

    async def _load_names(self, table: Table) -> None:
        missing = [s.user_id for s in table.seats if s.user_id is not None and s.user_id not in self._names]
        if missing:
            async with self.bot.storage.sessions() as session:
                for user_id in missing:
                    player = await stored_players.get_player(session=session, user_id=user_id)
                    self._names[user_id] = (player.display_name or "") if player else ""
                    self._colorblind[user_id] = bool(player and player.color_blind)

    def colorblind(self, table: Table, seat: int | None = None) -> bool:
        """Color-blind images: a seat's private ones if it asked; public ones if anyone at the table did."""
        users = [table.user_of(seat)] if seat is not None else [s.user_id for s in table.seats]
        return any(self._colorblind.get(u, False) for u in users if u is not None)

    def set_colorblind(self, user_id: int, on: bool) -> None:
        self._colorblind[user_id] = on

    def name(self, table: Table, seat: int, t: Translator | None = None) -> str:
        """A seat's player as others read it: the display name, or the AI's (in `t`'s language)."""
        t = t or translator()
        level = next((s.ai for s in table.seats if s.seat == seat and s.ai), None)
        if level in AI_NAMES:
            return "🤖 " + t.gettext(AI_NAMES[level], n=seat + 1)
        user_id = table.user_of(seat)
        return (self._names.get(user_id) if user_id is not None else None) or t.gettext("Seat {n}", n=seat + 1)

    def styles(self, table: Table, t: Translator | None = None) -> list[PlayerStyle]:
        styles = []
        for seat in range(table.game.seats):
            color = PLAYER_COLORS.get(table.color_of(seat) or "", DEFAULT_PLAYER_COLORS[seat % len(DEFAULT_PLAYER_COLORS)])
            styles.append(PlayerStyle(self.name(table, seat, t), color))
        return styles

    def mention(self, table: Table, seat: int, t: Translator | None = None) -> str:
        user_id = table.user_of(seat)
        return f"<@{user_id}>" if user_id else self.name(table, seat, t)

    # ------------------------------------------------------------------ acting

    async def perform(self, interaction: Interaction, game_id: int, action: Action | str, *,
                      token: int | None = None, as_table: bool = False) -> Outcome | None:
        """Apply an action for the interacting user and publish its consequences."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        await self.remember_name(interaction.user)
        t = await self.bot.languages.for_interaction(interaction)
        try:
            outcome = await self.service.act(game_id, interaction.user.id, action, token=token, as_table=as_table)
        except AmbiguousActionError as exc:
            await self._offer_payments(interaction, t, game_id, exc, action if isinstance(action, str) else None)
            return None
        except (UserError, ActionError) as exc:
            await interaction.followup.send(f"⚠️ {await self.error_text(t, game_id, exc)}", ephemeral=True)
            return None
        except Exception:
            error_id = new_error_id()
            log.exception("action failed", extra={"error_id": error_id, "game_id": game_id,
                                                  "user_id": interaction.user.id})
            await interaction.followup.send("😓 " + t.gettext(
                "Sorry, something went wrong on my side (error id `{error_id}`). Nothing was changed; please try "
                "again.", error_id=error_id), ephemeral=True)
            return None
        try:
            await self.bot.clocks.player_acted(outcome.table, outcome.seat)
            await self._publish(outcome, interaction)
        except Exception:
            error_id = new_error_id()
            log.exception("publishing failed", extra={"error_id": error_id, "game_id": game_id})
            await interaction.followup.send("😓 " + t.gettext(
                "Your move is saved, but I couldn't post about it (error id `{error_id}`). `{board}` shows the "
                "game.", error_id=error_id, board=slash(t, "ttr board")), ephemeral=True)
        return outcome

    async def error_text(self, t: Translator, game_id: int | None, exc: UserError | ActionError) -> str:
        """A refusal in the reader's language; an engine error names seats by their players (in bold)."""
        if isinstance(exc, UserError):
            return exc.text(t)
        try:
            table = await self.service.table(game_id) if game_id is not None else None
        except Exception:
            table = None
        if table is None:
            return describe_error(t, exc, None, lambda seat: "**" + t.gettext("Seat {n}", n=seat + 1) + "**")
        await self._load_names(table)
        return describe_error(t, exc, table.game, lambda seat: f"**{self.name(table, seat, t)}**")

    async def claim(self, interaction: Interaction, game_id: int, route: str, color: str | None,
                    locos: int | None) -> None:
        """`/ttr claim`: the typed payment if it is legal; otherwise the legal ways to pay for that
        route (one: taken; several: buttons ask which), so a player never needs the notation."""
        text = " ".join(["claim", route] + ([color] if color else []) + ([f"loco={locos}"] if locos is not None else []))
        table = await self.service.table(game_id)
        seat, game = table.seat_of(interaction.user.id), table.game
        if seat is None or game.phase != "playing" or game.current != seat or game.stage is not None:
            await self.perform(interaction, game_id, text)  # the usual, specific refusal
            return
        try:
            action = parse_action(game, seat, text)
        except AmbiguousActionError:
            action = None
        except ActionError:
            await self.perform(interaction, game_id, text)
            return
        if action is not None and game.is_legal(seat, action):
            await self.perform(interaction, game_id, action)
            return
        wanted = fold_name(route.split("/")[0])
        options = [a for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)
                   and fold_name(game.map.route_name(game.map.track_by_id[a.track])) == wanted
                   and (route.count("/") == 0 or a.track.endswith("/" + route.split("/")[1]))
                   and (color is None or (CARD_NAMES[a.color] if a.color is not None else "loco") == color)]
        if len(options) == 1:
            await self.perform(interaction, game_id, options[0])
        elif options:
            t = await self.bot.languages.for_interaction(interaction)
            track = game.map.track_by_id[options[0].track]
            await interaction.response.send_message(
                t.gettext("How do you pay for {route}?", route=route_name(t, game.map, track)), ephemeral=True,
                view=components.claim_choice_view(table.id, game, seat, options, t=t))
        else:
            await self.perform(interaction, game_id, action or text)

    async def _offer_payments(self, interaction: Interaction, t: Translator, game_id: int,
                              exc: AmbiguousActionError, text: str | None) -> None:
        """Several payments fit: one button per color (fewest locomotives)."""
        table = await self.service.table(game_id)
        seat = table.seat_of(interaction.user.id)
        message = await self.error_text(t, game_id, exc)
        if not text or seat is None:
            await interaction.followup.send(f"⚠️ {message}", ephemeral=True)
            return
        colors = [c for c in exc.details.get("options") or [] if c in CARD_NAMES]
        await interaction.followup.send(message, ephemeral=True,
                                        view=components.color_choice_view(table.id, table.game, seat, text, colors, t=t))

    async def publish_automatic(self, outcome: Outcome) -> None:
        """What follows an action nobody clicked (a deadline, an AI): the same, minus the reply."""
        await self._publish(outcome, None)

    async def _publish(self, outcome: Outcome, interaction: Interaction | None) -> None:
        table, game, seat = outcome.table, outcome.table.game, outcome.seat
        await self._load_names(table)
        await self.bot.clocks.after_action(table)
        t = await self.channel_t(table)
        names = lambda s: self.name(table, s, t)  # noqa: E731
        table.turn_notes.extend(describe(t, game, outcome.events, names))
        table.turn_draws.extend(drawn(outcome.events))
        # The channel first (one message per finished turn, one when the first turn starts), then
        # DMs, then the actor's private reply: when the reply arrives, everything is posted.
        if outcome.turn_ended:
            acting = seat if seat is not None else game.current
            if outcome.phase_before == "choosing":  # the first turn: only say who ran out of time
                summary = "\n".join(note for note in table.turn_notes if note.startswith("⏰"))
            else:
                summary = merge_turn(t, table.turn_notes, table.turn_draws, acting, names)
            table.turn_notes, table.turn_draws = [], []
            await self.post_turn(table, summary, interaction=interaction)
        elif any(isinstance(e, SeatLeft) for e in outcome.events):  # someone left out of turn
            channel = await self.channel(table)
            if channel is not None:
                await channel.send("\n".join(table.turn_notes[-1:]))
                table.turn_notes = table.turn_notes[:-1]
        if game.phase == "playing" and game.stage in game.hooks.stages and (game.current != seat or interaction is None):
            mine = await self.seat_t(table, game.current)
            await self.dm(table, game.current, self._hook_text(mine), t=mine,
                          view=components.hook_choice_view(table.id, game, game.current, t=mine))
        if interaction is not None:
            await self._private_next_step(interaction, table, seat)
        self.bot.ai.kick(table)

    @staticmethod
    def _hook_text(t: Translator) -> str:
        """A map hook's pending decision (Nederland's neutral player is the only one so far)."""
        return "🤖 " + t.gettext("**The neutral player builds a route with two free tracks: you pick which.** "
                                "(It costs you nothing.)")

    async def _private_next_step(self, interaction: Interaction, table: Table, seat: int | None) -> None:
        """The actor's private reply (and DM) after their action: what they must do next, or their hand."""
        game = table.game
        t = await self.bot.languages.for_interaction(interaction)  # the actor's language, DMs included
        if seat is None:
            await interaction.followup.send(t.gettext("Done."), ephemeral=True)
            return
        if game.phase == "choosing":
            waiting = [self.name(table, s, t) for s in game.to_move()]
            text = t.ngettext("You kept {n} ticket. Waiting for {players}.", "You kept {n} tickets. Waiting for {players}.",
                              len(game.tickets[seat]), players=t.join(waiting))
            await interaction.followup.send(text, ephemeral=True)
            return
        my_turn = game.phase == "playing" and game.current == seat
        if my_turn and game.stage == SECOND_CARD:
            await interaction.followup.send(
                f"{private_summary(t, game, seat)}\n\n" + t.gettext("**Draw your second card** (not a face-up locomotive):"),
                view=components.second_card_view(table.id, game, seat, t=t), ephemeral=True)
            return
        if my_turn and game.stage == TICKETS:
            await self.dm(table, seat, self._tickets_text(t, table, seat), t=t,
                          view=components.tickets_view(table.id, game, seat, t=t),
                          files=await self.private_files(table, seat, hand=False, offer=True, t=t))
            await self._send_ticket_choice(interaction, t, table, seat)
            return
        if my_turn and game.stage == TUNNEL:
            text = self._tunnel_text(t, table, seat)
            await self.dm(table, seat, text, t=t, view=components.tunnel_view(table.id, game, seat, t=t))
            await interaction.followup.send(text, view=components.tunnel_view(table.id, game, seat, t=t), ephemeral=True)
            return
        if my_turn and game.stage in game.hooks.stages:
            text = self._hook_text(t)
            await self.dm(table, seat, text, t=t, view=components.hook_choice_view(table.id, game, seat, t=t))
            await interaction.followup.send(text, view=components.hook_choice_view(table.id, game, seat, t=t),
                                            ephemeral=True)
            return
        summary = private_summary(t, game, seat) if game.phase != "over" else t.gettext("The game is over.")
        if game.phase == "playing":
            await self.dm(table, seat, summary, t=t, files=await self.private_files(table, seat, t=t))
        await interaction.followup.send("✅ " + t.gettext("Done.") + f"\n{summary}", ephemeral=True)

    def _tickets_text(self, t: Translator, table: Table, seat: int) -> str:
        game = table.game
        lines = [t.gettext("**Choose your tickets** (keep at least {n}):", n=game.offer_keep[seat])]
        lines += [ticket_line(t, game.map, ticket) for ticket in game.view(seat)["you"]["offer"]]
        return "\n".join(lines)

    def _tunnel_text(self, t: Translator, table: Table, seat: int) -> str:
        game = table.game
        tunnel = game.view(seat)["tunnel"]
        route = route_name(t, game.map, game.map.track_by_id[tunnel["track"]])
        revealed = t.join(card(t, CARD_NAMES.index(c)) for c in tunnel["revealed"])
        ask = t.ngettext("**Tunnel {route}:** revealed {cards} → pay {n} more card or decline.",
                         "**Tunnel {route}:** revealed {cards} → pay {n} more cards or decline.",
                         tunnel["surcharge"], route=route, cards=revealed)
        return f"{ask}\n{private_summary(t, game, seat)}"

    async def _send_ticket_choice(self, interaction: Interaction, t: Translator, table: Table, seat: int) -> None:
        files = await self.private_files(table, seat, hand=False, offer=True, interaction=interaction, t=t)
        await interaction.followup.send(self._tickets_text(t, table, seat), ephemeral=True, files=files,
                                        view=components.tickets_view(table.id, table.game, seat, t=t))

    async def private_files(self, table: Table, seat: int, *, hand: bool = True, offer: bool = False,
                            board: bool = False, interaction: Interaction | None = None,
                            t: Translator | None = None) -> list[discord.File]:
        """Images only this seat may see (for its DMs or ephemeral replies), in its player's language
        (`t`, else looked up). None for a reply in a channel where the bot may not attach files: the
        text says the same."""
        if interaction is not None and interaction.guild_id and not interaction.app_permissions.attach_files:
            return []
        t = t or await self.seat_t(table, seat)
        game, styles = table.game, self.styles(table, t)
        view = game.view(seat)
        jobs = []
        if hand:
            jobs.append(("hand.png", render_hand, {}))
        if offer and view["you"]["offer"]:
            jobs.append(("tickets.png", render_ticket_offer, {}))
        if board:
            claimable = [a.track for a in game.legal_actions(seat, collapse_payments=True) if isinstance(a, Claim)]
            jobs.append(("my-board.png", render_player_board, {"claimable_tracks": claimable}))

        colorblind = self.colorblind(table, seat)

        def draw() -> list[discord.File]:
            files = []
            for filename, render, kwargs in jobs:
                image = render(view, game.map, styles, colorblind=colorblind, t=t, **kwargs)
                files.append(discord.File(io.BytesIO(image.png), filename=filename, description=image.alt_text[:1024]))
            return files

        return await asyncio.to_thread(draw)

    # ------------------------------------------------------------------ the channel

    async def board_file(self, table: Table, t: Translator | None = None) -> discord.File:
        """The public board, in the channel's language unless `t` says otherwise (a private copy)."""
        await self._load_names(table)
        t = t or await self.channel_t(table)
        image = await asyncio.to_thread(render_board, table.game.view(None), table.game.map, self.styles(table, t),
                                        colorblind=self.colorblind(table), t=t)
        return discord.File(io.BytesIO(image.png), filename="board.png", description=image.alt_text[:1024])

    async def channel(self, table: Table) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(table.record.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(table.record.channel_id)
            except discord.HTTPException:
                return None
        return channel  # type: ignore[return-value]

    async def post_turn(self, table: Table, summary: str, *, interaction: Interaction | None = None) -> None:
        """The channel message after a turn: what happened, the board, whose turn it is."""
        game = table.game
        channel = await self.channel(table)
        if channel is None:
            return
        if game.is_over():
            await self.post_final(table, summary, channel)
            return
        t = await self.channel_t(table)
        lines = [summary] if summary else ["🎟️ " + t.gettext("Everyone has chosen their tickets.")]
        nxt = game.current
        due = await self.bot.clocks.deadline(table, nxt)
        params = {"player": self.mention(table, nxt, t), "map": t.map_name(game.map)}
        turn = (t.gettext("{player}, your turn ({map}, last round).", **params) if game.last_round
                else t.gettext("{player}, your turn ({map}).", **params))
        lines.append(f"➡️ {turn}" + (f" ⏰ {timestamp(due)}" if due else ""))
        content = "\n".join(line for line in lines if line)[:2000]
        try:
            await channel.send(content, file=await self.board_file(table, t), view=components.turn_view(table.id, game, t=t),
                               allowed_mentions=discord.AllowedMentions(users=True))
        except discord.Forbidden as exc:
            await self._permission_problem(interaction, channel, exc)
        where = channel_mention(table)
        await self.ping(table, nxt, lambda mine: "⏰ " + (
            mine.gettext("It's your turn in the {map} game in {channel} (deadline {when}).",
                         map=mine.map_name(game.map), channel=where, when=timestamp(due)) if due
            else mine.gettext("It's your turn in the {map} game in {channel}.", map=mine.map_name(game.map),
                              channel=where)))

    async def ping(self, table: Table, seat: int, write: Callable[[Translator], str]) -> None:
        """A DM nudge for players who asked for them (`/ttr notify`), outside their quiet hours;
        `write` words it in the player's language."""
        user_id = table.user_of(seat)
        if user_id is None:
            return
        async with self.bot.storage.sessions() as session:
            player = await stored_players.get_player(session=session, user_id=user_id)
        prefs = (player.preferences if player else {}) or {}
        if not prefs.get("notify_dm") or in_quiet_hours(prefs, self.bot.clocks.now()):
            return
        t = await self.seat_t(table, seat)
        await self.dm(table, seat, write(t), t=t)

    async def remind(self, table: Table, seat: int, due) -> None:
        if due is None:
            return
        channel = await self.channel(table)
        if channel is not None:
            t = await self.channel_t(table)
            text = t.gettext("{player}, your turn ends {when}.", player=self.mention(table, seat, t), when=timestamp(due))
            await channel.send(f"⏳ {text}", allowed_mentions=discord.AllowedMentions(users=True))
        await self.ping(table, seat, lambda mine: "⏳ " + mine.gettext(
            "Your turn in the {map} game in {channel} ends {when}.", map=mine.map_name(table.game.map),
            channel=channel_mention(table), when=timestamp(due)))

    async def post_final(self, table: Table, summary: str, channel) -> None:
        game = table.game
        t = await self.channel_t(table)
        embed = discord.Embed(title="🏁 " + t.gettext("Game over — {map}", map=t.map_name(game.map)), color=0xE0A100)
        for title, body in final_fields(t, game, lambda s: self.name(table, s, t)):
            embed.add_field(name=title[:256], value=body, inline=False)
        content = (summary + "\n" if summary else "") + t.gettext("All tickets are revealed below.")
        image = await asyncio.to_thread(render_final, game.view(None), game.map, self.styles(table, t),
                                        colorblind=self.colorblind(table), t=t)
        file = discord.File(io.BytesIO(image.png), filename="final.png", description=image.alt_text[:1024])
        await channel.send(content[:2000], embed=embed, file=file, view=components.final_view(table.id, t=t))
        # Listeners (`on_game_finished(table)`, e.g. league ratings) run after the final message.
        self.bot.dispatch("game_finished", table)

    async def _permission_problem(self, interaction: Interaction | None, channel, exc: discord.Forbidden) -> None:
        if interaction is not None:
            t = await self.bot.languages.for_interaction(interaction)
            perms = interaction.app_permissions
            labels = {"send_messages": t.pgettext("permission", "Send Messages"),
                      "attach_files": t.pgettext("permission", "Attach Files")}
            missing = [label for flag, label in labels.items() if not getattr(perms, flag)] or list(labels.values())
            await interaction.followup.send("⚠️ " + t.gettext(
                "Your move is saved, but I can't post the board in {channel}: I need the **{permissions}** permission "
                "there. Ask a server admin to grant it.", channel=channel.mention, permissions=t.join(missing)),
                ephemeral=True)
        log.warning("cannot post in channel", extra={"channel_id": getattr(channel, "id", None), "error": str(exc)})

    # ------------------------------------------------------------------ private information

    async def dm(self, table: Table, seat: int, content: str, *, t: Translator, view: discord.ui.View | None = None,
                 files: list[discord.File] | None = None) -> bool:
        """Send a DM to the seat's player (`content` and `view` in their language `t`); if DMs are
        closed, say so once in the channel (nothing private)."""
        user_id = table.user_of(seat)
        if user_id is None or user_id in self._dm_closed:
            return False
        header = t.gettext("**{map} game in {channel}**", map=t.map_name(table.game.map),
                           channel=channel_mention(table))
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(f"{header}\n{content}"[:2000],
                            view=view or discord.utils.MISSING, files=files or discord.utils.MISSING)
            return True
        except discord.Forbidden:
            self._dm_closed.add(user_id)
            channel = await self.channel(table)
            if channel is not None:
                ct = await self.channel_t(table)
                await channel.send(ct.gettext(
                    "{player}, I can't send you direct messages. Your cards and tickets stay private: press "
                    "**{button}** on the newest turn message to see them and choose.",
                    player=self.mention(table, seat, ct), button=ct.pgettext("button", "My hand")),
                    allowed_mentions=discord.AllowedMentions(users=True))
            return False
        except discord.HTTPException:
            log.exception("DM failed", extra={"game_id": table.id, "user_id": user_id})
            return False

    async def show_hand(self, interaction: Interaction, game_id: int) -> None:
        """The 'My hand' button and /ttr hand: the player's private summary and any pending choice."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        t = await self.bot.languages.for_interaction(interaction)
        try:
            table = await self.service.table(game_id)
        except Exception:
            await interaction.followup.send("⚠️ " + t.gettext("That game no longer exists."), ephemeral=True)
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await interaction.followup.send(t.gettext("You are not playing in this game."), ephemeral=True)
            return
        await self._load_names(table)
        game = table.game
        if game.phase == "choosing" and game.offers[seat] or (game.stage == TICKETS and game.current == seat):
            await self._send_ticket_choice(interaction, t, table, seat)
            return
        if game.stage == TUNNEL and game.current == seat:
            await interaction.followup.send(self._tunnel_text(t, table, seat),
                                            view=components.tunnel_view(table.id, game, seat, t=t), ephemeral=True)
            return
        if game.stage in game.hooks.stages and game.current == seat:
            await interaction.followup.send(self._hook_text(t), ephemeral=True,
                                            view=components.hook_choice_view(table.id, game, seat, t=t))
            return
        await interaction.followup.send(private_summary(t, game, seat), ephemeral=True,
                                        files=await self.private_files(table, seat, board=game.phase == "playing",
                                                                       interaction=interaction, t=t))

    async def game_started(self, table: Table) -> None:
        """A new game: the channel gets the board, every player their hand and ticket choice."""
        await self._load_names(table)
        channel = await self.channel(table)
        game = table.game
        if channel is not None:
            t = await self.channel_t(table)
            text = t.gettext(
                "**{map}** game started! Seats: {players}.\nEveryone: choose your starting tickets (I've sent them by "
                "DM; or press **{button}**).", map=t.map_name(game.map),
                players=t.join(self.name(table, s, t) for s in range(game.seats)), button=t.pgettext("button", "My hand"))
            await channel.send(f"🚂 {text}", file=await self.board_file(table, t),
                               view=components.turn_view(table.id, game, t=t))
        for seat in range(game.seats):
            if table.user_of(seat) is None:  # an AI: nobody to write to
                continue
            mine = await self.seat_t(table, seat)
            await self.dm(table, seat, f"{private_summary(mine, game, seat)}\n\n{self._tickets_text(mine, table, seat)}",
                          t=mine, view=components.tickets_view(table.id, game, seat, t=mine),
                          files=await self.private_files(table, seat, offer=True, t=mine))
        self.bot.ai.kick(table)


def channel_mention(table: Table) -> str:
    """The game's channel as Discord markup (shown as a link in DMs)."""
    return f"<#{table.record.channel_id}>"


def in_quiet_hours(prefs: dict, now) -> bool:
    """Quiet hours [start, end) in the player's own UTC offset; they may wrap past midnight."""
    quiet = prefs.get("quiet")
    if not quiet:
        return False
    start, end = quiet
    hour = (now.hour + int(prefs.get("utc_offset", 0))) % 24
    return start <= hour < end if start <= end else hour >= start or hour < end


def new_error_id() -> str:
    return uuid.uuid4().hex[:8]
