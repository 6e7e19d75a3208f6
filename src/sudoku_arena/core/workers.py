"""Worker processes: they end when the process that started them does, and a batch of
jobs on them stops at once when its consumer stops.

A pool's workers normally stop when the pool is shut down. A parent killed outright
(SIGKILL, the OOM killer, a container stopped hard) runs no shutdown code, and its
workers would then wait for work forever: each holds its own end of the pool's queue, so
it never sees the queue close. Every pool in the project (the server's bots and
analysis, the balance lab, the tournaments, the conformance runner) therefore starts its
workers with :func:`exit_with_parent`.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from functools import partial
from multiprocessing.connection import wait as wait_ready
from types import ModuleType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from sudoku_arena.core.errors import WorkerDiedError

if TYPE_CHECKING:
    from ray import ObjectRef

J = TypeVar("J")
R = TypeVar("R")
P = ParamSpec("P")


def exit_with_parent() -> None:
    """In a worker process: end it as soon as its parent process has ended.

    A pool initializer calls this (or is this); in a process with no parent
    process it does nothing."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait_ready([parent.sentinel])  # ready once the parent has exited
        os._exit(0)  # nothing to save: a worker's results go back to the parent only

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _background_worker(niceness: int) -> None:
    exit_with_parent()
    os.nice(niceness)


def spawn_pool(workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    """``workers`` fresh (spawned) processes that exit with this process, however it
    ends. Spawned, not forked: a server's threads and sockets must not be copied.

    ``niceness`` above 0 lowers the workers' scheduling priority (``os.nice``): work
    nobody waits for (a server's post-game analysis) then takes only the time that
    serving and the bots leave, instead of an equal share of the cores."""
    ctx = multiprocessing.get_context("spawn")
    if niceness > 0:
        return ProcessPoolExecutor(
            max_workers=workers,
            mp_context=ctx,
            initializer=_background_worker,
            initargs=(niceness,),
        )
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=exit_with_parent)


def _batch_worker() -> None:
    # Ctrl-C is the parent's to handle (it keeps what is done and stops the batch).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()


def unordered(fn: Callable[[J], R], jobs: Iterable[J], workers: int) -> Iterator[R]:
    """``fn`` of each job, computed in ``workers`` processes, yielded as each finishes.

    At most two jobs per worker wait at a time, so a long batch holds little memory.
    Closing the iterator early (the consumer stopped: Ctrl-C, an error) cancels the
    jobs not started and stops the running ones at once: their results would be thrown
    away, and a game can run for minutes. A worker that dies (killed, out of memory)
    ends the batch with :class:`WorkerDiedError`; what was yielded before stands.
    """
    todo = list(jobs)[::-1]
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_batch_worker)
    running: set[Future[R]] = set()
    finished = False
    try:
        while todo or running:
            while todo and len(running) < 2 * workers:
                running.add(pool.submit(fn, todo.pop()))
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenExecutor:
                    raise WorkerDiedError(
                        "a worker process died (killed, or out of memory) before its job ended"
                    ) from None
                yield result
        finished = True
    finally:
        if not finished:
            for future in running:
                future.cancel()
            stop_now = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
            if stop_now is not None:
                stop_now()
            else:  # earlier, the executor's processes are only its own attribute
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def require_ray(missing: Callable[[str], Exception]) -> ModuleType:
    """Ray, imported only when asked for; without it ``missing(message)`` is raised, the
    message saying how to install it."""
    try:
        import ray
    except ImportError:
        raise missing(
            "--backend ray needs Ray: pip install 'sudoku-arena[ray]' (or use --backend local)"
        ) from None
    return ray


def _ray(
    workers: int, address: str | None, missing: Callable[[str], Exception]
) -> tuple[ModuleType, bool]:
    """Ray (:func:`require_ray`), connected: to the cluster at ``address``, or to a local
    instance of its own with ``workers`` CPUs; and whether this call started it (then
    its caller stops it)."""
    ray = require_ray(missing)
    started = not ray.is_initialized()
    if started:
        # ray.init makes SIGTERM exit at once; a server's drain (and whatever else this
        # process set for it) must keep the signal, so its handler is put back.
        main = threading.current_thread() is threading.main_thread()
        kept = signal.getsignal(signal.SIGTERM) if main else None
        if address:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        else:
            # "local", not None: with no address Ray joins any instance it finds running
            # on the machine (another user's, or a stale one), and the jobs would wait on
            # workers that never come.
            ray.init(
                address="local",
                num_cpus=workers,
                include_dashboard=False,
                logging_level=logging.ERROR,
                log_to_driver=False,
            )
        if main and kept is not None:
            signal.signal(signal.SIGTERM, kept)
    return ray, started


def ray_unordered(
    fn: Callable[[J], R],
    jobs: Iterable[J],
    workers: int,
    address: str | None,
    missing: Callable[[str], Exception],
) -> Iterator[R]:
    """``fn`` of every job as a Ray task, each result as it finishes: on a local Ray
    instance of its own with ``workers`` CPUs, or on the cluster at ``address``; at most
    two tasks per worker wait at a time. Closing the iterator early cancels the tasks
    still running (and stops the instance it started). Without Ray installed,
    ``missing(message)`` is raised."""
    ray, started = _ray(workers, address, missing)
    remote = ray.remote(fn)
    waiting = list(jobs)[::-1]
    running: list[ObjectRef[R]] = []
    try:
        while waiting or running:
            while waiting and len(running) < 2 * workers:
                running.append(remote.remote(waiting.pop()))
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def _call(job: Callable[[], R]) -> R:
    return job()


class RayExecutor(Executor):
    """An executor whose jobs run as Ray tasks: on a local Ray instance of its own with
    ``workers`` CPUs, or on the cluster at ``address`` (where each job then runs on
    whichever machine has a free CPU). Jobs are picklable callables of importable
    modules, as for a process pool; the cluster's machines need the same package.
    Shutting it down cancels the jobs not finished and stops the instance it started."""

    def __init__(
        self, workers: int, address: str | None, missing: Callable[[str], Exception]
    ) -> None:
        self._ray, self._started = _ray(workers, address, missing)
        self._remote = self._ray.remote(_call)
        self._running: set[ObjectRef[Any]] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        ref: ObjectRef[R] = self._remote.remote(partial(fn, *args, **kwargs))
        future: Future[R] = ref.future()
        with self._lock:
            self._running.add(ref)
        future.add_done_callback(lambda _f: self._forget(ref))
        return future

    def _forget(self, ref: ObjectRef[Any]) -> None:
        with self._lock:
            self._running.discard(ref)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            running = list(self._running)
        if cancel_futures:
            for ref in running:
                self._ray.cancel(ref, force=True)
        elif wait and running:
            self._ray.wait(running, num_returns=len(running))
        if self._started:
            self._ray.shutdown()
            self._started = False
