"""Progress bars for the long commands, readable in a log file as well as on a terminal.

A Rich progress bar is a live display: off a terminal (output redirected to a file, a
CI log, ``nohup``) it draws nothing, and a transient one leaves nothing behind, so an
hour of self-play or a 200-game match looked dead until it ended. ``Bar`` is the same
bar on a terminal; off one it prints a plain line per task every ``every`` seconds
while the task moves, and a last line when the bar stops. A run shorter than that
prints nothing: the command's own summary says all there is.
"""

from __future__ import annotations

import threading

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

__all__ = ["COLUMNS", "Bar", "SpeedColumn", "log_line"]


class SpeedColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.1f} games/s")


def _columns() -> tuple[ProgressColumn, ...]:
    """Name, bar, done of total, time elapsed: what every long command shows."""
    return (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )


COLUMNS = _columns()


def _clock(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def log_line(task: Task) -> str:
    """One task's state as a plain line (console markup, as the description is)."""
    done = int(task.completed)
    if task.total is None:
        line = f"{task.description}: {done}"
    else:
        total = int(task.total)
        share = f" ({100 * task.completed / task.total:.0f}%)" if task.total else ""
        line = f"{task.description}: {done}/{total}{share}"
    elapsed = task.elapsed or 0.0
    line += f", {_clock(elapsed)} elapsed"
    # The mean rate since the start, not Rich's 30-second window: work that ends in
    # bursts (a shard of games, a batch) made that estimate swing from minutes to hours.
    if task.total is not None and 0 < task.completed < task.total:
        line += f", about {_clock(elapsed * (task.total / task.completed - 1))} left"
    return line


class Bar(Progress):
    """A transient progress bar that also reports to a log.

    On a terminal it is Rich's bar. Off one, a thread prints ``log_line`` for each task
    whose count moved, every ``every`` seconds, and ``stop`` prints the last state of
    each task that moved since, once the thread has printed (not for a short run);
    nothing else differs.
    """

    def __init__(self, *columns: str | ProgressColumn, console: Console, every: float = 60.0):
        super().__init__(*(columns or COLUMNS), console=console, transient=True)
        self._every = every
        self._quiet = threading.Event()
        self._logger: threading.Thread | None = None
        self._said: dict[TaskID, float] = {}

    def start(self) -> None:
        super().start()
        if not self.console.is_terminal and self._logger is None:
            self._quiet.clear()
            self._logger = threading.Thread(target=self._log_every, daemon=True)
            self._logger.start()

    def stop(self) -> None:
        if self._logger is not None:
            self._quiet.set()
            self._logger.join()
            self._logger = None
            if self._said:
                self._log()
        super().stop()

    def _log_every(self) -> None:
        while not self._quiet.wait(self._every):
            self._log()

    def _log(self) -> None:
        with self._lock:  # the tasks are updated from other threads
            moved = [t for t in self.tasks if self._said.get(t.id) != t.completed]
            lines = [log_line(t) for t in moved]
            for t in moved:
                self._said[t.id] = t.completed
        for line in lines:
            self.console.print(line, highlight=False)
