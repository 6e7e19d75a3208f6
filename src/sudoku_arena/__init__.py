"""Sudoku Arena: five pencil-and-board Sudoku games as typed, pure rules engines.

Quick start::

    import sudoku_arena
    game = sudoku_arena.load("tic-tac-sudoku")
    state = game.initial_state()
    action = game.legal_actions(state, 0)[0]
    state = game.apply(state, action)
"""

# First: decides between the compiled and the pure modules before any is imported.
from sudoku_arena._build import build_description
from sudoku_arena.core import (
    Agent,
    ArenaError,
    Game,
    GameSpec,
    IllegalActionError,
    Match,
    NotationError,
    Outcome,
    Record,
    ToMove,
    load,
    registered_games,
    render_svg,
    render_text,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "ArenaError",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "Match",
    "NotationError",
    "Outcome",
    "Record",
    "ToMove",
    "__version__",
    "build_description",
    "load",
    "registered_games",
    "render_svg",
    "render_text",
    "replay",
]
