"""Stopping without dropping anything: SIGTERM drains the process before uvicorn stops it.

On the first SIGTERM (or Ctrl-C) the process:

1. answers ``/readyz`` with 503 (``draining``), so a proxy or load balancer polling it
   sends new players elsewhere, and waits ``delay`` seconds for it to notice;
2. stops listening: a new connection is refused, and the proxy tries another process;
3. drains the arena (:meth:`~sudoku_arena.server.arena.Arena.drain`): no new games or
   bot moves, the actions in flight stored and acknowledged, its bot leases released
   and the fleet told, every socket closed with 1012 so its page reconnects at once;
4. then stops as uvicorn does (the lifespan's end closes the storage and the fan-out).

A second signal stops at once, as uvicorn's own handler does.

Step 3 is :func:`drain_arena` (the arena's ``drain``).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from types import FrameType
from typing import TYPE_CHECKING

import uvicorn
from starlette.applications import Starlette

from sudoku_arena.server.db import leases as leases_db

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena
    from sudoku_arena.server.clients import Client

log = logging.getLogger("sudoku_arena.server")


async def drain_arena(arena: Arena, grace: float = 10.0) -> None:
    """Hand ``arena``'s games to the rest of the fleet before the process stops.

    From now on no new game, socket or bot move starts here (``arena.draining``). Bots
    thinking are stopped (a bot move already being stored is finished and told);
    actions being stored are finished and acknowledged; this process's bot leases are
    released and the fleet told those bots are due, so another process takes them at
    once; then each socket gets what was queued for it and is closed with 1012 (service
    restart), on which pages reconnect at once, to another process. ``grace``: the most
    seconds it waits for the actions and the sockets.
    """
    if arena.draining:
        return
    arena.draining = True
    fanout = arena.fanout
    if fanout is not None:  # the others open these games before their pages come
        for gid in [g for g, group in arena.clients.items() if group]:
            fanout.publish({"kind": "warm", "game": gid})
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    thinking = arena.botplay.cancel()
    await asyncio.gather(*thinking, return_exceptions=True)
    while arena.in_flight and loop.time() < deadline:
        await asyncio.sleep(0.005)
    released: list[str] = []
    if arena.storage.shared:
        try:
            released = await asyncio.to_thread(
                leases_db.release_all, arena.storage.engine, arena.holder
            )
        except Exception as exc:  # the database is away: the leases expire instead
            log.warning("drain: bot leases not released: %s", exc)
    if fanout is not None:
        for gid in released:
            fanout.publish({"kind": "bots_due", "game": gid})
        await fanout.flush()
    clients = [c for group in list(arena.clients.values()) for c in group]
    if clients:
        # Spread over half a second: the pages reconnect at once, and the processes
        # taking them over open their games one herd at a time, not all together.
        spread = min(0.5, grace / 4) / len(clients)
        closing = [
            asyncio.ensure_future(_close_later(c, i * spread)) for i, c in enumerate(clients)
        ]
        await asyncio.wait(closing, timeout=max(0.1, deadline - loop.time()))
    log.info("drained: %d sockets closed, %d bot leases released", len(clients), len(released))


async def _close_later(client: Client, delay: float) -> None:
    """Close ``client`` with 1012 (service restart) after ``delay`` seconds."""
    await asyncio.sleep(delay)
    await client.close(1012)


class DrainingServer(uvicorn.Server):
    """uvicorn's server whose first stop signal drains ``app`` first."""

    def __init__(
        self, config: uvicorn.Config, app: Starlette, *, delay: float = 0.0, grace: float = 10.0
    ) -> None:
        super().__init__(config)
        self.app = app
        self.delay = delay  # seconds between /readyz going 503 and the sockets closing
        self.grace = grace  # the most seconds to wait for moves in flight and sockets
        self._loop: asyncio.AbstractEventLoop | None = None
        self._draining = False
        self._drain: asyncio.Task[None] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().startup(sockets=sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._draining or self._loop is None or not self.started:
            super().handle_exit(sig, frame)  # the second signal, or before start: at once
            if self._draining:
                self.force_exit = True
            return
        self._draining = True
        self._captured_signals.append(sig)  # re-raised at the end, as uvicorn does
        self._loop.call_soon_threadsafe(self._begin)

    def _begin(self) -> None:
        self._drain = asyncio.ensure_future(self.drain())

    async def drain(self) -> None:
        """Steps 1-3 above, then let uvicorn stop."""
        try:
            self.app.state.draining = True
            log.info("draining: /readyz answers 503; closing in %.1f s", self.delay)
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            for server in getattr(self, "servers", []):
                server.close()  # no new connections: the proxy tries another process
            arena = getattr(self.app.state, "arena", None)
            if arena is not None:
                await arena.drain(self.grace)
        except Exception:
            log.exception("draining failed; stopping anyway")
        finally:
            self.should_exit = True
