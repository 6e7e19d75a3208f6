"""Which games stay in memory: the games in play while used, a finished game while
somebody looks at it, and a few recent finished ones for replays. The database has
them all; a game that left memory reopens on its next access (``Arena.get``).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from sudoku_arena.server.live import LiveGame

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena


class Resident:
    """One arena's rules for letting games leave its memory (``arena.games``)."""

    def __init__(self, arena: Arena, keep_finished: int = 64) -> None:
        self.arena = arena
        #: How many finished games nobody looks at are kept, the most recent.
        self.keep_finished = keep_finished
        self._finished: OrderedDict[str, None] = OrderedDict()

    async def evict_idle_loop(self) -> None:
        """:meth:`evict_idle` a few times per ``arena.idle_seconds``, for ever."""
        while True:
            await asyncio.sleep(max(1.0, self.arena.idle_seconds / 4))
            self.evict_idle()

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop games nobody used for ``arena.idle_seconds`` (no client, no bot thinking,
        no action under way); their ids."""
        arena = self.arena
        now = time.monotonic() if now is None else now
        busy = arena.botplay.busy()
        gone = [
            gid
            for gid, lg in arena.games.items()
            if now - lg.last_used >= arena.idle_seconds
            and not arena.clients.get(gid)
            and gid not in busy
            and not lg.lock.locked()
        ]
        for gid in gone:
            del arena.games[gid]
            self._finished.pop(gid, None)
            arena.attendance.forget(gid)
            arena.chat.forget(gid)
        return gone

    def retire(self, lg: LiveGame, over: bool | None = None) -> None:
        """Keep a finished game in memory only while somebody looks at it, and a few
        recent ones for replays (``over``: known already)."""
        arena = self.arena
        if (lg.over if over is None else over) and not arena.clients.get(lg.id):
            self._finished.pop(lg.id, None)
            self._finished[lg.id] = None
            while len(self._finished) > self.keep_finished:
                old, _ = self._finished.popitem(last=False)
                if not arena.clients.get(old):
                    arena.games.pop(old, None)
                    arena.attendance.forget(old)
                    arena.chat.forget(old)
