"""Entry point of the ``sudoku-arena`` command; each module adds its commands."""

from __future__ import annotations

# Each module registers its commands on import.
import sudoku_arena.cli.analyze
import sudoku_arena.cli.basic
import sudoku_arena.cli.play
import sudoku_arena.cli.records
import sudoku_arena.cli.serve
import sudoku_arena.cli.tournament  # noqa: F401
from sudoku_arena.cli.app import app


def main() -> None:
    """Run the command line."""
    app()


if __name__ == "__main__":
    main()
