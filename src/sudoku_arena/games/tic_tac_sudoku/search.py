"""Search knowledge for Tic-Tac-Sudoku, read by the generic MCTS (types in ``core/search.py``).

Simulations do not play to the end: after a short random rollout the position is
scored by a heuristic, which keeps the search above 10,000 simulations per second on
one core. The heuristic counts what wins games (TTS-6, TTS-7): points towards the
target, lines one symbol short of their points, map marks and pairs of map marks in an
open map line, boxes close to the five symbols that mark the map, and being stuck
(TTS-8: a stuck player never moves again).

Lines one symbol short are what the fixed orders of the exploit panel live on: a
player who fills whole rows of the board in index order sets up a small-board line and
a common-space line with nearly every symbol, and a search that counts only points
scored lets them stand until it is too late to block them (docs/bots.md).
"""

from __future__ import annotations

import math
from typing import Final

from sudoku_arena.core.search import Budget, SearchHints
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState
from sudoku_arena.games.tic_tac_sudoku.rules import (
    BOX_SHIFT,
    LINES3,
    PATTERN_COUNT,
    box_pattern,
    short_points,
)

#: Weight of the advantage (in points) inside the logistic that turns it into a value.
SCALE: Final = 0.35
#: Worth of a point one symbol short (a line with two symbols and its third space
#: empty), against a point scored.
SHORT: Final = 0.25


def _step(game: TicTacSudoku, s: TTSState, a: int, p: int) -> TTSState:
    return game._place(s, a, p)


def _map_lead(m: tuple[int, ...]) -> float:
    """Circle's lead on the Map, in points: each open Map line (no mark of the other
    seat) with one mark of a seat is worth 1 to him, with two or more 4."""
    lead = 0.0
    for u, v, w in LINES3:
        a, b, c = m[u], m[v], m[w]
        mine0 = (a == 0) + (b == 0) + (c == 0)
        mine1 = (a == 1) + (b == 1) + (c == 1)
        if mine0 and not mine1:
            lead += 1.0 if mine0 == 1 else 4.0
        elif mine1 and not mine0:
            lead -= 1.0 if mine1 == 1 else 4.0
    return lead


def _box_lead(s: TTSState) -> float:
    """Circle's lead in boxes still off the Map, in points: 0.75 for each symbol past
    the second in a box (five of them mark the Map)."""
    m = s.map
    lead = 0.0
    for box in range(9):
        if m[box] < 0:
            shift = BOX_SHIFT[box]
            if box < 6:
                k0 = PATTERN_COUNT[box_pattern(s.m0_lo, shift)]
                k1 = PATTERN_COUNT[box_pattern(s.m1_lo, shift)]
            else:
                k0 = PATTERN_COUNT[box_pattern(s.m0_hi, shift)]
                k1 = PATTERN_COUNT[box_pattern(s.m1_hi, shift)]
            if k0 >= 3:
                lead += (k0 - 2) * 0.75
            if k1 >= 3:
                lead -= (k1 - 2) * 0.75
    return lead


def _short_lead(s: TTSState) -> int:
    """Circle's lead in points one symbol short (see :func:`~.rules.short_points`)."""
    free_lo, free_hi = ~s.occ_lo, ~s.occ_hi
    return short_points(s.m0_lo, s.m0_hi, free_lo, free_hi) - short_points(
        s.m1_lo, s.m1_hi, free_lo, free_hi
    )


def evaluate(game: TicTacSudoku, s: TTSState) -> tuple[float, float]:
    """An estimate of each seat's chance to win ``s`` (non-terminal), in [0, 1].

    Circle's lead in points (scores, a bonus of 2 one point from the target, the points
    one symbol short at :data:`SHORT` each, the Map, the boxes), 6 for the other seat
    being stuck and 0.5 for the move, through a logistic. (Every term is a multiple of
    1/4: the sums are exact in any order.)
    """
    near_target = game.target - 1
    d = float(s.score0 - s.score1)
    if s.score0 >= near_target:
        d += 2.0
    if s.score1 >= near_target:
        d -= 2.0
    d += SHORT * _short_lead(s) + _map_lead(s.map) + _box_lead(s)
    if s.stuck0 != s.stuck1:
        d += -6.0 if s.stuck0 else 6.0
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
