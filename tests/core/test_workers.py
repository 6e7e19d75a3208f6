"""Worker processes end with the process that started them, however it ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from procs import HAS_PROC, alive, children
from sudoku_arena.core.errors import WorkerDiedError
from sudoku_arena.core.workers import spawn_pool, unordered

# A parent that starts a pool of two workers, makes both run, says so and waits.
PARENT = """
import multiprocessing, sys, time
from concurrent.futures import ProcessPoolExecutor
from sudoku_arena.core.workers import exit_with_parent

def nap(_):
    time.sleep(0.2)

if __name__ == "__main__":
    ctx = multiprocessing.get_context(sys.argv[1])
    pool = ProcessPoolExecutor(2, mp_context=ctx, initializer=exit_with_parent)
    list(pool.map(nap, range(4)))
    print("ready", flush=True)
    time.sleep(120)
"""


@pytest.mark.skipif(not HAS_PROC, reason="reads /proc (Linux)")
@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_pool_workers_exit_when_their_parent_is_killed(start: str, tmp_path: Path) -> None:
    script = tmp_path / "parent.py"  # a file: spawned workers import the parent's module
    script.write_text(PARENT)
    parent = subprocess.Popen(
        [sys.executable, str(script), start], stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "ready"
        workers = children(parent.pid)
        assert len(workers) >= 2
        os.kill(parent.pid, signal.SIGKILL)  # no shutdown code runs in the parent
        parent.wait(timeout=10)
        deadline = time.time() + 10
        while any(alive(w) for w in workers) and time.time() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if alive(w)], "workers outlived their parent"
    finally:
        parent.kill()
        parent.wait(timeout=10)


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_unordered_yields_every_result_as_it_finishes() -> None:
    jobs = [0.3, 0.0, 0.1, 0.0, 0.2]
    assert sorted(unordered(_nap, jobs, workers=2)) == sorted(jobs)


def test_closing_unordered_early_stops_the_running_jobs_at_once() -> None:
    results = unordered(_nap, [0.0, 600.0, 600.0, 600.0], workers=2)
    assert next(results) == 0.0
    assert len(multiprocessing.active_children()) >= 2  # the long jobs run
    closing = threading.Thread(target=results.close)  # what Ctrl-C in the consumer does
    closing.start()
    closing.join(timeout=60)  # far less than the jobs' 600 s: close did not wait for them
    assert not closing.is_alive(), "closing waited for the running jobs"
    assert multiprocessing.active_children() == []


def _die(code: int) -> int:
    os._exit(code)  # the worker ends without a result, as when it is killed


def test_a_worker_that_dies_ends_the_batch_with_a_clear_error() -> None:
    with pytest.raises(WorkerDiedError, match="worker process died"):
        list(unordered(_die, [3], workers=2))
    assert multiprocessing.active_children() == []


def _niceness() -> int:
    return os.nice(0)


def test_background_pool_workers_run_at_a_lower_priority_than_their_parent() -> None:
    # As the server's analysis pool: its workers yield the cores to serving and bots.
    here = os.nice(0)
    with spawn_pool(1, niceness=7) as low, spawn_pool(1) as normal:
        assert low.submit(_niceness).result(timeout=60) == min(19, here + 7)
        assert normal.submit(_niceness).result(timeout=60) == here
