"""Province strengths in Sudoku Warriors: the greedy agent's and the search's estimate.

For every province not yet won each player's *strength* is his warriors on the
province's 16 hilltops plus the unspent resources he controls in the villages he could
add in its battle (SW-8, SW-11). A player who has no warrior on the capital's hilltops
and cannot get one there any more (they are all taken) has no chance. Strengths become
win chances by a softmax. Compiled with the engine (``setup.py``), since every search
simulation ends by scoring a position this way.
"""

from __future__ import annotations

import math
from typing import final

from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import (
    BATTLE_CELLS,
    CAPITAL_HILLS,
    NEIGHBOURS,
    PROV_HILLS,
)
from sudoku_arena.grids.sudoku import box_of

#: For each village, the provinces in whose battles it may be added (SW-11).
CELL_REGIONS: tuple[tuple[int, ...], ...] = tuple(
    (box_of(c), *NEIGHBOURS[box_of(c)]) for c in range(81)
)
#: Strength points per factor e in the softmax that turns strengths into chances.
SOFTNESS = 8.0


@final
class Board:
    """Per-province strengths of every player in one position (provinces not yet won)."""

    n: int
    open: list[bool]
    warriors: list[list[int]]
    res: list[list[int]]
    cap: list[list[bool]]
    cap_empty: list[int]
    ctrl: list[int]

    def __init__(self, game: SudokuWarriors, s: SWState) -> None:
        n = game.num_players
        self.n = n
        grid = game.grid
        hill = s.hill
        spent = s.spent
        self.open = [s.owner[b] < 0 for b in range(9)]
        self.warriors = [[0] * n for _ in range(9)]
        self.res = [[0] * n for _ in range(9)]
        self.cap = [[False] * n for _ in range(9)]
        self.cap_empty = [0] * 9
        ctrl = list(s.ctrl)
        self.ctrl = ctrl
        for b in range(9):
            if not self.open[b]:
                continue
            w = self.warriors[b]
            for h in PROV_HILLS[b]:
                k = hill[h]
                if 1 <= k <= n:
                    w[k - 1] += 1
            cap = self.cap[b]
            for h in CAPITAL_HILLS[b]:
                k = hill[h]
                if k == 0:
                    self.cap_empty[b] += 1
                elif k <= n:
                    cap[k - 1] = True
            r = self.res[b]
            for c in BATTLE_CELLS[b]:
                q = ctrl[c]
                if q >= 0 and not spent >> c & 1:
                    r[q] += grid[c]

    def chances(
        self, b: int, warriors: list[int], res: list[int], cap: list[bool], cap_empty: int
    ) -> list[float]:
        """Each player's estimated chance of winning province ``b``."""
        weights: list[float] = []
        for q in range(self.n):
            if cap[q] or cap_empty > 0:
                weights.append(math.exp((warriors[q] + res[q]) / SOFTNESS))
            else:
                weights.append(0.0)
        total = sum(weights)
        if total == 0:
            return [0.0] * self.n
        return [x / total for x in weights]


__all__ = ["CELL_REGIONS", "SOFTNESS", "Board"]
