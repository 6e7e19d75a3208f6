"""Tic-Tac-Sudoku: nine tic-tac-toe boards on a completed Sudoku (rules: README.md)."""

from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState

__all__ = ["TTSState", "TicTacSudoku"]
