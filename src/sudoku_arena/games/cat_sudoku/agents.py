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
from typing import Any

from sudoku_arena.games.cat_sudoku.game import (
    NOWILD,
    WILD,
    CatSudoku,
    CSState,
    wild_parts,
)
from sudoku_arena.games.cat_sudoku.rules import Board

_BITS = tuple(1 << v for v in range(7))


def blocked_values(board: Board, vals: tuple[int, ...] | list[int], j: int) -> int:
    """Bit mask of the values that would conflict at ``j`` (segment or diagonal)."""
    m = 0
    for k in board.segmates[j]:
        m |= _BITS[vals[k]]
    for k in board.diag[j]:
        m |= _BITS[vals[k]]
    return m & 0x7E


def _safe_count(mask: int) -> int:
    return 6 - bin(mask).count("1")


def best_writes(
    game: CatSudoku,
    vals: tuple[int, ...],
    squares: list[int],
    values: list[int],
    rng: random.Random | None,
) -> tuple[int, int, int]:
    """The greedy write ``(delta, value, square)`` among ``values`` x ``squares``."""
    board = game.board
    per = game.per_segment
    best: list[tuple[float, int, int]] = []
    best_delta = 1 << 30
    related = board.segmates
    diag = board.diag
    masks: dict[int, int] = {}
    for i in squares:
        for v in values:
            d = board.write_delta(vals, i, v, per)
            if d > best_delta:
                continue
            # Harm: the empty related squares for which v was still safe.
            harm = 0.0
            bit = _BITS[v]
            for j in (*related[i], *diag[i]):
                if vals[j]:
                    continue
                m = masks.get(j)
                if m is None:
                    m = masks[j] = blocked_values(board, vals, j)
                if not m & bit:
                    k = _safe_count(m)
                    harm += 3.0 if k <= 1 else 1.0 / (k - 1)
            if d < best_delta:
                best_delta = d
                best = [(harm, v, i)]
            else:
                best.append((harm, v, i))
    low = min(h for h, _, _ in best)
    top = [(v, i) for h, v, i in best if h == low]
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
    total = 0
    fill = board.fillable
    for _ in range(len(s.dice)):
        if not squares:
            break
        plain = [v for v in range(1, 7) if counts[v]]
        values = plain if plain else list(range(1, 7))
        d, v, i = best_writes(game, tuple(vals), squares, values, None)
        total += d
        vals[i] = v
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

    def __init__(self, game: Any = None, seed: int | None = None) -> None:
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
