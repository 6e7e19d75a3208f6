"""Sudoku Warriors' greedy agent.

Placement. For every province not yet won the agent estimates each player's *strength*:
warriors on the province's 16 hilltops plus the unspent resources he controls in the
villages he could add in its battle (SW-8, SW-11). A player who has no warrior on the
capital's hilltops and cannot get one there any more (they are all taken) has no
chance. Strengths become win chances by a softmax; the position's value for the agent
is, summed over the provinces, his chance minus the best other player's. The agent
takes the hilltop that gives the best value after it, updating only what that hilltop
changes (its villages' control, the provinces around it), so a move costs a few
thousand table look-ups. A hilltop that completes a province counts double (the battle
comes at once), and a lot more when that battle decides the game.

Battles. It picks the due battle it is likeliest to win first. It yields a battle it
cannot win (everything it could still add does not beat what another remaining
participant could reach), opens with a bare ``bid`` and otherwise adds the cheapest
legal bid, preferring villages that matter for fewer provinces still to be fought.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import (
    BATTLE_BASE,
    BID_NONE,
    CAPITAL_HILLS,
    CELL_HILLS,
    HILL_CELLS,
    HILL_PROVS,
    YIELD,
    bid_cells,
    control_by_codes,
)
from sudoku_arena.games.sudoku_warriors.strength import CELL_REGIONS
from sudoku_arena.games.sudoku_warriors.strength import Board as _Board


def _margin(ch: list[float], p: int) -> float:
    return ch[p] - max(x for q, x in enumerate(ch) if q != p)


def placement_values(game: SudokuWarriors, s: SWState, p: int, legal: Sequence[int]) -> list[float]:
    """The greedy value of claiming each hilltop of ``legal`` for ``p``: summed over the
    provinces it touches, the change in ``p``'s chance minus the best rival's (see the
    module docstring). The greedy agent takes the best; the search uses them as its
    prior over placements."""
    board = _Board(game, s)
    grid = game.grid
    hill = s.hill
    owned = [s.owner.count(q) for q in range(game.num_players)]
    target = game.target
    base = {}
    for b in range(9):
        if board.open[b]:
            ch = board.chances(b, board.warriors[b], board.res[b], board.cap[b], board.cap_empty[b])
            base[b] = _margin(ch, p)
    mark = p + 1
    out: list[float] = []
    for h in legal:
        # Villages whose control the new warrior changes.
        changes: list[tuple[int, int, int]] = []
        for c in HILL_CELLS[h]:
            codes = [mark if x == h else hill[x] for x in CELL_HILLS[c]]
            after = control_by_codes(*codes)
            before = board.ctrl[c]
            if after != before and not s.spent >> c & 1:
                changes.append((c, before, after))
        affected = set(HILL_PROVS[h])
        for c, _, _ in changes:
            affected.update(CELL_REGIONS[c])
        value = 0.0
        for b in affected:
            if not board.open[b]:
                continue
            warriors = list(board.warriors[b])
            res = list(board.res[b])
            cap = list(board.cap[b])
            cap_empty = board.cap_empty[b]
            if b in HILL_PROVS[h]:
                warriors[p] += 1
                if h in CAPITAL_HILLS[b]:
                    cap[p] = True
                    cap_empty -= 1
            for c, before, after in changes:
                if b in CELL_REGIONS[c]:
                    v = grid[c]
                    if before >= 0:
                        res[before] -= v
                    if after >= 0:
                        res[after] += v
            ch = board.chances(b, warriors, res, cap, cap_empty)
            gain = _margin(ch, p) - base[b]
            if b in HILL_PROVS[h] and s.empties[b] == 1:
                # The battle comes now; a decisive one weighs far more.
                decisive = 1.0
                if owned[p] == target - 1:
                    decisive += 10.0 * ch[p]
                for q in range(game.num_players):
                    if q != p and owned[q] == target - 1:
                        decisive += 10.0 * ch[q]
                gain = 2.0 * gain + (decisive - 1.0) * (1 if ch[p] >= max(ch) else -1)
            value += gain
        out.append(value)
    return out


class GreedyAgent:
    """One-ply greedy play by province strengths; cheapest bids; yields lost battles."""

    name = "greedy"

    def __init__(self, game: SudokuWarriors | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: SudokuWarriors, state: SWState, player: int) -> int:
        legal = list(game.legal_actions(state, player))
        if len(legal) == 1:
            return legal[0]
        phase = game.phase(state)
        if phase == "bid":
            return self._bid(game, state, player, legal)
        if phase == "choose":
            return self._choose(game, state, player, legal)
        return self._place(game, state, player, legal)

    # -- placement ------------------------------------------------------------------------

    def _place(self, game: SudokuWarriors, s: SWState, p: int, legal: list[int]) -> int:
        best_value = -math.inf
        best: list[int] = []
        for h, value in zip(legal, placement_values(game, s, p, legal), strict=True):
            if value > best_value + 1e-9:
                best_value = value
                best = [h]
            elif abs(value - best_value) <= 1e-9:
                best.append(h)
        return self._rng.choice(best)

    # -- battles --------------------------------------------------------------------------

    def _choose(self, game: SudokuWarriors, s: SWState, p: int, legal: list[int]) -> int:
        board = _Board(game, s)
        scored = []
        for a in legal:
            b = a - BATTLE_BASE
            ch = board.chances(b, board.warriors[b], board.res[b], board.cap[b], board.cap_empty[b])
            scored.append((ch[p], a))
        top = max(x for x, _ in scored)
        return self._rng.choice([a for x, a in scored if x == top])

    def _bid(self, game: SudokuWarriors, s: SWState, p: int, legal: list[int]) -> int:
        grid = game.grid
        reach = {q: s.bscore[q] + sum(grid[c] for c in game.eligible(s, q)) for q in s.active}
        rival = max(reach[q] for q in s.active if q != p)
        if reach[p] <= rival:
            return YIELD
        if not s.opened:
            return BID_NONE
        bids = [a for a in legal if a != YIELD]
        if not bids:
            return YIELD
        open_provinces = [b for b in range(9) if s.owner[b] < 0 and b != s.battle]

        def cost(a: int) -> tuple[int, int, int]:
            cells = bid_cells(a)
            future = sum(1 for c in cells for b in CELL_REGIONS[c] if b in open_provinces)
            return (sum(grid[c] for c in cells), future, len(cells))

        scored = [(cost(a), a) for a in bids]
        low = min(k for k, _ in scored)
        return self._rng.choice([a for k, a in scored if k == low])


__all__ = ["CELL_REGIONS", "GreedyAgent"]


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
