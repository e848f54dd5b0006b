"""Who may do what, and where, and what the bot itself may do in a channel.

The one authorization rule (issue 38): a game, lobby, tournament or league is acted on only from
where it lives — its server, and its channel where it has one (a player's own private messages
count for their game) — and only by who holds the role for it there (a seat, its host, a server
manager, a league admin). Buttons carry ids anyone can forge, so every component is checked here
before its controller runs (`check_component`, from `Guarded.callback`), and every command that
names something by id checks its `Place` with `check_place`. Roles are read from the interaction,
so once the place is right they are the roles of the right server.
"""

from __future__ import annotations

from dataclasses import dataclass

from discord import Interaction

from bot.errors import ButtonNotValid, NoSuchGame, UserError
from i18n import N_, Translator
from storage import GameNotFoundError
from storage import leagues as stored_leagues
from storage import tournaments as stored_tournaments
from storage.models import Lobby

#: The largest id a custom id or an option may name (SQL's BIGINT): anything larger names nothing.
LARGEST_ID = 2**63 - 1


class OtherServer(UserError):
    message = N_("That belongs to another server: nothing was changed.")


class OtherChannel(UserError):
    message = N_("That belongs to another channel: use it there.")


@dataclass(frozen=True)
class Place:
    """Where something lives: its server, and its channel or thread when it has one."""

    guild_id: int
    channel_id: int | None = None


def check_place(interaction: Interaction, place: Place, *, private_ok: bool = False) -> None:
    """Refuses an interaction from anywhere but `place` (`private_ok`: or from the user's private
    messages with the bot, where their game panel lives)."""
    if interaction.guild_id is None:
        if private_ok:
            return
        raise OtherServer()
    if interaction.guild_id != place.guild_id:
        raise OtherServer()
    if place.channel_id is not None and interaction.channel_id != place.channel_id:
        raise OtherChannel()


async def check_component(bot, interaction: Interaction, fields: dict[str, str]) -> None:
    """The rule for a button or select: what its custom id names (a game, a lobby, a tournament,
    a league) must live where it was clicked. A number no stored row could have names nothing."""
    if any(value is not None and value.isdigit() and int(value) > LARGEST_ID for value in fields.values()):
        raise ButtonNotValid()
    if "game" in fields:
        try:
            table = await bot.service.peek(int(fields["game"]))
        except GameNotFoundError:
            raise NoSuchGame() from None
        seated = table.seat_of(interaction.user.id) is not None
        check_place(interaction, Place(table.record.guild_id, table.record.channel_id), private_ok=seated)
        return
    async with bot.storage.sessions() as session:
        if "lobby" in fields:
            lobby = await session.get(Lobby, int(fields["lobby"]))
            place = Place(lobby.guild_id, lobby.channel_id) if lobby else None
        elif "tournament" in fields:
            found = await stored_tournaments.get_tournament(session=session, tournament_id=int(fields["tournament"]))
            place = Place(found.guild_id, found.channel_id) if found else None
        elif "league" in fields:
            league = await stored_leagues.get_league(session=session, league_id=int(fields["league"]))
            place = Place(league.guild_id) if league else None
        else:
            return
    if place is None:
        raise ButtonNotValid()
    check_place(interaction, place)


def is_manager(interaction: Interaction) -> bool:
    """Manage Server (or Administrator): runs any game and the server's settings."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def is_league_admin(interaction: Interaction, league) -> bool:
    """A league's admins: its admin role (`league.admin_role_id`), or Manage Server."""
    if is_manager(interaction):
        return True
    roles = getattr(interaction.user, "roles", None) or []
    return league.admin_role_id is not None and any(r.id == league.admin_role_id for r in roles)


def missing_permissions(t: Translator, interaction: Interaction, *, threads: bool = False) -> list[str]:
    """The permissions the bot lacks in this channel to post turns (and open a thread), named as
    Discord's settings name them in `t`'s language."""
    perms = interaction.app_permissions
    needed = [
        ("send_messages", t.pgettext("permission", "Send Messages")),
        ("attach_files", t.pgettext("permission", "Attach Files")),
        ("embed_links", t.pgettext("permission", "Embed Links")),
    ]  # the final scores are an embed
    if threads:
        needed.append(("create_public_threads", t.pgettext("permission", "Create Public Threads")))
    return [label for flag, label in needed if not getattr(perms, flag)]
