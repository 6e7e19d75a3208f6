"""Progress bars report to a log when there is no terminal to draw on."""

from __future__ import annotations

import io
import threading

from rich.console import Console

from sudoku_arena.cli.progress import Bar, log_line


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=100), out


def test_off_a_terminal_the_bar_ends_with_a_plain_line_per_task() -> None:
    console, out = _console(terminal=False)
    with Bar(console=console) as bar:
        games = bar.add_task("self-play", total=4)
        epochs = bar.add_task("training", total=2)
        bar.advance(games, 4)
        bar.advance(epochs)
    lines = out.getvalue().splitlines()
    assert any(line.startswith("self-play: 4/4 (100%), 0:00 elapsed") for line in lines), lines
    assert any(line.startswith("training: 1/2 (50%)") for line in lines), lines


def test_off_a_terminal_the_bar_reports_while_it_runs_and_only_what_moved() -> None:
    console, out = _console(terminal=False)
    with Bar(console=console, every=0.01) as bar:
        task = bar.add_task("games", total=10)
        bar.advance(task, 3)
        # Wait (bounded) for the logging thread's line: it is printed without a stop.
        for _ in range(500):
            if "games: 3/10" in out.getvalue():
                break
            threading.Event().wait(0.01)
        assert "games: 3/10 (30%)" in out.getvalue()
        threading.Event().wait(0.05)  # a few more periods with nothing moved
    assert out.getvalue().count("games: 3/10") == 1


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
