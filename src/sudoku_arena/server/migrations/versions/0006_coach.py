"""The coach: whether a game's creator turned it on or off, and the hints each seat
asked for (so a game played with hints is told apart in its record).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "arena_coach",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("enabled", sa.Boolean, nullable=True),
        sa.Column("hints", sa.Text, nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    op.drop_table("arena_coach")
