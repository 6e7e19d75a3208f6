"""Accounts: ``arena_accounts`` (user names and argon2id password hashes),
``arena_web_sessions`` (signed-in browsers, keyed by the SHA-256 of the cookie's
secret, each with its CSRF token) and ``arena_account_seats`` (which account holds
which seat). New tables only: existing games are untouched and stay guests' games.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.create_table(
        "arena_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "arena_web_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_arena_web_sessions_account_id", "arena_web_sessions", ["account_id"], unique=False
    )
    op.create_index(
        "ix_arena_web_sessions_expires", "arena_web_sessions", ["expires"], unique=False
    )
    op.create_table(
        "arena_account_seats",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
    )
    op.create_index(
        "ix_arena_account_seats_account", "arena_account_seats", ["account_id"], unique=False
    )


def downgrade() -> None:
    op.drop_table("arena_account_seats")
    op.drop_table("arena_web_sessions")
    op.drop_table("arena_accounts")
