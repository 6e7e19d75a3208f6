"""Citadel: a war game on a Go board, from setup to siege (rules: README.md)."""

from sudoku_arena.games.citadel.diagram import from_diagram, to_diagram
from sudoku_arena.games.citadel.game import Citadel, CitadelState

__all__ = ["Citadel", "CitadelState", "from_diagram", "to_diagram"]
