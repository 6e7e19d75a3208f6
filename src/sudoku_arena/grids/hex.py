"""The SuDokuHex board: 49 hexes in 7 honeycombs, and its 27 lines (SH-1).

Coordinates are axial ``(q, r)`` on a pointy-top hex grid: ``q`` grows to the east,
``r`` to the south-east; the third cube coordinate is ``s = -q - r``. On screen (``y``
down) the centre of hex ``(q, r)`` is at ``x = sqrt(3) * (q + r / 2)``, ``y = 1.5 * r``
in units of the hex radius, so rows of constant ``r`` are horizontal.

A honeycomb is a hex and its six neighbours. The board's seven honeycombs have their
centres at ``(0, 0)`` and, around it, ``(2, 1)``, ``(-1, 3)``, ``(-3, 2)``, ``(-2, -1)``,
``(1, -3)``, ``(3, -2)``. They are lettered ``A`` (the centre) then ``B``..``G``
clockwise on screen starting from the east (``B`` just south of east, ``F`` almost due
north). Within a honeycomb, position ``0`` is its centre and ``1``..``6`` are the
neighbours clockwise from the east: ``1`` east, ``2`` south-east, ``3`` south-west,
``4`` west, ``5`` north-west, ``6`` north-east. A hex is named by its honeycomb letter
and position (``C4``) and indexed ``7 * honeycomb + position`` (``A0`` is 0, ``G6``
is 48).

A line is a maximal straight row of board hexes in one of the three hex directions.
Direction 0 runs east-west (constant ``r``), direction 1 runs north-west to south-east
(constant ``q``), direction 2 runs north-east to south-west (constant ``s``). Each
direction has nine lines of lengths 2, 5, 7, 7, 7, 7, 7, 5, 2, none with a gap: 27
lines in all. Two hexes share at most one line, and every hex lies on exactly three
lines, one per direction.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from sudoku_arena.core.errors import NotationError

#: Honeycomb letters, ``A`` the centre honeycomb.
HONEYCOMB_LETTERS = "ABCDEFG"

#: Axial centres of the honeycombs ``A``..``G``.
HONEYCOMB_CENTRES: tuple[tuple[int, int], ...] = (
    (0, 0),
    (2, 1),
    (-1, 3),
    (-3, 2),
    (-2, -1),
    (1, -3),
    (3, -2),
)

#: Axial offsets of positions 0..6 within a honeycomb (0 the centre, then clockwise
#: from the east: E, SE, SW, W, NW, NE).
POSITION_OFFSETS: tuple[tuple[int, int], ...] = (
    (0, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (1, -1),
)

#: Names of the three line directions, by direction index.
DIRECTION_NAMES = ("east-west", "northwest-southeast", "northeast-southwest")

NUM_HEXES = 49
NUM_HONEYCOMBS = 7
NUM_LINES = 27
#: Bit mask of all 49 hexes (bit ``i`` is hex ``i``).
ALL_HEXES_MASK = (1 << NUM_HEXES) - 1

#: Axial coordinates of every hex, by index.
HEX_COORDS: tuple[tuple[int, int], ...] = tuple(
    (cq + dq, cr + dr) for cq, cr in HONEYCOMB_CENTRES for dq, dr in POSITION_OFFSETS
)
#: Index of the hex at each axial coordinate.
COORD_INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(HEX_COORDS)}

#: Honeycomb (0..6) of every hex.
HONEYCOMB_OF: tuple[int, ...] = tuple(i // 7 for i in range(NUM_HEXES))
#: The seven hexes of every honeycomb.
HONEYCOMB_HEXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(7 * h, 7 * h + 7)) for h in range(NUM_HONEYCOMBS)
)


def _line_key(coord: tuple[int, int], direction: int) -> int:
    q, r = coord
    return (r, q, -q - r)[direction]


def _line_order(coord: tuple[int, int], direction: int) -> int:
    # Position along the line: west to east, north-west to south-east (by r),
    # north-east to south-west (by r).
    q, r = coord
    return (q, r, r)[direction]


def _build_lines() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    lines: list[tuple[int, ...]] = []
    dirs: list[int] = []
    for d in range(3):
        for k in sorted({_line_key(c, d) for c in HEX_COORDS}):
            on_line = [i for i, c in enumerate(HEX_COORDS) if _line_key(c, d) == k]
            on_line.sort(key=lambda i: _line_order(HEX_COORDS[i], d))
            lines.append(tuple(on_line))
            dirs.append(d)
    return tuple(lines), tuple(dirs)


#: Every line as the hexes along it, in order; direction 0 lines first (north to
#: south), then direction 1 (west to east), then direction 2 (north-west to south-east).
LINES: tuple[tuple[int, ...], ...]
#: Direction (0, 1, 2) of every line.
LINE_DIRECTION: tuple[int, ...]
LINES, LINE_DIRECTION = _build_lines()

#: The three lines through every hex, by direction.
LINES_THROUGH: tuple[tuple[int, int, int], ...] = tuple(
    (
        next(j for j, ln in enumerate(LINES) if i in ln and LINE_DIRECTION[j] == 0),
        next(j for j, ln in enumerate(LINES) if i in ln and LINE_DIRECTION[j] == 1),
        next(j for j, ln in enumerate(LINES) if i in ln and LINE_DIRECTION[j] == 2),
    )
    for i in range(NUM_HEXES)
)


def _mask(hexes: Iterable[int]) -> int:
    m = 0
    for i in hexes:
        m |= 1 << i
    return m


#: Bit mask of every line.
LINE_MASKS: tuple[int, ...] = tuple(_mask(ln) for ln in LINES)
#: Bit mask of every honeycomb.
HONEYCOMB_MASKS: tuple[int, ...] = tuple(_mask(h) for h in HONEYCOMB_HEXES)
#: For every hex: the other hexes on its three lines (the hexes that score, SH-4).
LINE_PEERS_MASK: tuple[int, ...] = tuple(
    (LINE_MASKS[a] | LINE_MASKS[b] | LINE_MASKS[c]) & ~(1 << i)
    for i, (a, b, c) in enumerate(LINES_THROUGH)
)
#: For every hex: the other hexes of its honeycomb and of its three lines (the hexes
#: that may not repeat its number, SH-4).
PEERS_MASK: tuple[int, ...] = tuple(
    (LINE_PEERS_MASK[i] | HONEYCOMB_MASKS[HONEYCOMB_OF[i]]) & ~(1 << i) for i in range(NUM_HEXES)
)


def placement_points(occupied: int, hex_index: int) -> int:
    """The points a tile placed on ``hex_index`` scores (SH-4): one for every occupied
    hex (``occupied`` is a bit mask) on the three lines through it."""
    return (occupied & LINE_PEERS_MASK[hex_index]).bit_count()


#: The six neighbours (fewer on the rim) of every hex on the board.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        COORD_INDEX[(q + dq, r + dr)]
        for dq, dr in POSITION_OFFSETS[1:]
        if (q + dq, r + dr) in COORD_INDEX
    )
    for q, r in HEX_COORDS
)


def hex_name(index: int) -> str:
    """The name of hex ``index`` (0..48): honeycomb letter and position, e.g. ``C4``."""
    return f"{HONEYCOMB_LETTERS[index // 7]}{index % 7}"


#: Names of all hexes by index.
HEX_NAMES: tuple[str, ...] = tuple(hex_name(i) for i in range(NUM_HEXES))

_HEX_RE = re.compile(r"^\s*([A-Ga-g])\s*([0-6])\s*$")


def parse_hex(text: str) -> int:
    """The index of the hex named ``text`` (``C4``, case and spaces ignored).

    Raises ``NotationError`` saying what a hex name looks like.
    """
    m = _HEX_RE.match(text) if isinstance(text, str) else None
    if not m:
        raise NotationError(
            f"{text!r} is not a hex; write a honeycomb letter A-G (A the centre) and a "
            "position 0-6 (0 its centre), for example C4"
        )
    return 7 * HONEYCOMB_LETTERS.index(m.group(1).upper()) + int(m.group(2))


def line_name(line: int) -> str:
    """A readable description of line ``line``: its direction and its end hexes."""
    hexes = LINES[line]
    return (
        f"{DIRECTION_NAMES[LINE_DIRECTION[line]]} line "
        f"{hex_name(hexes[0])}-{hex_name(hexes[-1])} ({len(hexes)} hexes)"
    )


def hex_center(index: int, size: float = 1.0) -> tuple[float, float]:
    """Screen position (``y`` down) of the centre of hex ``index``, hex radius ``size``;
    ``A0`` is at the origin."""
    q, r = HEX_COORDS[index]
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def hex_corners(index: int, size: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The six corners of pointy-top hex ``index`` (clockwise from the top)."""
    cx, cy = hex_center(index, size)
    return tuple(
        (
            cx + size * math.cos(math.radians(60 * k - 90)),
            cy + size * math.sin(math.radians(60 * k - 90)),
        )
        for k in range(6)
    )


# Set bits of each 7-bit chunk of a 49-bit mask (one chunk per honeycomb), with the
# chunk's offset already added: ``bits`` is then 7 table look-ups.
_CHUNK_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(7 * k + i for i in range(7) if m >> i & 1) for m in range(128)) for k in range(7)
)


def bits(mask: int) -> list[int]:
    """The indices of the set bits of a 49-bit ``mask``, ascending."""
    out: list[int] = []
    for k in range(7):
        chunk = mask >> (7 * k) & 127
        if chunk:
            out += _CHUNK_BITS[k][chunk]
    return out


__all__ = [
    "ALL_HEXES_MASK",
    "COORD_INDEX",
    "DIRECTION_NAMES",
    "HEX_COORDS",
    "HEX_NAMES",
    "HONEYCOMB_CENTRES",
    "HONEYCOMB_HEXES",
    "HONEYCOMB_LETTERS",
    "HONEYCOMB_MASKS",
    "HONEYCOMB_OF",
    "LINES",
    "LINES_THROUGH",
    "LINE_DIRECTION",
    "LINE_MASKS",
    "LINE_PEERS_MASK",
    "NEIGHBOURS",
    "NUM_HEXES",
    "NUM_HONEYCOMBS",
    "NUM_LINES",
    "PEERS_MASK",
    "POSITION_OFFSETS",
    "bits",
    "hex_center",
    "hex_corners",
    "hex_name",
    "line_name",
    "parse_hex",
    "placement_points",
]
