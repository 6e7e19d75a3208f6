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
last worked on (:class:`SheetWork`): the values blocked around every square, updated
write by write, and the penalty increases it has computed. An increase for value ``v``
depends only on where ``v`` stands, so a write of ``v`` makes only the increases of
``v`` stale, and the others serve the next writes, the plans of every wild value and
the next turn. The work follows the sheet it is handed: a sheet with more squares
written is caught up, any other starts afresh, so what the agent plays never depends
on what it worked on before.
"""

from __future__ import annotations

import random
from typing import Final, final

from sudoku_arena.games.cat_sudoku.game import (
    NOWILD,
    WILD,
    CatSudoku,
    CSState,
    wild_parts,
)

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


@final
class SheetWork:
    """One seat's sheet as the greedy agent works on it.

    ``vals`` is the sheet, ``masks[i]`` the values blocked at square ``i`` (bit ``v``,
    :meth:`Board.blocked_all`; bit 7 when ``i`` is filled), and ``delta[7 * i + v]``
    the penalty increase of writing ``v`` at ``i``, known when bit ``v`` of
    ``known[i]`` is set (a write of ``v`` clears that bit everywhere). Plans
    (:func:`plan_turn`) write on copies of ``vals`` and ``masks`` and pass the values
    they wrote as ``dirty``: their increases are computed afresh, the others are shared.
    """

    def __init__(self, game: CatSudoku, vals: tuple[int, ...]) -> None:
        self.game = game
        board = game.board
        self.related: tuple[tuple[int, ...], ...] = board.related
        self.squares: tuple[int, ...] = board.squares
        self.vals = vals
        self.masks: list[int] = _masks(board.blocked_all(vals), vals)
        self.delta: list[int] = [0] * (7 * board.size)
        self.known: list[int] = [0] * board.size

    def sync(self, vals: tuple[int, ...]) -> None:
        """Work on ``vals`` from now on: catch up with the squares written since, or
        start afresh when ``vals`` is not this sheet with more squares written."""
        old = self.vals
        if vals is old:
            return
        masks = self.masks
        related = self.related
        written = 0  # the values written since
        for i in self.squares:
            x = vals[i]
            if x != old[i]:
                if old[i]:
                    self.reset(vals)
                    return
                bit = 1 << x
                for j in related[i]:
                    masks[j] |= bit
                masks[i] |= _FILLED
                written |= bit
        if written:
            known = self.known
            keep = ~written
            for i in self.squares:
                known[i] &= keep
        self.vals = vals

    def reset(self, vals: tuple[int, ...]) -> None:
        """Work on ``vals``, keeping nothing computed for another sheet."""
        self.vals = vals
        self.masks = _masks(self.game.board.blocked_all(vals), vals)
        self.known = [0] * len(vals)

    def best(
        self,
        vals: tuple[int, ...],
        masks: list[int],
        squares: list[int],
        values: list[int],
        rng: random.Random | None,
        dirty: int,
        choose: bool = True,
    ) -> tuple[int, int, int]:
        """The greedy write ``(delta, value, square)`` on ``vals`` (whose blocked
        masks are ``masks``) among ``values`` (ascending) x ``squares``; only its delta
        (with value 0 and square -1) when ``choose`` is false.

        The least penalty increase wins; among equal increases the least harm (the
        float sum of the weights of the related empty squares where the value is still
        safe, in ``board.related`` order); among equal harm the first in ``squares`` x
        ``values`` order when ``rng`` is None, else ``rng.choice`` of them (called only
        when there are two or more). ``vals`` is this sheet or a plan on it whose
        writes used the values in the bit mask ``dirty``.
        """
        board = self.game.board
        per = self.game.per_segment
        delta = self.delta
        known = self.known
        # Pass 1: the least delta and every write that reaches it, in (square, value)
        # order. A value not blocked at a square adds nothing there.
        any_value = 0
        for v in values:
            any_value |= 1 << v
        best_delta = _NONE
        best_squares: list[int] = []
        best_values: list[int] = []  # bit masks of the values at best_delta
        for i in squares:
            m = masks[i]
            if not m & any_value:  # every value adds 0 here
                if best_delta > 0:
                    best_delta = 0
                    best_squares = [i]
                    best_values = [any_value]
                elif best_delta == 0:
                    best_squares.append(i)
                    best_values.append(any_value)
                continue
            here = 0
            for v in values:
                bit = 1 << v
                d = 0
                if m & bit:
                    if dirty & bit:
                        d = board.write_delta(vals, i, v, per)
                    elif known[i] & bit:
                        d = delta[7 * i + v]
                    else:
                        d = board.write_delta(vals, i, v, per)
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
            return best_delta, 0, -1
        if len(best_squares) == 1:
            here = best_values[0]
            if not here & (here - 1):  # a single write reaches the least increase
                v = 1
                while not here >> v & 1:
                    v += 1
                return best_delta, v, best_squares[0]
        # Pass 2: the least harm, in exact 60ths. A float sum is off by far less than
        # 1/60, so the writes of least float harm are among those of least exact harm.
        related = self.related
        low = _NONE
        top_values: list[int] = []
        top_squares: list[int] = []
        for k in range(len(best_squares)):
            i = best_squares[k]
            here = best_values[k]
            packed_low = 0
            packed_high = 0
            for j in related[i]:
                m = masks[j]
                packed_low += _PACK_LOW[m]
                packed_high += _PACK_HIGH[m]
            for v in range(1, 7):
                if here & 1 << v:
                    if v <= 3:
                        h = packed_low >> 16 * (v - 1) & 0xFFFF
                    else:
                        h = packed_high >> 16 * (v - 4) & 0xFFFF
                    if h <= low:
                        if h < low:
                            low = h
                            top_values = []
                            top_squares = []
                        top_values.append(v)
                        top_squares.append(i)
        n = len(top_values)
        if n > 1:
            # The float sums decide, as they always have (rounding can split an exact tie).
            harms: list[float] = []
            least = 0.0
            for k in range(n):
                bit = 1 << top_values[k]
                harm = 0.0
                for j in related[top_squares[k]]:
                    m = masks[j]
                    if not m & bit and m < _FILLED:
                        harm += _WEIGHT[m]
                harms.append(harm)
                if k == 0 or harm < least:
                    least = harm
            top = [(top_values[k], top_squares[k]) for k in range(n) if harms[k] == least]
            if rng is not None and len(top) > 1:
                v, i = rng.choice(top)
                return best_delta, v, i
            v, i = top[0]
            return best_delta, v, i
        return best_delta, top_values[0], top_squares[0]

    def write(self, vals: tuple[int, ...], masks: list[int], i: int, v: int) -> tuple[int, ...]:
        """``vals`` with ``v`` written at ``i``; ``masks`` are updated in place."""
        bit = 1 << v
        for j in self.related[i]:  # related is symmetric: v is now blocked around i
            masks[j] |= bit
        masks[i] |= _FILLED
        out = list(vals)
        out[i] = v
        return tuple(out)


def _masks(blocked: list[int], vals: tuple[int, ...]) -> list[int]:
    """``blocked`` (:meth:`Board.blocked_all`) with bit 7 set on the filled squares."""
    for i in range(len(vals)):
        if vals[i]:
            blocked[i] |= _FILLED
    return blocked


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
    return work.best(vals, work.masks, squares, values, rng, 0)


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
    masks = list(work.masks)
    squares = game.allowed_squares(s, player)
    setup = s.turn == 0
    dirty = 0
    total = 0
    for step in range(len(s.dice)):
        if not squares:
            break
        plain = [v for v in range(1, 7) if counts[v]]
        if step == len(s.dice) - 1:  # the last write: only its delta counts
            d, _, _ = work.best(vals, masks, squares, plain or _ALL_VALUES, None, dirty, False)
            return total + d
        d, v, i = work.best(vals, masks, squares, plain or _ALL_VALUES, None, dirty)
        total += d
        vals = work.write(vals, masks, i, v)
        dirty |= 1 << v
        if counts[v]:
            counts[v] -= 1
        else:
            counts[0] -= 1
        if game.adjacent:
            squares = game.open_squares(vals, setup)
        else:
            squares.remove(i)
    return total


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

    def act(self, game: CatSudoku, state: CSState, player: int) -> int:
        if state.phase == WILD:
            return self.choose_wild(game, state, player)
        d = state.left[player]
        plain = [v for v in range(1, 7) if d[v]]
        squares = game.allowed_squares(state, player)
        work = self.work(game, player, state.sheets[player])
        _, v, i = work.best(work.vals, work.masks, squares, plain or _ALL_VALUES, self._rng, 0)
        return game.write_action(v, i)

    def choose_wild(self, game: CatSudoku, state: CSState, player: int) -> int:
        legal = list(game.legal_actions(state, player))
        by_value: dict[int, list[int]] = {}
        for a in legal:
            if a != NOWILD:
                by_value.setdefault(wild_parts(a)[2], []).append(a)
        work = self.work(game, player, state.sheets[player])
        ranked: list[tuple[int, int, int]] = []
        for v in sorted(by_value):
            cost = plan_turn(game, state, player, v, work)
            ranked.append((cost, -state.dice.count(v), v))
        if NOWILD in legal:
            ranked.append((plan_turn(game, state, player, 0, work), 0, 0))
        top = min(ranked)[:2]
        choices = [v for cost, more, v in ranked if (cost, more) == top]
        v = self._rng.choice(choices)
        if v == 0:
            return NOWILD
        return min(by_value[v], key=_spare)


def _spare(a: int) -> tuple[int, int]:
    """How hard the wild box of action ``a`` is to spare (numbered, then "2+", first)."""
    row, blank, _ = wild_parts(a)
    return (int(blank), -row)


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
