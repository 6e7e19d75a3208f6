"""The one SQLAlchemy ``MetaData`` every table of the games database belongs to.

Each aggregate module of :mod:`sudoku_arena.server.db` declares its own tables on it;
the schema itself changes only through Alembic migrations (``server/migrations``).
"""

from __future__ import annotations

from sqlalchemy import MetaData

metadata = MetaData()
