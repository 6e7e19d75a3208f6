"""Conformance suite: checks any registered game against the protocol's contract.

Used by the test suite over every registered game and by ``sudoku-arena check``.
"""

from sudoku_arena.testing.conformance import ConformanceError, ConformanceReport, check_one
from sudoku_arena.testing.runner import Failure, check_game

__all__ = ["ConformanceError", "ConformanceReport", "Failure", "check_game", "check_one"]
