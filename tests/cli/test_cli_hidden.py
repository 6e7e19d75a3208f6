"""The terminal never shows one seat's secret draw to the screen."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from sudoku_arena.cli.main import app


def test_sudokuhex_draws_are_not_printed() -> None:
    result = CliRunner().invoke(
        app, ["play", "sudokuhex", "--players", "greedy,greedy", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "chance: draw" in result.output
    assert re.search(r"draw [1-7]", result.output) is None
    assert "start 1" in result.output  # the public setup is still shown
