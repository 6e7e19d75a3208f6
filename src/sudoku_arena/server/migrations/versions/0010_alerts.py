"""Alerts that it is your turn: the fleet's VAPID key, push subscriptions, alert preferences and
the alerts sent (one row per game, ply and seat: an alert is sent once). New tables
only; games are untouched.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.create_table(
        "arena_vapid",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("private_pem", sa.Text, nullable=False),
        sa.Column("public_key", sa.String(128), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "arena_push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(256), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("endpoint", "owner", name="uq_arena_push_endpoint_owner"),
    )
    op.create_index("ix_arena_push_subscriptions_owner", "arena_push_subscriptions", ["owner"])
    op.create_table(
        "arena_alert_prefs",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "arena_alerts_sent",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("sent_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("arena_alerts_sent")
    op.drop_table("arena_alert_prefs")
    op.drop_index("ix_arena_push_subscriptions_owner", "arena_push_subscriptions")
    op.drop_table("arena_push_subscriptions")
    op.drop_table("arena_vapid")
