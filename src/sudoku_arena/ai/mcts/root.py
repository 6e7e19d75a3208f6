"""Deciding at the root by rollout improvement, without a tree (``root_candidates``).

For games where the rollout policy is already strong and luck dwarfs the differences
between moves (Cat Sudoku's dice): the prior's best few actions are each followed by a
play-out of the rollout policy in the same sampled futures (one determinisation, one
stream of chance outcomes and one policy seed per future, shared by all candidates), so
that the candidates are compared on equal luck and small differences show with few
samples. Playing the best candidate improves on the rollout policy itself (policy
iteration, Bertsekas' rollout algorithm).
"""

from __future__ import annotations

import random
import time

from sudoku_arena.ai.mcts.playout import Playout
from sudoku_arena.ai.mcts.selection import Selector
from sudoku_arena.ai.mcts.tree import SearchResult
from sudoku_arena.core.search import Budget


def root_rollouts(
    selector: Selector,
    playout: Playout,
    candidates: int,
    hidden: bool,
    state: object,
    player: int,
    legal: list[object],
    budget: Budget,
    t0: float,
) -> SearchResult:
    """Compare the best ``candidates`` actions by play-outs in common sampled futures.

    The budget's iterations count play-outs; the time cap is checked before every
    play-out, and a round cut short is dropped, so every candidate keeps the same
    futures (the first round always completes, so there is a move to play).
    """
    game = selector.game
    rng = selector.rng
    order = selector.order(state, player, list(legal))  # best last
    cands = order[::-1][: max(1, candidates)]
    if len(cands) == 1:
        return SearchResult(cands[0], 0, time.perf_counter() - t0, ((cands[0], 0, 0.0),))
    rounds = max(1, budget.iterations // len(cands))
    deadline = None if budget.seconds is None else t0 + budget.seconds
    totals = [0.0] * len(cands)
    done = 0
    for _ in range(rounds):
        z = rng.randrange(1 << 62)
        got: list[float] = []
        for a in cands:
            if done and deadline is not None and time.perf_counter() > deadline:
                break  # out of time mid-round: drop the round, keep luck equal
            det = game.determinize(state, player, random.Random(z)) if hidden else state
            s = playout.step(game, det, a, player)
            got.append(playout.run(s, random.Random(z + 1), random.Random(z + 2))[player])
        if len(got) < len(cands):
            break
        for j, v in enumerate(got):
            totals[j] += v
        done += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    means = [x / done for x in totals]
    best = max(range(len(cands)), key=lambda j: (means[j], -j))
    ranked = sorted(range(len(cands)), key=lambda j: (-means[j], j))
    stats = tuple((cands[j], done, means[j]) for j in ranked)
    return SearchResult(cands[best], done * len(cands), time.perf_counter() - t0, stats)
