"""Post-game analysis: one row per finished game, claimed through the database.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "arena_analysis",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("simulations", sa.Integer, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("problem", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("arena_analysis")
