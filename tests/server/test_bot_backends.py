"""Where bots think: worker processes on this machine, or Ray tasks (``bots --backend
ray``). The seed decides the move, so the backend never changes what a bot plays."""

from __future__ import annotations

import asyncio

import pytest

from sudoku_arena.core.registry import load
from sudoku_arena.server.bots import BotRunner, BotSetupError

# A Ray instance is processes of its own: one such test at a time on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")


def _positions() -> list[tuple[dict[str, object], int]]:
    """A few Tic-Tac-Sudoku positions (state dump, seat to move) along a fixed line."""
    game = load("tic-tac-sudoku")
    state = game.initial_state()
    out: list[tuple[dict[str, object], int]] = []
    for _ in range(3):
        seat = game.to_move(state).players[0]
        out.append((game.dump_state(state), seat))
        state = game.apply(state, min(game.legal_actions(state, seat)), seat)
    return out


async def _moves(runner: BotRunner) -> list[str]:
    runner.start()
    try:
        return [
            await runner.think("tic-tac-sudoku", {}, state, seat, "normal", 1000 + i)
            for i, (state, seat) in enumerate(_positions())
        ]
    finally:
        runner.stop()


def test_a_bot_plays_the_same_moves_on_ray_as_in_local_workers() -> None:
    local = asyncio.run(_moves(BotRunner(1)))
    on_ray = asyncio.run(_moves(BotRunner(1, backend="ray")))
    assert on_ray == local
    game = load("tic-tac-sudoku")
    for (state, seat), text in zip(_positions(), local, strict=True):
        legal = game.legal_actions(game.load_state(state), seat)
        assert game.parse_action(text) in legal


def test_an_unknown_bot_backend_is_refused_with_the_choices() -> None:
    with pytest.raises(BotSetupError, match="allowed: local, ray"):
        BotRunner(1, backend="cluster")
