"""Progress bars report to a log when there is no terminal to draw on."""

from __future__ import annotations

import io
import threading

from rich.console import Console

from sudoku_arena.cli.progress import Bar, log_line


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=100), out


def test_off_a_terminal_a_short_run_prints_nothing() -> None:
    console, out = _console(terminal=False)
    with Bar(console=console) as bar:  # a line a minute: this run ends first
        bar.advance(bar.add_task("self-play", total=4), 4)
    assert out.getvalue().strip() == ""  # (Rich ends a bar off a terminal with a newline)


def _wait_for(out: io.StringIO, text: str) -> None:
    """Wait (bounded) for the logging thread to print ``text``."""
    for _ in range(500):
        if text in out.getvalue():
            return
        threading.Event().wait(0.01)


def test_off_a_terminal_the_bar_reports_what_moved_and_ends_with_a_last_line() -> None:
    console, out = _console(terminal=False)
    with Bar(console=console, every=0.01) as bar:
        games = bar.add_task("games", total=10)
        epochs = bar.add_task("training", total=2)
        bar.advance(games, 3)
        _wait_for(out, "games: 3/10")
        assert "games: 3/10 (30%)" in out.getvalue()  # printed while the bar runs
        threading.Event().wait(0.05)  # a few more periods with nothing moved
        bar.advance(games, 7)
        bar.advance(epochs)
    lines = out.getvalue().splitlines()
    assert sum(line.startswith("games: 3/10") for line in lines) == 1, lines
    assert any(line.startswith("games: 10/10 (100%)") for line in lines), lines
    assert any(line.startswith("training: 1/2 (50%)") for line in lines), lines


def test_on_a_terminal_no_log_lines_are_printed() -> None:
    console, out = _console(terminal=True)
    with Bar(console=console, every=0.01) as bar:
        task = bar.add_task("games", total=2)
        bar.advance(task, 2)
    assert "elapsed" not in out.getvalue()


def test_the_time_left_is_the_mean_rate_since_the_start() -> None:
    console, _ = _console(terminal=False)
    bar = Bar(console=console)
    task = bar.add_task("games", total=10)
    bar.advance(task, 4)
    line = log_line(bar.tasks[0])
    assert line.startswith("games: 4/10 (40%), 0:00 elapsed")
    elapsed = bar.tasks[0].elapsed or 0.0
    want = int(elapsed * 1.5)  # 6 more at the rate of the first 4
    assert line.endswith(f"about 0:{want:02d} left"), line
