"""leagues: leagues, seasons, league games and lobbies, ratings and their changes, audit log

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# storage.models.UTCDateTime: timestamptz on PostgreSQL, microseconds since 1970 on SQLite.
TIME = sa.DateTime(timezone=True).with_variant(sa.BigInteger(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("admin_role_id", sa.BigInteger(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_leagues")),
        sa.UniqueConstraint("guild_id", "name", name=op.f("uq_leagues_guild_id_name")),
    )
    op.create_table(
        "league_seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("starts_at", TIME, nullable=False),
        sa.Column("ends_at", TIME, nullable=False),
        sa.Column("maps", sa.JSON(), nullable=False),
        sa.Column("player_counts", sa.JSON(), nullable=False),
        sa.Column("min_games", sa.Integer(), nullable=False),
        sa.Column("carry_over", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.CheckConstraint("status IN ('active', 'closed')", name=op.f("ck_league_seasons_status")),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_league_seasons_league_id_leagues"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_seasons")),
        sa.UniqueConstraint("league_id", "name", name=op.f("uq_league_seasons_league_id_name")),
    )
    op.create_index(
        "uq_league_seasons_active",
        "league_seasons",
        ["league_id"],
        unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_table(
        "league_games",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=True),
        sa.Column("added_at", TIME, nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=True),
        sa.Column("note", sa.String(length=64), nullable=True),
        sa.Column("voided", sa.Boolean(), nullable=False),
        sa.Column("finished_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_league_games_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_games_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_league_games")),
    )
    op.create_index(op.f("ix_league_games_season_id"), "league_games", ["season_id"], unique=False)
    op.create_table(
        "league_lobbies",
        sa.Column("lobby_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=True),
        sa.Column("added_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["lobby_id"], ["lobbies.id"], name=op.f("fk_league_lobbies_lobby_id_lobbies"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_lobbies_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("lobby_id", name=op.f("pk_league_lobbies")),
    )
    op.create_index(op.f("ix_league_lobbies_season_id"), "league_lobbies", ["season_id"], unique=False)
    op.create_table(
        "league_ratings",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_ratings_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("season_id", "scope", "user_id", name=op.f("pk_league_ratings")),
    )
    op.create_table(
        "league_rating_changes",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_league_rating_changes_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_rating_changes_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "scope", "user_id", name=op.f("pk_league_rating_changes")),
    )
    op.create_index(op.f("ix_league_rating_changes_season_id"), "league_rating_changes", ["season_id"], unique=False)
    op.create_table(
        "league_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_league_audit_league_id_leagues"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_audit_season_id_league_seasons"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_audit")),
    )
    op.create_index(op.f("ix_league_audit_league_id"), "league_audit", ["league_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_league_audit_league_id"), table_name="league_audit")
    op.drop_table("league_audit")
    op.drop_index(op.f("ix_league_rating_changes_season_id"), table_name="league_rating_changes")
    op.drop_table("league_rating_changes")
    op.drop_table("league_ratings")
    op.drop_index(op.f("ix_league_lobbies_season_id"), table_name="league_lobbies")
    op.drop_table("league_lobbies")
    op.drop_index(op.f("ix_league_games_season_id"), table_name="league_games")
    op.drop_table("league_games")
    op.drop_index("uq_league_seasons_active", table_name="league_seasons")
    op.drop_table("league_seasons")
    op.drop_table("leagues")
