"""Search knowledge for Cat Sudoku, read by the generic MCTS (``ai/hints.py``).

A sheet's final score depends on dice still to come, so a simulation stops where it
adds a node and scores the sheets as they stand plus a *risk* for every empty square:
the fewer values it can still take without a penalty (no equal value in its row and
column segments or on a diagonal neighbour, CS-8), the likelier it costs points when
it is filled. The expected final score (scaled to ``[0, 1]`` like the solo returns)
is the value; with several players each seat's chance to win follows from a softmax
of the expected scores.

Expansion follows the greedy agent's ranking (the penalty a write adds, then the harm
it does to its neighbours' safe values) with progressive widening, so the search
spends its simulations on the few writes that matter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sudoku_arena.ai.hints import Budget, SearchHints
from sudoku_arena.games.cat_sudoku.game import (
    OVER,
    ROLL,
    WILD,
    CatSudoku,
    CSState,
    is_write,
    write_parts,
)

#: Expected penalty of an empty square by how many values it can still take safely.
RISK = (3.0, 1.2, 0.45, 0.15, 0.05, 0.0, 0.0)
#: Score points per factor e between seats (several players).
SOFTNESS = 3.0

_BITS = tuple(1 << v for v in range(7))
_SAFE = tuple(6 - bin(m & 0x7E).count("1") for m in range(128))


def _step(game: CatSudoku, s: CSState, a: int, p: int | None) -> CSState:
    if p is None:
        return game._roll(s, a + 1)
    if s.phase == WILD:
        return game._choose_wild(s, a)
    v, r, c = write_parts(a)
    return game._write(s, p, v, r * game.sheet.cols + c)


def expected_penalty(game: CatSudoku, vals: tuple[int, ...]) -> float:
    """The sheet's penalty so far plus the risk of its empty squares."""
    board = game.board
    segmates = board.segmates
    diag = board.diag
    risk = 0.0
    for j in board.fillable:
        if vals[j]:
            continue
        m = 0
        for k in segmates[j]:
            m |= _BITS[vals[k]]
        for k in diag[j]:
            m |= _BITS[vals[k]]
        risk += RISK[_SAFE[m & 0x7E]]
    return board.penalty(vals, game.per_segment) + risk


def evaluate(game: CatSudoku, s: CSState) -> list[float]:
    """Solo: the expected final score / 100; several seats: each one's chance to win."""
    scores = [100.0 - expected_penalty(game, vals) for vals in s.sheets]
    if len(scores) == 1:
        return [max(0.0, min(1.0, scores[0] / 100.0))]
    top = max(scores)
    ws = [math.exp((x - top) / SOFTNESS) for x in scores]
    total = sum(ws)
    return [w / total for w in ws]


def _prior(game: CatSudoku, s: CSState, p: int, actions: Sequence[int]) -> list[float]:
    """Greedy ranking: least added penalty, then least harm to neighbours' safe values."""
    if s.phase in (ROLL, OVER) or not actions or not is_write(actions[0]):
        return [0.0] * len(actions)
    board = game.board
    vals = s.sheets[p]
    cols = game.sheet.cols
    per = game.per_segment
    segmates = board.segmates
    diag = board.diag
    masks: dict[int, int] = {}
    out = []
    for a in actions:
        v, r, c = write_parts(a)
        i = r * cols + c
        d = board.write_delta(vals, i, v, per)
        harm = 0.0
        bit = _BITS[v]
        for j in (*segmates[i], *diag[i]):
            if vals[j]:
                continue
            m = masks.get(j)
            if m is None:
                m = 0
                for k in segmates[j]:
                    m |= _BITS[vals[k]]
                for k in diag[j]:
                    m |= _BITS[vals[k]]
                masks[j] = m
            if not m & bit:
                k = _SAFE[m & 0x7E]
                harm += 3.0 if k <= 1 else 1.0 / (k - 1)
        out.append(-10.0 * d - harm)
    return out


def search_hints(game: Any) -> SearchHints:
    return SearchHints(
        levels={
            "easy": Budget(60, 0.3),
            "normal": Budget(300, 0.8),
            "hard": Budget(1200, 2.5),
        },
        exploration=0.5,
        step=_step,
        step_chance=True,
        evaluate=evaluate,
        rollout_depth=0,
        prior=_prior,
        widening=1.0,
        # Each seat writes his own sheet: within a writing phase no seat's best write
        # depends on the others' writes, so decoupled UCT is sound and keeps the
        # prior-ordered expansion (regret matching would start uniform over ~200 writes).
        simultaneous_ucb=True,
    )
