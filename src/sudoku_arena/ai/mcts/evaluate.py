"""The search as an analyst: how well each seat stands in one position.

:func:`position_values` runs the ordinary search (:class:`~.search.MCTS`, with the
game's own hints, play-outs and evaluator) for a fixed number of simulations from a
position and returns the root's value: every seat's mean return over all the
simulations. As the search spends most simulations on the lines it rates best, this
tends to the value of good play; with few simulations it is a cautious average over
the moves tried. (The value of the most visited move alone was tried too: with a
modest budget it is the luckiest of many thinly sampled moves, and it made the values
swing with whoever was to move.) A value is a seat's expected share of the win, in
``[0, 1]`` (``game.returns``: a win 1, a shared win split, a loss 0; solo games their
normalised score).

The position is searched as the *true* state with nothing hidden (``revealed``): this
is for finished games, whose hands the record has made public. Future chance is drawn
from ``chance_outcomes`` by the search's own generator, so an evaluation never knows
what chance actually brought later. With the same seed and simulations the values are
the same on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sudoku_arena.ai.mcts.search import MCTS
from sudoku_arena.ai.mcts.tree import Node
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import MoveKind, ToMove


class _Analyst(MCTS):
    """The search, also summing every seat's return over its simulations."""

    def __init__(self, game: AnyGame, rng: random.Random) -> None:
        super().__init__(game, rng=rng, revealed=True)
        self.total = [0.0] * game.num_players

    def _backup(self, root: Node, path: list[Node], value: Sequence[float]) -> None:
        super()._backup(root, path, value)
        for i, v in enumerate(value):
            self.total[i] += v

    def values(self, state: object, tm: ToMove, simulations: int) -> tuple[float, ...]:
        root = Node()
        root.state = state
        root.tm = tm
        player = tm.players[0] if tm.players else 0
        n = max(1, simulations)
        for _ in range(n):
            self._simulate(root, state, player)
        return tuple(t / n for t in self.total)


def position_values(game: AnyGame, state: object, simulations: int, seed: int) -> tuple[float, ...]:
    """Each seat's expected share of the win in ``state`` (see the module docstring),
    from ``simulations`` simulations of the search seeded with ``seed``."""
    tm = game.to_move(state)
    if tm.kind is MoveKind.TERMINAL:
        return tuple(float(v) for v in game.returns(state))
    return _Analyst(game, random.Random(seed)).values(state, tm, simulations)
