"""Words shared by the games' drawings, guides and explanations of notation.

A square of a grid is read the same way wherever a person meets it (a click target's
name, the move log, the status line's guide): ``row 7, column 5``. The boxes of a 9x9
grid (Tic-Tac-Sudoku's small boards, Sudoku Warriors' provinces) are named by where
they lie, ``top-left`` to ``bottom-right``, as the lessons name them.
"""

from __future__ import annotations

from collections.abc import Sequence

#: The nine boxes of a 9x9 grid, row by row (box ``b1`` is ``BOX_WORDS[0]``).
BOX_WORDS = (
    "top-left",
    "top-middle",
    "top-right",
    "middle-left",
    "centre",
    "middle-right",
    "bottom-left",
    "bottom-middle",
    "bottom-right",
)


def cell_words(row: int, col: int) -> str:
    """``row 7, column 5`` for the square on 1-based ``row`` and ``col``."""
    return f"row {row}, column {col}"


def either(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: a choice among ``items``."""
    return _join(items, "or")


def every(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: all of ``items``."""
    return _join(items, "and")


def _join(items: Sequence[str], word: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 credit``, ``3 credits`` (``plural`` where adding an s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
