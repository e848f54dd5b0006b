"""Players of a bot that runs in another process: they read the game from the database the bot
writes (as a player reads the board), and act only through the fake Discord — slash commands and
the buttons and selects of the bot's replies (`/ttr draw`, `/ttr claim`, `/ttr hand`), so no move
depends on a message a killed bot may never have sent. Used by the kill test and the loop-lag
benchmark; `tests/bot/driver.py` is the in-process counterpart."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass

from engine import Claim, DrawDeck, DrawMarket, DrawTickets, Game, KeepTickets, Pass
from engine.cards import CARD_NAMES
from engine.notation import format_action, route_label
from storage import Storage
from storage.games import LoadedGame, active_game_in_channel, load_game
from tests.fakediscord.layout import walk

#: Answers that say the move was not made (a refusal, an apology that changed nothing, a restart).
NOT_MADE = ("⚠️", "Nothing was changed", "please try again")


@dataclass
class Move:
    """One move interaction: who, at which version, what (engine notation), and its record in the fake."""

    seat: int
    version: int
    text: str
    interaction: object  # tests.fakediscord.state.Interaction
    edits: int = 0  # edits the tapped message had before the tap (a panel's answer is one more)

    @property
    def in_place(self) -> bool:
        """A tap on the player's panel, answered by editing that panel (no "thinking…")."""
        return self.interaction.response_type == 6  # type: ignore[attr-defined]

    @property
    def deferred(self) -> bool:
        return self.interaction.response_type == 5 or self.in_place  # type: ignore[attr-defined]

    @property
    def answer(self) -> str | None:
        """The text that ended "thinking…" (or that updated the panel, or a new private message
        about it), None while it goes on (or if never acknowledged)."""
        interaction = self.interaction
        message = interaction.message  # type: ignore[attr-defined]
        if self.in_place:
            private = self.private_followups
            if private:
                return private[-1].text
            return message.text if len(message.history) > self.edits else None
        return None if message is None or message.loading else message.text

    @property
    def confirmed(self) -> bool:
        """The player was told the move is made."""
        answer = self.answer
        return answer is not None and not any(sign in answer for sign in NOT_MADE)

    @property
    def private_followups(self) -> list:  # type: ignore[type-arg]
        """The interaction's private follow-ups (a public one is the turn's table message)."""
        return [m for m in self.interaction.followups if m.ephemeral]  # type: ignore[attr-defined]

    @property
    def answers(self) -> int:
        """How many answers the player got (a deferred interaction's first follow-up is its original;
        a panel's, its edit)."""
        edited = self.in_place and len(self.interaction.message.history) > self.edits  # type: ignore[attr-defined]
        return len(self.private_followups) + edited


class RemoteTable:
    def __init__(
        self,
        fake,
        storage: Storage,
        channel,
        users,
        seed: int = 0,  # type: ignore[no-untyped-def]
        timeout: float = 10,
    ) -> None:
        self.fake, self.storage, self.channel, self.users = fake, storage, channel, users
        self.rng = random.Random(seed)
        self.timeout = timeout  # how long a move may take to be answered
        self.game_id: int | None = None
        self.moves: list[Move] = []

    async def load(self) -> LoadedGame:
        async with self.storage.sessions() as session:
            if self.game_id is None:
                record = await active_game_in_channel(session=session, channel_id=self.channel.id)
                assert record is not None, "no game in the channel"
                self.game_id = record.id
            return await load_game(session=session, game_id=self.game_id)

    async def _command(self, user, command: str, **options):  # type: ignore[no-untyped-def]
        reply = await self.fake.slash(user, self.channel, command, **options)
        if reply.kind == "deferred":
            await reply.wait_resolved(self.timeout)
        return reply

    async def start_game(self, map_id: str, **options) -> None:  # type: ignore[no-untyped-def]
        host, *others = self.users
        await self._command(host, "ttr-host new", map=map_id, players=len(self.users), **options)
        for user in others:
            await self._command(user, "ttr join")
        await self._command(host, "ttr-host start")
        await self.fake.wait_until(lambda: self._started(), self.timeout, "the game to start")

    def _started(self) -> bool:
        return any(":hand" in cid for m in self.fake.channel_messages(self.channel) for cid in m.custom_ids)

    def choose(self, game: Game, seat: int):  # type: ignore[no-untyped-def]
        """A random legal move the players here know how to make (claims favoured, as the driver)."""
        actions = [
            a
            for a in game.legal_actions(seat, collapse_payments=True)
            if isinstance(a, (KeepTickets, Claim, DrawDeck, DrawMarket, DrawTickets, Pass))
        ]
        claims = [a for a in actions if isinstance(a, Claim)]
        if claims and self.rng.random() < 0.5:
            return self.rng.choice(claims)
        draws = [a for a in actions if isinstance(a, (DrawDeck, DrawMarket))]
        if draws and self.rng.random() < 0.9:
            return self.rng.choice(draws)
        return self.rng.choice(actions)

    async def move(self) -> Move:
        """Make one move for a seat the game waits for; returns once the bot acknowledged it (the
        answer may still be coming: `await settle(move)`). Raises what the fake raises when the bot
        is not there (not acknowledged in time, no connected bot)."""
        loaded = await self.load()
        game, gid = loaded.game, loaded.record.id
        seat = self.rng.choice(game.to_move())
        user_id = next(s.user_id for s in loaded.seats if s.seat == seat)
        user = next(u for u in self.users if u.id == user_id)
        token = game.decision_token(seat)
        action = self.choose(game, seat)
        if isinstance(action, KeepTickets):
            hand = await self._command(user, "ttr hand")
            custom_id = f"ttr:{gid}:{token}:keep"
            offer = await self.fake.wait_until(
                lambda: next((m for m in reversed(hand.followups) if custom_id in m.custom_ids), None),
                self.timeout,
                "the ticket choice",
            )
            interaction = await self.fake.select(user, offer, custom_id, [str(i) for i in action.ids], wait=False)
        elif isinstance(action, (DrawDeck, DrawMarket)):
            buttons = await self._command(user, "ttr draw")
            slot = "deck" if isinstance(action, DrawDeck) else str(action.slot)
            panel = buttons.message
            edits = len(panel.history)
            custom_id = next(c for c in panel.custom_ids if re.fullmatch(rf"ttr:{gid}:[0-9]+:draw:{slot}(:[0-9])?", c))
            interaction = await self.fake.click(user, panel, custom_id, wait=False)
        elif isinstance(action, Claim):
            track = game.map.track_by_id[action.track]
            interaction = await self.fake.slash(
                user,
                self.channel,
                "ttr claim",
                route=route_label(game.map, track),
                color="loco" if action.color is None else CARD_NAMES[action.color],
                locos=action.locos,
                wait=False,
            )
        else:
            command = "ttr tickets" if isinstance(action, DrawTickets) else "ttr pass"
            interaction = await self.fake.slash(user, self.channel, command, wait=False)
        move = Move(
            seat,
            game.version,
            format_action(game, action),
            interaction,
            edits=edits if isinstance(action, (DrawDeck, DrawMarket)) else 0,
        )
        self.moves.append(move)
        await interaction.wait_acknowledged()
        return move

    async def settle(self, move: Move) -> None:
        """Wait for the move's answer (raises a timeout if none comes)."""
        if move.deferred:
            await move.interaction.wait_resolved(self.timeout)  # type: ignore[attr-defined]

    async def stored(self, move: Move, timeout: float | None = None) -> None:
        """Wait until the game is past the move's version (a panel's answer may come before the
        move is saved; a move refused leaves it where it was: TimeoutError)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while (await self.load()).game.version <= move.version:
            if loop.time() > deadline:
                raise TimeoutError(f"{move.text} was not stored")
            await asyncio.sleep(0.05)


def posted_turns(fake, channel, game_id: int, since: int = 0) -> list[int]:  # type: ignore[no-untyped-def]
    """The turn token of each table message of the game in `channel` (after its first `since`
    messages), read from the message as it was posted: a table loses its controls when the next
    one is posted."""
    tokens = []
    for message in fake.channel_messages(channel)[since:]:
        first = message.history[0] if message.history else message.payload()
        for component in walk(first.get("components") or []):
            parts = component.get("custom_id", "").split(":")
            if parts[:2] == ["ttr", str(game_id)] and parts[3:] == ["draw", "deck"]:
                tokens.append(int(parts[2]))
    return tokens
