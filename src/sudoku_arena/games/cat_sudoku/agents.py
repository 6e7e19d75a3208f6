"""Cat Sudoku's greedy agent: every write creates the least penalty it can.

Writing. Among the legal writes, the agent takes the one whose penalty increase
(:meth:`Board.write_delta`, exact under CS-8) is smallest. Plain dice are written before
wild dice, so that the wild dice go last to whatever spot is then best. Ties are broken
by *harm*: how much the write narrows the safe values (values that would create no
penalty) of the empty squares it shares a segment or a diagonal with, weighted by how
few safe values those squares have left; then at random (seeded).

The wild (active player only). For each wild value the dice allow (and for no wild),
the agent plays its own four writes greedily and keeps the value whose writes add the
least penalty (ties: more wild dice). Then it spends the box the counter can spare most
easily: a numbered box before a blank one, and the "2+" row before the "1+" row.

Speed. The agent drives the search's play-outs, so it keeps, per seat, the sheet it
last worked on (:class:`SheetWork`): the values blocked around every square and the
harm sums of every empty square (:class:`Marks`), both updated write by write, the
penalty increases it has computed, and the choices its plans of the wild made. An
increase for value ``v`` depends only on where ``v`` stands, so a write of ``v`` makes
only the increases of ``v`` it reaches stale (:meth:`Board.delta_reach`), and the
others serve the next writes, the plans of every wild value and the next turn; the
active player's writes take the choices of its plan while they follow it. Most plans
cost nothing, and most of those are shown to without being played out
(:func:`free_plans`). The work follows the sheet it is handed: a sheet with more
squares written is caught up, any other starts afresh, so what the agent plays never
depends on what it worked on before.
"""

from __future__ import annotations

import random
from typing import Final, final

from sudoku_arena.core.draws import randbelow
from sudoku_arena.games.cat_sudoku.game import (
    NOWILD,
    WILD,
    CatSudoku,
    CSState,
    wild_parts,
)
from sudoku_arena.games.cat_sudoku.rules import Board

_ALL_VALUES = [1, 2, 3, 4, 5, 6]

#: The harm weight of an empty square by its blocked-value mask (bits 1-6): 3 when at
#: most one safe value is left, else 1 / (safe values - 1).
_WEIGHT: Final[tuple[float, ...]] = tuple(
    3.0 if k <= 1 else 1.0 / (k - 1) for k in (6 - bin(m & 0x7E).count("1") for m in range(128))
)
#: The same weights in 60ths (exact integers), times one 16-bit field per value that
#: is still safe there: summing these over a write's related squares gives the harm of
#: every value at once (at most 14 squares x 180 fits in 16 bits). Values 1-3 are packed
#: in one integer and 4-6 in another, so that both stay small (native when compiled).
#: Bit 7 of a mask marks a filled square, which weighs nothing (the entries 128-255).
_FILLED: Final = 128
_PACK_LOW: Final[tuple[int, ...]] = tuple(
    0
    if m & _FILLED
    else round(60 * _WEIGHT[m]) * sum(1 << 16 * (v - 1) for v in (1, 2, 3) if not m >> v & 1)
    for m in range(256)
)
_PACK_HIGH: Final[tuple[int, ...]] = tuple(
    0
    if m & _FILLED
    else round(60 * _WEIGHT[m]) * sum(1 << 16 * (v - 4) for v in (4, 5, 6) if not m >> v & 1)
    for m in range(256)
)
_NONE: Final = 1 << 30
#: How many squares from a sheet :meth:`SheetWork.reset` may put its base: catching up
#: with a few writes costs less than working out a sheet's marks afresh.
_NEAR: Final = 4
#: The values in a bit mask (bits 1-6), ascending.
_VALUES_IN: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(v for v in range(1, 7) if m >> v & 1) for m in range(128)
)


@final
class Marks:
    """What the squares of a sheet block, kept up to date write by write.

    ``masks[i]`` holds the values blocked at square ``i`` (bit ``v``,
    :meth:`Board.blocked_all`; bit 7 when ``i`` is filled). ``low[i]`` and ``high[i]``,
    for an empty square ``i``, are the sums of :data:`_PACK_LOW` and :data:`_PACK_HIGH`
    of the masks of ``i``'s related squares: the harm of every value at ``i`` at once.
    A write changes the masks of a few squares only, so the sums follow it by the
    difference instead of being summed afresh for every square a write is looked for
    in (the sums of a filled square are left behind: never read again). ``stale[i]``
    (bit ``v``) marks the penalty increases a plan's writes have changed
    (:meth:`SheetWork.write`): the sheet's own increases do not hold there. It is all
    zeros for the sheet itself. ``sets`` says whether two diagonal neighbours hold the
    same value (a diagonal set): without one, a blocked value adds a penalty wherever it
    is written (a circle or a new set), and no write lowers the penalty (there is no set
    to merge).
    """

    def __init__(
        self, masks: list[int], low: list[int], high: list[int], stale: list[int], sets: bool
    ) -> None:
        self.masks = masks
        self.low = low
        self.high = high
        self.stale = stale
        self.sets = sets

    def copy(self) -> Marks:
        """An independent copy."""
        return Marks(list(self.masks), list(self.low), list(self.high), list(self.stale), self.sets)

    def copy_from(self, other: Marks) -> None:
        """Become a copy of ``other`` (of a sheet of the same size), in place."""
        self.masks[:] = other.masks
        self.low[:] = other.low
        self.high[:] = other.high
        self.stale[:] = other.stale
        self.sets = other.sets

    def write(self, board: Board, vals: tuple[int, ...], i: int) -> None:
        """``vals`` is the sheet with square ``i`` written: its value is now blocked
        around ``i``, and ``i`` is filled."""
        v = vals[i]
        bit = 1 << v
        related = board.related
        masks = self.masks
        m = masks[i]
        self._change(related, i, m, m | _FILLED)  # first: i's own sums are not needed
        for j in related[i]:  # related is symmetric: v is now blocked around i
            m = masks[j]
            if not m & bit:
                self._change(related, j, m, m | bit)
        if not self.sets:
            for j in board.diag[i]:
                if vals[j] == v:
                    self.sets = True

    def _change(self, related: tuple[tuple[int, ...], ...], j: int, old: int, new: int) -> None:
        """Set square ``j``'s mask from ``old`` to ``new``; update the sums of the empty
        squares around it (those of a filled square are never read again)."""
        masks = self.masks
        masks[j] = new
        dl = _PACK_LOW[new] - _PACK_LOW[old]
        dh = _PACK_HIGH[new] - _PACK_HIGH[old]
        if dl or dh:
            low = self.low
            high = self.high
            for k in related[j]:
                if masks[k] < _FILLED:
                    low[k] += dl
                    high[k] += dh


def new_marks(board: Board, vals: tuple[int, ...]) -> Marks:
    """The :class:`Marks` of the sheet ``vals``, worked out afresh."""
    masks = _masks(board.blocked_all(vals), vals)
    related = board.related
    low = [0] * board.size
    high = [0] * board.size
    for i in board.squares:
        packed_low = 0
        packed_high = 0
        for j in related[i]:
            m = masks[j]
            packed_low += _PACK_LOW[m]
            packed_high += _PACK_HIGH[m]
        low[i] = packed_low
        high[i] = packed_high
    return Marks(masks, low, high, [0] * board.size, board.has_diagonal_set(vals))


@final
class SheetWork:
    """One seat's sheet as the greedy agent works on it.

    ``vals`` is the sheet, ``marks`` what its squares block (:class:`Marks`), and
    ``delta[7 * i + v]`` the penalty increase of writing ``v`` at ``i``, known when bit
    ``v`` of ``known[i]`` is set (a write of ``v`` clears that bit on the squares it
    reaches, :meth:`Board.delta_reach`). Plans (:func:`plan_turn`) write on copies of
    ``vals`` and ``marks``, which mark the increases their writes reach as stale: those
    are computed afresh, the others are shared.
    """

    def __init__(self, game: CatSudoku, vals: tuple[int, ...]) -> None:
        self.game = game
        board = game.board
        self.related: tuple[tuple[int, ...], ...] = board.related
        self.squares: tuple[int, ...] = board.squares
        self.board = board
        self.vals = vals
        self.marks = new_marks(board, vals)
        #: The fillable squares empty in ``vals``, in square order: what
        #: :meth:`CatSudoku.open_squares` allows after the setup without the option
        #: adjacent. Kept write by write; callers only read it.
        self.empty: list[int] = _empty(board, vals)
        self.delta: list[int] = [0] * (7 * board.size)
        self.known: list[int] = [0] * board.size
        #: The marks plans write on (:meth:`plan_marks`), kept to be overwritten.
        self.scratch: Marks | None = None
        #: What the last plans chose on the way (:meth:`remember`).
        self.planned: list[tuple[int, tuple[int, ...], list[int], list[int]]] = []
        #: :meth:`no_write_lowers` of the sheet ``steady_for``.
        self.steady = True
        self.steady_for: tuple[int, ...] | None = None
        #: The sheet :meth:`reset` starts again from, and a copy of its marks.
        self.base = vals
        self.base_marks = self.marks.copy()
        self.base_empty = list(self.empty)

    def sync(self, vals: tuple[int, ...]) -> None:
        """Work on ``vals`` from now on: catch up with the squares written since, or
        start again (:meth:`reset`) when ``vals`` is not this sheet with more squares
        written."""
        if vals is not self.vals and not self._catch_up(vals):
            self.reset(vals)

    def _catch_up(self, vals: tuple[int, ...], forget: bool = True) -> bool:
        """Catch up with ``vals``, this sheet with more squares written, forgetting the
        increases the writes reach unless ``forget`` is false (none are known); False
        (the marks left half done) when ``vals`` is not that."""
        old = self.vals
        marks = self.marks
        board = self.board
        written: list[int] = []  # the squares written since
        for i in self.squares:
            x = vals[i]
            if x != old[i]:
                if old[i]:
                    return False
                marks.write(board, vals, i)
                written.append(i)
        self.vals = vals
        empty = self.empty
        for i in written:
            if i in empty:  # not when a printed square was filled in (a loaded sheet)
                empty.remove(i)
        if forget:
            self._forget(vals, written)
        return True

    def _forget(self, vals: tuple[int, ...], written: list[int]) -> None:
        """Forget the increases the writes of ``written`` on the sheet ``vals`` reach."""
        known = self.known
        board = self.board
        for i in written:
            # Reaches worked out on the sheet with every new write are a superset of
            # those of each write on its own.
            keep = ~(1 << vals[i])
            for group in board.delta_reach(vals, i):
                for j in group:
                    known[j] &= keep

    def advance(self, before: tuple[int, ...], after: tuple[int, ...], i: int) -> None:
        """The engine wrote square ``i`` of the sheet ``before``, making ``after``: when
        this work is on ``before``, catch up with that write (as :meth:`sync` would,
        without comparing the two sheets square by square)."""
        if self.vals is before:
            self.marks.write(self.board, after, i)
            self.vals = after
            empty = self.empty
            if i in empty:
                empty.remove(i)
            self._forget(after, [i])

    def reset(self, vals: tuple[int, ...]) -> None:
        """Work on ``vals``, keeping no increase computed for another sheet.

        When ``vals`` is :attr:`base` with a few squares written (a search's play-outs
        all start from its position), the marks start from the base's and catch up;
        when it is the squares ``vals`` and the base hold alike with a few written (the
        position before each of a search's candidate writes), that becomes the base;
        else ``vals`` does, its marks worked out afresh."""
        self.known = [0] * len(vals)
        self.planned = []
        base = self.base
        extra = 0  # the squares vals holds and the base does not hold alike
        moved = False  # whether the base holds a square vals does not hold alike
        for i in self.squares:
            x = vals[i]
            y = base[i]
            if x != y:
                if x:
                    extra += 1
                if y:
                    moved = True
        if extra > _NEAR:
            self._start(vals)
            return
        if moved:
            self._start(tuple([x if x == y else 0 for x, y in zip(vals, base, strict=True)]))
        else:
            self.vals = base
            self.marks.copy_from(self.base_marks)
            self.empty = list(self.base_empty)
        self._catch_up(vals, False)

    def _start(self, vals: tuple[int, ...]) -> None:
        """Work on ``vals`` afresh, and make it the base."""
        self.vals = vals
        self.marks = new_marks(self.board, vals)
        self.empty = _empty(self.board, vals)
        self.base = vals
        self.base_marks = self.marks.copy()
        self.base_empty = list(self.empty)

    def allowed_squares(self, s: CSState, player: int) -> list[int]:
        """:meth:`CatSudoku.allowed_squares` for ``player``, whose sheet this work is
        synced to: the list this work keeps (:attr:`empty`; not to be changed by the
        caller) where the rule allows every empty square (:meth:`every_empty_open`)."""
        if self.game.every_empty_open(s.turn == 0):
            return self.empty
        return self.game.allowed_squares(s, player)

    def no_write_lowers(self) -> bool:
        """:meth:`Board.no_write_lowers` of the sheet, worked out once per sheet (the
        plans of the wild and the ranking of their costs both ask)."""
        vals = self.vals
        if self.steady_for is not vals:
            self.steady = not self.marks.sets or self.board.no_write_lowers(vals)
            self.steady_for = vals
        return self.steady

    def plan_marks(self) -> Marks:
        """A copy of the sheet's marks for a plan to write on. Plans run one at a time,
        so the copy is kept and overwritten by the next one."""
        scratch = self.scratch
        if scratch is None:
            scratch = self.scratch = self.marks.copy()
        else:
            scratch.copy_from(self.marks)
        return scratch

    def best(
        self,
        vals: tuple[int, ...],
        marks: Marks,
        squares: list[int],
        values: list[int],
        rng: random.Random | None,
        choose: bool = True,
    ) -> tuple[int, int, int]:
        """The greedy write ``(delta, value, square)`` on ``vals`` (whose squares block
        ``marks``) among ``values`` (ascending) x ``squares``; only its delta
        (with value 0 and square -1) when ``choose`` is false.

        The least penalty increase wins; among equal increases the least harm (the
        float sum of the weights of the related empty squares where the value is still
        safe, in ``board.related`` order); among equal harm the first in ``squares`` x
        ``values`` order when ``rng`` is None, else ``rng.choice`` of them (called only
        when there are two or more). ``vals`` is this sheet or a plan on it written
        on ``marks`` (:meth:`write`).
        """
        d, ties = self.ties(vals, marks, squares, values, choose)
        if not choose:
            return d, 0, -1
        v, i = pick(ties, rng)
        return d, v, i

    def ties(
        self,
        vals: tuple[int, ...],
        marks: Marks,
        squares: list[int],
        values: list[int],
        choose: bool = True,
    ) -> tuple[int, list[int]]:
        """``(delta, writes)``: the least increase of :meth:`best` and the writes it
        chooses among (``7 * square + value``, in its order; none when ``choose`` is
        false). They depend on ``vals``, ``squares`` and ``values`` only."""
        any_value = 0
        for v in values:
            any_value |= 1 << v
        if not marks.sets:
            # No write lowers the penalty, and an unblocked value adds nothing: where
            # one is unblocked, the least increase is 0.
            unblocked = self._unblocked_ties(marks, squares, any_value, choose)
            if unblocked is not None:
                return 0, unblocked
        board = self.game.board
        per = self.game.per_segment
        delta = self.delta
        known = self.known
        masks = marks.masks
        stale = marks.stale
        # Pass 1: the least delta and every write that reaches it, in (square, value)
        # order. A value not blocked at a square adds nothing there.
        best_delta = _NONE
        best_squares: list[int] = []
        best_values: list[int] = []  # bit masks of the values at best_delta
        for i in squares:
            m = masks[i]
            free = any_value & ~m  # the values adding 0 here
            if free == any_value:  # and the others add more
                if best_delta > 0:
                    best_delta = 0
                    best_squares = [i]
                    best_values = [free]
                elif best_delta == 0:
                    best_squares.append(i)
                    best_values.append(free)
                continue
            here = 0
            off = stale[i]  # the plan's writes changed these values' increases here
            ready = known[i] & ~off
            for v in values:
                bit = 1 << v
                d = 0
                if m & bit:
                    if ready & bit:
                        d = delta[7 * i + v]
                    else:
                        d = board.write_delta(vals, i, v, per)
                        if not off & bit:  # the same on the sheet itself: keep it
                            delta[7 * i + v] = d
                            known[i] |= bit
                if d > best_delta:
                    continue
                if d < best_delta:
                    best_delta = d
                    best_squares = []
                    best_values = []
                    here = 0
                here |= bit
            if here:
                best_squares.append(i)
                best_values.append(here)
        if not choose:
            return best_delta, []
        if len(best_squares) == 1:
            here = best_values[0]
            if not here & (here - 1):  # a single write reaches the least increase
                return best_delta, [7 * best_squares[0] + _VALUES_IN[here][0]]
        # Pass 2: the least harm among them.
        return best_delta, self._least_harm(marks, best_squares, best_values)

    def _unblocked_ties(
        self, marks: Marks, squares: list[int], any_value: int, choose: bool
    ) -> list[int] | None:
        """The writes :meth:`ties` chooses among on a sheet without a diagonal set,
        where writes of unblocked values (of the bit mask ``any_value``) add the least,
        0: those of least harm, in exact 60ths (:func:`_least_harm_at`), then as floats.
        None when no value is unblocked at any of ``squares``; [] when not ``choose``."""
        masks = marks.masks
        found: list[int] = []
        frees: list[int] = []  # bit masks of the unblocked values there
        for i in squares:
            free = any_value & ~masks[i]
            if free:
                if not choose:
                    return []
                found.append(i)
                frees.append(free)
        if not found:
            return None
        return self._least_harm(marks, found, frees)

    def _least_harm(self, marks: Marks, squares: list[int], values: list[int]) -> list[int]:
        """The writes (``7 * square + value``) of least harm among ``squares`` with the
        values in the bit masks ``values``: least in exact 60ths
        (:func:`_least_harm_at`), then as floats (:meth:`_least_float_harm`)."""
        sums_low = marks.low
        sums_high = marks.high
        low = _NONE
        top_squares: list[int] = []
        top_values: list[int] = []  # bit masks of the values of least harm there
        for k in range(len(squares)):
            i = squares[k]
            least, at = _least_harm_at(sums_low[i], sums_high[i], values[k])
            if least < low:
                low = least
                top_squares = [i]
                top_values = [at]
            elif least == low:
                top_squares.append(i)
                top_values.append(at)
        return self._least_float_harm(marks.masks, top_squares, top_values)

    def _least_float_harm(
        self, masks: list[int], squares: list[int], values: list[int]
    ) -> list[int]:
        """The writes (``7 * square + value``) of least float harm among ``squares``
        with the values in the bit masks ``values``, in square and value order. The
        float sums decide, as they always have (rounding can split an exact tie)."""
        at = values[0]
        if len(squares) == 1 and not at & (at - 1):  # a single write: nothing to break
            return [7 * squares[0] + _VALUES_IN[at][0]]
        related = self.related
        least = 0.0
        ties: list[int] = []  # 7 * square + value of the writes of least harm so far
        for k in range(len(squares)):
            i = squares[k]
            for v in _VALUES_IN[values[k]]:
                bit = 1 << v
                harm = 0.0
                for j in related[i]:
                    m = masks[j]
                    if not m & bit and m < _FILLED:
                        harm += _WEIGHT[m]
                if not ties or harm < least:
                    least = harm
                    ties = [7 * i + v]
                elif harm == least:
                    ties.append(7 * i + v)
        return ties

    def remember(
        self, vals: tuple[int, ...], squares: list[int], mask: int, ties: list[int]
    ) -> None:
        """Keep a plan's :meth:`ties` on ``vals`` among ``squares`` and the values in
        the bit ``mask``: the player's own writes may come to the same sheet."""
        self.planned.append((mask, vals, list(squares), ties))

    def recall(self, vals: tuple[int, ...], squares: list[int], mask: int) -> list[int] | None:
        """The :meth:`ties` a plan kept for this sheet, squares and values, or None."""
        n = len(squares)
        for kept_mask, kept_vals, kept_squares, ties in self.planned:
            if (
                kept_mask == mask
                and len(kept_squares) == n
                and kept_vals == vals
                and kept_squares == squares
            ):
                return ties
        return None

    def write(self, vals: tuple[int, ...], marks: Marks, i: int, v: int) -> tuple[int, ...]:
        """``vals`` with ``v`` written at ``i``, for a plan: ``marks`` (a copy of the
        sheet's) are updated in place and mark the increases the write reaches stale."""
        out = list(vals)
        out[i] = v
        after = tuple(out)
        marks.write(self.board, after, i)
        bit = 1 << v
        stale = marks.stale
        for group in self.board.delta_reach(after, i):
            for j in group:
                stale[j] |= bit
        return after


def _least_harm_at(packed_low: int, packed_high: int, free: int) -> tuple[int, int]:
    """``(harm, values)``: the least exact harm (in 60ths) of the values in the bit mask
    ``free`` at a square whose sums are ``packed_low`` and ``packed_high`` (:class:`Marks`),
    and the bit mask of the values that have it. A float sum is off by far less than
    1/60, so the writes of least float harm are among those of least exact harm."""
    least = _NONE
    at = 0
    for v in _VALUES_IN[free]:
        h = (packed_low >> 16 * (v - 1) if v <= 3 else packed_high >> 16 * (v - 4)) & 0xFFFF
        if h < least:
            least = h
            at = 1 << v
        elif h == least:
            at |= 1 << v
    return least, at


def _empty(board: Board, vals: tuple[int, ...]) -> list[int]:
    """The fillable squares of ``board`` empty in ``vals``, in square order."""
    return [i for i in board.fillable if not vals[i]]


def _masks(blocked: list[int], vals: tuple[int, ...]) -> list[int]:
    """``blocked`` (:meth:`Board.blocked_all`) with bit 7 set on the filled squares."""
    for i in range(len(vals)):
        if vals[i]:
            blocked[i] |= _FILLED
    return blocked


def pick(ties: list[int], rng: random.Random | None) -> tuple[int, int]:
    """``(value, square)`` of one of the writes ``ties`` (``7 * square + value``): the
    first when ``rng`` is None, else ``rng.choice`` of them (called when two or more;
    drawn by :func:`randbelow`, the same index without ``choice``'s Python frames)."""
    chosen = ties[0] if rng is None or len(ties) == 1 else ties[randbelow(rng, len(ties))]
    return chosen % 7, chosen // 7


def _mask(values: list[int]) -> int:
    """The bit mask (bit ``v``) of ``values``."""
    m = 0
    for v in values:
        m |= 1 << v
    return m


def best_writes(
    game: CatSudoku,
    vals: tuple[int, ...],
    squares: list[int],
    values: list[int],
    rng: random.Random | None,
) -> tuple[int, int, int]:
    """The greedy write ``(delta, value, square)`` among ``values`` (ascending) x
    ``squares`` on the sheet ``vals``, worked out afresh (see :meth:`SheetWork.best`)."""
    work = SheetWork(game, vals)
    return work.best(vals, work.marks, squares, values, rng)


def plan_turn(
    game: CatSudoku, s: CSState, player: int, wild: int, work: SheetWork | None = None
) -> int:
    """The penalty ``player`` adds writing this turn's dice greedily with ``wild``
    (ties to the first write). ``work`` is ``player``'s sheet work when the caller has it."""
    vals = s.sheets[player]
    if work is None:
        work = SheetWork(game, vals)
    else:
        work.sync(vals)
    counts = [0, 0, 0, 0, 0, 0, 0]
    for d in s.dice:
        counts[0 if d == wild else d] += 1
    marks = work.plan_marks()
    squares = list(work.allowed_squares(s, player))  # a copy: the plan's writes take squares
    setup = s.turn == 0
    total = 0
    for step in range(len(s.dice)):
        if not squares:
            break
        plain = [v for v in range(1, 7) if counts[v]]
        if step == len(s.dice) - 1:  # the last write: only its delta counts
            d, _, _ = work.best(vals, marks, squares, plain or _ALL_VALUES, None, False)
            return total + d
        values = plain or _ALL_VALUES
        d, ties = work.ties(vals, marks, squares, values)
        work.remember(vals, squares, _mask(values), ties)
        v, i = pick(ties, None)
        total += d
        vals = work.write(vals, marks, i, v)
        if counts[v]:
            counts[v] -= 1
        else:
            counts[0] -= 1
        if game.adjacent:
            squares = game.open_squares(vals, setup)
        else:
            squares.remove(i)
    return total


def free_plans(game: CatSudoku, s: CSState, player: int, work: SheetWork) -> list[bool]:
    """For every wild value ``w`` (0: no wild), whether :func:`plan_turn` surely costs 0:
    then it need not be played out. ``work`` is ``player``'s sheet work, synced.

    On a sheet where no write lowers the penalty (:meth:`Board.no_write_lowers`, as on
    one without a diagonal set), a write of a value not blocked at its square adds
    nothing, so a plan costs 0 when every write finds an unblocked value among those
    it may write. A write takes a square and blocks one value at most at the others,
    its own at the squares it is related to; so it suffices (with ``P`` plain dice,
    ``c`` showing ``u``, before the wild dice) that every plain ``u`` is unblocked at
    ``P + (c - 1) * K`` allowed squares or more (``K``: the most of those squares one
    of them is related to; one of all the allowed squares on a sheet with a diagonal
    set, where a write adding nothing may join a set of ten), and, when a wild die is
    left, that four allowed squares have four or more unblocked values (three writes
    go before the last). With the option adjacent the allowed squares change with
    every write: nothing is claimed.
    """
    out = [False] * 7
    if game.adjacent or not work.no_write_lowers():
        return out
    masks = work.marks.masks
    squares = work.allowed_squares(s, player)
    unblocked = [0, 0, 0, 0, 0, 0, 0]  # allowed squares where each value is unblocked
    rich = 0  # allowed squares with four or more unblocked values
    for i in squares:
        free = _VALUES_IN[~masks[i] & 0x7E]
        for u in free:
            unblocked[u] += 1
        if len(free) >= 4:
            rich += 1
    dice = s.dice
    kill = [-1, -1, -1, -1, -1, -1, -1]  # K of each value, once needed
    for w in range(7):
        counts = [0, 0, 0, 0, 0, 0, 0]
        for d in dice:
            counts[0 if d == w else d] += 1
        plain = len(dice) - counts[0]
        ok = not counts[0] or rich >= 4
        for u in range(1, 7):
            c = counts[u]
            if not c or not ok:
                continue
            if c > 1 and kill[u] < 0:
                kill[u] = _most_related(work.related, masks, squares, 1 << u, work.marks.sets)
            if unblocked[u] < plain + (c - 1) * kill[u]:
                ok = False
        out[w] = ok
    return out


def _most_related(
    related: tuple[tuple[int, ...], ...],
    masks: list[int],
    squares: list[int],
    bit: int,
    anywhere: bool,
) -> int:
    """The most of the ``squares`` where ``bit`` is unblocked that one of them, or one
    of all the ``squares`` when ``anywhere``, is related to."""
    most = 0
    for i in squares:
        if anywhere or not masks[i] & bit:
            n = 0
            for j in related[i]:
                if not masks[j] & bit and masks[j] < _FILLED:
                    n += 1
            if n > most:
                most = n
    return most


def rank_wilds(
    game: CatSudoku, s: CSState, player: int, values: list[int], work: SheetWork
) -> list[tuple[int, int, int]]:
    """``(cost, -dice, value)`` for the wild ``values`` (0: no wild) that may rank first
    or tie for it, in the order of ``values``: ``cost`` is :func:`plan_turn`'s, ``dice``
    how many dice show the value. The least pair ranks first.

    A value is not planned when :func:`free_plans` shows that its plan costs 0, nor
    when it cannot rank first: fewer of its dice show than the best's so far, and that
    best's cost is already the least possible. A plan's cost is the sheet's penalty
    after its writes minus before (each write's increase is exact); where no write
    lowers the penalty (:meth:`Board.no_write_lowers`) no plan costs less than 0:
    circles stay, and the sets of a value that cost 10 or less together cost as much
    or more once writes join them.
    """
    dice = s.dice
    work.sync(s.sheets[player])
    work.planned = []
    steady = work.no_write_lowers()
    free = free_plans(game, s, player, work)
    costs: dict[int, int] = {}
    best_cost = best_more = 0
    for v in sorted(values, key=dice.count, reverse=True):  # the most dice first
        more = -dice.count(v)
        if costs and steady and best_cost <= 0 and more > best_more:
            continue  # fewer dice than the best, at no lower cost: ranks below it
        cost = 0 if free[v] else plan_turn(game, s, player, v, work)
        if not costs or (cost, more) < (best_cost, best_more):
            best_cost, best_more = cost, more
        costs[v] = cost
    return [(costs[v], -dice.count(v), v) for v in values if v in costs]


@final
class GreedyAgent:
    """Writes where the least penalty arises; picks the wild that helps its own sheet."""

    name = "greedy"

    def __init__(self, game: CatSudoku | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._game: CatSudoku | None = None
        self._work: list[SheetWork | None] = []

    def work(self, game: CatSudoku, player: int, vals: tuple[int, ...]) -> SheetWork:
        """``player``'s sheet work, brought to ``vals``."""
        if game is not self._game:
            self._game = game
            self._work = [None] * game.num_players
        work = self._work[player]
        if work is None:
            work = SheetWork(game, vals)
            self._work[player] = work
        else:
            work.sync(vals)
        return work

    def written(
        self, game: CatSudoku, player: int, before: tuple[int, ...], after: tuple[int, ...], i: int
    ) -> None:
        """The engine wrote square ``i`` of ``player``'s sheet ``before``, making ``after``
        (a search's step tells its play-out agent): its sheet work follows
        (:meth:`SheetWork.advance`), so the next :meth:`work` finds it done."""
        if game is self._game:
            work = self._work[player]
            if work is not None:
                work.advance(before, after, i)

    def act(self, game: CatSudoku, state: CSState, player: int) -> int:
        if state.phase == WILD:
            return self.choose_wild(game, state, player)
        d = state.left[player]
        plain = [v for v in range(1, 7) if d[v]]
        work = self.work(game, player, state.sheets[player])
        squares = work.allowed_squares(state, player)
        values = plain or _ALL_VALUES
        ties = work.recall(work.vals, squares, _mask(values))  # as a plan of the wild went
        if ties is None:
            _, ties = work.ties(work.vals, work.marks, squares, values)
        v, i = pick(ties, self._rng)
        return game.write_action(v, i)

    def choose_wild(self, game: CatSudoku, state: CSState, player: int) -> int:
        legal = list(game.legal_actions(state, player))
        by_value: dict[int, list[int]] = {}
        for a in legal:
            if a != NOWILD:
                by_value.setdefault(wild_parts(a)[2], []).append(a)
        work = self.work(game, player, state.sheets[player])
        values = sorted(by_value)
        if NOWILD in legal:
            values.append(0)
        ranked = rank_wilds(game, state, player, values, work)
        top = min(ranked)[:2]
        choices = [v for cost, more, v in ranked if (cost, more) == top]
        v = choices[randbelow(self._rng, len(choices))]  # rng.choice(choices), cheaper
        if v == 0:
            return NOWILD
        return min(by_value[v], key=_spare)


def _spare(a: int) -> tuple[int, int]:
    """How hard the wild box of action ``a`` is to spare (numbered, then "2+", first)."""
    row, blank, _ = wild_parts(a)
    return (int(blank), -row)


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
