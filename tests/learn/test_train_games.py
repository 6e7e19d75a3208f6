"""``sudoku-arena train --help`` names the games with value features, found without
importing the games, and the list agrees with the registry's."""

from __future__ import annotations

from typer.testing import CliRunner

from sudoku_arena.ai.features import games_with_features
from sudoku_arena.cli.main import app
from sudoku_arena.cli.train import built_in_games_with_features


def test_the_help_lists_the_games_with_features() -> None:
    found = built_in_games_with_features()
    every = ["cat-sudoku", "citadel", "sudoku-warriors", "sudokuhex", "tic-tac-sudoku"]
    assert found == sorted(games_with_features()) == every
    result = CliRunner().invoke(app, ["train", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert f"games with value features: {', '.join(every)}" in result.output
