"""The ``sudoku-arena`` command (Typer + Rich)."""
