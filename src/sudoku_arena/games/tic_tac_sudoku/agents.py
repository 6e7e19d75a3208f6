"""Tic-Tac-Sudoku's greedy agent: best immediate gain, then blocking the opponent's."""

from __future__ import annotations

import random

from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState

_WIN = 1000


def gain(game: TicTacSudoku, before: TTSState, after: TTSState, player: int) -> int:
    """Points gained by ``player`` from ``before`` to ``after``; a map mark counts 3 and
    a win counts 1000."""
    g = after.scores[player] - before.scores[player]
    g += 3 * (sum(1 for m in after.map if m == player) - sum(1 for m in before.map if m == player))
    if after.current < 0 and after.winner == player:
        g += _WIN
    return g


def best_gain(game: TicTacSudoku, s: TTSState, player: int) -> int:
    """The most ``player`` can gain with one placement from ``s`` (0 if he cannot move)."""
    best = 0
    for a in game.legal_actions(s, player):
        best = max(best, gain(game, s, game._place(s, a, player), player))
    return best


class GreedyAgent:
    """Takes the placement with the best immediate gain; among equals, the one that
    leaves the opponent the smallest immediate gain; then at random (seeded)."""

    name = "greedy"

    def __init__(self, game: TicTacSudoku | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: TicTacSudoku, state: TTSState, player: int) -> int:
        legal = list(game.legal_actions(state, player))
        scored = []
        for a in legal:
            after = game._place(state, a, player)
            scored.append((gain(game, state, after, player), a, after))
        top = max(g for g, _, _ in scored)
        best = [(a, after) for g, a, after in scored if g == top]
        if len(best) > 1:
            opp = 1 - player
            threats = [
                (best_gain(game, after, opp) if after.current == opp else 0, a) for a, after in best
            ]
            low = min(t for t, _ in threats)
            choices = [a for t, a in threats if t == low]
        else:
            choices = [best[0][0]]
        return self._rng.choice(choices)


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
