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
"""

from __future__ import annotations

import random

from sudoku_arena.games.cat_sudoku.game import (
    NOWILD,
    WILD,
    CatSudoku,
    CSState,
    wild_parts,
)

_BITS = tuple(1 << v for v in range(7))

#: The harm weight of an empty square by its blocked-value mask (bits 1-6): 3 when at
#: most one safe value is left, else 1 / (safe values - 1).
_WEIGHT = tuple(
    3.0 if k <= 1 else 1.0 / (k - 1) for k in (6 - bin(m & 0x7E).count("1") for m in range(128))
)
#: The same weights in 60ths (exact integers), times one 16-bit field per value that
#: is still safe there: summing these over a write's related squares gives the harm of
#: every value at once (field ``v``; at most 14 squares x 180 fits in 16 bits).
_PACKED = tuple(
    round(60 * _WEIGHT[m]) * sum(1 << 16 * v for v in range(1, 7) if not m >> v & 1)
    for m in range(128)
)


def best_writes(
    game: CatSudoku,
    vals: tuple[int, ...],
    squares: list[int],
    values: list[int],
    rng: random.Random | None,
    masks: list[int] | None = None,
) -> tuple[int, int, int]:
    """The greedy write ``(delta, value, square)`` among ``values`` x ``squares``.

    The least penalty increase wins; among equal increases the least harm (the float
    sum of the weights of the related empty squares where the value is still safe, in
    ``board.related`` order); among equal harm the first in ``squares`` x ``values``
    order when ``rng`` is None, else ``rng.choice`` of them (called only when there are
    two or more). ``masks`` is ``board.blocked_all(vals)`` when the caller has it.
    """
    board = game.board
    per = game.per_segment
    write_delta = board.write_delta
    if masks is None:
        masks = board.blocked_all(vals)
    related = board.related
    bits = _BITS
    # Pass 1: the least delta and every write that reaches it, in (square, value) order.
    # A value not blocked at a square adds nothing there, so only blocked values pay
    # for write_delta.
    best_delta = 1 << 30
    best: list[tuple[int, list[int]]] = []  # (square, values) at best_delta
    any_value = 0
    for v in values:
        any_value |= bits[v]
    for i in squares:
        m = masks[i]
        if not m & any_value:  # every value adds 0 here
            if best_delta > 0:
                best_delta = 0
                best = [(i, values)]
            elif best_delta == 0:
                best.append((i, values))
            continue
        here: list[int] = []
        for v in values:
            d = write_delta(vals, i, v, per) if m & bits[v] else 0
            if d > best_delta:
                continue
            if d < best_delta:
                best_delta = d
                best = []
                here = []
            if not here:
                best.append((i, here))
            here.append(v)
    # Pass 2: the least harm, in exact 60ths. A float sum is off by far less than 1/60,
    # so the writes of least float harm are among those of least exact harm.
    packed_of = _PACKED
    packed_at = [0 if x else packed_of[m] for x, m in zip(vals, masks, strict=True)]
    at = packed_at.__getitem__
    low = 1 << 30
    top: list[tuple[int, int]] = []  # (value, square) at the least exact harm
    for i, here in best:
        packed = sum(map(at, related[i]))
        for v in here:
            h = packed >> 16 * v & 0xFFFF
            if h <= low:
                if h < low:
                    low = h
                    top = []
                top.append((v, i))
    if len(top) > 1:
        # The float sums decide, as they always have (rounding can split an exact tie).
        weight = _WEIGHT
        harms = []
        for v, i in top:
            bit = bits[v]
            harm = 0.0
            for j in related[i]:
                if not vals[j]:
                    m = masks[j]
                    if not m & bit:
                        harm += weight[m]
            harms.append(harm)
        least = min(harms)
        top = [vi for vi, h in zip(top, harms, strict=True) if h == least]
    v, i = top[0] if rng is None or len(top) == 1 else rng.choice(top)
    return best_delta, v, i


def plan_turn(game: CatSudoku, s: CSState, player: int, wild: int) -> int:
    """The penalty ``player`` adds writing this turn's dice greedily with ``wild``."""
    counts = [0] * 7
    for d in s.dice:
        counts[0 if d == wild else d] += 1
    vals = list(s.sheets[player])
    squares = game.allowed_squares(s, player)
    board = game.board
    masks = board.blocked_all(vals)
    related = board.related
    total = 0
    fill = board.fillable
    for _ in range(len(s.dice)):
        if not squares:
            break
        plain = [v for v in range(1, 7) if counts[v]]
        values = plain if plain else list(range(1, 7))
        d, v, i = best_writes(game, tuple(vals), squares, values, None, masks)
        total += d
        vals[i] = v
        bit = _BITS[v]
        for j in related[i]:  # related is symmetric: v is now blocked around i
            masks[j] |= bit
        if counts[v]:
            counts[v] -= 1
        else:
            counts[0] -= 1
        if game.adjacent:
            squares = [j for j in fill if not vals[j]]
            touching = [j for j in squares if any(vals[k] for k in board.orth[j])]
            squares = touching or squares
        else:
            squares.remove(i)
    return total


class GreedyAgent:
    """Writes where the least penalty arises; picks the wild that helps its own sheet."""

    name = "greedy"

    def __init__(self, game: CatSudoku | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: CatSudoku, state: CSState, player: int) -> int:
        if state.phase == WILD:
            return self.choose_wild(game, state, player)
        d = state.left[player]
        plain = [v for v in range(1, 7) if d[v]]
        values = plain if plain else list(range(1, 7))
        squares = game.allowed_squares(state, player)
        _, v, i = best_writes(game, state.sheets[player], squares, values, self._rng)
        return game.write_action(v, i)

    def choose_wild(self, game: CatSudoku, state: CSState, player: int) -> int:
        legal = list(game.legal_actions(state, player))
        by_value: dict[int, list[int]] = {}
        for a in legal:
            if a != NOWILD:
                by_value.setdefault(wild_parts(a)[2], []).append(a)
        ranked = []
        for v in sorted(by_value):
            ranked.append((plan_turn(game, state, player, v), -state.dice.count(v), v))
        if NOWILD in legal:
            ranked.append((plan_turn(game, state, player, 0), 0, 0))
        top = min(ranked)[:2]
        choices = [v for cost, more, v in ranked if (cost, more) == top]
        v = self._rng.choice(choices)
        if v == 0:
            return NOWILD

        def spare(a: int) -> tuple[int, int]:
            row, blank, _ = wild_parts(a)
            return (int(blank), -row)

        return min(by_value[v], key=spare)


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
