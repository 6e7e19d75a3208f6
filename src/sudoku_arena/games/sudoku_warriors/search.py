"""Search knowledge for Sudoku Warriors, read by the generic MCTS (types in ``core/search.py``).

Placements are searched with a prior (PUCT): the greedy agent's value of each hilltop.
Without it the search spread its simulations over the 60 to 100 empty hilltops and, as
the second player, lost the placing phase to greedy's placements (to ``panel:bid-max``
in 8 of 50 games, 2 with the prior).

Simulations stop after a short random rollout and score the position by how close each
player is to the target: provinces held, plus for every province still open the
player's estimated chance to win it (the greedy agent's strengths: warriors on its
hilltops and the unspent resources he could add in its battle; in a battle being fought,
the battle scores so far plus what each remaining participant can still add).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sudoku_arena.core.search import Budget, SearchHints
from sudoku_arena.games.sudoku_warriors.agents import placement_values
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.strength import SOFTNESS, Board

#: How sharply the expected share of the target turns into a winning chance.
SHARPNESS = 6.0
#: The softmax temperature that turns the greedy placement values (changes in a chance
#: margin, mostly 0 to 0.3) into the search's prior (PUCT): at 0.1 the greedy
#: favourite gets about twice the weight of a move 0.07 behind it.
PRIOR_TEMPERATURE = 0.1


def _step(game: SudokuWarriors, s: SWState, a: int, p: int) -> SWState:
    return game._step(s, a, p)


def expected_provinces(game: SudokuWarriors, s: SWState) -> list[float]:
    """Provinces held plus the estimated chances of winning the open ones, per seat."""
    n = game.num_players
    exp = [float(s.owner.count(q)) for q in range(n)]
    board = Board(game, s)
    for b in range(9):
        if not board.open[b]:
            continue
        if b == s.battle:
            grid = game.grid
            weights = [0.0] * n
            for q in s.active:
                reach = s.bscore[q] + sum(grid[c] for c in game.eligible(s, q))
                weights[q] = math.exp(reach / SOFTNESS)
            total = sum(weights)
            chances = [w / total for w in weights]
        else:
            chances = board.chances(
                b, board.warriors[b], board.res[b], board.cap[b], board.cap_empty[b]
            )
        for q in range(n):
            exp[q] += chances[q]
    return exp


def evaluate(game: SudokuWarriors, s: SWState) -> Sequence[float]:
    """An estimate of each seat's chance to win from the non-terminal ``s``."""
    exp = expected_provinces(game, s)
    weights = [math.exp(SHARPNESS * e / game.target) for e in exp]
    total = sum(weights)
    return [w / total for w in weights]


def _prior(game: SudokuWarriors, s: SWState, p: int, actions: Sequence[int]) -> list[float]:
    """The prior of ``actions``: placements weighed by the greedy agent's value of each
    (``agents.placement_values``); the actions of a battle, and the choice of the next
    one, all alike (the search compares them by their returns alone)."""
    if game.phase(s) != "place":
        return [0.0] * len(actions)
    return placement_values(game, s, p, actions)


def search_hints(game: SudokuWarriors) -> SearchHints:
    return SearchHints(
        levels={
            "easy": Budget(100, 0.3),
            "normal": Budget(800, 0.8),
            # The prior costs about 0.7 ms a new node, so hard usually stops on its
            # clock; 2.3 s leaves the last simulation room under the 2.5 s p95 target.
            "hard": Budget(3000, 2.3),
        },
        exploration=0.7,
        step=_step,
        evaluate=evaluate,
        rollout_depth=4,
        prior=_prior,
        prior_temperature=PRIOR_TEMPERATURE,
    )
