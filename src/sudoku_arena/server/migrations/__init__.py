"""The games database's schema as Alembic migrations, applied by :func:`upgrade`.

``serve`` (through :class:`~sudoku_arena.server.db.engine.Storage`) upgrades the database
it opens to the newest revision before it starts. A database made before migrations
existed (tables but no ``alembic_version``) is recognised as revision ``0001`` and
upgraded from there. On PostgreSQL an advisory lock makes processes starting together
upgrade one at a time.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, inspect, text

HERE = Path(__file__).resolve().parent
#: The revision of a database made before migrations existed.
PRE_MIGRATION_REVISION = "0001"
_LOCK = 0x5D0C_A2E7  # pg_advisory_lock key of the upgrade


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = conn
    return cfg


def current(engine: Engine) -> str | None:
    """The database's revision (``None`` for an empty or pre-migration database)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database at ``engine`` to the newest revision."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK})
        cfg = _config(conn)
        have = set(inspect(conn).get_table_names())
        if "arena_games" in have and "alembic_version" not in have:
            command.stamp(cfg, PRE_MIGRATION_REVISION)
        command.upgrade(cfg, "head")
