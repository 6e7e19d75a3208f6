"""Rematches: the next game between the same people, created once on first request.

Of several requests (on several processes) the database lets one create it
(:class:`~sudoku_arena.server.db.games.CreateRematch`); everybody else is given that one.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from sudoku_arena.server.db.engine import RematchTaken
from sudoku_arena.server.live import ActionRefused, LiveGame

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena


class Rematches:
    """The rematches of one arena's games."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self._lock = asyncio.Lock()

    async def rematch(self, lg: LiveGame) -> LiveGame:
        """The rematch of a finished game, created on first request.

        Same game and options (generated ones such as the grid drawn anew); everybody
        moves one seat on, so the first player changes; each person keeps his token.
        """
        from sudoku_arena.server.arena import SeatSpec  # arena.py imports this module

        arena = self.arena
        if not lg.over:
            raise ActionRefused("not_over", "a rematch can start once the game is over")
        arena.refuse_if_draining()
        async with self._lock:
            if lg.rematch is not None:
                existing = await arena.get(lg.rematch)
                if existing is not None:
                    return existing
            n = lg.num_players
            order = [lg.seats[(j - 1) % n] for j in range(n)]
            generated = {p.name for p in lg.spec.params if p.generate is not None}
            params = {k: v for k, v in lg.row.params.items() if k not in generated}
            try:
                new, _ = await arena.create(
                    lg.spec.id,
                    params,
                    [SeatSpec(s.kind, s.agent, s.name) for s in order],
                    mode=lg.row.mode,
                    rematch_of=lg.id,
                    token_hashes=[s.token_hash for s in order],
                    time_control=None if lg.clock is None else lg.clock.control,
                    visibility=lg.row.visibility,
                    claims=[s.claimed_by for s in order],
                )
            except RematchTaken as taken:  # another process was first: that one it is
                lg.rematch = taken.rematch
                found = await arena.get(taken.rematch)
                if found is None:
                    raise ActionRefused("unavailable", "the rematch could not be found") from None
                self.announce(lg)
                return found
            lg.rematch = new.id
        if arena.fanout is not None:
            arena.fanout.publish({"kind": "rematch", "game": lg.id, "rematch": new.id})
        self.announce(lg)
        return new

    def announce(self, lg: LiveGame) -> None:
        """Tell ``lg``'s connections the id of its rematch."""
        msg = json.dumps({"type": "rematch", "game_id": lg.id, "rematch": lg.rematch})
        for c in self.arena.clients.get(lg.id, ()):
            c.push(msg)
