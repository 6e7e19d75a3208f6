"""Static geometry of Tic-Tac-Sudoku: the lines that score through each cell.

Cell indices are 0..80 row by row. A cell's *local position* is its place 0..8 inside
its box; a *common-space line* is the same local position in three boxes that stand in a
row, column or diagonal of the 3x3 arrangement of boxes (TTS-6).
"""

from __future__ import annotations

from typing import Final

from sudoku_arena.grids.sudoku import BOX_CELLS, box_of

#: The eight lines of a 3x3 board, as positions 0..8.
LINES3: Final[tuple[tuple[int, int, int], ...]] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip

CENTRE_BOX: Final = 4
#: TTS-6: points for a small-board line, for a common-space line, and the symbols of
#: one seat in a box that mark it on the Map.
SMALL_POINTS: Final = 1
COMMON_POINTS: Final = 2
MARK_SYMBOLS: Final = 5


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
MAP_LINES: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    tuple(line for line in LINES3 if b in line) for b in range(9)
)


def near(value: int) -> tuple[int, int, int]:
    """The numbers reachable from ``value``: n-1, n and n+1, wrapping 9<->1 (TTS-3)."""
    return ((value - 2) % 9 + 1, value, value % 9 + 1)


# -- the same geometry over bit masks ---------------------------------------------------
#
# A set of cells is kept as two words, so that every mask stays a small machine integer
# (compiled code works on those directly; an 81-bit int would be a boxed big integer):
# the low word holds rows 1-6 (cells 0..53, bit i is cell i), the high word rows 7-9
# (cells 54..80, bit i - 54 is cell i). Each box lies inside one word, and inside it
# its rows are 9 bits apart.

#: The first cell of the high word.
SPLIT: Final = 54
#: A row's 9 bits.
ROW_BITS: Final = 0x1FF


def split(mask: int) -> tuple[int, int]:
    """An 81-bit cell mask as its (low, high) words."""
    return mask & ((1 << SPLIT) - 1), mask >> SPLIT


def join(lo: int, hi: int) -> int:
    """The 81-bit cell mask of the words ``lo`` and ``hi``."""
    return lo | hi << SPLIT


def _mask(cells: tuple[int, ...]) -> int:
    m = 0
    for i in cells:
        m |= 1 << i
    return m


def _words(cells: tuple[int, ...]) -> tuple[int, int]:
    return split(_mask(cells))


#: For each cell, its position 0..8 inside its box.
LOCAL: Final[tuple[int, ...]] = tuple(_local(i) for i in range(81))
#: For each box, the shift of its first cell inside its word (see ``box_pattern``).
BOX_SHIFT: Final[tuple[int, ...]] = tuple(BOX_CELLS[b][0] % SPLIT for b in range(9))


def box_pattern(word: int, shift: int) -> int:
    """The 9-bit pattern (bit k: local position k) of the box whose first cell sits at
    ``shift`` in ``word``: its three rows of three, 9 bits apart."""
    x = word >> shift
    return (x & 7) | (x >> 6 & 0o70) | (x >> 12 & 0o700)


#: For each 9-bit box pattern, how many cells it holds.
PATTERN_COUNT: Final[tuple[int, ...]] = tuple(bin(pat).count("1") for pat in range(512))
#: Index ``pos << 9 | pattern``: the points of the box's lines through local position
#: ``pos`` that the pattern fills (TTS-6's small-board lines, derived from LINES3).
SMALL_LINES_FILLED: Final[tuple[int, ...]] = tuple(
    sum(SMALL_POINTS for line in LINES3 if pos in line and all(pat >> k & 1 for k in line))
    for pos in range(9)
    for pat in range(512)
)
#: For each cell, the common-space lines through it as (low, high) word masks.
COMMON_WORDS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple(_words(line) for line in COMMON_LINES[i]) for i in range(81)
)
#: Index ``row << 9 | bits``: the cells of row ``row`` (0..8) whose columns are set in
#: the 9 bits, in order (so a mask's cells are listed a row at a time, without a scan).
ROW_CELLS_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(9 * row + c for c in range(9) if bits >> c & 1) for row in range(9) for bits in range(512)
)


def cells_of(lo: int, hi: int) -> list[int]:
    """The cells of the mask ``(lo, hi)`` in increasing order."""
    out: list[int] = []
    index = 0  # row << 9
    while lo:
        bits = lo & ROW_BITS
        if bits:
            out.extend(ROW_CELLS_OF[index | bits])
        lo >>= 9
        index += 512
    index = 6 << 9
    while hi:
        bits = hi & ROW_BITS
        if bits:
            out.extend(ROW_CELLS_OF[index | bits])
        hi >>= 9
        index += 512
    return out


def _end_counts() -> tuple[int, ...]:
    """See :data:`END_COUNT`."""
    return tuple(
        sum(1 for line in LINES3 if pos in line and all(pat >> k & 1 for k in line if k != pos))
        for pat in range(512)
        for pos in range(9)
    )


#: Index ``9 * pattern + pos``: how many lines of a 3x3 board (:data:`LINES3`) pass
#: through position ``pos`` with their other two positions in the 9-bit ``pattern``.
#: Over a box's cells these are its small-board lines; over the boxes, for one local
#: position, its common-space lines (TTS-6).
END_COUNT: Final[tuple[int, ...]] = _end_counts()


def short_points(lo: int, hi: int, free_lo: int, free_hi: int) -> int:
    """The points of the lines (TTS-6: 1 a small-board line, 2 a common-space line)
    that a seat holding the cells ``(lo, hi)`` is one symbol short of: two of the
    line's cells are his and the third is among the empty ``(free_lo, free_hi)``."""
    points = 0
    # Per local position, the boxes where it is his and where it is empty: the
    # common-space lines are the lines of these 9-bit patterns.
    held = [0] * 9
    empty = [0] * 9
    for box in range(9):
        shift = BOX_SHIFT[box]
        if box < 6:
            mine, free = box_pattern(lo, shift), box_pattern(free_lo, shift)
        else:
            mine, free = box_pattern(hi, shift), box_pattern(free_hi, shift)
        base = 9 * mine
        bit = 1 << box
        for pos in range(9):
            if free >> pos & 1:
                points += SMALL_POINTS * END_COUNT[base + pos]
                empty[pos] |= bit
            elif mine >> pos & 1:
                held[pos] |= bit
    for pos in range(9):
        base, free = 9 * held[pos], empty[pos]
        for box in range(9):
            if free >> box & 1:
                points += COMMON_POINTS * END_COUNT[base + box]
    return points


#: :func:`map_need` of a seat every Map line is closed to.
CLOSED: Final = 16


def map_need(lo: int, hi: int, occ_lo: int, occ_hi: int, marks: tuple[int, ...], p: int) -> int:
    """The fewest symbols seat ``p``, holding the cells ``(lo, hi)``, still needs for a
    Map line: five of his in each of its boxes he has not marked (TTS-6), ``occ`` the
    occupied cells and ``marks`` the Map (the seat per box, -1 unmarked). :data:`CLOSED`
    when the other seat has marked a box of every line, or a box has too few empty
    spaces left."""
    need = [0] * 9
    for box in range(9):
        mark = marks[box]
        if mark == p:
            continue
        if mark >= 0:
            need[box] = CLOSED
            continue
        shift = BOX_SHIFT[box]
        if box < 6:
            short = MARK_SYMBOLS - PATTERN_COUNT[box_pattern(lo, shift)]
            free = 9 - PATTERN_COUNT[box_pattern(occ_lo, shift)]
        else:
            short = MARK_SYMBOLS - PATTERN_COUNT[box_pattern(hi, shift)]
            free = 9 - PATTERN_COUNT[box_pattern(occ_hi, shift)]
        need[box] = short if short <= free else CLOSED
    best = CLOSED
    for u, v, w in LINES3:
        best = min(best, need[u] + need[v] + need[w])
    return best
