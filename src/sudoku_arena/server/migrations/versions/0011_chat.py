"""Chat: ``arena_chat`` (each game's messages, in the players' or the spectators' room,
plain text) and ``arena_chat_mutes`` (per game, the seats each seat mutes). New tables
only: existing games are untouched and start with an empty chat.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    op.create_table(
        "arena_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_arena_chat_game_room", "arena_chat", ["game_id", "room", "id"], unique=False
    )
    op.create_table(
        "arena_chat_mutes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("muted", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("arena_chat_mutes")
    op.drop_index("ix_arena_chat_game_room", table_name="arena_chat")
    op.drop_table("arena_chat")
