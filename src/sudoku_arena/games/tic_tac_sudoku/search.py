"""Search knowledge for Tic-Tac-Sudoku, read by the generic MCTS (types in ``core/search.py``).

Simulations do not play to the end: after a short random rollout the position is
scored by a heuristic, which keeps the search above 10,000 simulations per second on
one core. The heuristic counts what wins games (TTS-6, TTS-7): points towards the
target, map marks and pairs of map marks in an open map line, boxes close to the five
symbols that mark the map, and being stuck (TTS-8: a stuck player never moves again).
"""

from __future__ import annotations

import math

from sudoku_arena.core.search import Budget, SearchHints
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState
from sudoku_arena.games.tic_tac_sudoku.rules import BOX_SHIFT, LINES3, PATTERN_COUNT, box_pattern

#: Weight of the advantage (in points) inside the logistic that turns it into a value.
SCALE = 0.35


def _step(game: TicTacSudoku, s: TTSState, a: int, p: int) -> TTSState:
    return game._place(s, a, p)


def _side(game: TicTacSudoku, s: TTSState, p: int, lo: int, hi: int, score: int) -> float:
    """How close seat ``p`` (his symbols ``lo``/``hi``, his score) is to winning, in points."""
    m = s.map
    maps = 0.0
    for u, v, w in LINES3:
        a, b, c = m[u], m[v], m[w]
        mine = (a == p) + (b == p) + (c == p)
        if mine and (a < 0 or a == p) and (b < 0 or b == p) and (c < 0 or c == p):
            maps += 1.0 if mine == 1 else 4.0
    boxes = 0.0
    for box in range(9):
        if m[box] < 0:
            k = PATTERN_COUNT[box_pattern(lo if box < 6 else hi, BOX_SHIFT[box])]
            if k >= 3:
                boxes += (k - 2) * 0.75
    value = score + maps + boxes
    if score >= game.target - 1:
        value += 2.0
    return value


def evaluate(game: TicTacSudoku, s: TTSState) -> tuple[float, float]:
    """An estimate of each seat's chance to win ``s`` (non-terminal), in [0, 1]."""
    d = _side(game, s, 0, s.m0_lo, s.m0_hi, s.score0)
    d -= _side(game, s, 1, s.m1_lo, s.m1_hi, s.score1)
    st0, st1 = s.stuck0, s.stuck1
    if st0 != st1:
        d += -6.0 if st0 else 6.0
    d += 0.5 if s.current == 0 else -0.5
    v = 1.0 / (1.0 + math.exp(-SCALE * d))
    return (v, 1.0 - v)


def search_hints(game: TicTacSudoku) -> SearchHints:
    return SearchHints(
        levels={
            "easy": Budget(150, 0.3),
            "normal": Budget(2500, 0.8),
            "hard": Budget(10000, 2.5),
        },
        exploration=0.6,
        step=_step,
        evaluate=evaluate,
        rollout_depth=2,
    )
