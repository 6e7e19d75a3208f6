"""Committed chance (secret, client seeds), lazy start (bot_to_move), quarantine
(problem), and bot leases.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("arena_games") as batch:
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("client_seeds", sa.Text, nullable=True))
        batch.add_column(sa.Column("bot_to_move", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("problem", sa.Text, nullable=True))
    op.create_table(
        "arena_bot_leases",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("arena_bot_leases")
    with op.batch_alter_table("arena_games") as batch:
        for name in ("problem", "bot_to_move", "client_seeds", "secret"):
            batch.drop_column(name)
