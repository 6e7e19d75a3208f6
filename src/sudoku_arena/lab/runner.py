"""Playing a run's games: one record line per game, on local processes or on Ray.

:func:`play` plays one :class:`~sudoku_arena.lab.plan.LabJob` through the match runner
(:class:`~sudoku_arena.core.match.Match`, bots seeded from the match as in
:func:`sudoku_arena.ai.tournament.play_game`, so a job gives the same game here as in a
tournament; a line-up with the exploit panel's ``exploiter`` is seated by
:mod:`~sudoku_arena.lab.best_response`) and returns its line. :func:`run` plays what a
run's folder lacks and appends each line as soon as its game ends; an interruption
(Ctrl-C) keeps every finished game and running again resumes. Results do not depend
on the backend, the number of workers or the order in which games finish: each game
depends only on its job.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sudoku_arena.core.errors import WorkerDiedError
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load
from sudoku_arena.core.workers import ray_unordered, unordered
from sudoku_arena.lab.best_response import seat_agents
from sudoku_arena.lab.plan import LabJob, Plan
from sudoku_arena.lab.store import LabError, appender, open_run, read_lines, repair
from sudoku_arena.lab.trace import trace_of

BACKENDS = ("local", "ray")


def play(lab: LabJob) -> str:
    """Play one game; return its JSON line (record, plus the ``lab`` key)."""
    t0 = time.perf_counter()
    job = lab.job
    k = len(job.players)
    game = load(job.game_id, seed=job.seed, **{**dict(job.params), "players": k})
    names = [job.players[a] for a in job.seats]
    match = Match(game, seed=job.seed, players=names)
    agents = seat_agents(names, game, match)
    match.run(agents)
    data = match.record().to_json()
    data["lab"] = {
        "key": lab.key,
        "section": lab.section,
        "variant": lab.variant,
        "index": job.index,
        "agents": list(job.players),
        "seats": list(job.seats),
        "returns": [float(r) for r in game.returns(match.state)],
        "trace": trace_of(game, match.entries, match.history),
        "seconds": round(time.perf_counter() - t0, 4),
    }
    return json.dumps(data, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class RunResult:
    """What :func:`run` did: games kept from before, played now, and whether it stopped early."""

    kept: int
    played: int
    interrupted: bool
    seconds: float


def pending(folder: Path, plan: Plan) -> tuple[list[LabJob], int]:
    """The jobs of ``plan`` that ``folder`` lacks, and how many it already has."""
    done = {line["lab"]["key"] for line in read_lines(folder)}
    todo = [j for j in plan.jobs() if j.key not in done]
    return todo, len(done)


def run(
    folder: Path,
    plan: Plan,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
) -> RunResult:
    """Play every game of ``plan`` that ``folder`` lacks; append each as it ends.

    ``on_start(kept, todo)`` is called once the folder is read, ``on_game()`` after each
    game is stored. Ctrl-C stops the run with every finished game kept (the result
    says it was interrupted).
    """
    if backend not in BACKENDS:
        raise LabError(f"--backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    plan = open_run(folder, plan)
    repair(folder)
    todo, kept = pending(folder, plan)
    if on_start is not None:
        on_start(kept, len(todo))
    workers = workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    played = 0
    lines = _ray(todo, workers, address) if backend == "ray" else _local(todo, workers)
    try:
        with appender(folder) as fh:
            for line in lines:
                fh.write(line + "\n")
                fh.flush()
                played += 1
                if on_game is not None:
                    on_game()
    except KeyboardInterrupt:
        return RunResult(kept, played, True, time.perf_counter() - t0)
    except WorkerDiedError as exc:
        raise LabError(
            f"{exc}: {kept + played} games kept in {folder}; run the same command again "
            "to play the rest"
        ) from None
    finally:
        close = getattr(lines, "close", None)
        if close is not None:
            close()
    return RunResult(kept, played, False, time.perf_counter() - t0)


def _local(todo: list[LabJob], workers: int) -> Iterator[str]:
    if workers <= 1 or len(todo) <= 1:
        for job in todo:
            yield play(job)
        return
    yield from unordered(play, todo, min(workers, len(todo)))


def _ray(todo: list[LabJob], workers: int, address: str | None) -> Iterator[str]:
    """The games played as Ray tasks (see :func:`~sudoku_arena.core.workers.ray_unordered`)."""
    return ray_unordered(play, todo, workers, address, LabError)
