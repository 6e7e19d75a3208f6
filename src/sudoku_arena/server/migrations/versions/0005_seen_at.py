"""Presence: when a device holding each seat was last connected (claiming the win over
a player who left is checked against it by every process).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("arena_seats") as batch:
        batch.add_column(sa.Column("seen_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("arena_seats") as batch:
        batch.drop_column("seen_at")
