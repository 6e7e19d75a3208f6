"""Build the strength table (docs/strength.md) from tournaments between the bots.

A thin wrapper: the table is built by the balance lab's ``sudoku_arena.lab.strength``
(also ``sudoku-arena analyze --preset strength --out docs``), which says what the rows
are and how ``docs/strength.json`` is kept and resumed.

Usage::

    python scripts/strength_table.py [--games 200] [--only GAME ...] [--rows hard-greedy]
    python scripts/strength_table.py --sprt 0,50 --games 400 --only GAME --rows hard-greedy
"""

from __future__ import annotations

import sys
from pathlib import Path

from sudoku_arena.lab.strength import *  # noqa: F403  (the script's names, for its tests)
from sudoku_arena.lab.strength import main

DOCS = Path(__file__).resolve().parent.parent / "docs"

if __name__ == "__main__":
    sys.exit(main(folder=DOCS))
