"""The analysis table: which finished games are analysed, by whom, and the results.

One row per finished game (``arena_analysis``, migration 0003). A row is ``pending``
until a server process has evaluated every position, then ``done`` with the result, or
``failed`` after :data:`MAX_ATTEMPTS` attempts that raised. A process works on a game
only while it holds the row's lease (``holder`` until ``expires``), taken by one
conditional ``UPDATE``: of several processes asking at once the database lets exactly
one through, and a lease whose holder died expires and passes to the next asker. It
stores its progress with each renewal, so the next holder goes on from there. SQLite
serves one process: a lease there is always that process's own, so a pending row is
claimable at once after a restart.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from sqlalchemy import Column, Connection, Float, Integer, String, Table, Text, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.engine import Op, Storage
from sudoku_arena.server.db.schema import metadata

PENDING, DONE, FAILED = "pending", "done", "failed"
#: Attempts that raised before a game's analysis is given up.
MAX_ATTEMPTS = 3

analysis_table = Table(
    "arena_analysis",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("status", String(16), nullable=False, index=True),  # pending, done, failed
    Column("holder", String(64), nullable=True),  # the process analysing it now
    Column("expires", Float, nullable=False),  # time.time() after which others may
    Column("attempts", Integer, nullable=False),  # claims so far
    Column("simulations", Integer, nullable=True),  # per position
    # JSON: {"values": [[per seat] per position so far], "best": [the search's best
    # move per position, or null]} and, once done, "swings" and "mistakes".
    Column("result", Text, nullable=True),
    Column("problem", Text, nullable=True),  # why it failed
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


@dataclass(slots=True)
class AnalysisRow:
    game_id: str
    status: str
    simulations: int | None
    result: JsonDict
    problem: str | None
    attempts: int


@dataclass(slots=True)
class AskAnalysis(Op):
    """Ask for the analysis of the finished game ``game_id`` (once: a row that exists is
    left as it is). A server writes it through its storage's writer
    (:meth:`~sudoku_arena.server.db.engine.Storage.write`), with the moves committed then."""

    game_id: str

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        values = {
            "game_id": self.game_id,
            "status": PENDING,
            "holder": None,
            "expires": 0.0,
            "attempts": 0,
            "created": now,
            "updated": now,
        }
        insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        conn.execute(insert(analysis_table).values(**values).on_conflict_do_nothing())


class AnalysisStore:
    """Reads and conditional writes of ``arena_analysis`` (blocking: call from a thread)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine
        self.shared = storage.shared

    def enqueue(self, game_id: str) -> None:
        """:class:`AskAnalysis` in a transaction of its own (tools and tests)."""
        with self.engine.begin() as conn:
            AskAnalysis(game_id).apply(conn, time.time(), self.shared)

    def load(self, game_id: str) -> AnalysisRow | None:
        t = analysis_table
        with self.engine.connect() as conn:
            row = conn.execute(select(t).where(t.c.game_id == game_id)).first()
        if row is None:
            return None
        m = row._mapping
        return AnalysisRow(
            m["game_id"],
            m["status"],
            m["simulations"],
            json.loads(m["result"]) if m["result"] else {},
            m["problem"],
            int(m["attempts"]),
        )

    def due(self, limit: int = 8) -> list[str]:
        """Pending games nobody holds a live lease on, the most recently asked first."""
        t = analysis_table
        q = select(t.c.game_id).where(t.c.status == PENDING)
        if self.shared:
            q = q.where(t.c.expires < time.time())
        q = q.order_by(t.c.created.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [r.game_id for r in conn.execute(q)]

    def claim(self, game_id: str, holder: str, seconds: float) -> bool:
        """Take the lease on ``game_id``'s analysis for ``seconds``; ``False`` if it is
        done, failed, or another live holder has it."""
        t = analysis_table
        now = time.time()
        free = or_(t.c.expires < now, t.c.holder.is_(None), t.c.holder == holder)
        q = update(t).where(t.c.game_id == game_id, t.c.status == PENDING)
        if self.shared:
            q = q.where(free)
        with self.engine.begin() as conn:
            got = conn.execute(
                q.values(
                    holder=holder, expires=now + seconds, attempts=t.c.attempts + 1, updated=now
                )
            )
            return got.rowcount == 1

    def progress(
        self,
        game_id: str,
        holder: str,
        seconds: float,
        simulations: int,
        values: list[list[float]],
        best: list[JsonDict | None] | None = None,
    ) -> bool:
        """Store the values (and best moves) so far and renew the lease; ``False`` if
        the lease was lost (then the work is left to the process that has it)."""
        now = time.time()
        kept: JsonDict = {"values": values} if best is None else {"values": values, "best": best}
        result = json.dumps(kept)
        return self._update(
            game_id, holder, expires=now + seconds, simulations=simulations, result=result
        )

    def finish(self, game_id: str, holder: str, simulations: int, result: JsonDict) -> bool:
        """Store the whole analysis (``done``), if ``holder`` still holds the lease."""
        return self._update(
            game_id,
            holder,
            status=DONE,
            holder=None,
            simulations=simulations,
            result=json.dumps(result),
        )

    def fail(self, game_id: str, holder: str, problem: str, retry_in: float) -> None:
        """Give the lease back after an attempt that raised: retried after
        ``retry_in`` seconds, or ``failed`` for good after :data:`MAX_ATTEMPTS`."""
        t = analysis_table
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                update(t)
                .where(t.c.game_id == game_id, t.c.holder == holder, t.c.status == PENDING)
                .values(
                    holder=None,
                    expires=now + retry_in,
                    problem=problem[:2000],
                    updated=now,
                )
            )
            conn.execute(
                update(t)
                .where(
                    t.c.game_id == game_id,
                    t.c.status == PENDING,
                    t.c.attempts >= MAX_ATTEMPTS,
                )
                .values(status=FAILED)
            )

    def _update(self, game_id: str, lessee: str, **values: object) -> bool:
        """Write ``values`` if ``lessee`` holds the lease of a pending analysis."""
        t = analysis_table
        with self.engine.begin() as conn:
            got = conn.execute(
                update(t)
                .where(t.c.game_id == game_id, t.c.holder == lessee, t.c.status == PENDING)
                .values(updated=time.time(), **values)
            )
            return got.rowcount == 1
