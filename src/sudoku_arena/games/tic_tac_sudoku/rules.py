"""Static geometry of Tic-Tac-Sudoku: the lines that score through each cell.

Cell indices are 0..80 row by row. A cell's *local position* is its place 0..8 inside
its box; a *common-space line* is the same local position in three boxes that stand in a
row, column or diagonal of the 3x3 arrangement of boxes (TTS-6).
"""

from __future__ import annotations

from sudoku_arena.grids.sudoku import BOX_CELLS, box_of

#: The eight lines of a 3x3 board, as positions 0..8.
LINES3: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip

CENTRE_BOX = 4


def _local(i: int) -> int:
    return BOX_CELLS[box_of(i)].index(i)


def _small_lines(i: int) -> tuple[tuple[int, int, int], ...]:
    box = BOX_CELLS[box_of(i)]
    pos = _local(i)
    return tuple((box[a], box[b], box[c]) for a, b, c in LINES3 if pos in (a, b, c))


def _common_lines(i: int) -> tuple[tuple[int, int, int], ...]:
    b, pos = box_of(i), _local(i)
    return tuple(
        (BOX_CELLS[x][pos], BOX_CELLS[y][pos], BOX_CELLS[z][pos])
        for x, y, z in LINES3
        if b in (x, y, z)
    )


#: For each cell, the small-board lines through it (2 to 4 lines).
SMALL_LINES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    _small_lines(i) for i in range(81)
)
#: For each cell, the common-space lines through it (2 to 4 lines).
COMMON_LINES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    _common_lines(i) for i in range(81)
)
#: For each box, the map lines through it.
MAP_LINES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES3 if b in line) for b in range(9)
)


def near(value: int) -> tuple[int, int, int]:
    """The numbers reachable from ``value``: n-1, n and n+1, wrapping 9<->1 (TTS-3)."""
    return ((value - 2) % 9 + 1, value, value % 9 + 1)


def _mask(cells: tuple[int, ...]) -> int:
    m = 0
    for i in cells:
        m |= 1 << i
    return m


#: The same lines as bit masks over the 81 cells (bit i is cell i).
SMALL_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_mask(line) for line in SMALL_LINES[i]) for i in range(81)
)
COMMON_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_mask(line) for line in COMMON_LINES[i]) for i in range(81)
)
BOX_MASKS: tuple[int, ...] = tuple(_mask(BOX_CELLS[b]) for b in range(9))
