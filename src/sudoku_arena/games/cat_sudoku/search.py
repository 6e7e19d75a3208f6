"""Search knowledge for Cat Sudoku, read by the generic search (types in ``core/search.py``).

In Cat Sudoku the dice decide much more than any one write, and the greedy agent is
already a careful player (least added penalty, then least harm to the neighbours' safe
values). Tree search with a heuristic value did not beat it: the value of a half-filled
sheet is hard to estimate, and the luck of later rolls hides the small differences
between good writes. So the search improves on the greedy agent directly (the rollout
algorithm): the few writes (or wild choices) it ranks best are each played out to the
end of the game by the greedy agent in the *same* sampled futures (the same dice
rolls), and the write whose futures score best is played. Comparing on equal dice
shows differences of a fraction of a point with a handful of futures.

* Candidates: writes ranked by the added penalty (CS-8), then the harm to the empty
  squares around; wild choices (CS-4) by the penalty of the turn the greedy agent
  would write with that wild, then by how easily the counter spares the box.
* Rollouts: the greedy agent, seeded per future, for every seat.
* Levels: ``easy`` looks at one future, ``normal`` at four, ``hard`` at eight (five
  candidates each).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import final

from sudoku_arena.core.search import Budget, SearchHints
from sudoku_arena.games.cat_sudoku.agents import GreedyAgent, SheetWork, plan_turn
from sudoku_arena.games.cat_sudoku.game import (
    NOWILD,
    WILD,
    CatSudoku,
    CSState,
    is_write,
    wild_parts,
    write_parts,
)

#: Candidates compared at each decision.
CANDIDATES = 5

_SAFE = tuple(6 - bin(m & 0x7E).count("1") for m in range(128))


def _step(game: CatSudoku, s: CSState, a: int, p: int | None) -> CSState:
    if p is None:
        return game._roll(s, a + 1)
    if s.phase == WILD:
        return game._choose_wild(s, a)
    v, r, c = write_parts(a)
    return game._write(s, p, v, r * game.sheet.cols + c)


@final
class _Greedy:
    """The greedy agent as a search's play-out policy and wild ranking. Each search
    has its own (its sheet work is never shared between searches)."""

    def __init__(self) -> None:
        self.agent = GreedyAgent(seed=0)

    def rollout(self, game: CatSudoku, s: CSState, p: int, rng: random.Random) -> int:
        """The greedy agent's action, its tie-breaks drawn from ``rng``."""
        agent = self.agent
        agent._rng = rng  # the greedy agent's only randomness: its tie-breaks
        return agent.act(game, s, p)

    def step(self, game: CatSudoku, s: CSState, a: int, p: int | None) -> CSState:
        """:func:`_step`, telling the agent of the writes: its sheet work then follows
        them without looking for what changed (:meth:`GreedyAgent.written`)."""
        if p is None or s.phase == WILD:
            return _step(game, s, a, p)
        v, r, c = write_parts(a)
        i = r * game.sheet.cols + c
        after = game._write(s, p, v, i)
        self.agent.written(game, p, s.sheets[p], after.sheets[p], i)
        return after

    def prior(self, game: CatSudoku, s: CSState, p: int, actions: Sequence[int]) -> list[float]:
        """:func:`_prior`, planning wild choices on the agent's sheet work."""
        if actions and not is_write(actions[0]):
            return _wild_prior(game, s, p, actions, self.agent.work(game, p, s.sheets[p]))
        return _prior(game, s, p, actions)


def _wild_prior(
    game: CatSudoku, s: CSState, p: int, actions: Sequence[int], work: SheetWork | None = None
) -> list[float]:
    cost: dict[int, int] = {}
    out = []
    for a in actions:
        if a == NOWILD:
            v, spare = 0, 0.0
        else:
            row, blank, v = wild_parts(a)
            spare = 0.1 * row - 0.2 * blank  # numbered before blank, "2+" before "1+"
        if v not in cost:
            cost[v] = plan_turn(game, s, p, v, work)
        out.append(-10.0 * cost[v] + 0.5 * s.dice.count(v) + spare)
    return out


def _prior(game: CatSudoku, s: CSState, p: int, actions: Sequence[int]) -> list[float]:
    """The greedy agent's ranking of ``actions`` (larger is better)."""
    if not actions:
        return []
    if not is_write(actions[0]):
        return _wild_prior(game, s, p, actions)
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
        bit = 1 << v
        for j in (*segmates[i], *diag[i]):
            if vals[j]:
                continue
            m = masks.get(j)
            if m is None:
                m = 0
                for k in segmates[j]:
                    m |= 1 << vals[k]
                for k in diag[j]:
                    m |= 1 << vals[k]
                masks[j] = m
            if not m & bit:
                k = _SAFE[m & 0x7E]
                harm += 3.0 if k <= 1 else 1.0 / (k - 1)
        out.append(-10.0 * d - harm)
    return out


def search_hints(game: CatSudoku) -> SearchHints:
    greedy = _Greedy()
    return SearchHints(
        levels={
            "easy": Budget(CANDIDATES, 0.3),
            "normal": Budget(4 * CANDIDATES, 0.8),
            "hard": Budget(8 * CANDIDATES, 2.5),
        },
        step=greedy.step,
        step_chance=True,
        rollout_action=greedy.rollout,
        prior=greedy.prior,
        root_candidates=CANDIDATES,
        # Only used if the tree search runs (root_candidates=None): each seat writes
        # his own sheet, so within a writing phase no seat's best write depends on
        # the others' writes and decoupled UCT is sound.
        simultaneous_ucb=True,
        widening=1.0,
    )
