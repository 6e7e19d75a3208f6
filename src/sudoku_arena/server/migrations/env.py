"""Alembic's entry point: runs migrations on the connection handed over by
:func:`sudoku_arena.server.migrations.upgrade` (never from a URL of its own)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
