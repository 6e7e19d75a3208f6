"""Running the conformance suite at scale: many games, in worker processes.

The games to check are cut into :class:`Batch` es of consecutive seeds, so that worker
processes (``jobs``) share them out and each reports back after a short while. Every
game is independent (:func:`~sudoku_arena.testing.conformance.check_one`), so where and
in which order a batch runs changes nothing: counts add up, and failures are sorted by
game, player count and seed. A failure names its game, player count and seed, and
:meth:`Failure.command` is the command line that plays that one game again.

Workers ignore Ctrl-C: the parent process receives it, drops the batches not started
and tells the running ones to stop after their current game (:class:`Runner`).
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as EventType
from types import TracebackType

from sudoku_arena.core.workers import exit_with_parent
from sudoku_arena.testing.conformance import (
    DEEP_PLIES,
    ConformanceError,
    ConformanceReport,
    check_one,
    player_counts,
)

#: Runs of fewer than twice this many games per player count give every game every check
#: on its first ``DEEP_PLIES`` plies; larger runs spread the checks (:func:`depth_for`).
FULL_GAMES = 250

#: A depth beyond any game's length: every ply of the game may get every check (the
#: suite gives up on a game that passes 200,000 plies).
WHOLE_GAME = 200_000


def depth_for(games: int) -> tuple[int, int]:
    """``(deep_plies, every)``: how deep a run of ``games`` games per player count is
    checked when the caller does not say (``sudoku-arena check`` without ``--deep-plies``
    or ``--every``).

    Up to ``2 * FULL_GAMES - 1`` games: the first ``DEEP_PLIES`` plies of every game get
    every check (``check_one``'s default depth). Above: one ply in ``games // FULL_GAMES``
    over whole games, a different one from game to game (see ``check_one``'s ``every``),
    so late positions are checked too and the work of checking stays about that of
    ``FULL_GAMES`` whole games, while playing the games grows with their number. On
    average such a run checks as many plies as ``FULL_GAMES`` whole games: no fewer than
    a run of ``FULL_GAMES`` games at the first depth.
    """
    every = games // FULL_GAMES
    if every < 2:
        return DEEP_PLIES, 1
    return WHOLE_GAME, every


#: At most this many games in one batch: a batch reports progress when it ends, and an
#: interrupted run waits for the batches already running.
MAX_BATCH = 8


@dataclass(frozen=True, slots=True)
class Batch:
    """Games ``seeds`` of ``game`` with ``players`` seats, checked in one process."""

    game: str
    players: int
    seeds: range
    params: tuple[tuple[str, object], ...] = ()
    deep_plies: int = DEEP_PLIES
    sample_actions: int = 6
    every: int = 1


@dataclass(frozen=True, order=True, slots=True)
class Failure:
    """One game that broke a promise (or crashed); sorted by game, players, seed."""

    game: str
    players: int
    seed: int
    message: str = field(compare=False)
    params: tuple[tuple[str, object], ...] = field(default=(), compare=False)
    deep_plies: int = field(default=DEEP_PLIES, compare=False)
    every: int = field(default=1, compare=False)

    def command(self) -> str:
        """The command line that checks this game alone (the random choices depend on
        which plies are checked, so the depth options are repeated)."""
        given = {**dict(self.params), "players": self.players}
        options = " ".join(f"--param {k}={v}" for k, v in given.items())
        if self.deep_plies != DEEP_PLIES:
            options += f" --deep-plies {self.deep_plies}"
        if self.every != 1:
            options += f" --every {self.every}"
        return f"sudoku-arena check {self.game} --games 1 --seed {self.seed} {options}"


@dataclass(slots=True)
class BatchResult:
    """What one batch checked, and the games of it that failed."""

    batch: Batch
    report: ConformanceReport
    failures: list[Failure]


def plan(
    game_id: str,
    games: int,
    seed: int = 0,
    params: Mapping[str, object] | None = None,
    deep_plies: int = DEEP_PLIES,
    sample_actions: int = 6,
    jobs: int = 1,
    every: int = 1,
) -> list[Batch]:
    """The batches that check ``games`` games per player count of ``game_id`` from seeds
    ``seed``, ``seed + 1``, ...; small enough that ``jobs`` workers share them evenly.

    Raises ``ArenaError`` for an unknown game or bad parameters."""
    given = tuple((k, v) for k, v in (params or {}).items() if k != "players")
    size = max(1, min(MAX_BATCH, math.ceil(games / (4 * max(1, jobs)))))
    end = seed + games
    return [
        Batch(
            game_id,
            n,
            range(first, min(first + size, end)),
            given,
            deep_plies,
            sample_actions,
            every,
        )
        for n in player_counts(game_id, params)
        for first in range(seed, end, size)
    ]


#: Set in a worker process (by :class:`Runner`) to stop its batch after the current game.
_stop: EventType | None = None


def run_batch(batch: Batch) -> BatchResult:
    """Check every game of ``batch``; a game that fails does not stop the others.

    In a worker told to stop (Ctrl-C), the batch ends after the game being checked and
    its result counts only the games played."""
    report = ConformanceReport(batch.game)
    failures: list[Failure] = []
    for seed in batch.seeds:
        if _stop is not None and _stop.is_set():
            break
        try:
            done = check_one(
                batch.game,
                batch.players,
                seed,
                deep_plies=batch.deep_plies,
                sample_actions=batch.sample_actions,
                params=dict(batch.params),
                every=batch.every,
            )
        except ConformanceError as exc:
            message = str(exc)
        except Exception as exc:  # a crash is a failure of that game, with its trace
            where = f"{batch.game} players={batch.players} seed={seed}"
            trace = "".join(traceback.format_exception(exc, limit=-4)).rstrip()
            message = f"{where}: raised {type(exc).__name__}: {exc}\n{trace}"
        else:
            report.merge(done)
            continue
        report.games += 1
        failures.append(
            Failure(
                batch.game,
                batch.players,
                seed,
                message,
                batch.params,
                batch.deep_plies,
                batch.every,
            )
        )
    return BatchResult(batch, report, failures)


def _start_worker(stop: EventType) -> None:
    """In a new worker: leave Ctrl-C to the parent, and watch ``stop`` instead."""
    global _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()
    _stop = stop


class Runner:
    """Runs batches in ``jobs`` worker processes (in this process when ``jobs`` is 1).

    Use as a context manager: entering starts the workers and hands them every batch
    (before any progress display starts a thread); :meth:`results` yields each batch's
    result as it ends. Leaving early (an error, Ctrl-C) cancels the batches not started
    and waits for the running ones to end their current game.
    """

    def __init__(self, batches: Sequence[Batch], jobs: int = 1) -> None:
        self.batches = list(batches)
        self.jobs = max(1, min(jobs, len(self.batches)))
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[BatchResult]] = []
        self._stop: EventType | None = None

    def __enter__(self) -> Runner:
        if self.jobs > 1:
            self._stop = multiprocessing.get_context().Event()
            self._pool = ProcessPoolExecutor(
                self.jobs, initializer=_start_worker, initargs=(self._stop,)
            )
            self._futures = [self._pool.submit(run_batch, b) for b in self.batches]
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._pool is None:
            return
        # A second Ctrl-C while the running batches finish must not leave workers behind.
        quiet = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if quiet else None
        try:
            if kind is not None and self._stop is not None:
                self._stop.set()  # running batches end after their current game
            self._pool.shutdown(wait=True, cancel_futures=True)
        finally:
            self._pool = None
            if quiet:
                signal.signal(signal.SIGINT, previous)

    def results(self) -> Iterator[BatchResult]:
        """Each batch's result, in the order the batches end."""
        if self._pool is None:
            for b in self.batches:
                yield run_batch(b)
            return
        for future in as_completed(self._futures):
            yield future.result()


def check_game(
    game_id: str,
    *,
    games: int = 10,
    seed: int = 0,
    deep_plies: int = DEEP_PLIES,
    sample_actions: int = 6,
    params: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    every: int = 1,
) -> ConformanceReport:
    """Run the suite on ``game_id``; raise :class:`ConformanceError` on a failure.

    ``games`` random games are played per player count checked (the smallest and the
    largest allowed, unless ``params`` fixes ``players``), from seeds ``seed``,
    ``seed + 1``, ... (see :func:`check_one` for ``deep_plies`` and ``every``). ``jobs``
    above 1 runs them in that many worker processes; the report is the same. Every game
    is played; the failure raised is the one of the smallest player count and seed.
    ``progress`` is called with the number of games done so far.
    """
    report = ConformanceReport(game_id)
    failures: list[Failure] = []
    done = 0
    batches = plan(game_id, games, seed, params, deep_plies, sample_actions, jobs, every)
    with Runner(batches, jobs) as run:
        for result in run.results():
            report.merge(result.report)
            failures.extend(result.failures)
            done += result.report.games
            if progress is not None:
                progress(done)
    if failures:
        raise ConformanceError(min(failures).message)
    return report
