"""A learned evaluation is never asked about a chance node: its features describe a
seat to move, and nobody is to move there (SuDokuHex's play-outs end before a draw)."""

from __future__ import annotations

import dataclasses
import random

from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.learned import with_learned
from sudoku_arena.ai.mcts import MCTS, Budget
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load
from sudoku_arena.core.search import SearchHints


def _a_position_to_search(game: AnyGame) -> object:
    """The first decision of a game after its set-up (chance outcomes drawn at random)."""
    rng = random.Random(5)
    s = game.initial_state()
    while game.to_move(s).is_chance:
        s = game.apply(s, rng.choice(game.chance_outcomes(s))[0], None)
    return s


def _kinds_evaluated(hints: SearchHints, game: AnyGame, s: object) -> set[str]:
    """The kinds of node a search with ``hints`` asks its evaluation about."""
    seen: set[str] = set()

    def evaluate(g: AnyGame, x: object) -> list[float]:
        seen.add("chance" if g.to_move(x).is_chance else "decision")
        return [0.5] * g.num_players

    search = MCTS(game, hints=dataclasses.replace(hints, evaluate=evaluate), rng=random.Random(1))
    search.search(s, game.to_move(s).players[0], Budget(300))
    return seen


def test_a_learned_evaluation_is_taken_after_the_draws_not_before() -> None:
    game = load("sudokuhex")
    s = _a_position_to_search(game)
    hand_written = hints_for(game)
    # The hand-written evaluation takes chance nodes: its play-outs stop before a draw.
    assert hand_written.evaluate_chance
    assert "chance" in _kinds_evaluated(hand_written, game, s)
    learned = with_learned(hand_written, lambda g, x: [0.5] * g.num_players)
    assert _kinds_evaluated(learned, game, s) == {"decision"}
