"""Clocks (time control and clock state), listing (public or private, the host seat),
and seat claims (which device holds each seat).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    with op.batch_alter_table("arena_games") as batch:
        batch.add_column(
            sa.Column("visibility", sa.String(16), nullable=False, server_default="private")
        )
        batch.add_column(sa.Column("host_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock", sa.Text, nullable=True))
        batch.add_column(sa.Column("clock_deadline", sa.Float, nullable=True))
    # Games on one screen were listed before and stay listed; invite games become private.
    op.execute("UPDATE arena_games SET visibility = 'public' WHERE mode = 'hotseat'")
    op.create_index("ix_arena_games_clock_deadline", "arena_games", ["clock_deadline"])
    op.create_index("ix_arena_games_listing", "arena_games", ["visibility", "status", "created"])
    with op.batch_alter_table("arena_seats") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(64), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("arena_seats") as batch:
        for name in ("claimed_at", "claimed_by"):
            batch.drop_column(name)
    op.drop_index("ix_arena_games_listing", "arena_games")
    op.drop_index("ix_arena_games_clock_deadline", "arena_games")
    with op.batch_alter_table("arena_games") as batch:
        for name in ("clock_deadline", "clock", "host_seat", "visibility"):
            batch.drop_column(name)
