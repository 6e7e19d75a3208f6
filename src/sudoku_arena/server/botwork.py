"""A process that only moves bots (``sudoku-arena bots``): bot capacity grows by adding
such processes, on other machines too, beside the ``serve`` processes of a fleet.

It runs an :class:`~sudoku_arena.server.arena.Arena` like ``serve`` does, on the same
database and Redis channel, and takes bot turns through the same leases: ``serve``
processes started with ``--bots-elsewhere`` think for no bot and announce each bot
that is due (``bots_due`` on the fan-out); a bots process loads that game, takes its
lease (one process of the fleet gets it), thinks in its workers and stores the move,
which reaches the players' pages through the fan-out like any other. Games whose bot
nobody took (announcements missed, a bots process that died) are found by the sweep of
orphaned leases every few seconds. Its only HTTP is ``/healthz``, ``/readyz`` and
``/metrics`` on its own port; SIGTERM drains it like a ``serve`` process (its leases
released and announced).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from sudoku_arena.server.app import ServerConfig, build_arena
from sudoku_arena.server.arena import Arena
from sudoku_arena.server.health import add_health


def create_bots_app(config: ServerConfig) -> FastAPI:
    """The bots process: an arena that thinks for bots, and its operations endpoints."""
    cfg = config

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        arena = build_arena(cfg)
        app.state.arena = arena
        await arena.start()
        try:
            yield
        finally:
            await arena.stop()

    app = FastAPI(title="Sudoku Arena bots", lifespan=lifespan, docs_url=None, redoc_url=None)

    def the_arena() -> Arena:
        arena: Arena = app.state.arena
        return arena

    add_health(app, the_arena, cfg.redis_url)
    return app
