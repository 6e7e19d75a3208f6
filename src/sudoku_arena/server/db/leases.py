"""Bot leases: which server process thinks for a game's bots (``arena_bot_leases``).

Exactly one process of a fleet thinks for a game's bots: the holder of its lease. A
process that dies stops renewing it, and another takes the game over once it expires
(:func:`orphaned_bot_games`). SQLite serves one process, whose lease is always granted.
"""

from __future__ import annotations

import time

from sqlalchemy import Column, Engine, Float, Integer, String, Table, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from sudoku_arena.server.db.engine import is_shared
from sudoku_arena.server.db.games import games_table
from sudoku_arena.server.db.schema import metadata

leases_table = Table(
    "arena_bot_leases",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("holder", String(64), nullable=False),  # the server process thinking
    Column("ply", Integer, nullable=False),  # the position it thinks on
    Column("expires", Float, nullable=False),  # time.time() after which others may
)


def take_lease(engine: Engine, game_id: str, holder: str, seconds: float, ply: int) -> bool:
    """Let ``holder`` think for the bots of ``game_id`` at ``ply`` for ``seconds``;
    ``False`` while another live holder thinks on that position.

    PostgreSQL decides across processes: the lease row is locked with ``FOR UPDATE
    SKIP LOCKED``, so of two processes asking at once one gets it and the other is
    told no at once. A lease passes to the asker when it expired (its holder died)
    or was taken for an earlier ply (that position is gone, so its holder's move
    would be refused as stale anyway).
    """
    if not is_shared(engine):
        return True
    now = time.time()
    t = leases_table
    with engine.begin() as conn:
        conn.execute(
            pg_insert(t)
            .values(game_id=game_id, holder=holder, ply=ply, expires=now + seconds)
            .on_conflict_do_nothing(index_elements=["game_id"])
        )
        row = conn.execute(
            select(t.c.holder, t.c.ply, t.c.expires)
            .where(t.c.game_id == game_id)
            .with_for_update(skip_locked=True)
        ).first()
        if row is None:
            return False  # another process is deciding right now
        if row.holder != holder and row.expires > now and row.ply >= ply:
            return False
        conn.execute(
            update(t)
            .where(t.c.game_id == game_id)
            .values(holder=holder, ply=ply, expires=now + seconds)
        )
        return True


def release_lease(engine: Engine, game_id: str, holder: str) -> None:
    """Give up ``holder``'s lease on ``game_id`` (no bot is due there)."""
    if not is_shared(engine):
        return
    t = leases_table
    with engine.begin() as conn:
        conn.execute(t.delete().where(t.c.game_id == game_id, t.c.holder == holder))


def release_all(engine: Engine, holder: str) -> list[str]:
    """Give up every lease ``holder`` has (it is shutting down); the games' ids."""
    if not is_shared(engine):
        return []
    t = leases_table
    with engine.begin() as conn:
        rows = conn.execute(t.delete().where(t.c.holder == holder).returning(t.c.game_id))
        return [r.game_id for r in rows]


def orphaned_bot_games(engine: Engine, limit: int = 50) -> list[str]:
    """Active games whose bot is due and whose lease is missing or expired (their
    thinker died, or nobody holds them): another process should take them over."""
    now = time.time()
    g, t = games_table, leases_table
    q = (
        select(g.c.id)
        .select_from(g.outerjoin(t, t.c.game_id == g.c.id))
        .where(
            g.c.status == "active",
            g.c.bot_to_move.is_(True),
            or_(t.c.game_id.is_(None), t.c.expires < now),
        )
        .order_by(g.c.updated)
        .limit(limit)
    )
    with engine.connect() as conn:
        return [r.id for r in conn.execute(q)]
