"""Ratings and matchmaking: players' OpenSkill ratings per game (``arena_ratings``), the
rating after each rated game (``arena_rating_history``, for the graphs), which games are
rated and whether their result is applied (``arena_rated_games``), seeks waiting for
opponents (``arena_seeks``) and challenges to a named player (``arena_challenges``).
New tables only: no game changes.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "arena_ratings",
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_arena_ratings_game_updated", "arena_ratings", ["game", "updated"])
    op.create_table(
        "arena_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("display", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_arena_rating_history_player", "arena_rating_history", ["player", "game", "at"]
    )
    op.create_table(
        "arena_rated_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("seats", sa.Text, nullable=False, server_default="{}"),
        sa.Column("applied", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "arena_seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(80), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("minutes", sa.Float, nullable=True),
        sa.Column("increment", sa.Float, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("pool", sa.String(400), nullable=False),
        sa.Column("rating", sa.Integer, nullable=True),
        sa.Column("low", sa.Integer, nullable=True),
        sa.Column("high", sa.Integer, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("taken_by", sa.String(32), nullable=True),
        sa.Column("taken_at", sa.Float, nullable=True),
    )
    op.create_index("ix_arena_seeks_pool", "arena_seeks", ["status", "pool", "created"])
    op.create_table(
        "arena_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("challenger", sa.String(80), nullable=False),
        sa.Column("challenger_name", sa.String(64), nullable=False),
        sa.Column("opponent", sa.String(80), nullable=False),
        sa.Column("opponent_name", sa.String(64), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_arena_challenges_opponent", "arena_challenges", ["opponent", "status"])


def downgrade() -> None:
    for name in (
        "arena_challenges",
        "arena_seeks",
        "arena_rated_games",
        "arena_rating_history",
        "arena_ratings",
    ):
        op.drop_table(name)
