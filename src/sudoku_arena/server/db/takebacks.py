"""The one write a takeback makes: the game's log cut back, if nothing moved meanwhile."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, select, update

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.engine import ConflictError, Op
from sudoku_arena.server.db.games import actions_table, games_table


class CutRefused(ConflictError):
    """The database says no: the game ended, or a move was stored meanwhile."""


@dataclass(slots=True)
class CutBack(Op):
    """Delete ``game_id``'s log entries from ``keep`` on and store ``clock`` (with the
    sweeper's ``deadline``; ``None``: an untimed game), only if the game is active with
    exactly ``ply`` entries stored.

    The game's row is updated first, which locks it (as an ending does): a move
    committed meanwhile is counted, and a move of another process waits for this
    write and is then refused, since the entry before it is gone (see
    ``AppendActions``)."""

    game_id: str
    ply: int
    keep: int
    clock: JsonDict | None = None
    deadline: float | None = None

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        if not 0 <= self.keep < self.ply:
            raise ValueError(f"keep {self.keep} must be below the ply {self.ply}")
        g, a = games_table, actions_table
        values: JsonDict = {"updated": now}
        if self.clock is not None:
            values |= {"clock": json.dumps(self.clock), "clock_deadline": self.deadline}
        locked = conn.execute(
            update(g).where(g.c.id == self.game_id, g.c.status == "active").values(**values)
        )
        if locked.rowcount != 1:
            raise CutRefused("the game is over: nothing was taken back")
        count = conn.execute(
            select(func.count()).select_from(a).where(a.c.game_id == self.game_id)
        ).scalar()
        if count != self.ply:
            raise CutRefused("a move was made since the takeback was asked; nothing changed")
        conn.execute(delete(a).where(a.c.game_id == self.game_id, a.c.ply >= self.keep))
