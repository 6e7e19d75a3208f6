"""Entry point of the ``sudoku-arena`` command; each module adds its commands."""

from __future__ import annotations

from sudoku_arena.cli import basic, play, records  # noqa: F401  (commands register on import)
from sudoku_arena.cli import tournament  # noqa: F401  (registers the command)
from sudoku_arena.cli.app import app


def main() -> None:
    """Run the command line."""
    app()


if __name__ == "__main__":
    main()
