"""Static geometry and notation of Citadel, and the group/liberty routines.

Cells ("intersections") of an ``n`` x ``n`` board are indexed ``i = n * row + col`` with
``row`` 0 at the bottom (Go-style names: columns ``a``-``t`` without ``i``, rows from 1 at
the bottom, so cell 0 is ``a1``). A *square* is the gap between four cells and is named
by its lower-left cell: square ``d4`` is the 2x2 block ``d4 e4 d5 e5`` (CI-4, CI-10).

Actions are ints, and the int is the action's stable index (``encode_action`` is the
identity). Indices are laid out on a 19x19 frame whatever the board size, so the same
action has the same index on every board; on a smaller board the actions whose cells lie
off the board exist (they have a notation) but are never legal::

    0                      end
    1    + CITADEL_BASE... citadel <cell>   (361 each: kind * 361 + frame cell)
    ...  claim, recruit (+cell), wall <square>, siege <cell>
    MOVE_BASE   + 4 * cell + dir            <cell>-<cell>
    ATTACK_BASE + 4 * cell + dir            <cell>x<cell>
    RAZE_BASE   + 8 * square + side         raze <square> <cell>

Directions: 0 north (row + 1), 1 east, 2 south, 3 west. The eight *sides* of a square
are the cells orthogonally next to its 2x2 block, in the order of ``PERIM_OFFSETS``.

Board codes: 0 empty (an unoccupied citadel is empty), 1 and 2 warriors of seats 0 and 1,
3..6 wall cells (3 lower-left, 4 lower-right, 5 upper-left, 6 upper-right quarter of a
wall), so a wall's square is found from any of its cells.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final, final

from sudoku_arena.core.errors import NotationError

#: Column letters (Go skips ``i``).
COLUMNS: Final = "abcdefghjklmnopqrst"
FRAME: Final = 19
FRAME_CELLS: Final = FRAME * FRAME
MIN_SIZE: Final = 9
MAX_SIZE: Final = 19

EMPTY: Final = 0
WALL_LL: Final = 3
WALL_LR: Final = 4
WALL_UL: Final = 5
WALL_UR: Final = 6

#: (d_row, d_col) of the four directions: north, east, south, west.
DIRS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
#: The eight cells next to the 2x2 block of square (r, c), as offsets from (r, c).
PERIM_OFFSETS: tuple[tuple[int, int], ...] = (
    (-1, 0), (-1, 1),   # south
    (0, 2), (1, 2),     # east
    (2, 1), (2, 0),     # north
    (1, -1), (0, -1),   # west
)  # fmt: skip
#: Squares whose blocks touch the block of square (r, c) (CI-5 wall adjacency).
NEAR_SQUARE_OFFSETS: tuple[tuple[int, int], ...] = tuple(
    [(dr, dc) for dr in (-2, 2) for dc in (-1, 0, 1)]
    + [(dr, dc) for dc in (-2, 2) for dr in (-1, 0, 1)]
)

# Action layout (see the module docstring).
END: Final = 0
CITADEL_BASE: Final = 1
CLAIM_BASE: Final = CITADEL_BASE + FRAME_CELLS
RECRUIT_BASE: Final = CLAIM_BASE + FRAME_CELLS
WALL_BASE: Final = RECRUIT_BASE + FRAME_CELLS
SIEGE_BASE: Final = WALL_BASE + FRAME_CELLS
MOVE_BASE: Final = SIEGE_BASE + FRAME_CELLS
ATTACK_BASE: Final = MOVE_BASE + 4 * FRAME_CELLS
RAZE_BASE: Final = ATTACK_BASE + 4 * FRAME_CELLS
NUM_ACTIONS: Final = RAZE_BASE + 8 * FRAME_CELLS

#: Kinds of action, as returned by :func:`split_action`.
K_END: Final = 0
K_CITADEL: Final = 1
K_CLAIM: Final = 2
K_RECRUIT: Final = 3
K_WALL: Final = 4
K_SIEGE: Final = 5
K_MOVE: Final = 6
K_ATTACK: Final = 7
K_RAZE: Final = 8
_SIMPLE_KINDS = (K_CITADEL, K_CLAIM, K_RECRUIT, K_WALL, K_SIEGE)
_SIMPLE_WORDS = {K_CITADEL: "citadel", K_CLAIM: "claim", K_WALL: "wall", K_SIEGE: "siege"}


def split_action(a: int) -> tuple[int, int, int]:
    """``(kind, frame cell, extra)`` of action ``a`` (extra: direction or side, else 0)."""
    if a < MOVE_BASE:
        if a == END:
            return K_END, 0, 0
        k, cell = divmod(a - 1, FRAME_CELLS)
        return _SIMPLE_KINDS[k], cell, 0
    if a < ATTACK_BASE:
        cell, d = divmod(a - MOVE_BASE, 4)
        return K_MOVE, cell, d
    if a < RAZE_BASE:
        cell, d = divmod(a - ATTACK_BASE, 4)
        return K_ATTACK, cell, d
    cell, side = divmod(a - RAZE_BASE, 8)
    return K_RAZE, cell, side


def frame_name(cell: int) -> str:
    """The Go-style name of a 19x19 frame cell (``b13``)."""
    r, c = divmod(cell, FRAME)
    return f"{COLUMNS[c]}{r + 1}"


def _frame_offset(cell: int, dr: int, dc: int) -> int:
    """The frame cell at an offset, or -1 outside the 19x19 frame."""
    r, c = divmod(cell, FRAME)
    r, c = r + dr, c + dc
    return r * FRAME + c if 0 <= r < FRAME and 0 <= c < FRAME else -1


def format_action(a: int) -> str:
    """Notation of action ``a`` (CI-10)."""
    kind, cell, extra = split_action(a)
    if kind == K_END:
        return "end"
    name = frame_name(cell)
    if kind == K_RECRUIT:
        return f"+{name}"
    if kind in _SIMPLE_WORDS:
        return f"{_SIMPLE_WORDS[kind]} {name}"
    if kind in (K_MOVE, K_ATTACK):
        dr, dc = DIRS[extra]
        to = _frame_offset(cell, dr, dc)
        sep = "-" if kind == K_MOVE else "x"
        # Off the frame only for indices of impossible actions; name them anyway.
        to_name = frame_name(to) if to >= 0 else f"{name}{'nesw'[extra]}"
        return f"{name}{sep}{to_name}"
    dr, dc = PERIM_OFFSETS[extra]
    by = _frame_offset(cell, dr, dc)
    by_name = frame_name(by) if by >= 0 else f"side{extra}"
    return f"raze {name} {by_name}"


_CELL_RE = re.compile(r"([a-z])(\d{1,2})")
_NOTATION_HELP = (
    "notation: 'citadel k10', 'claim k10', 'b13-c13' (move), 'b13xc13' (attack), "
    "'+c14' (recruit), 'wall d4', 'raze d4 c4', 'siege c13', 'end'"
)


def parse_cell(text: str) -> tuple[int, int]:
    """``(row, col)`` (0-based, row 0 at the bottom) of a cell name like ``b13``."""
    m = _CELL_RE.fullmatch(text.strip().lower())
    if m is None:
        raise NotationError(
            f"{text!r} is not a cell; cells are a column a-t (no i) and a row 1-19, like b13"
        )
    letter, digits = m.groups()
    if letter == "i":
        raise NotationError(f"{text!r}: there is no column i (Go columns skip it: ...h, j...)")
    col = COLUMNS.find(letter)
    row = int(digits) - 1
    if col < 0 or not 0 <= row < FRAME:
        raise NotationError(
            f"{text!r} is not a cell; cells are a column a-t (no i) and a row 1-19, like b13"
        )
    return row, col


def _frame_cell(text: str) -> int:
    r, c = parse_cell(text)
    return r * FRAME + c


def parse_action(text: str) -> int:
    """The action written as ``text`` (case and spacing are free); raises NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not text; {_NOTATION_HELP}")
    t = " ".join(text.strip().lower().split())
    if t == "end":
        return END
    if t.startswith("+"):
        return RECRUIT_BASE + _frame_cell(t[1:].strip())
    words = t.split(" ")
    head = words[0]
    simple = {"citadel": CITADEL_BASE, "claim": CLAIM_BASE, "wall": WALL_BASE, "siege": SIEGE_BASE}
    if head in simple:
        if len(words) != 2:
            raise NotationError(f"{text!r}: write '{head} <cell>', like '{head} d4'")
        return simple[head] + _frame_cell(words[1])
    if head == "raze":
        if len(words) != 3:
            raise NotationError(
                f"{text!r}: write 'raze <wall square> <warrior>', like 'raze d4 c4'"
            )
        sr, sc = parse_cell(words[1])
        wr, wc = parse_cell(words[2])
        off = (wr - sr, wc - sc)
        if off not in PERIM_OFFSETS:
            raise NotationError(
                f"{text!r}: the razing warrior must stand next to the wall's 2x2 block "
                f"({words[1]} and the cells right of and above it)"
            )
        return RAZE_BASE + 8 * (sr * FRAME + sc) + PERIM_OFFSETS.index(off)
    m = re.fullmatch(r"([a-z]\d{1,2}) ?([-x]) ?([a-z]\d{1,2})", t)
    if m is None:
        raise NotationError(f"{text!r} is not a Citadel action; {_NOTATION_HELP}")
    (fr, fc), sep, (tr, tc) = parse_cell(m.group(1)), m.group(2), parse_cell(m.group(3))
    off = (tr - fr, tc - fc)
    if off not in DIRS:
        raise NotationError(
            f"{text!r}: a {'move' if sep == '-' else 'attack'} goes to an orthogonally "
            "adjacent cell (one step north, east, south or west)"
        )
    base = MOVE_BASE if sep == "-" else ATTACK_BASE
    return base + 4 * (fr * FRAME + fc) + DIRS.index(off)


@final
class Geometry:
    """Precomputed tables for one board size (shared; get one with :func:`geometry`)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.cells = n * n
        cells = range(self.cells)

        def at(r: int, c: int) -> int:
            return r * n + c if 0 <= r < n and 0 <= c < n else -1

        rc = [divmod(i, n) for i in cells]
        self.names: tuple[str, ...] = tuple(f"{COLUMNS[c]}{r + 1}" for r, c in rc)
        self.to_frame: tuple[int, ...] = tuple(r * FRAME + c for r, c in rc)
        from_frame = [-1] * FRAME_CELLS
        for i, f in enumerate(self.to_frame):
            from_frame[f] = i
        self.from_frame: tuple[int, ...] = tuple(from_frame)
        #: Orthogonal neighbours of each cell.
        self.nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(j for dr, dc in DIRS if (j := at(r + dr, c + dc)) >= 0) for r, c in rc
        )
        #: (direction, neighbour) pairs of each cell.
        self.dir_nbrs: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((d, j) for d, (dr, dc) in enumerate(DIRS) if (j := at(r + dr, c + dc)) >= 0)
            for r, c in rc
        )
        #: The neighbour of cell ``i`` in direction ``d`` at ``4 * i + d`` (-1 off the board).
        self.dir_step: tuple[int, ...] = tuple(at(r + dr, c + dc) for r, c in rc for dr, dc in DIRS)
        #: Cells a king's step away (citadels may not touch, CI-2).
        self.king: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                j
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and (j := at(r + dr, c + dc)) >= 0
            )
            for r, c in rc
        )
        #: Cells where a citadel may stand: two or more cells from every edge (CI-2).
        self.interior: tuple[int, ...] = tuple(
            i for i, (r, c) in enumerate(rc) if 2 <= r <= n - 3 and 2 <= c <= n - 3
        )
        #: Whether a square (named by its lower-left cell) lies on the board.
        self.square_ok: tuple[bool, ...] = tuple(r < n - 1 and c < n - 1 for r, c in rc)
        #: The four cells of each square's block (LL, LR, UL, UR); () when off the board.
        self.block: tuple[tuple[int, ...], ...] = tuple(
            (i, i + 1, i + n, i + n + 1) if self.square_ok[i] else () for i in cells
        )
        #: The eight side cells of each square (-1 off the board), in PERIM_OFFSETS order.
        self.perim: tuple[tuple[int, ...], ...] = tuple(
            tuple(at(r + dr, c + dc) for dr, dc in PERIM_OFFSETS) for r, c in rc
        )
        #: The on-board side cells of each square (for adjacency tests).
        self.perim_cells: tuple[frozenset[int], ...] = tuple(
            frozenset(j for j in p if j >= 0) for p in self.perim
        )
        #: Squares whose blocks may touch each square's block (CI-5).
        self.near_squares: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                j
                for dr, dc in NEAR_SQUARE_OFFSETS
                if (j := at(r + dr, c + dc)) >= 0 and self.square_ok[j]
            )
            for r, c in rc
        )
        #: For each cell: the (square, side) pairs whose side cell it is.
        touching: list[list[tuple[int, int]]] = [[] for _ in cells]
        for w in cells:
            if self.square_ok[w]:
                for k, j in enumerate(self.perim[w]):
                    if j >= 0:
                        touching[j].append((w, k))
        self.touching: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(t) for t in touching)
        #: For each cell: the squares whose side cell it is (wall sites it can build).
        self.touch_squares: tuple[tuple[int, ...], ...] = tuple(
            tuple(w for w, _ in t) for t in touching
        )
        #: The square of a wall cell, from its quarter code (3..6).
        self.quarter_shift: tuple[int, ...] = (0, 0, 0, 0, 1, n, n + 1)

    def name(self, i: int) -> str:
        return self.names[i]

    def cell(self, text: str) -> int:
        """The cell named ``text`` on this board; NotationError when off the board."""
        r, c = parse_cell(text)
        if r >= self.n or c >= self.n:
            raise NotationError(f"{text!r} is off the {self.n}x{self.n} board")
        return r * self.n + c

    def wall_square(self, board: bytes, cell: int) -> int:
        """The square of the wall covering ``cell`` (which must be a wall cell)."""
        return cell - self.quarter_shift[board[cell]]

    def wall_strength(self, board: bytes, w: int) -> int:
        """CI-5: one plus the number of walls touching wall ``w``."""
        s = 1
        for q in self.near_squares[w]:
            if board[q] == WALL_LL:
                s += 1
        return s

    def strength(self, board: bytes, i: int, citadels: frozenset[int]) -> int:
        """CI-5: one plus friendly neighbours of the warrior on ``i``, plus one on a citadel."""
        code = board[i]
        s = 1 + (i in citadels)
        for j in self.nbrs[i]:
            if board[j] == code:
                s += 1
        return s

    def arrival_strength(self, board: bytes, frm: int, to: int, citadels: frozenset[int]) -> int:
        """CI-5: the strength the warrior on ``frm`` would have after stepping to ``to``
        (its friends around ``to``, itself not counted, plus one on a citadel)."""
        code = board[frm]
        s = 1 + (to in citadels)
        for j in self.nbrs[to]:
            if j != frm and board[j] == code:
                s += 1
        return s

    def group(self, board: bytes, start: int) -> tuple[list[int], int]:
        """The group (CI-8) of the warrior on ``start`` and its number of liberties."""
        return self._flood(board, start, False)

    def enclosed(self, board: bytes, start: int) -> list[int] | None:
        """The group of the warrior on ``start`` when it has no liberties (CI-8), else
        None (found at the first liberty, without walking the rest of the group)."""
        members, libs = self._flood(board, start, True)
        return None if libs else members

    def _flood(self, board: bytes, start: int, first_liberty: bool) -> tuple[list[int], int]:
        """CI-8's group of the warrior on ``start``: the warriors of its colour joined to
        it orthogonally, in the order reached, and its liberties, the empty cells next
        to the group. With ``first_liberty`` it stops at the first liberty (count 1)."""
        code = board[start]
        nbrs = self.nbrs
        members = [start]
        seen = {start}
        libs: set[int] = set()
        k = 0
        while k < len(members):
            x = members[k]
            k += 1
            for y in nbrs[x]:
                b = board[y]
                if b == EMPTY:
                    if first_liberty:
                        return members, 1
                    libs.add(y)
                elif b == code and y not in seen:
                    seen.add(y)
                    members.append(y)
        return members, len(libs)

    def captive_groups(self, board: bytes, code: int) -> list[list[int]]:
        """Every group of warriors ``code`` with no liberties (CI-8), cells in each,
        groups ordered by their lowest cell.

        A group without liberties is made of warriors without an empty neighbour, so
        only those start a walk; on an open board that is a look at each warrior's
        neighbours (measured in ``benchmarks/bench_citadel.py``).
        """
        nbrs = self.nbrs
        seen: set[int] = set()
        out: list[list[int]] = []
        for i in positions(board, code):
            if i in seen:
                continue
            open_cell = False
            for y in nbrs[i]:
                if board[y] == EMPTY:
                    open_cell = True
                    break
            if open_cell:
                continue
            members = self.enclosed(board, i)
            if members is not None:
                out.append(members)
                seen.update(members)
        return out


def positions(board: bytes, code: int) -> list[int]:
    """The cells holding ``code``, in order (``bytes.find`` scans in C)."""
    out: list[int] = []
    find = board.find
    i = find(code)
    while i >= 0:
        out.append(i)
        i = find(code, i + 1)
    return out


@cache
def geometry(n: int) -> Geometry:
    """The (shared, immutable) geometry of an ``n`` x ``n`` board."""
    return Geometry(n)


def max_citadels(n: int, free: frozenset[int]) -> int:
    """The most citadels that still fit on the cells ``free`` of an ``n`` board (CI-2).

    A row-by-row dynamic programme over bit masks of the interior columns (citadels
    may not touch, even diagonally). Used only on boards below 11, where a careless
    placement could leave no room for nine; from 11 up any maximal placement holds at
    least nine (a king dominates a 3x3 block, and the interior is at least 7x7).
    """
    lo, hi = 2, n - 3
    width = hi - lo + 1
    if width <= 0:
        return 0
    masks = [m for m in range(1 << width) if m & (m << 1) == 0]
    best: dict[int, int] = {0: 0}
    for r in range(lo, hi + 1):
        allowed = 0
        for k in range(width):
            if (r * n + lo + k) in free:
                allowed |= 1 << k
        nxt: dict[int, int] = {}
        for prev, val in best.items():
            blocked = prev | (prev << 1) | (prev >> 1)
            for m in masks:
                if m & ~allowed or m & blocked:
                    continue
                v = val + bin(m).count("1")
                if nxt.get(m, -1) < v:
                    nxt[m] = v
        best = nxt
    return max(best.values())
