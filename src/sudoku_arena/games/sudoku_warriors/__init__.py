"""Sudoku Warriors: hilltops, villages and battles for provinces (rules: README.md)."""

from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState

__all__ = ["SWState", "SudokuWarriors"]
