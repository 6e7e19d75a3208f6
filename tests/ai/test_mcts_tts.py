"""MCTS on Tic-Tac-Sudoku: tactics, reproducibility, speed of the fast path."""

from __future__ import annotations

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState

GRID = "438965217591278643762134598317542869245689731986713425829451376654397182173826954"

# Seat 1 (square) to move: 2 of its 16 placements win at once.
WIN_LINE = (
    "r7c5 r2c9 r9c8 r7c4 r5c3 r1c6 r1c5 r4c5 r4c4 r2c8 r9c6 r8c4 r7c9 r6c8 r6c4 r6c6 "
    "r5c4 r6c7 r6c9 r9c3 r3c7 r3c6 r8c3 r1c2 r4c1 r5c2 r7c2 r1c1 r2c3 r7c7 r9c1 r5c8 "
    "r2c4 r1c7 r9c5 r8c9 r5c9 r6c5 r5c6 r4c9 r5c5 r3c9 r4c7 r9c2 r7c8 r2c6"
)
# 6 of the mover's 7 placements let the opponent win with his reply.
BLOCK_LINE = (
    "r2c2 r6c7 r6c2 r2c8 r9c7 r5c3 r4c2 r8c3 r1c7 r1c2 r1c8 r2c9 r3c4 r8c9 r9c1 r3c5 "
    "r7c6 r6c8 r6c5 r7c2 r4c6 r2c3 r2c4 r7c3 r5c9 r3c8 r1c4 r1c3 r9c4 r2c6 r6c4 r8c5 "
    "r3c1 r7c1 r1c9 r3c9 r5c5 r4c9 r5c6 r4c7 r8c8"
)


def position(line: str, grid: str = GRID) -> tuple[TicTacSudoku, TTSState]:
    game = load("tic-tac-sudoku", grid=grid)
    s = game.initial_state()
    for text in line.split():
        s = game.apply(s, game.parse_action(text))
    return game, s


def winning_moves(game: TicTacSudoku, s: TTSState, p: int) -> list[int]:
    out = []
    for a in game.legal_actions(s, p):
        t = game.apply(s, a, p)
        if t.current < 0 and t.winner == p:
            out.append(a)
    return out


@pytest.mark.parametrize("spec", ["easy", "mcts:300", "normal"])
def test_takes_an_immediate_win(spec: str) -> None:
    game, s = position(WIN_LINE)
    p = s.current
    wins = winning_moves(game, s, p)
    assert 0 < len(wins) < len(game.legal_actions(s, p))
    for seed in range(3):
        assert make_agent(spec, game, seed=seed).act(game, s, p) in wins


@pytest.mark.parametrize("spec", ["easy", "mcts:500", "normal"])
def test_blocks_an_immediate_loss(spec: str) -> None:
    game, s = position(BLOCK_LINE)
    p, q = s.current, 1 - s.current
    assert not winning_moves(game, s, p)
    safe = [
        a
        for a in game.legal_actions(s, p)
        if not (game.apply(s, a, p).current == q and winning_moves(game, game.apply(s, a, p), q))
    ]
    assert 0 < len(safe) < len(game.legal_actions(s, p)) / 2
    for seed in range(3):
        assert make_agent(spec, game, seed=seed).act(game, s, p) in safe


def test_same_seed_same_move() -> None:
    game, s = position(" ".join(WIN_LINE.split()[:12]))
    p = s.current
    a1 = MCTSAgent(game, seed=11, arg="400")
    a2 = MCTSAgent(game, seed=11, arg="400")
    assert a1.act(game, s, p) == a2.act(game, s, p)
    assert a1.last is not None and a2.last is not None
    assert a1.last.stats == a2.last.stats
    # and a whole game between two seeded bots is reproducible
    logs = []
    for _ in range(2):
        m = Match(game, seed=5)
        m.run([make_agent("mcts:60", game, seed=1), make_agent("mcts:60", game, seed=2)])
        logs.append(m.log)
    assert logs[0] == logs[1]


def test_tts_hints_are_found_from_the_package() -> None:
    game = load("tic-tac-sudoku")
    hints = hints_for(game)
    assert hints.evaluate is not None and hints.step is not None
    assert hints.budget("easy").iterations < hints.budget("normal").iterations
    assert hints.budget("normal").iterations < hints.budget("hard").iterations
    v = hints.evaluate(game, game.initial_state())
    assert len(v) == 2 and all(0.0 <= x <= 1.0 for x in v)
