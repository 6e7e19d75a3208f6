"""The weights shipped in the package: they load against the game's present features,
they were made by ``sudoku-arena train``, and the levels that players choose play with
them (``normal``, ``hard``) where the table has the two seats the weights are for."""

from __future__ import annotations

import pytest

import sudoku_arena
from sudoku_arena.ai import make_agent
from sudoku_arena.ai.features import features_for
from sudoku_arena.ai.learned import LearnedAgent, ships_weights
from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.ai.value import package_weights

#: The games that ship weights (docs/bots.md, "Status").
SHIPPED = ["tic-tac-sudoku", "sudoku-warriors"]


@pytest.mark.parametrize("game_id", SHIPPED)
def test_shipped_weights_load_and_match_the_features(game_id: str) -> None:
    game = sudoku_arena.load(game_id, seed=1)
    features = features_for(game)
    net = package_weights(game, features)
    assert net is not None and ships_weights(game)
    assert net.inputs == features.size
    assert net.meta["game"] == game_id and net.meta["features"] == features.version
    assert str(net.meta["command"]).startswith(f"sudoku-arena train {game_id} ")


@pytest.mark.parametrize("game_id", SHIPPED)
def test_normal_and_hard_play_with_the_shipped_weights(game_id: str) -> None:
    game = sudoku_arena.load(game_id, seed=1)
    for level in ("normal", "hard"):
        bot = make_agent(level, game, seed=2)
        assert isinstance(bot, LearnedAgent) and not bot.fallback
        assert bot.source == "the weights shipped with the game"
        assert type(make_agent(f"mcts:{level}", game, seed=2)) is MCTSAgent
    assert type(make_agent("easy", game, seed=2)) is MCTSAgent


def test_three_player_sudoku_warriors_plays_the_hand_written_search() -> None:
    """The Sudoku Warriors weights are for two seats: at a table of three, ``normal`` is
    the plain search (not a learned bot that falls back and warns on every process)."""
    game = sudoku_arena.load("sudoku-warriors", seed=1, players=3)
    assert not ships_weights(game)
    for level in ("normal", "hard"):
        assert type(make_agent(level, game, seed=2)) is MCTSAgent
