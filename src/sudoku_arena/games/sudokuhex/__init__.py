"""SuDokuHex: Reiner Knizia's hex tile game for 1 to 4 players (rules: README.md)."""

from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex

__all__ = ["HexState", "SuDokuHex"]
