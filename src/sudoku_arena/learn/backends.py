"""Where self-play runs: local worker processes (the default) or Ray tasks.

The local backend is :func:`sudoku_arena.core.workers.unordered` (workers that end
with this process; Ctrl-C stops them at once). The Ray backend works as the balance
lab's (``sudoku_arena.lab.runner``): a local Ray instance of its own unless an address
names a cluster, at most two tasks per worker waiting at a time. Results come back in
the order they finish; callers must not depend on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from sudoku_arena.core.workers import ray_unordered, unordered
from sudoku_arena.learn.run import LearnError

BACKENDS = ("local", "ray")
J = TypeVar("J")
R = TypeVar("R")


def run_jobs(
    fn: Callable[[J], R], jobs: Sequence[J], workers: int, backend: str, address: str | None
) -> Iterator[R]:
    """``fn`` of every job on ``backend`` (``local`` or ``ray``), each as it finishes."""
    if backend == "ray":
        return _ray(fn, jobs, workers, address)
    return _local(fn, jobs, workers)


def _local(fn: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:  # in this process: no start-up cost for a small run
            yield fn(job)
        return
    yield from unordered(fn, jobs, min(workers, len(jobs)))


def _ray(fn: Callable[[J], R], jobs: Sequence[J], workers: int, address: str | None) -> Iterator[R]:
    return ray_unordered(fn, jobs, workers, address, LearnError)
