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
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Future, ProcessPoolExecutor, wait
from multiprocessing.connection import wait as wait_ready
from typing import TypeVar

from sudoku_arena.core.errors import WorkerDiedError

J = TypeVar("J")
R = TypeVar("R")


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


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` fresh (spawned) processes that exit with this process, however it
    ends. Spawned, not forked: a server's threads and sockets must not be copied."""
    ctx = multiprocessing.get_context("spawn")
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
    still running (and stops the instance it started). Ray is imported here, only when
    asked for; without it ``missing(message)`` is raised."""
    try:
        import ray
    except ImportError:
        raise missing(
            "--backend ray needs Ray: pip install 'sudoku-arena[ray]' (or use --backend local)"
        ) from None
    started = not ray.is_initialized()
    if started:
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
    remote = ray.remote(fn)
    waiting = list(jobs)[::-1]
    running: list[ray.ObjectRef[R]] = []
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
