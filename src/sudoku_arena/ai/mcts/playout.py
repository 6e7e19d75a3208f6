"""Play-outs: from a leaf, play on with the game's rollout policy and score the end.

A :class:`Playout` is built once per search from the game's hints: the step functions
(the game's unchecked fast path or its validating ``apply``), the rollout policy (or
uniformly random legal actions), and the evaluation that cuts a play-out short after
``rollout_depth`` decisions (or none: play to the end, with a safety limit).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import final

from sudoku_arena.ai.mcts.tree import CHANCE, TERMINAL, checked_step, sample
from sudoku_arena.core.draws import randbelow
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import SearchHints, StepFn


@final
class Playout:
    """Plays a state on to a value per seat (see the module docstring)."""

    def __init__(self, game: AnyGame, hints: SearchHints, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        step = hints.step
        #: Applies a decision action chosen from ``legal_actions``.
        self.step: StepFn = step if step is not None else checked_step
        #: Applies a chance outcome (the fast path only where the game says it may).
        self.chance: StepFn = step if step is not None and hints.step_chance else checked_step
        self.evaluate = hints.evaluate
        #: Whether the evaluation may be taken at a chance node (else it is resolved).
        self.evaluate_chance = hints.evaluate_chance
        self.policy = hints.rollout_action
        self.limit = hints.rollout_depth if self.evaluate is not None else hints.max_rollout_plies

    def run(
        self, s: object, rng: random.Random | None = None, chance_rng: random.Random | None = None
    ) -> Sequence[float]:
        """Play on from ``s``; ``rng`` drives the policy and ``chance_rng`` the chance
        outcomes (both the search's generator by default)."""
        game = self.game
        if rng is None:
            rng = self.rng
        crng = chance_rng if chance_rng is not None else rng
        step = self.step
        chance = self.chance
        evaluate = self.evaluate
        policy = self.policy
        limit = self.limit
        at_chance = self.evaluate_chance
        depth = 0
        while True:
            tm = game.to_move(s)
            kind = tm.kind
            if kind is TERMINAL:
                return game.returns(s)
            if depth >= limit and (evaluate is None or at_chance or kind is not CHANCE):
                return game.returns(s) if evaluate is None else evaluate(game, s)
            if kind is CHANCE:
                s = chance(game, s, sample(game.chance_outcomes(s), crng), None)
                continue
            p = tm.players[0]
            if policy is not None:
                a = policy(game, s, p, rng)
            else:
                legal = game.legal_actions(s, p)
                a = legal[randbelow(rng, len(legal))]
            s = step(game, s, a, p)
            depth += 1
