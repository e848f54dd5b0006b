"""Plays whole games through Discord interactions only, as the players would.

The driver decides what each player does by looking at the game like that player could (their
own hand and tickets, the public board: it reads the bot's engine state for convenience), and
then does it the Discord way: a slash command, a button on the turn message or on a private
reply, a select in a DM (or in an ephemeral reply for a player whose DMs are closed).
"""

from __future__ import annotations

import random
import re

from bot.components import encode_choice
from engine import (
    BuildStation,
    Claim,
    DeclineTunnel,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Game,
    KeepTickets,
    NeutralClaim,
    Pass,
    PayTunnel,
)
from engine.actions import Move


class Driver:
    def __init__(self, fake, bot, channel, users, seed: int = 0) -> None:
        self.fake, self.bot, self.channel, self.users = fake, bot, channel, users
        self.rng = random.Random(seed)
        self.game_id: int | None = None
        self.last_private: dict[int, object] = {}  # user id -> newest private message with components
        self.taps = 0  # buttons tapped and selects picked so far

    async def run(self, user, command: str, **options):
        reply = await self.fake.slash(user, self.channel, command, **options)
        if reply.kind == "deferred":
            await reply.wait_resolved()
        return reply

    async def start_game(self, map_id: str, **options) -> None:
        host, *others = self.users
        await self.run(host, "ttr-host new", map=map_id, players=len(self.users), **options)
        for user in others:
            await self.run(user, "ttr join")
        await self.run(host, "ttr-host start")
        table = await self.bot.service.table_in_channel(self.channel.id)
        self.game_id = table.id

    @property
    def game(self) -> Game:
        return self.bot.service._tables[self.game_id].game

    def user_of(self, seat: int):
        table = self.bot.service._tables[self.game_id]
        user_id = table.user_of(seat)
        return next(u for u in self.users if u.id == user_id)

    def _newest_with(self, messages, pattern: str):
        for message in reversed(messages):
            if any(re.fullmatch(pattern, cid) for cid in message.custom_ids):
                return message
        return None

    async def _private_message_with(self, user, pattern: str):
        """The newest DM (or, with DMs closed, ephemeral reply) carrying a matching component."""
        found = self._newest_with(self.fake.dms(user), pattern)
        eph = self._newest_with(self.fake.ephemeral(user), pattern)
        if eph is not None and (found is None or eph.id > found.id):
            found = eph
        if found is None:  # ask for it like a player would: the My hand button
            turn = self._newest_with(self.fake.channel_messages(self.channel), rf"ttr:{self.game_id}:hand")
            reply = await self.fake.click(user, turn, f"ttr:{self.game_id}:hand")
            await reply.wait_resolved()
            found = self._newest_with(self.fake.ephemeral(user), pattern)
        assert found is not None, f"no message with {pattern} for {user.name}"
        return found

    def choose(self, seat: int):
        """A random legal action, claims favored so games end in a sensible number of turns."""
        actions = self.game.legal_actions(seat, collapse_payments=True)
        moves = [a for a in actions if isinstance(a, Move)]
        if moves and self.rng.random() < 0.5:  # Märklin: passengers travel
            return self.rng.choice(moves)
        claims = [a for a in actions if isinstance(a, Claim)]
        if claims and self.rng.random() < 0.6:
            return self.rng.choice(claims)
        draws = [a for a in actions if isinstance(a, (DrawDeck, DrawMarket))]
        if draws and self.rng.random() < 0.85:
            return self.rng.choice(draws)
        return self.rng.choice(actions)

    async def tap(self, user, message, custom_id: str, values: list[str] | None = None):
        """Tap a button (or pick `values` in a select) and wait for the bot's whole answer: a new
        private message, or the edit of the panel the tap was on."""

        def panels() -> int:  # edits of the user's private messages so far
            return sum(len(m.history) for m in self.fake.ephemeral(user))

        edits = panels()
        if values is None:
            reply = await self.fake.click(user, message, custom_id)
        else:
            reply = await self.fake.select(user, message, custom_id, values)
        self.taps += 1
        if reply.kind == "deferred":
            await reply.wait_resolved()
        elif reply.kind == "deferred_update":  # the answer edits a panel (this one, or the turn's), or is a new one
            await self.fake.wait_until(
                lambda: panels() > edits or any(m.ephemeral for m in reply.followups), what=f"the answer to {custom_id}"
            )
        return reply

    async def _tap_move(self, user, what: str):
        """Tap a turn's move button (Claim, Tickets, Station) on the table or on the player's
        panel, as a player would pick either; returns the interaction."""
        pattern = rf"ttr:{self.game_id}:{self.game.turn_token(self.game.current)}:{what}"
        table = self._newest_with(self.fake.channel_messages(self.channel), pattern)
        panel = self._newest_with(self.fake.ephemeral(user), pattern)
        message = panel if panel is not None and (table is None or self.rng.random() < 0.5) else table
        assert message is not None, f"no {what} button for {user.name}"
        custom_id = next(c for c in message.custom_ids if re.fullmatch(pattern, c))
        return await self.tap(user, message, custom_id)

    @staticmethod
    def _answer(reply):
        """The private message an interaction answered with: the message it edited in place, or
        its newest private follow-up (a tap's public follow-up is the turn's table)."""
        return next((m for m in reversed(reply.followups) if m.ephemeral), reply.message)

    async def _pick(self, user, reply, what: str, value: str):
        """Pick `value` in a menu (routes or cities), paging with More until it is shown."""
        gid, turn = self.game_id, self.game.turn_token(self.game.current)
        message = self._answer(reply)
        select_id = f"ttr:{gid}:{turn}:{'route' if what == 'routes' else 'city'}"
        for page in range(1, 20):
            shown = [o["value"] for o in (message.component(select_id) or {}).get("options", [])]
            if value in shown:
                return await self.tap(user, message, select_id, [value])
            reply = await self.tap(user, message, f"ttr:{gid}:{turn}:{what}:{page}")
            message = self._answer(reply)
        raise AssertionError(f"{value} is in no page of the {what} menu")

    async def _pay(self, user, reply, action):
        """The payment step, when the menu asked how to pay."""
        wanted = f"ttr:{self.game_id}:{self.game.decision_token(self.game.current)}:do:{encode_choice(action)}"
        message = self._answer(reply)
        if message is not None and wanted in message.custom_ids:
            reply = await self.tap(user, message, wanted)
        return reply

    async def _passenger_end(self, user, reply, action):
        """Märklin, after the route: the passenger's end city, or none, when the bot asks."""
        wanted = (
            f"ttr:{self.game_id}:{self.game.turn_token(self.game.current)}:end:{action.track}:{action.passenger or ''}"
        )
        message = self._answer(reply)
        if message is not None and wanted in message.custom_ids:
            reply = await self.tap(user, message, wanted)
        return reply

    async def act(self, seat: int, action) -> object:
        """Do `action` for `seat` through Discord's buttons and selects, as a player on a phone
        would (no typing but for Pass); returns the last interaction."""
        user = self.user_of(seat)
        game = self.game
        token = game.decision_token(seat)
        gid = self.game_id
        if isinstance(action, KeepTickets):
            message = await self._private_message_with(user, rf"ttr:{gid}:{token}:keep")
            reply = await self.tap(user, message, f"ttr:{gid}:{token}:keep", [str(i) for i in action.ids])
        elif isinstance(action, (DrawDeck, DrawMarket)):
            slot = "deck" if isinstance(action, DrawDeck) else str(action.slot)
            pattern = rf"ttr:{gid}:{game.turn_token(seat)}:draw:{slot}(:[0-9]+)?"
            table = self._newest_with(self.fake.channel_messages(self.channel), pattern)
            panel = self._newest_with(self.fake.ephemeral(user), pattern) if game.stage is not None else None
            message = panel if panel is not None and self.rng.random() < 0.5 else table
            assert message is not None, f"no draw button {pattern}"
            custom_id = next(c for c in message.custom_ids if re.fullmatch(pattern, c))
            reply = await self.tap(user, message, custom_id)
        elif isinstance(action, Claim):
            reply = await self._tap_move(user, "routes:0")
            reply = await self._pick(user, reply, "routes", action.track)
            reply = await self._passenger_end(user, reply, action)
            reply = await self._pay(user, reply, action)
        elif isinstance(action, DrawTickets) and action.long is not None:  # Märklin: name the mix
            custom_id = f"ttr:{gid}:{token}:mix:{action.long}"
            if game.phase == "choosing":
                message = await self._private_message_with(user, re.escape(custom_id))
            else:
                message = self._answer(await self._tap_move(user, "mixes"))
            reply = await self.tap(user, message, custom_id)
        elif isinstance(action, Move):
            reply = await self._tap_move(user, "passengers")
            turn = game.turn_token(seat)
            message = self._answer(reply)
            if f"ttr:{gid}:{turn}:passenger" in message.custom_ids:  # several passengers: which one
                reply = await self.tap(user, message, f"ttr:{gid}:{turn}:passenger", [action.path[0]])
                message = self._answer(reply)
            reply = await self.tap(user, message, f"ttr:{gid}:{turn}:trip:{action.path[0]}", [action.path[-1]])
        elif isinstance(action, DrawTickets):
            reply = await self._tap_move(user, "tickets")
        elif isinstance(action, BuildStation):
            reply = await self._tap_move(user, "cities:0")
            reply = await self._pick(user, reply, "cities", action.city)
            reply = await self._pay(user, reply, action)
        elif isinstance(action, (PayTunnel, DeclineTunnel)):
            choice = "decline" if isinstance(action, DeclineTunnel) else str(action.locos)
            custom_id = f"ttr:{gid}:{token}:tunnel:{choice}"
            message = await self._private_message_with(user, re.escape(custom_id))
            reply = await self.tap(user, message, custom_id)
        elif isinstance(action, Pass):
            return await self.run(user, "ttr pass")
        elif isinstance(action, NeutralClaim):
            custom_id = f"ttr:{gid}:{token}:do:{encode_choice(action)}"
            message = await self._private_message_with(user, re.escape(custom_id))
            reply = await self.tap(user, message, custom_id)
        else:
            raise AssertionError(f"driver cannot do {action!r}")
        return reply

    async def play_to_end(self, max_plies: int = 2000, on_turn=None) -> None:
        for _ in range(max_plies):
            game = self.game
            if game.is_over():
                return
            seat = game.to_move()[0]
            before = len(game.log)
            action = self.choose(seat)
            await self.act(seat, action)
            assert len(self.game.log) == before + 1, f"the action was not applied: {action!r}"
            if on_turn is not None:
                await on_turn(self)
        raise AssertionError("game did not end")
