"""Static geometry of Sudoku Warriors: hilltops, villages, provinces (SW-1, SW-2).

Indices. A village is a cell 0..80, row by row (``r1c1`` = 0). A hilltop is a grid
intersection ``10 * i + j`` with i, j = 0..9 (``h00`` = 0 top-left, ``h99`` = 99
bottom-right). Village ``r<X>c<Y>`` is surrounded by ``h(X-1)(Y-1)``, ``h(X-1)Y``,
``hX(Y-1)`` and ``hXY``. A province (box) ``b`` 0..8 owns the 4x4 block of hilltops
around its 9 villages: 4 inner ones (the capital's) and 12 on its border, which it
shares with the provinces on the other side of the line.

Hilltop codes in a state: 0 empty, ``seat + 1`` for a warrior (1 circle, 2 square,
3 triangle) and :data:`XD` for an X'd hilltop. Every table here is computed once at
import so that the engine's hot paths are plain tuple look-ups.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sudoku_arena.core.errors import NotationError
from sudoku_arena.grids.sudoku import BOX_CELLS

#: Hilltop code of an X'd hilltop (dead, nobody's, never occupied again; SW-12).
XD = 4
EMPTY = 0


def hill_name(h: int) -> str:
    """``h<i><j>`` for hilltop ``h`` (0..99)."""
    return f"h{h // 10}{h % 10}"


_HILL_RE = re.compile(r"^\s*h\s*([0-9])\s*([0-9])\s*$", re.IGNORECASE)


def parse_hill(text: str) -> int:
    """The hilltop named ``text`` (``h37``); raises ``NotationError``."""
    m = _HILL_RE.match(text)
    if not m:
        raise NotationError(
            f"{text!r} is not a hilltop; write h<i><j> with i, j 0-9 (h00 top-left "
            "corner, h99 bottom-right), for example h37"
        )
    return 10 * int(m.group(1)) + int(m.group(2))


#: The four hilltops around each village (SW-2).
CELL_HILLS: tuple[tuple[int, int, int, int], ...] = tuple(
    (10 * r + c, 10 * r + c + 1, 10 * (r + 1) + c, 10 * (r + 1) + c + 1)
    for r in range(9)
    for c in range(9)
)

#: The villages (1, 2 or 4) around each hilltop.
HILL_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        9 * r + c
        for r in (h // 10 - 1, h // 10)
        for c in (h % 10 - 1, h % 10)
        if 0 <= r < 9 and 0 <= c < 9
    )
    for h in range(100)
)


def _prov_hills(b: int) -> tuple[int, ...]:
    i0, j0 = 3 * (b // 3), 3 * (b % 3)
    return tuple(10 * (i0 + di) + j0 + dj for di in range(4) for dj in range(4))


#: The 16 hilltops of each province (SW-2).
PROV_HILLS: tuple[tuple[int, ...], ...] = tuple(_prov_hills(b) for b in range(9))
#: The capital's four hilltops: the province's inner intersections.
CAPITAL_HILLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(10 * (3 * (b // 3) + di) + 3 * (b % 3) + dj for di in (1, 2) for dj in (1, 2))
    for b in range(9)
)
#: The 12 border hilltops of each province.
BORDER_HILLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in PROV_HILLS[b] if h not in CAPITAL_HILLS[b]) for b in range(9)
)
#: The provinces whose 4x4 block holds each hilltop: 1 inside a province or on the
#: board's edge away from a province line, 2 on a province line, 4 where lines cross.
HILL_PROVS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(9) if h in PROV_HILLS[b]) for h in range(100)
)
#: The capital village (centre cell) of each province.
CAPITAL: tuple[int, ...] = tuple(BOX_CELLS[b][4] for b in range(9))
#: Provinces sharing a side with each province.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in range(9) if abs(q // 3 - b // 3) + abs(q % 3 - b % 3) == 1) for b in range(9)
)
#: Villages whose resource may be added in a battle for each province (SW-11): the
#: province's own and those of provinces sharing a side with it, in cell order.
BATTLE_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(c for q in (b, *NEIGHBOURS[b]) for c in BOX_CELLS[q])) for b in range(9)
)

BATTLE_CELL_SETS: tuple[frozenset[int], ...] = tuple(frozenset(c) for c in BATTLE_CELLS)


def _control_of(codes: tuple[int, int, int, int]) -> int:
    counts = [0, 0, 0, 0]
    for k in codes:
        if 1 <= k <= 3:
            counts[k] += 1
    best = max(counts[1:])
    if best == 0:
        return -1
    leaders = [k for k in (1, 2, 3) if counts[k] == best]
    return leaders[0] - 1 if len(leaders) == 1 else -1


#: Village control (SW-5) by the codes of its four hilltops, indexed by
#: ``((a * 5 + b) * 5 + c) * 5 + d``: the controlling seat, or -1 for nobody.
CONTROL: tuple[int, ...] = tuple(
    _control_of((a, b, c, d))
    for a in range(5)
    for b in range(5)
    for c in range(5)
    for d in range(5)
)


def control_by_codes(a: int, b: int, c: int, d: int) -> int:
    """The seat controlling a village whose four hilltops hold codes ``a, b, c, d``
    (0 empty, seat + 1 a warrior, 4 blocked) (SW-5), or -1 for nobody."""
    return CONTROL[((a * 5 + b) * 5 + c) * 5 + d]


def control(hill: Sequence[int], cell: int) -> int:
    """The seat controlling village ``cell`` (SW-5), or -1 for nobody."""
    a, b, c, d = CELL_HILLS[cell]
    return control_by_codes(hill[a], hill[b], hill[c], hill[d])


# -- action indices -------------------------------------------------------------------
# An action is its own index (a small int):
#   0..99            place on hilltop h
#   100..108         battle b1..b9 (choose the next battle)
#   109              bid (no village)
#   110..190         bid one village (110 + cell)
#   191..3430        bid two villages, the unordered pair {a, b} with a < b
#   3431             yield
PLACE_BASE = 0
BATTLE_BASE = 100
BID_NONE = 109
BID1_BASE = 110
BID2_BASE = 191
#: The pairs of villages a < b, in index order.
PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(81) for b in range(a + 1, 81))
YIELD = BID2_BASE + len(PAIRS)
NUM_ACTIONS = YIELD + 1
_PAIR_INDEX: dict[tuple[int, int], int] = {p: k for k, p in enumerate(PAIRS)}


def pair_action(a: int, b: int) -> int:
    """The action ``bid a b`` (villages in either order, a != b)."""
    if a > b:
        a, b = b, a
    return BID2_BASE + _PAIR_INDEX[(a, b)]


def bid_cells(action: int) -> tuple[int, ...]:
    """The villages a bid action adds (empty for a bare ``bid``)."""
    if action == BID_NONE:
        return ()
    if BID1_BASE <= action < BID2_BASE:
        return (action - BID1_BASE,)
    return PAIRS[action - BID2_BASE]


def is_bid(action: int) -> bool:
    return BID_NONE <= action < YIELD
