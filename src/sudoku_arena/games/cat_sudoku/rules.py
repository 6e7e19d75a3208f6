"""Cat Sudoku geometry and scoring (CS-8) over a parsed sheet.

A player's sheet is a tuple with one value per square of the grid (``row * cols + col``):
0 for empty or blocked, 1-6 for a number (pre-printed numbers included, CS-2).
:class:`Board` precomputes, for every square, the other squares of its row segment and
column segment and its diagonal neighbours, so that scoring, the values that would
conflict at a square (:meth:`Board.blocked`, a bit mask) and the penalty a write would
create (:meth:`Board.write_delta`) are short loops.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sudoku_arena.games.cat_sudoku.sheet import OPEN_KINDS, START, Sheet

#: Points lost per circle (CS-8).
CIRCLE_PENALTY: Final = 2


def set_penalty(size: int) -> int:
    """The penalty of a diagonal set of ``size`` equal values (0 below two)."""
    return 0 if size < 2 else 2 if size == 2 else 5 if size == 3 else 10


class Board:
    """A sheet's squares and their neighbourhoods."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.rows, self.cols = sheet.rows, sheet.cols
        n = self.size = sheet.rows * sheet.cols
        self.fillable: tuple[int, ...] = sheet.fillable
        self.starting: tuple[int, ...] = sheet.starting
        self.is_fillable = tuple(i in set(self.fillable) for i in range(n))
        self.is_starting = tuple(k == START for k in sheet.kinds)
        self.initial: tuple[int, ...] = sheet.printed
        row_segs, col_segs = sheet.segments()
        rowmates: list[tuple[int, ...]] = [()] * n
        colmates: list[tuple[int, ...]] = [()] * n
        self.row_segments, self.col_segments = row_segs, col_segs
        for seg in row_segs:
            for i in seg:
                rowmates[i] = tuple(j for j in seg if j != i)
        for seg in col_segs:
            for i in seg:
                colmates[i] = tuple(j for j in seg if j != i)
        self.rowmates: tuple[tuple[int, ...], ...] = tuple(rowmates)
        self.colmates: tuple[tuple[int, ...], ...] = tuple(colmates)
        self.segmates: tuple[tuple[int, ...], ...] = tuple(
            rowmates[i] + colmates[i] for i in range(n)
        )
        diag: list[tuple[int, ...]] = []
        orth: list[tuple[int, ...]] = []
        for i in range(n):
            r, c = divmod(i, self.cols)
            d: list[int] = []
            o: list[int] = []
            if sheet.kinds[i] in OPEN_KINDS:
                for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < self.rows and 0 <= cc < self.cols:
                        j = rr * self.cols + cc
                        if sheet.kinds[j] in OPEN_KINDS:
                            d.append(j)
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < self.rows and 0 <= cc < self.cols:
                        j = rr * self.cols + cc
                        if sheet.kinds[j] in OPEN_KINDS:
                            o.append(j)
            diag.append(tuple(d))
            orth.append(tuple(o))
        self.diag: tuple[tuple[int, ...], ...] = tuple(diag)
        self.orth: tuple[tuple[int, ...], ...] = tuple(orth)
        #: Every square whose value can conflict with a square's: segment mates, then
        #: diagonal neighbours (the order the greedy agent sums its harm in).
        self.related: tuple[tuple[int, ...], ...] = tuple(
            self.segmates[i] + self.diag[i] for i in range(n)
        )
        self.squares: tuple[int, ...] = tuple(i for i in range(n) if sheet.kinds[i] in OPEN_KINDS)

    def name(self, i: int) -> str:
        return self.sheet.name_of(i)

    def blocked(self, vals: tuple[int, ...] | list[int], i: int) -> int:
        """Bit mask (bit ``v``) of the values that would conflict at square ``i``: those
        in its row or column segment or on a diagonal neighbour. A value outside the
        mask adds no penalty there (:meth:`write_delta` is 0)."""
        m = 0
        for j in self.related[i]:
            m |= 1 << vals[j]
        return m & 0x7E

    def blocked_all(self, vals: tuple[int, ...] | list[int]) -> list[int]:
        """:meth:`blocked` for every square, indexed by square."""
        masks = [0] * self.size
        related = self.related
        for i in self.squares:
            v = vals[i]
            if v:
                bit = 1 << v
                for j in related[i]:
                    masks[j] |= bit
        return masks

    # -- scoring ----------------------------------------------------------------------

    def circles(self, vals: tuple[int, ...], i: int, per_segment: bool) -> int:
        """How many circles square ``i`` gets (CS-8): 0 or 1, or up to 2 per segment."""
        v = vals[i]
        if not v:
            return 0
        row = False
        for j in self.rowmates[i]:
            if vals[j] == v:
                row = True
                break
        col = False
        for j in self.colmates[i]:
            if vals[j] == v:
                col = True
                break
        if per_segment:
            return row + col
        return 1 if row or col else 0

    def component(self, vals: tuple[int, ...], i: int) -> list[int]:
        """The diagonal set through ``i``: squares of ``vals[i]`` linked diagonally."""
        v = vals[i]
        diag = self.diag
        seen = [i]
        k = 0
        while k < len(seen):
            for j in diag[seen[k]]:
                if vals[j] == v and j not in seen:
                    seen.append(j)
            k += 1
        return seen

    def circled(self, vals: tuple[int, ...], per_segment: bool) -> list[tuple[int, int]]:
        """``(square, circles)`` for every circled square, in square order."""
        out = []
        for i in self.squares:
            k = self.circles(vals, i, per_segment)
            if k:
                out.append((i, k))
        return out

    def diagonal_sets(self, vals: tuple[int, ...]) -> list[list[int]]:
        """Every diagonal set (2+ squares), each sorted, in order of first square."""
        done: set[int] = set()
        out = []
        diag = self.diag
        for i in self.squares:
            v = vals[i]
            if v and i not in done:
                if not _holds(vals, diag[i], v):
                    continue  # alone: no set (most squares; no component worked out)
                comp = self.component(vals, i)
                done.update(comp)
                if len(comp) >= 2:
                    out.append(sorted(comp))
        return out

    def penalty(self, vals: tuple[int, ...], per_segment: bool) -> int:
        """The total deduction of a sheet as it stands (CS-8)."""
        total = CIRCLE_PENALTY * sum(k for _, k in self.circled(vals, per_segment))
        return total + sum(set_penalty(len(s)) for s in self.diagonal_sets(vals))

    def write_delta(self, vals: tuple[int, ...], i: int, v: int, per_segment: bool) -> int:
        """How much the deduction grows when ``v`` is written into empty square ``i``
        (:meth:`penalty` after minus before, computed from ``i``'s surroundings only).
        It depends only on which squares hold ``v``."""
        delta = 0
        # Circles: only i and the squares of value v in its two segments can change.
        row = col = 0
        rj = cj = -1
        for j in self.rowmates[i]:
            if vals[j] == v:
                row += 1
                rj = j
        for j in self.colmates[i]:
            if vals[j] == v:
                col += 1
                cj = j
        if row or col:
            # i is circled for each of its segments holding v. A mate of v is already
            # circled for that segment when another mate shares it (row or col >= 2);
            # a lone mate gains that circle, which without per_segment only counts
            # when its other segment (the one i is not in) did not circle it already.
            if per_segment:
                change = (row > 0) + (col > 0) + (row == 1) + (col == 1)
            else:
                change = 1
                if row == 1 and not _holds(vals, self.colmates[rj], v):
                    change += 1
                if col == 1 and not _holds(vals, self.rowmates[cj], v):
                    change += 1
            delta = CIRCLE_PENALTY * change
        # Diagonal sets: i joins the sets of its diagonal neighbours of value v.
        joined = 0  # squares in those sets
        before = 0  # their penalty as separate sets
        seen: list[int] = []
        for j in self.diag[i]:
            if vals[j] == v and j not in seen:
                comp = self.component(vals, j)
                seen += comp
                joined += len(comp)
                before += set_penalty(len(comp))
        if joined:
            delta += set_penalty(1 + joined) - before
        return delta

    def has_diagonal_set(self, vals: tuple[int, ...]) -> bool:
        """Whether two diagonal neighbours hold the same value (a diagonal set, CS-8)."""
        diag = self.diag
        for i in self.squares:
            v = vals[i]
            if v:
                for j in diag[i]:
                    if vals[j] == v:
                        return True
        return False

    def no_write_lowers(self, vals: tuple[int, ...]) -> bool:
        """Whether every write on ``vals`` adds to its penalty or keeps it (no
        :meth:`write_delta` below 0), and keeps this so when it adds nothing.

        Writing only adds circles, and joining diagonal sets into one lowers their
        penalty only when they cost more than 10 together (a set costs 10 at most). So
        it holds when the sets of each value cost 10 or less together; a write adding
        nothing joins no sets or keeps their cost, so it holds after it as well."""
        if not self.has_diagonal_set(vals):
            return True
        cost = [0, 0, 0, 0, 0, 0, 0]
        for group in self.diagonal_sets(vals):
            v = vals[group[0]]
            cost[v] += set_penalty(len(group))
            if cost[v] > 10:
                return False
        return True

    def delta_reach(self, vals: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
        """The squares whose :meth:`write_delta` for ``v = vals[k]`` may have changed
        when ``v`` was written into ``k``, in groups (more squares may be named, some
        twice; groups rather than one list, which would be copied together on every
        write of a play-out); the increases of the other values changed nowhere.

        :meth:`write_delta` at ``i`` reads the squares of ``v`` in ``i``'s segments, the
        other segment of a lone such square, and the diagonal sets of ``v`` next to
        ``i``. So the write reaches ``k``'s segment mates, the squares sharing a segment
        with a square of ``v`` in the other segment of ``k``'s row or column, and the
        diagonal neighbours of the set ``k`` now belongs to."""
        v = vals[k]
        out = [self.segmates[k]]
        for j in self.colmates[k]:
            if vals[j] == v:
                out.append(self.rowmates[j])
        for j in self.rowmates[k]:
            if vals[j] == v:
                out.append(self.colmates[j])
        diag = self.diag
        for j in self.component(vals, k):
            out.append(diag[j])
        return out


def _holds(vals: tuple[int, ...], squares: tuple[int, ...], v: int) -> bool:
    """Whether one of ``squares`` holds ``v``."""
    return any(vals[k] == v for k in squares)


@dataclass(frozen=True, slots=True)
class Scoring:
    """A sheet's deductions explained (CS-8)."""

    circled: tuple[tuple[int, int], ...]
    sets: tuple[tuple[int, ...], ...]
    total: int


def explain(board: Board, vals: tuple[int, ...], per_segment: bool) -> Scoring:
    circled = tuple(board.circled(vals, per_segment))
    sets = tuple(tuple(s) for s in board.diagonal_sets(vals))
    total = CIRCLE_PENALTY * sum(k for _, k in circled) + sum(set_penalty(len(s)) for s in sets)
    return Scoring(circled, sets, total)
