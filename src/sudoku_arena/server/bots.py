"""Bots think in worker processes, so a slow search never holds up other games.

The server hands a worker the game (id and parameters), the state as the bot may see
it (already determinised for games with hidden information: the worker never gets the
true state) in the game's JSON dump, the seat, the agent name, a seed and the turn
starts the game has been through (games that can go round in circles, Citadel). The worker
builds the agent with :func:`sudoku_arena.ai.make_agent` and returns the action's
notation. The agent's seed comes from the game's seed, the seat and the ply, so a
restarted server has its bots play exactly as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from functools import lru_cache, partial
from typing import TypeVar

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import JsonDict
from sudoku_arena.core.workers import RayExecutor, spawn_pool
from sudoku_arena.server import metrics

log = logging.getLogger("sudoku_arena.server")

T = TypeVar("T")


@lru_cache(maxsize=64)
def _game(game_id: str, params_json: str) -> AnyGame:
    from sudoku_arena.core.registry import load

    return load(game_id, **json.loads(params_json))


def think(
    game_id: str,
    params_json: str,
    state: JsonDict,
    seat: int,
    agent: str,
    seed: int,
    seen: Sequence[Hashable] = (),
) -> str:
    """Pick the bot's action (runs in a worker); returns its notation. ``seen`` holds the
    turn starts the game went through (``ai.mcts.position_keys``), so that a search bot
    does not steer back to one of them."""
    from sudoku_arena.ai import make_agent

    game = _game(game_id, params_json)
    s = game.load_state(state)
    bot = make_agent(agent, game, seed=seed)
    remember = getattr(bot, "remember", None)
    if seen and remember is not None:
        remember(seen)
    return str(game.format_action(bot.act(game, s, seat)))


def _warm() -> bool:
    import sudoku_arena.ai
    import sudoku_arena.core.registry  # noqa: F401

    return True


def machine_workers() -> int:
    """How many bot workers the machine has room for: the CPUs this process may use
    (its affinity, which a container's CPU set narrows), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # systems without affinity
        return max(1, os.cpu_count() or 1)


#: Where bots think: ``local`` worker processes, or ``ray`` tasks (a cluster's machines).
BACKENDS = ("local", "ray")


class BotSetupError(Exception):
    """The bots cannot think where they were asked to (Ray missing or unreachable)."""


class BotRunner:
    """A pool of bot workers: processes (``workers`` > 0) or threads (``workers`` = 0);
    with ``backend="ray"``, Ray tasks on the cluster at ``address`` (or on a local Ray
    instance with ``workers`` CPUs), so one process can think for as many bots as the
    cluster has cores. The move is the same wherever it is thought: the seed decides."""

    def __init__(
        self, workers: int = 1, backend: str = "local", address: str | None = None
    ) -> None:
        if backend not in BACKENDS:
            raise BotSetupError(f"bot backend {backend!r}: allowed: {', '.join(BACKENDS)}")
        self.workers = workers
        self.backend = backend
        self.address = address
        self._pool: Executor | None = None

    def start(self) -> None:
        if self._pool is not None:
            return
        if self.backend == "ray":
            self._pool = RayExecutor(max(1, self.workers), self.address, BotSetupError)
        elif self.workers > 0:
            self._pool = spawn_pool(self.workers)
            self._pool.submit(_warm)
        else:
            self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="arena-bot")

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def think(
        self,
        game_id: str,
        params: JsonDict,
        state: JsonDict,
        seat: int,
        agent: str,
        seed: int,
        seen: Sequence[Hashable] = (),
    ) -> str:
        self.start()
        pool = self._pool
        assert pool is not None
        loop = asyncio.get_running_loop()
        params_json = json.dumps(params, sort_keys=True)
        job = partial(think, game_id, params_json, state, seat, agent, seed, tuple(seen))
        with metrics.bot_move(game_id):
            return await self._run(loop, pool, job)

    async def _run(
        self, loop: asyncio.AbstractEventLoop, pool: Executor, job: Callable[[], str]
    ) -> str:
        try:
            return await loop.run_in_executor(pool, job)
        except BrokenExecutor:
            # A worker died (killed, out of memory) and took the pool with it: without
            # a new pool every later bot move would fail. The move is asked again once,
            # of the new pool (which another move may have started already).
            if self._pool is pool:
                log.warning("a bot worker died; starting a new pool")
                self.stop()
                self.start()
            assert self._pool is not None
            return await loop.run_in_executor(self._pool, job)

    async def call(self, job: Callable[[], T]) -> T:
        """Run ``job`` (a picklable partial of a module-level function) in a worker:
        other searches made for a seat (the coach's hints) wait there like a bot's
        move, off the server's event loop."""
        self.start()
        assert self._pool is not None
        return await asyncio.get_running_loop().run_in_executor(self._pool, job)
