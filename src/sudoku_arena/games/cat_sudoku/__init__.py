"""Cat Sudoku: a roll-and-write for 1-6 players on cat-shaped sheets (rules: README.md)."""

from sudoku_arena.games.cat_sudoku.game import CatSudoku, CSState

__all__ = ["CSState", "CatSudoku"]
