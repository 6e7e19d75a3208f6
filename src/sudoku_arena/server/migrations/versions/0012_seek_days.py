"""Correspondence games from Play now: ``arena_seeks.days`` (a seek's days per move; NULL
for a chess clock or none). Existing seeks and games are untouched.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.add_column("arena_seeks", sa.Column("days", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("arena_seeks") as batch:
        batch.drop_column("days")
