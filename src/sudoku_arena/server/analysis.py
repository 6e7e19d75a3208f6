"""Post-game analysis in the background: every position of a finished game evaluated
by the search, stored, and served as win chances per seat with the largest swings.

When a game ends, the process that stored the ending asks for its analysis
(:meth:`Analyser.finished`: a ``pending`` row, see :mod:`.analysis_store`); a request
for the analysis of a finished game that has none asks too (games that ended before
this existed, or whose process died in between). Every server process runs one
:class:`Analyser` loop: it claims a pending game through the database, evaluates its
positions a chunk at a time in a worker (a process of its own, apart from the bots',
so analysis never delays a bot's move or a request), stores the progress with each
renewal of its lease, and finally the result. Nothing is computed on a request's path,
and a game that is not over is never analysed, so no analysis can tell the future.

Each position is evaluated by :func:`sudoku_arena.ai.analysis.position_values` from
the finished game's *revealed* record: the true position at that ply, hands included
(public once the game is over), with later chance drawn afresh by the search, never
taken from what chance actually brought. The search's seed for position ``i`` comes
from the game's chance secret and id (``ChanceSource.bot_seed`` with purpose
``analysis``), so every process computes the same numbers, and a takeover after a
crash continues where the stored progress ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor

from sudoku_arena.ai.analysis import position_values, simulations_for, swings
from sudoku_arena.ai.coach import best_move, coach_simulations, mistakes
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.core.workers import spawn_pool
from sudoku_arena.server.analysis_store import AnalysisRow, AnalysisStore, AskAnalysis
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import GameRow, load_game

log = logging.getLogger("sudoku_arena.server")

#: The analysis workers' ``os.nice`` increment: background work, behind everything else.
ANALYSIS_NICENESS = 10

Evaluate = Callable[
    [GameRow, int, int, int | None], tuple[int, list[list[float]], list[JsonDict | None]]
]

# -- in the worker ---------------------------------------------------------------------------

_last: dict[tuple[str, int], tuple[AnyGame, Sequence[object], Callable[[int], int]]] = {}


def _replayed(row: GameRow) -> tuple[AnyGame, Sequence[object], Callable[[int], int]]:
    """The game, its positions and the analysis seed of each (the last game is kept:
    its chunks come one after another)."""
    key = (row.id, len(row.actions))
    found = _last.get(key)
    if found is None:
        from sudoku_arena.server.live import LiveGame

        lg = LiveGame(row)
        chance = lg.match.chance
        found = (lg.game, list(lg.states), lambda i: chance.bot_seed(0, i, "analysis"))
        _last.clear()
        _last[key] = found
    return found


def evaluate_positions(
    row: GameRow, start: int, stop: int, simulations: int | None
) -> tuple[int, list[list[float]], list[JsonDict | None]]:
    """Positions ``start`` to ``stop - 1`` of the finished game ``row``: the
    simulations used per position, each position's value per seat, and at each
    decision of one seat with a choice the search's best move there (searched from
    that seat's view, as a hint is: the coach shows it beside a mistake)."""
    game, states, seed_of = _replayed(row)
    n = simulations or simulations_for(game)
    out = [
        [round(v, 4) for v in position_values(game, states[i], n, seed_of(i))]
        for i in range(start, stop)
    ]
    best: list[JsonDict | None] = []
    for i in range(start, stop):
        found = best_move(game, states[i], simulations or coach_simulations(game), seed_of(i) + 1)
        best.append(
            None
            if found is None
            else {"action": str(game.format_action(found.action)), "chance": found.chance}
        )
    return n, out, best


def _warm() -> bool:
    import sudoku_arena.ai.analysis
    import sudoku_arena.server.live  # noqa: F401

    return True


def mistakes_json(
    values: Sequence[Sequence[float]],
    actions: Sequence[tuple[int, int | None, str]],
    best: Sequence[JsonDict | None],
) -> list[JsonDict]:
    """Each seat's moves that lost it the most win chance, with the better move."""
    return [
        {
            "ply": m.ply,
            "seat": m.seat,
            "action": m.action,
            "before": round(m.before, 4),
            "after": round(m.after, 4),
            "better": m.better,
            "better_chance": m.better_chance,
        }
        for m in mistakes(values, actions, best)
    ]


def swings_json(
    values: Sequence[Sequence[float]], actions: Sequence[tuple[int, int | None, str]]
) -> list[JsonDict]:
    """The largest swings of ``values`` as JSON, with the action that caused each."""
    found = swings(values, [a for _, a, _ in actions])
    return [
        {
            "ply": s.ply,
            "actor": s.actor,
            "action": actions[s.ply - 1][2],
            "seat": s.seat,
            "deltas": [round(d, 4) for d in s.deltas],
        }
        for s in found
    ]


# -- in the server process -------------------------------------------------------------------


class Analyser:
    """This process's analysis loop (see the module docstring).

    ``workers`` > 0 evaluates in a process of its own, 0 in a thread (tests).
    ``simulations`` per position overrides the game's default
    (:func:`~sudoku_arena.ai.analysis.simulations_for`).
    """

    def __init__(
        self,
        storage: Storage,
        *,
        workers: int = 1,
        simulations: int | None = None,
        lease_seconds: float = 60.0,
        poll_seconds: float = 5.0,
        chunk: int = 16,
    ) -> None:
        self.storage = storage
        self.store = AnalysisStore(storage)
        self.workers = workers
        self.simulations = simulations
        self.lease_seconds = lease_seconds
        self.poll_seconds = poll_seconds
        self.chunk = chunk
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: What runs in the worker (a module-level function, so processes can run it).
        self.evaluate: Evaluate = evaluate_positions
        self.positions = 0  # positions this process evaluated (stats, tests)
        self._pool: Executor | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._chores: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        if self._task is not None:
            return
        self._pool = self._new_pool()
        self._task = asyncio.create_task(self._run())

    def _new_pool(self) -> Executor:
        if self.workers > 0:
            # Nobody waits for an analysis: under load it runs on what the moves, the
            # requests and the bots leave (at equal priority its worker took a core of
            # two and the server made half the moves of the reference at 500 clients).
            pool = spawn_pool(self.workers, niceness=ANALYSIS_NICENESS)
            pool.submit(_warm)
            return pool
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-analysis")

    async def stop(self) -> None:
        for task in (self._task, *self._chores):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._task = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def finished(self, game_id: str) -> None:
        """``game_id`` is over: ask for its analysis (in the background)."""
        task = asyncio.create_task(self._ask(game_id))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def request(self, game_id: str) -> AnalysisRow | None:
        """The stored analysis of the finished game ``game_id``; asked for if there is
        none yet (then it comes back pending)."""
        row = await asyncio.to_thread(self.store.load, game_id)
        if row is None:
            await self._ask(game_id)
            row = await asyncio.to_thread(self.store.load, game_id)
        return row

    async def _ask(self, game_id: str) -> None:
        try:
            # Through the writer: on SQLite a write of its own would wait for the lock
            # and hold the moves being committed meanwhile.
            await self.storage.write(AskAnalysis(game_id))
        except Exception as exc:  # the database is away: a later request asks again
            log.warning("analysis of %s not queued: %s", game_id, exc)
            return
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                ids = await asyncio.to_thread(self.store.due)
            except Exception as exc:  # the database is away: try again next round
                log.warning("analysis: looking for work failed: %s", exc)
                ids = []
            worked = False
            for gid in ids:
                worked = await self._analyse(gid) or worked
            if not worked:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll_seconds)

    async def _analyse(self, gid: str) -> bool:
        """Analyse ``gid`` if its lease can be had; ``True`` if work was done."""
        store, holder, lease = self.store, self.holder, self.lease_seconds
        if not await asyncio.to_thread(store.claim, gid, holder, lease):
            return False
        try:
            row = await asyncio.to_thread(load_game, self.storage.engine, gid)
            if row is None or row.status != "finished":
                # Only a finished game is analysed: nothing about a future leaks.
                await asyncio.to_thread(store.fail, gid, holder, "not a finished game", 0.0)
                return True
            sims = self.simulations_of(row)
            stored = await asyncio.to_thread(store.load, gid)
            values: list[list[float]] = []
            best: list[JsonDict | None] = []
            if stored is not None and stored.simulations == sims:  # go on from there
                values = [list(v) for v in stored.result.get("values", [])]
                best = list(stored.result.get("best", []))
                if len(best) != len(values):  # stored before best moves were: afresh
                    values, best = [], []
            total = len(row.actions) + 1
            loop = asyncio.get_running_loop()
            while len(values) < total:
                stop = min(total, len(values) + self.chunk)
                sims, chunk, chunk_best = await loop.run_in_executor(
                    self._pool, self.evaluate, row, len(values), stop, self.simulations
                )
                values.extend(chunk)
                best.extend(chunk_best)
                self.positions += len(chunk)
                if not await asyncio.to_thread(
                    store.progress, gid, holder, lease, sims, values, best
                ):
                    return True  # the lease was lost: its new holder goes on
            result: JsonDict = {
                "values": values,
                "swings": swings_json(values, row.actions),
                "best": best,
                "mistakes": mistakes_json(values, row.actions, best),
            }
            await asyncio.to_thread(store.finish, gid, holder, sims, result)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("analysis of game %s failed", gid)
            if isinstance(exc, BrokenExecutor) and self._pool is not None:
                # A worker died (killed, out of memory): the pool is unusable; a new
                # one serves the next attempt.
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            with contextlib.suppress(Exception):
                await asyncio.to_thread(store.fail, gid, holder, f"{type(exc).__name__}", 30.0)
        return True

    def simulations_of(self, row: GameRow) -> int:
        """Simulations per position for the game ``row``."""
        if self.simulations:
            return self.simulations
        return simulations_for(_game(row.game, json.dumps(row.params, sort_keys=True)))


@functools.lru_cache(maxsize=16)
def _game(game_id: str, params_json: str) -> AnyGame:
    return load(game_id, **json.loads(params_json))
