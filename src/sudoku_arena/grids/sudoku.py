"""Completed 9x9 Sudoku grids.

A grid is a tuple of 81 ints 1-9, row by row (index ``9 * (row - 1) + (col - 1)``).
Cells are named ``r<row>c<col>`` (1-based, ``r1c1`` top-left) and boxes ``b1``..``b9``
row-major, ``b5`` the centre.

Generation fills three independent diagonal boxes with random permutations and then
completes the grid by randomised backtracking (most constrained cell first). Random
candidate order at every step means the generator reaches the whole space of grids, not
relabellings or shuffles of one base grid.
"""

from __future__ import annotations

import random
import re

from sudoku_arena.core.errors import InvalidGridError, NotationError
from sudoku_arena.core.params import ParamSpec

ROW_CELLS: tuple[tuple[int, ...], ...] = tuple(tuple(9 * r + c for c in range(9)) for r in range(9))
COL_CELLS: tuple[tuple[int, ...], ...] = tuple(tuple(9 * r + c for r in range(9)) for c in range(9))
BOX_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(9 * (3 * (b // 3) + r) + 3 * (b % 3) + c for r in range(3) for c in range(3))
    for b in range(9)
)
_BOX_OF: tuple[int, ...] = tuple(3 * (i // 27) + (i % 9) // 3 for i in range(81))
_ALL = 0x3FE  # bits 1..9


def box_of(index: int) -> int:
    """The 0-based box (0..8, row-major) of cell ``index``."""
    return _BOX_OF[index]


#: Every cell's name, so naming one (views name dozens per position) is a lookup.
CELL_NAMES: tuple[str, ...] = tuple(f"r{i // 9 + 1}c{i % 9 + 1}" for i in range(81))


def cell_name(index: int) -> str:
    """``r<row>c<col>`` for cell ``index`` (0..80)."""
    return CELL_NAMES[index] if 0 <= index < 81 else f"r{index // 9 + 1}c{index % 9 + 1}"


_CELL_RE = re.compile(r"^\s*r\s*([1-9])\s*c\s*([1-9])\s*$", re.IGNORECASE)


def parse_cell(text: str) -> int:
    """The index of the cell named ``text`` (``r5c3``); raises ``NotationError``."""
    m = _CELL_RE.match(text)
    if not m:
        raise NotationError(
            f"{text!r} is not a cell; write r<row>c<column> with row and column 1-9, "
            "for example r5c3"
        )
    return 9 * (int(m.group(1)) - 1) + int(m.group(2)) - 1


def _fill(
    cells: list[int], rows: list[int], cols: list[int], boxes: list[int], rng: random.Random
) -> bool:
    # Most constrained empty cell first; random candidate order.
    best = -1
    best_mask = 0
    best_count = 10
    for i in range(81):
        if cells[i]:
            continue
        mask = _ALL & ~(rows[i // 9] | cols[i % 9] | boxes[_BOX_OF[i]])
        count = mask.bit_count()
        if count < best_count:
            best, best_mask, best_count = i, mask, count
            if count <= 1:
                break
    if best < 0:
        return True
    if best_count == 0:
        return False
    digits = [d for d in range(1, 10) if best_mask >> d & 1]
    rng.shuffle(digits)
    r, c, b = best // 9, best % 9, _BOX_OF[best]
    for d in digits:
        bit = 1 << d
        cells[best] = d
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
        if _fill(cells, rows, cols, boxes, rng):
            return True
        rows[r] &= ~bit
        cols[c] &= ~bit
        boxes[b] &= ~bit
    cells[best] = 0
    return False


def generate_grid(rng: random.Random) -> tuple[int, ...]:
    """A random completed Sudoku drawn from ``rng`` (same generator state, same grid)."""
    cells = [0] * 81
    rows = [0] * 9
    cols = [0] * 9
    boxes = [0] * 9
    for b in (0, 4, 8):
        for i, d in zip(BOX_CELLS[b], rng.sample(range(1, 10), 9), strict=True):
            cells[i] = d
            rows[i // 9] |= 1 << d
            cols[i % 9] |= 1 << d
            boxes[b] |= 1 << d
    ok = _fill(cells, rows, cols, boxes, rng)
    assert ok, "three filled diagonal boxes always extend to a full grid"
    return tuple(cells)


def format_grid(grid: tuple[int, ...]) -> str:
    """The grid as 81 digits."""
    return "".join(str(d) for d in grid)


def parse_grid(text: str) -> tuple[int, ...]:
    """Read 81 digits (white space, ``|``, ``-`` and ``+`` ignored) and validate them.

    Raises :class:`InvalidGridError` naming the bad character, row, column or box.
    """
    digits = re.sub(r"[\s|+\-]", "", text)
    for pos, ch in enumerate(digits):
        if ch not in "123456789":
            where = f"row {pos // 9 + 1}, column {pos % 9 + 1}" if pos < 81 else "the end"
            raise InvalidGridError(
                f"grid character {ch!r} at position {pos + 1} ({where}) is not a digit 1-9; "
                "a completed grid is 81 digits 1-9, row by row",
                where="input",
            )
    if len(digits) != 81:
        raise InvalidGridError(
            f"grid has {len(digits)} digits; a completed grid has exactly 81 digits 1-9, "
            "row by row",
            where="input",
        )
    grid = tuple(int(ch) for ch in digits)
    validate_grid(grid)
    return grid


def validate_grid(grid: tuple[int, ...]) -> None:
    """Raise :class:`InvalidGridError` unless ``grid`` is a completed Sudoku.

    The message names the first bad row, then column, then box, and the repeated digit.
    """
    if len(grid) != 81 or any(not isinstance(d, int) or not 1 <= d <= 9 for d in grid):
        raise InvalidGridError("a grid is 81 values 1-9", where="input")
    for kind, units in (("row", ROW_CELLS), ("column", COL_CELLS), ("box", BOX_CELLS)):
        for u, unit in enumerate(units):
            seen: dict[int, int] = {}
            for i in unit:
                d = grid[i]
                if d in seen:
                    raise InvalidGridError(
                        f"{kind} {u + 1} holds {d} twice ({cell_name(seen[d])} and "
                        f"{cell_name(i)}); every row, column and box needs each digit 1-9 "
                        "exactly once",
                        where=f"{kind} {u + 1}",
                    )
                seen[d] = i


def _check_grid_text(value: object) -> str:
    return format_grid(parse_grid(str(value)))


def _generate_grid_text(rng: random.Random) -> str:
    return format_grid(generate_grid(rng))


def grid_param() -> ParamSpec:
    """The ``grid`` parameter of the Sudoku-grid games: 81 digits, random by default."""
    return ParamSpec(
        "grid",
        str,
        None,
        "a completed Sudoku as 81 digits 1-9, row by row (random from the seed if omitted)",
        generate=_generate_grid_text,
        check=_check_grid_text,
        label="Sudoku grid",
    )


def parse_box(text: str) -> int:
    """The 0-based box named ``b1``..``b9``; raises ``NotationError``."""
    m = re.match(r"^\s*b\s*([1-9])\s*$", text, re.IGNORECASE)
    if not m:
        raise NotationError(f"{text!r} is not a box; write b1 to b9 (b5 is the centre)")
    return int(m.group(1)) - 1
