"""Who may do what, and what the bot itself may do in a channel."""

from __future__ import annotations

from discord import Interaction

from i18n import Translator


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
