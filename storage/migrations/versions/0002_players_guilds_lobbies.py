"""players, per-guild settings, lobbies

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("display_name", sa.String(length=100), nullable=True),
        sa.Column("color_blind", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("preferences", sa.JSON(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_players")),
    )
    op.create_table(
        "guild_settings",
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("default_map", sa.String(length=64), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_guild_settings")),
    )
    op.create_table(
        "lobbies",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("map_id", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("max_seats", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_lobbies_game_id_games"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lobbies")),
    )
    op.create_index(op.f("ix_lobbies_guild_id"), "lobbies", ["guild_id"])
    op.create_index(
        "uq_lobbies_open_channel",
        "lobbies",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_table(
        "lobby_members",
        sa.Column("lobby_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("color", sa.String(length=16), nullable=True),
        sa.Column("joined_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["lobby_id"], ["lobbies.id"], name=op.f("fk_lobby_members_lobby_id_lobbies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("lobby_id", "user_id", name=op.f("pk_lobby_members")),
    )


def downgrade() -> None:
    op.drop_table("lobby_members")
    op.drop_index("uq_lobbies_open_channel", table_name="lobbies")
    op.drop_index(op.f("ix_lobbies_guild_id"), table_name="lobbies")
    op.drop_table("lobbies")
    op.drop_table("guild_settings")
    op.drop_table("players")
