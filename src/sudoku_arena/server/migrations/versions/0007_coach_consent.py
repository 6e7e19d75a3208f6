"""The coach between people: each other person's agreement to the creator's coach
(``agreed``, a JSON list of seats) and the seat that declined it (``declined``), which
turns it off for good. Added columns, so old rows read as "nobody has answered yet".

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.add_column("arena_coach", sa.Column("agreed", sa.Text, nullable=False, server_default="[]"))
    op.add_column("arena_coach", sa.Column("declined", sa.Integer, nullable=True))


def downgrade() -> None:
    # batch mode: SQLite drops a column by copying the table
    with op.batch_alter_table("arena_coach") as batch:
        batch.drop_column("declined")
        batch.drop_column("agreed")
